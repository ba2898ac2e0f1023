package dev.tutti.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How a rank that has read bytes another rank will write again hands their cache lines back: it writes one word in
 * each line it read, so that its core holds the lines modified rather than shared, and the writer's next store takes
 * each line from that core's cache instead of invalidating shared copies. On a virtual machine, invalidating shared
 * lines is at times (for seconds to minutes) several times slower than usual, and a large copy through memory that
 * two processes share then takes several times as long without these writes, which cost little otherwise
 * (bench/RESULTS.md: the shm channel, the region's chunks, the slots of persistent collectives). Only for bytes
 * that no other rank still reads: the words overwrite them.
 *
 * <p>Implementation note. Plain stores: the caller publishes them with the release store that tells the writer it
 * may write again.
 */
public final class CacheLines {
    /** A cache line. */
    public static final long LINE = 64;

    private CacheLines() {
    }

    /**
     * Writes a zero word at {@code at}, {@code at + 64}, ... below {@code at + n} in {@code memory}; each such word
     * must lie within the bytes read.
     *
     * @param memory where the bytes were read
     * @param at     the offset of the first
     * @param n      how many were read
     */
    public static void take(final MemorySegment memory, final long at, final long n) {
        for (long line = 0; line < n; line += LINE) {
            memory.set(ValueLayout.JAVA_LONG, at + line, 0L);
        }
    }
}
