package dev.tutti.transport.shm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ShmRing#warmUp} runs records through a scratch ring in a rank's unused channel to itself: it must stay
 * within its footprint, leave that ring empty and zeroed (a consistent ring), and the footprint must lie inside the
 * self-channel for every layout, so that it never touches another pair's channel.
 */
class ShmRingWarmUpTest {
    private static final byte GUARD = (byte) 0xA5;

    @Test
    void shouldStayInItsFootprintAndLeaveTheScratchRingEmptyAndZeroed() {
        final long guard = 4096;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mem = arena.allocate(guard + ShmRing.WARM_UP_FOOTPRINT + guard, 4096);
            mem.fill(GUARD);
            mem.asSlice(guard, ShmRing.WARM_UP_FOOTPRINT).fill((byte) 0); // a fresh file is zero

            ShmRing.warmUp(mem, guard, ShmRing.WARM_UP_RECORDS);

            for (long i = 0; i < guard; i++) {
                assertEquals(GUARD, mem.get(ValueLayout.JAVA_BYTE, i), "byte before the footprint at " + i);
                assertEquals(GUARD, mem.get(ValueLayout.JAVA_BYTE, guard + ShmRing.WARM_UP_FOOTPRINT + i),
                    "byte after the footprint at " + i);
            }
            final long tail = mem.get(ValueLayout.JAVA_LONG, guard + ShmLayoutDescriptor.RING_TAIL);
            final long head = mem.get(ValueLayout.JAVA_LONG, guard + ShmLayoutDescriptor.RING_HEAD);
            assertEquals(tail, head, "every claimed record consumed and released");
            assertTrue(tail > 10 * ShmRing.WARM_UP_BYTES, "the ring wrapped many times: tail=" + tail);
            for (long i = 0; i < ShmRing.WARM_UP_BYTES; i++) {
                assertEquals(0, mem.get(ValueLayout.JAVA_BYTE, guard + ShmLayoutDescriptor.RING_DATA + i),
                    "data byte " + i + " zeroed");
            }
            final ShmRing again = new ShmRing(mem, guard, ShmRing.WARM_UP_BYTES);
            assertEquals(0, again.peek(), "nothing left to read");
        }
    }

    @Test
    void shouldPlaceTheScratchRingInsideTheRanksOwnUnusedChannel() {
        for (final int ranks : new int[] {1, 2, 5}) {
            for (final long chunkBytes : new long[] {64, 64 * 1024}) {
                for (final int chunks : new int[] {1, 64}) {
                    final ShmLayoutDescriptor layout = new ShmLayoutDescriptor(ranks, 4096, chunkBytes, chunks, 4096);
                    for (int r = 0; r < ranks; r++) {
                        final long at = layout.warmUpRing(r);
                        assertEquals(layout.channel(r, r), at, "rank " + r + " of " + layout);
                        assertTrue(ShmRing.WARM_UP_FOOTPRINT <= layout.channelStride,
                            "footprint within the channel's stride: " + layout);
                    }
                }
            }
        }
    }
}
