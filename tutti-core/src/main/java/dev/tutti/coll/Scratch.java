package dev.tutti.coll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Temporary memory for schedules: heap arrays when they fit, else native memory freed by the GC. */
public final class Scratch {
    private static final long HEAP_LIMIT = Integer.MAX_VALUE - 64;

    private Scratch() {
    }

    /**
     * Allocates zeroed scratch memory.
     *
     * @param bytes the size
     * @return the segment
     */
    public static MemorySegment allocate(final long bytes) {
        if (bytes <= HEAP_LIMIT) {
            return MemorySegment.ofArray(new byte[(int) bytes]);
        }
        return Arena.ofAuto().allocate(bytes, 8);
    }

    /**
     * Allocates scratch memory holding a copy of {@code src}.
     *
     * @param src the data
     * @return the copy
     */
    public static MemorySegment copyOf(final MemorySegment src) {
        final MemorySegment s = allocate(src.byteSize());
        MemorySegment.copy(src, 0, s, 0, src.byteSize());
        return s;
    }
}
