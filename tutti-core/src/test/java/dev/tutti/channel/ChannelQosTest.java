package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Time-driven channels: exchange k starts at its tick, t0 + (k + 1) * period, with whatever each rank submitted
 * by then (a rank that submitted nothing sends zeros and its block is marked stale); exchanges that complete after
 * their deadline are counted.
 */
@Timeout(60)
class ChannelQosTest {
    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final Duration DEADLINE = Duration.ofMillis(10);
    private static final int BLOCK = 16;
    private static final int STEPS = 16;
    private static final int SLOW = 2;

    /** Element i of the block src sends dst at step s (s >= 0): never 0, and it names its step. */
    private static long value(final int step, final int src, final int dst, final int i) {
        return ChannelData.value(step, src, dst, i) + 1;
    }

    /**
     * Rank 2 sleeps five periods before its submits of steps 4 and 10. Its exchanges still start on the clock: with
     * the zero-filled idle buffer while it has submitted nothing (the others see its block stale), and late once
     * its two receive buffers are full (misses counted on every rank). Every fresh block is whole and from a later
     * step of its sender than the one before it (nothing mixed, repeated or overwritten); every stale block is all
     * zeros; no exchange completes before its tick.
     */
    @Test
    void shouldStartOnTheClockWithWhateverEachRankSubmittedAndCountMisses() {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> {
            final int me = w.rank();
            final ChannelQos qos = ChannelQos.timeDriven(PERIOD, DEADLINE);
            final AlltoallChannel ch = AlltoallChannel.create(w, "clock", Datatype.LONG, BLOCK, 2, qos);
            final long t0 = ch.clockOrigin();
            final int[] lastStep = new int[3];
            Arrays.fill(lastStep, -1);
            final int[] stale = new int[3];
            for (int step = 0; step < STEPS; step++) {
                final ChannelBuffer out = ch.takeSend();
                final long[] x = out.longs();
                for (int d = 0; d < 3; d++) {
                    for (int i = 0; i < BLOCK; i++) {
                        x[d * BLOCK + i] = value(step, me, d, i);
                    }
                }
                if (SLOW == me && (4 == step || 10 == step)) {
                    Thread.sleep(5 * PERIOD.toMillis());
                }
                assertTrue(ch.trySubmit(out), "a time-driven submit only queues");
                final ChannelBuffer in = ch.takeReceive();
                assertEquals(step, in.exchange(), "exchanges come in order, one per take");
                assertTrue(System.nanoTime() - t0 >= (step + 1) * PERIOD.toNanos(), "exchange " + step
                    + " completed before its tick");
                final long[] y = in.longs();
                for (int s = 0; s < 3; s++) {
                    if (!in.fresh(s)) {
                        stale[s]++;
                        for (int i = 0; i < BLOCK; i++) {
                            assertEquals(0, y[s * BLOCK + i], "stale block of " + s + " in exchange " + step);
                        }
                        continue;
                    }
                    final int sent = (int) ((y[s * BLOCK] - value(0, s, me, 0)) / 1_000_003L);
                    if (sent <= lastStep[s] || sent > step) {
                        fail("exchange " + step + ": the block of rank " + s + " is its step " + sent
                            + ", after step " + lastStep[s]);
                    }
                    lastStep[s] = sent;
                    for (int i = 0; i < BLOCK; i++) {
                        assertEquals(value(sent, s, me, i), y[s * BLOCK + i], "exchange " + step + " block of " + s);
                    }
                }
                ch.release(in);
            }
            final ChannelStats stats = ch.stats();
            w.barrier();
            ch.close(Duration.ofMillis(200)); // later ticks may have started on some ranks only: abandoned
            assertTrue(stale[SLOW] >= 2, "rank " + me + " saw " + stale[SLOW] + " stale blocks of the slow rank");
            assertTrue(stats.deadlineMisses() >= 1, "rank " + me + ": " + stats);
            assertTrue(stats.exchanges() >= STEPS, stats.toString());
        });
    }

    /** A best-effort channel's blocks are always fresh; fresh() refuses send buffers and ranks out of range. */
    @Test
    void shouldMarkEveryBlockOfABestEffortChannelFresh() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "fresh", Datatype.INT, 2, 1)) {
                final ChannelBuffer out = ch.takeSend();
                final TuttiException send = assertThrows(
                    TuttiException.class, () -> out.fresh(0));
                assertTrue(send.getMessage().contains("expected a receive buffer"), send.getMessage());
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                assertTrue(in.fresh(0) && in.fresh(1));
                final TuttiException range = assertThrows(
                    TuttiException.class, () -> in.fresh(2));
                assertEquals(ErrorClass.RANK, range.errorClass());
                ch.release(in);
            }
        });
    }
}
