package dev.tutti.internal;

import java.lang.foreign.MemorySegment;

/** Planted for {@code LayeringTest}'s copy rule: a copy that bypasses {@link SegmentCopy}, which it must name. */
final class FiveArgumentCopy {
    private FiveArgumentCopy() {
    }

    static void copy(final MemorySegment src, final MemorySegment dst) {
        MemorySegment.copy(src, 0, dst, 0, src.byteSize());
    }
}
