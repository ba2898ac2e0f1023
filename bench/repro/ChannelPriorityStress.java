import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A stress program for channels of several priorities between processes: four channels on every rank, each driven
 * by its own thread, so that each thread's waits advance the other channels' exchanges (prioritized ones first) while
 * their own threads wait on them too. Every element of every exchange is checked; an exchange that does not complete
 * in 10 s fails the job, naming the channel and the exchange.
 *
 * <ul>
 * <li>{@code high}: priority 9, 64 B blocks: the one-copy window, registered in the rank's priority order;</li>
 * <li>{@code mid}: priority 3, 32 B blocks: persistent alltoalls through shared-memory slots;</li>
 * <li>{@code low}: best effort, 256 B blocks: the window, outranked while the others are in flight;</li>
 * <li>{@code tiny}: best effort, 8 B blocks: slots.</li>
 * </ul>
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/stress bench/repro/ChannelPriorityStress.java
 * bin/tutti run -n 3 --timeout 300 -cp /tmp/stress ChannelPriorityStress 20000
 * bin/tutti run -n 3 --timeout 300 -cp /tmp/stress ChannelPriorityStress 20000 jitter
 * </pre>
 * With {@code jitter}, each thread pauses for a random few microseconds before one exchange in 64 (submits and takes
 * then meet in ever different orders and at different times on each rank).
 */
public final class ChannelPriorityStress {
    private static final long WAIT_S = 10;

    private ChannelPriorityStress() {
    }

    public static void main(final String[] args) throws Exception {
        final int exchanges = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        final boolean jitter = args.length > 1 && "jitter".equals(args[1]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final List<AlltoallChannel> channels = List.of(
                AlltoallChannel.create(w, "high", Datatype.LONG, 8, 2, ChannelQos.priority(9)),
                AlltoallChannel.create(w, "mid", Datatype.LONG, 4, 1, ChannelQos.priority(3)),
                AlltoallChannel.create(w, "low", Datatype.LONG, 32, 3),
                AlltoallChannel.create(w, "tiny", Datatype.LONG, 1, 1));
            final List<Thread> threads = new ArrayList<>();
            final Throwable[] failure = new Throwable[1];
            for (final AlltoallChannel ch : channels) {
                threads.add(Thread.ofPlatform().name("drive-" + ch.name()).start(() -> {
                    try {
                        drive(ch, w.rank(), w.size(), exchanges, jitter);
                    } catch (final Throwable e) {
                        synchronized (failure) {
                            failure[0] = null == failure[0] ? e : failure[0];
                        }
                    }
                }));
            }
            for (final Thread th : threads) {
                th.join();
            }
            if (null != failure[0]) {
                throw new AssertionError("rank " + w.rank() + " failed", failure[0]);
            }
            long shared = 0;
            for (final AlltoallChannel ch : channels) {
                shared += ch.stats().exchanges();
                ch.close();
            }
            w.barrier();
            if (0 == w.rank()) {
                System.out.println("ok: " + channels.size() + " channels x " + exchanges + " exchanges on " + w.size()
                    + " ranks, every element checked (" + shared + " exchanges on rank 0)");
            }
        }
    }

    /** Element i of the block src sends dst in exchange k of a channel. */
    private static long value(final long k, final int src, final int dst, final int i) {
        return (k << 24) ^ ((long) src << 16) ^ ((long) dst << 8) ^ i;
    }

    private static void drive(final AlltoallChannel ch, final int me, final int p, final int exchanges,
        final boolean jitter) {
        final int depth = ch.depth();
        final SplittableRandom random = new SplittableRandom(ch.name().hashCode() * 31L + me);
        for (int k = 0; k < exchanges + depth - 1; k++) {
            if (jitter && 0 == random.nextInt(64)) {
                LockSupport.parkNanos(random.nextInt(1, 20_000));
            }
            if (k < exchanges) {
                final ChannelBuffer out = ch.takeSend();
                final long[] a = out.longs();
                final int block = out.blockCount();
                for (int d = 0; d < p; d++) {
                    for (int i = 0; i < block; i++) {
                        a[d * block + i] = value(k, me, d, i);
                    }
                }
                ch.submit(out);
            }
            if (k >= depth - 1) {
                final long n = k - (depth - 1);
                final ChannelBuffer in = ch.takeReceive(WAIT_S, TimeUnit.SECONDS);
                if (null == in) {
                    throw new AssertionError(ch.name() + ": exchange " + n + " did not complete in " + WAIT_S + " s");
                }
                final MemorySegment seg = in.buf().segment();
                final int block = in.blockCount();
                for (int s = 0; s < p; s++) {
                    for (int i = 0; i < block; i++) {
                        final long got = seg.getAtIndex(ValueLayout.JAVA_LONG, (long) s * block + i);
                        if (got != value(n, s, me, i)) {
                            throw new AssertionError(ch.name() + ": exchange " + n + " block of " + s + " element " + i
                                + ": " + got + ", expected " + value(n, s, me, i));
                        }
                    }
                }
                ch.release(in);
            }
        }
    }
}
