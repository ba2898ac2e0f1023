package dev.tutti.coll.host;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The votes of {@link ChunkChoice}: its probes by call number, and otherwise the road of the lower cost. */
class ChunkChoiceTest {
    private static final long BYTES = 100_000;

    @Test
    void shouldProbeBothRoadsByCallNumberWhateverTheCosts() {
        final ChunkChoice c = new ChunkChoice();
        assertTrue(c.vote(BYTES), "call 0 agrees the chunk area");
        assertFalse(c.vote(BYTES), "call 1 times the message layer");
        c.chunksTook(BYTES, 1_000_000); // 10 ns/B
        c.messagesTook(BYTES, 100_000); // 1 ns/B
        for (long i = 2; i < 3 * ChunkChoice.PROBE; i++) {
            final long phase = i % ChunkChoice.PROBE;
            assertEquals(ChunkChoice.PROBE / 2 == phase, c.vote(BYTES), "call " + i + ": the chunks cost more");
        }
    }

    @Test
    void shouldVoteForTheCheaperRoadAsTheCostsMove() {
        final ChunkChoice c = new ChunkChoice();
        c.vote(BYTES);
        c.vote(BYTES);
        c.chunksTook(BYTES, 100_000);
        c.messagesTook(BYTES, 200_000);
        assertTrue(c.vote(BYTES), "call 2: the chunks cost less");
        // The chunks turn slow: each figure moves the smoothed cost a quarter of the way.
        for (int i = 0; i < 3; i++) {
            c.chunksTook(BYTES, 1_000_000);
        }
        assertFalse(c.vote(BYTES), "call 3: the chunks now cost more");
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
