package dev.tutti.channel;

import dev.tutti.Communicator;
import dev.tutti.Datatype;

import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A time-driven channel with a deliberately slow rank, every element checked; run by the inproc QoS test and over
 * the process transports (dev.tutti.ChannelTransportTest).
 */
public final class TimeDrivenRun {
    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final Duration DEADLINE = Duration.ofMillis(10);
    private static final int BLOCK = 16;
    private static final int STEPS = 16;

    private TimeDrivenRun() {
    }

    /** Element i of the block src sends dst at step s (s >= 0): never 0, and it names its step. */
    private static long value(final int step, final int src, final int dst, final int i) {
        return ChannelData.value(step, src, dst, i) + 1;
    }

    /**
     * Rank {@code slow} sleeps five periods before its submits of steps 4 and 10. Its exchanges still start on the
     * clock: with the zero-filled idle buffer while it has submitted nothing (the others see its block stale), and
     * late once its two receive buffers are full (misses counted on every rank). Every fresh block is whole and
     * from a later step of its sender than the one before it (nothing mixed, repeated or overwritten); every stale
     * block is all zeros; no exchange completes before its tick.
     *
     * @param w      the communicator (collective over it)
     * @param slow   the slow rank
     * @param shared whether every receive buffer must be one the senders wrote in shared memory (the one-copy
     *               path), or must not be
     * @throws InterruptedException if the slow rank's sleep is interrupted
     */
    public static void run(final Communicator w, final int slow, final boolean shared) throws InterruptedException {
        final int me = w.rank();
        final int p = w.size();
        final AlltoallChannel ch = AlltoallChannel.create(w, "clock", Datatype.LONG, BLOCK, 2,
            ChannelQos.timeDriven(PERIOD, DEADLINE));
        final long t0 = ch.clockOrigin();
        final int[] lastStep = new int[p];
        Arrays.fill(lastStep, -1);
        final int[] stale = new int[p];
        for (int step = 0; step < STEPS; step++) {
            final ChannelBuffer out = ch.takeSend();
            final long[] x = out.longs();
            for (int d = 0; d < p; d++) {
                for (int i = 0; i < BLOCK; i++) {
                    x[d * BLOCK + i] = value(step, me, d, i);
                }
            }
            if (slow == me && (4 == step || 10 == step)) {
                Thread.sleep(5 * PERIOD.toMillis());
            }
            assertTrue(ch.trySubmit(out), "a time-driven submit only queues");
            final ChannelBuffer in = ch.takeReceive();
            assertEquals(step, in.exchange(), "exchanges come in order, one per take");
            assertEquals(shared, in.isShared(), "the one-copy path");
            assertTrue(System.nanoTime() - t0 >= (step + 1) * PERIOD.toNanos(), "exchange " + step
                + " completed before its tick");
            check(in, step, me, lastStep, stale);
            ch.release(in);
        }
        final ChannelStats stats = ch.stats();
        w.barrier();
        ch.close(Duration.ofMillis(200)); // later ticks may have started on some ranks only: abandoned
        assertTrue(stale[slow] >= 2, "rank " + me + " saw " + stale[slow] + " stale blocks of the slow rank");
        assertTrue(stats.deadlineMisses() >= 1, "rank " + me + ": " + stats);
        assertTrue(stats.exchanges() >= STEPS, stats.toString());
    }

    private static void check(final ChannelBuffer in, final int step, final int me, final int[] lastStep,
        final int[] stale) {
        final long[] y = in.longs();
        for (int s = 0; s < in.ranks(); s++) {
            if (!in.fresh(s)) {
                stale[s]++;
                for (int i = 0; i < BLOCK; i++) {
                    assertEquals(0, y[s * BLOCK + i], "stale block of " + s + " in exchange " + step);
                }
                continue;
            }
            final int sent = (int) ((y[s * BLOCK] - value(0, s, me, 0)) / 1_000_003L);
            if (sent <= lastStep[s] || sent > step) {
                fail("exchange " + step + ": the block of rank " + s + " is its step " + sent + ", after step "
                    + lastStep[s]);
            }
            lastStep[s] = sent;
            for (int i = 0; i < BLOCK; i++) {
                assertEquals(value(sent, s, me, i), y[s * BLOCK + i], "exchange " + step + " block of " + s);
            }
        }
    }
}
