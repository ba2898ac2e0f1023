package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Time-driven channels: exchanges are released on the period's clock, and late completions are counted. */
@Timeout(60)
class ChannelQosTest {
    private static final Duration PERIOD = Duration.ofMillis(25);
    private static final Duration DEADLINE = Duration.ofMillis(10);
    private static final long SLACK = Duration.ofMillis(1).toNanos();

    /**
     * Rank 2 submits exchanges 3 and 7 two periods late: both complete after their deadline on every rank (misses
     * counted), the data stays intact, and a fast rank is paced by the clock (no exchange before its release).
     */
    @Test
    void shouldPaceExchangesAndCountTheLateOnes() {
        final int exchanges = 10;
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> {
            final ChannelQos qos = ChannelQos.timeDriven(PERIOD, DEADLINE);
            try (AlltoallChannel ch = AlltoallChannel.create(w, "clock", Datatype.LONG, 16, 2, qos)) {
                assertEquals(qos, ch.qos());
                int early = 0;
                final long t0 = ch.clockOrigin(); // exchange k is released at t0 + k * PERIOD
                for (int k = 0; k < exchanges; k++) {
                    final ChannelBuffer out = ch.takeSend();
                    ChannelData.fill(out, k, w.rank());
                    if (2 == w.rank() && (3 == k || 7 == k)) {
                        Thread.sleep(2 * PERIOD.toMillis());
                    }
                    if (k > 0 && System.nanoTime() - t0 < k * PERIOD.toNanos() - SLACK) { // before k's release
                        early++;
                        assertFalse(ch.trySubmit(out), "exchange " + k + " started before its release time");
                    }
                    ch.submit(out);
                    assertTrue(System.nanoTime() - t0 >= k * PERIOD.toNanos(), "exchange " + k + " early");
                    final ChannelBuffer in = ch.takeReceive();
                    ChannelData.check(in, k, w.rank());
                    ch.release(in);
                }
                assertTrue(early > 0, "never ahead of the clock");
                final ChannelStats s = ch.stats();
                assertEquals(exchanges, s.exchanges());
                assertTrue(s.deadlineMisses() >= 2 && s.deadlineMisses() <= exchanges, s.toString());
                assertTrue(s.maxLatency().toMillis() >= PERIOD.toMillis() || 2 == w.rank(), s.toString());
            }
        });
    }
}
