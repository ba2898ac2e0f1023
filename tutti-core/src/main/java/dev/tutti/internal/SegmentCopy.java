package dev.tutti.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one way Tutti copies bytes between memory segments: every copy of the library goes through here.
 *
 * <p>Implementation note. It copies with {@code MemorySegment.copy(src, JAVA_BYTE, .., dst, JAVA_BYTE, .., n)},
 * which is {@code Unsafe.copyMemory} at every length, and never with the five-argument
 * {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, n)}, which for lengths under 64 bytes runs a Java loop
 * ({@code jdk.internal.foreign.SegmentBulkOperations.copy}). Two reasons, both measured here (bench/RESULTS.md):
 * <ul>
 * <li>Correctness. On JDK 25.0.3, C2's compilation of that loop, inlined into the tcp transport's copy, left 16
 * bytes of 48-byte copies from the direct read buffer into a heap receive buffer unwritten (bytes 8 to 24 of the
 * piece; session 7, {@code TcpStressTest}). The element-layout copy has no such loop.</li>
 * <li>Speed. A persistent alltoall of 4 ranks on 2 cores, timed between barriers, took 2.5-2.8 us at 32-48 B a
 * block with the loop (its slots' copies) and 2.3-2.5 with this copy, as at 16 and 64 B (session 20).</li>
 * </ul>
 * {@code LayeringTest} fails a main class other than this one that calls the five-argument form.
 */
public final class SegmentCopy {
    private SegmentCopy() {
    }

    /**
     * Copies {@code n} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset} (as
     * {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, n)}: overlapping ranges are copied as if through a
     * temporary; bounds and liveness are checked).
     *
     * @param src       where the bytes are
     * @param srcOffset offset of the first in {@code src}
     * @param dst       where they go
     * @param dstOffset offset of the first in {@code dst}
     * @param n         how many
     */
    public static void copy(final MemorySegment src, final long srcOffset, final MemorySegment dst,
        final long dstOffset, final long n) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, n);
    }
}
