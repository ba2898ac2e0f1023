package dev.tutti.transport.shm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The shared arena's allocator against a model: blocks handed out never overlap one another, each keeps the bytes
 * written into it until it is freed, and freeing everything gives the whole arena back in one piece. Slots of
 * persistent collectives, channel windows and shared buffers all live in it, so an overlap is a silent corruption of
 * someone's messages (a first-fit bug once let a slot block and a window's landing zones share bytes, and a
 * persistent allreduce hung on an acknowledgement that a channel had overwritten).
 */
class SharedArenaTest {
    private static final long BASE = 4096;
    private static final long BYTES = 64 * 1024;

    private record Live(MemorySegment block, long at, long length, byte mark) {
    }

    @Test
    void shouldNeverHandOutOverlappingBlocksThroughRandomAllocationsAndFrees() {
        for (long seed = 1; seed <= 40; seed++) {
            run(seed, 3_000);
        }
    }

    @Test
    void shouldSplitTheFirstFitAndKeepTheRestOfItsRangeFree() {
        try (Arena mem = Arena.ofConfined()) {
            final MemorySegment file = mem.allocate(BASE + BYTES, 64);
            final SharedArena arena = new SharedArena(file, BASE, BYTES);
            // Holes of 64, 192, 320 and 448 bytes between live blocks, then the tail: several free ranges, so that
            // the one first fit takes is an inner node of the free map.
            final List<MemorySegment> holes = new ArrayList<>();
            final List<MemorySegment> keep = new ArrayList<>();
            for (final long hole : new long[] {64, 192, 320, 448, 576, 704}) {
                holes.add(arena.allocate(hole));
                keep.add(arena.allocate(64));
            }
            holes.forEach(arena::free);
            final MemorySegment a = arena.allocate(128); // first fit: the 192-byte hole, 64 bytes of it left
            assertEquals(BASE + 128, arena.offsetOf(a));
            final MemorySegment b = arena.allocate(192); // the 64 left are too few: the 320-byte hole
            assertEquals(BASE + 384, arena.offsetOf(b));
            final MemorySegment c = arena.allocate(64); // the first hole, exactly
            assertEquals(BASE, arena.offsetOf(c));
            final MemorySegment d = arena.allocate(64); // what the 192-byte hole has left
            assertEquals(BASE + 256, arena.offsetOf(d));
            final MemorySegment e = arena.allocate(128); // what the 320-byte hole has left
            assertEquals(BASE + 576, arena.offsetOf(e));
            for (final MemorySegment x : List.of(a, b, c, d, e)) {
                for (final MemorySegment k : keep) {
                    assertTrue(arena.offsetOf(k) + 64 <= arena.offsetOf(x)
                        || arena.offsetOf(x) + x.byteSize() <= arena.offsetOf(k), "block at " + arena.offsetOf(x)
                        + " overlaps the live block at " + arena.offsetOf(k));
                }
            }
        }
    }

    @Test
    void shouldRefuseWhatDoesNotFitAndForeignOrRepeatedFrees() {
        try (Arena mem = Arena.ofConfined()) {
            final MemorySegment file = mem.allocate(BASE + BYTES, 64);
            final SharedArena arena = new SharedArena(file, BASE, BYTES);
            assertNull(arena.allocate(BYTES + 1));
            final MemorySegment all = arena.allocate(BYTES);
            assertNotNull(all);
            assertNull(arena.allocate(1));
            assertFalse(arena.free(mem.allocate(64)), "not a block of the arena");
            assertFalse(arena.free(all.asSlice(64)), "not the start of a block");
            assertTrue(arena.free(all));
            assertFalse(arena.free(all), "freed twice");
            assertNotNull(arena.allocate(BYTES), "the whole arena is free again");
        }
    }

    private static void run(final long seed, final int steps) {
        final Random rnd = new Random(seed);
        try (Arena mem = Arena.ofConfined()) {
            final MemorySegment file = mem.allocate(BASE + BYTES, 64);
            final SharedArena arena = new SharedArena(file, BASE, BYTES);
            final List<Live> live = new ArrayList<>();
            byte mark = 0;
            for (int step = 0; step < steps; step++) {
                if (!live.isEmpty() && rnd.nextInt(100) < 45) {
                    final Live l = live.remove(rnd.nextInt(live.size()));
                    check(seed, step, l);
                    assertTrue(arena.free(l.block()), "seed " + seed + " step " + step + ": free of a live block");
                } else {
                    final long length = 1 + rnd.nextInt(rnd.nextBoolean() ? 200 : 3_000);
                    final MemorySegment b = arena.allocate(length);
                    if (null != b) {
                        final Live l = new Live(b, arena.offsetOf(b), (length + 63) / 64 * 64, ++mark);
                        for (final Live o : live) {
                            if (l.at() < o.at() + o.length() && o.at() < l.at() + l.length()) {
                                fail("seed " + seed + " step " + step + ": block [" + l.at() + ", +" + l.length()
                                    + ") overlaps the live block [" + o.at() + ", +" + o.length() + ")");
                            }
                        }
                        assertTrue(l.at() >= BASE && l.at() + l.length() <= BASE + BYTES, "inside the arena");
                        assertEquals(0, l.at() % 64, "64-aligned");
                        b.fill(l.mark());
                        live.add(l);
                    }
                }
                if (0 == step % 64) {
                    live.forEach(l -> check(seed, -1, l));
                }
            }
            live.forEach(l -> check(seed, steps, l));
            live.forEach(l -> arena.free(l.block()));
            assertNotNull(arena.allocate(BYTES), "seed " + seed + ": everything freed, the arena is one range again");
        }
    }

    private static void check(final long seed, final int step, final Live l) {
        final MemorySegment b = l.block();
        for (long i = 0; i < b.byteSize(); i++) {
            if (b.get(ValueLayout.JAVA_BYTE, i) != l.mark()) {
                fail("seed " + seed + " step " + step + ": the block at " + l.at() + " lost its bytes at +" + i
                    + " (another block was handed out over it)");
            }
        }
    }
}
