package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Time-driven channels: exchange k starts at its tick, t0 + (k + 1) * period, with whatever each rank submitted
 * by then (a rank that submitted nothing sends zeros and its block is marked stale); exchanges that complete after
 * their deadline are counted.
 */
@Timeout(60)
class ChannelQosTest {
    /**
     * Rank 2 of 3 is deliberately slow ({@link TimeDrivenRun}): its exchanges still start on the clock, the others
     * see its blocks stale, misses are counted, and no block is corrupted; between threads of one JVM its blocks
     * take one copy, through the window.
     */
    @Test
    void shouldStartOnTheClockWithWhateverEachRankSubmittedAndCountMisses() {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> TimeDrivenRun.run(w, 2, true));
    }

    /** A best-effort channel's blocks are always fresh; fresh() refuses send buffers and ranks out of range. */
    @Test
    void shouldMarkEveryBlockOfABestEffortChannelFresh() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "fresh", Datatype.INT, 2, 1)) {
                final ChannelBuffer out = ch.takeSend();
                final TuttiException send = assertThrows(TuttiException.class, () -> out.fresh(0));
                assertTrue(send.getMessage().contains("expected a receive buffer"), send.getMessage());
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                assertTrue(in.fresh(0) && in.fresh(1));
                final TuttiException range = assertThrows(TuttiException.class, () -> in.fresh(2));
                assertEquals(ErrorClass.RANK, range.errorClass());
                ch.release(in);
            }
        });
    }
}
