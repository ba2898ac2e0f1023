package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * {@code alltoall_channel}: the exchange of {@code alltoall} (a block of {@code bytes} bytes from every rank to
 * every rank) run as one exchange of an alltoall channel, for comparison with the per-call form in one run. Each
 * size gets its own channel of depth 1 (created in {@link #prepare}, untimed), confined to the rank's thread as a
 * single-threaded program's would be ({@link ChannelQos#confined()}); a timed call releases the previous
 * receive buffer, submits the send buffer, takes the receive buffer and takes the send buffer back, so that the
 * data pattern written once stays in place as in {@code alltoall}'s reused arrays.
 *
 * <p>Data: as {@link Alltoall}; a new channel's receive buffer starts zeroed, so a block never written fails the
 * check.
 */
public final class ChannelAlltoall extends CollectiveBenchmark {
    /** The operation name. */
    public static final String OP = "alltoall_channel";

    private AlltoallChannel channel;
    private ChannelBuffer out;
    private ChannelBuffer in;

    @Override
    public String op() {
        return OP;
    }

    @Override
    public String title() {
        return "channel exchange latency, bytes per pair";
    }

    /** A channel's exchanges are alltoall schedules: {@code --algorithm} forces alltoall's. */
    @Override
    public String algorithmOp() {
        return Alltoall.Kind.ALLTOALL.op();
    }

    @Override
    public int[] sizes(final int[] requested, final int ranks) {
        return Arrays.stream(requested).filter(b -> b > 0).toArray();
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        // each size's channel allocates its own ring in prepare
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        if (null != channel) {
            channel.close();
        }
        channel = AlltoallChannel.create(world, OP, Datatype.BYTE, bytes, 1, ChannelQos.bestEffort().confined());
        in = null;
        out = channel.takeSend();
        final int p = world.size();
        // Filled through its segment, not bytes(): over shm, large blocks' send buffers live in the shared arena,
        // whence the receiver copies them once, and an array accessor would move the buffer to the heap for good.
        final MemorySegment target = out.buf().segment();
        final byte[] block = new byte[bytes];
        for (int r = 0; r < p; r++) {
            Patterns.fill(block, 0, bytes, world.rank() * p + r);
            MemorySegment.copy(block, 0, target, ValueLayout.JAVA_BYTE, (long) r * bytes, bytes);
        }
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        if (null != in) {
            channel.release(in);
        }
        channel.submit(out);
        in = channel.takeReceive();
        out = channel.takeSend();
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        final int p = world.size();
        final int rank = world.rank();
        for (int s = 0; s < p; s++) {
            Patterns.check(OP, rank, in.bytes(), s * bytes, bytes, s * p + rank, "rank " + s);
        }
    }
}
