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
}
