package dev.tutti.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one way Tutti copies bytes between memory segments: every copy of the library goes through here.
 *
 * <p>Implementation note. Under 64 bytes it copies with
 * {@code MemorySegment.copy(src, JAVA_BYTE, .., dst, JAVA_BYTE, .., n)}, which is {@code Unsafe.copyMemory} at every
 * length, and never with the five-argument {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, n)}, which for
 * lengths under 64 bytes runs a Java loop ({@code jdk.internal.foreign.SegmentBulkOperations.copy}). From 64 bytes
 * (the JDK's threshold, {@link #NATIVE_FROM}) it takes the five-argument form, which is then bounds checks and
 * {@code copyMemory} only, inlined ({@code @ForceInline}), where the element-layout form is a call that also checks
 * both layouts' alignment: 6-12 against 18-19 ns per copy of 64-256 B from a heap segment to a native one (a loop of
 * copies, JDK 25.0.3). In one job, the two forms alternated per block (medians of per-block ratios), a persistent
 * alltoall of 4 ranks ran 1.06x faster at 64 and at 512 B a block (quartiles 0.88-1.38, 1.03-1.23),
 * {@code allreduceInit} 1.02-1.10x, per-call {@code alltoall} 0.99-1.04x; at 2 ranks 0.97-1.13x, quartiles around 1
 * (session 24). Below 64 bytes, two reasons, both measured here (bench/RESULTS.md):
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
    /**
     * The length from which the JDK's five-argument copy calls {@code copyMemory} instead of its loop: 64 bytes, or
     * what {@code -Djava.lang.foreign.native.threshold.power.copy} sets (read as the JDK reads it).
     */
    private static final long NATIVE_FROM =
        1L << Math.clamp(Integer.getInteger("java.lang.foreign.native.threshold.power.copy", 6), 0, Integer.SIZE - 2);

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
        if (n >= NATIVE_FROM) {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, n);
        } else {
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, n);
        }
    }
}
