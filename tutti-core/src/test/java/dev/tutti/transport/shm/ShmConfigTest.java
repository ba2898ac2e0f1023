package dev.tutti.transport.shm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Chunk slots per pair: set, or chosen by job size within the channel budget. */
class ShmConfigTest {
    private static ShmConfig chunks(final int chunkBytes, final int count) {
        return ShmConfig.fromConfiguration().withChunks(chunkBytes, count);
    }

    @Test
    void shouldHoldAWhole4MiBMessagePerPairInSmallJobs() {
        for (final int ranks : new int[] {1, 2, 4, 8}) {
            assertEquals(64, chunks(64 << 10, 0).chunksPerChannel(ranks), "ranks=" + ranks);
        }
    }

    @Test
    void shouldKeepLargeJobsWithinTheBudgetButNeverBelowEightSlots() {
        // 16 ranks: 240 pairs; 256 MiB / (240 x 64 KiB) = 17 slots.
        assertEquals(17, chunks(64 << 10, 0).chunksPerChannel(16));
        assertEquals(8, chunks(64 << 10, 0).chunksPerChannel(64));
        for (int ranks = 2; ranks <= 24; ranks++) {
            final int slots = chunks(64 << 10, 0).chunksPerChannel(ranks);
            final long total = (long) ranks * (ranks - 1) * slots * (64 << 10);
            assertTrue(total <= ShmConfig.CHANNEL_BUDGET_BYTES || 8 == slots, "ranks=" + ranks);
        }
    }

    @Test
    void shouldScaleWithTheChunkSize() {
        assertEquals(21, chunks(1 << 20, 0).chunksPerChannel(4)); // 256 MiB / (12 pairs x 1 MiB) = 21
    }

    @Test
    void shouldUseTheSetCountWhateverTheJobSize() {
        assertEquals(3, chunks(64 << 10, 3).chunksPerChannel(2));
        assertEquals(100, chunks(64 << 10, 100).chunksPerChannel(64));
    }
}
