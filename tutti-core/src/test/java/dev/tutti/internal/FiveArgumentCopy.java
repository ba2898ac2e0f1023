package dev.tutti.internal;

import java.lang.foreign.MemorySegment;

/** Planted for {@link SegmentCopyTest}: a copy that bypasses {@link SegmentCopy}, which the rule must name. */
final class FiveArgumentCopy {
    private FiveArgumentCopy() {
    }

    static void copy(final MemorySegment src, final MemorySegment dst) {
        MemorySegment.copy(src, 0, dst, 0, src.byteSize());
    }
}
