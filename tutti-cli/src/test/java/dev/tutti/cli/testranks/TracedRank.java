package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;

/**
 * A rank program for {@code TraceProcessTest}: a known mix of calls to find in the trace and the profile. Per rank:
 * {@link #ALLREDUCES} blocking allreduces of 8 bytes, one barrier, one bcast from rank 1, one iallreduce,
 * {@link #PERSISTENT} starts of one persistent allreduce, a ring of sends and receives ({@link #RING} rounds), and
 * {@link #EXCHANGES} exchanges of an alltoall channel named {@code traced}; prints {@code traced OK on N ranks}.
 */
public final class TracedRank {
    /** Blocking allreduces per rank. */
    public static final int ALLREDUCES = 20;
    /** Starts of the persistent allreduce per rank. */
    public static final int PERSISTENT = 5;
    /** Rounds of the point-to-point ring per rank. */
    public static final int RING = 3;
    /** Exchanges of the channel per rank. */
    public static final int EXCHANGES = 4;

    private TracedRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int r = w.rank();
            final int n = w.size();
            final long[] sum = new long[1];
            for (int i = 0; i < ALLREDUCES; i++) {
                w.allreduce(Buf.of(new long[] {r + i}), Buf.of(sum), Op.SUM);
                check(sum[0] == (long) n * (n - 1) / 2 + (long) n * i, "allreduce " + i + ": " + sum[0]);
            }
            w.barrier();
            final int[] b = {1 == r ? 45 : 0};
            w.bcast(Buf.of(b), 1);
            check(45 == b[0], "bcast " + b[0]);
            final Request ir = w.iallreduce(Buf.of(new long[] {1}), Buf.of(sum), Op.SUM);
            ir.waitFor();
            check(n == sum[0], "iallreduce " + sum[0]);
            final long[] in = new long[1];
            final long[] out = new long[1];
            try (PersistentRequest p = w.allreduceInit(Buf.of(in), Buf.of(out), Op.SUM)) {
                for (int i = 0; i < PERSISTENT; i++) {
                    in[0] = i;
                    p.start();
                    p.waitFor();
                    check(out[0] == (long) n * i, "persistent allreduce " + i + ": " + out[0]);
                }
            }
            final byte[] token = new byte[64];
            for (int i = 0; i < RING; i++) {
                final Request rr = w.irecv(Buf.of(token), (r + n - 1) % n, 7);
                w.send(Buf.of(new byte[64]), (r + 1) % n, 7);
                rr.waitFor();
            }
            try (AlltoallChannel ch = AlltoallChannel.create(w, "traced", Datatype.INT, 16, 2)) {
                for (int i = 0; i < EXCHANGES; i++) {
                    final ChannelBuffer s = ch.takeSend();
                    java.util.Arrays.fill(s.ints(), i);
                    ch.submit(s);
                    final ChannelBuffer got = ch.takeReceive();
                    check(i == got.ints()[0], "exchange " + i + ": " + got.ints()[0]);
                    ch.release(got);
                }
            }
            w.barrier();
            if (0 == r) {
                System.out.println("traced OK on " + n + " ranks");
            }
        }
    }

    private static void check(final boolean ok, final String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }
}
