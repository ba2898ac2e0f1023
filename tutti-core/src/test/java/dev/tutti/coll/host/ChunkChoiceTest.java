package dev.tutti.coll.host;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The votes of {@link ChunkChoice}: its probes by call number, a road's first run not counted, and otherwise the
 * road whose lower of its last two figures is the lower.
 */
class ChunkChoiceTest {
    private static final long BYTES = 100_000;

    /** Runs calls 0-3 of a group (the first runs of both roads, then one counted run of each). */
    private static ChunkChoice warmed(final long chunkNanos, final long messageNanos) {
        final ChunkChoice c = new ChunkChoice();
        assertTrue(c.vote(BYTES), "call 0 agrees the chunk area");
        c.chunksTook(BYTES, 1_000_000_000); // a first run: not counted
        assertFalse(c.vote(BYTES), "call 1 tries the message layer");
        c.messagesTook(BYTES, 1_000_000_000);
        assertTrue(c.vote(BYTES), "call 2: the chunks again");
        c.chunksTook(BYTES, chunkNanos);
        assertFalse(c.vote(BYTES), "call 3: the message layer again");
        c.messagesTook(BYTES, messageNanos);
        return c;
    }

    @Test
    void shouldProbeBothRoadsByCallNumberWhateverTheCosts() {
        final ChunkChoice c = warmed(1_000_000, 100_000); // chunks 10 ns/B, messages 1 ns/B
        for (long i = 4; i < 3 * ChunkChoice.PROBE; i++) {
            final long phase = i % ChunkChoice.PROBE;
            assertEquals(ChunkChoice.PROBE / 2 == phase, c.vote(BYTES), "call " + i + ": the chunks cost more");
        }
    }

    @Test
    void shouldNotCountARoadsFirstRunAndVoteForTheCheaperRoad() {
        final ChunkChoice c = warmed(100_000, 200_000);
        assertTrue(c.vote(BYTES), "call 4: the chunks cost less (their first run, 10000 ns/B, is not counted)");
        c.chunksTook(BYTES, 1_000_000);
        assertTrue(c.vote(BYTES), "call 5: one slow figure does not turn the road");
        c.chunksTook(BYTES, 1_000_000);
        assertFalse(c.vote(BYTES), "call 6: two do");
    }

    @Test
    void shouldKeepEachSizeToItsGroup() {
        assertEquals(13, ChunkChoice.group(8193));
        assertEquals(14, ChunkChoice.group(16384));
        final ChunkChoice c = new ChunkChoice();
        assertTrue(c.vote(16384));
        assertTrue(c.vote(1 << 20), "the first call of another size is its own call 0");
        assertFalse(c.vote(20000), "call 1 of the 16 KiB group");
    }
}
