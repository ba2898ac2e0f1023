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
 * both layouts' alignment: the five-argument form is markedly faster per copy of 64-256 B from a heap segment to a
 * native one, and collectives that copy small blocks (persistent and per-call, 2 and 4 ranks) are as fast with it or
 * faster. Below 64 bytes, two reasons (bench/RESULTS.md, "Findings kept in the diary"):
 * <ul>
 * <li>Correctness. On JDK 25.0.3, C2's compilation of that loop, inlined into the tcp transport's copy, left 16
 * bytes of 48-byte copies from the direct read buffer into a heap receive buffer unwritten (bytes 8 to 24 of the
 * piece; {@code TcpStressTest} found it, {@code bench/repro/TcpLargeEagerCheck.java} reproduces it). The
 * element-layout copy has no such loop.</li>
 * <li>Speed. A persistent alltoall of 4 ranks on 2 cores at 32-48 B a block is slower with the loop (its slots'
 * copies) than with this copy, which is as fast there as at 16 and 64 B.</li>
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
