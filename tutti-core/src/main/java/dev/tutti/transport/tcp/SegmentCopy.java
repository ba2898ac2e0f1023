package dev.tutti.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one byte copy of the tcp transport (payload into the staging buffer, read buffer into a receive buffer or an
 * eager message's own buffer).
 *
 * <p>Implementation note. It copies with {@code MemorySegment.copy(src, JAVA_BYTE, .., dst, JAVA_BYTE, .., n)},
 * which is {@code Unsafe.copyMemory} for every length, and not with the five-argument
 * {@code MemorySegment.copy(src, srcOffset, dst, dstOffset, n)}: for lengths under 64 bytes that one runs a Java
 * loop ({@code jdk.internal.foreign.SegmentBulkOperations.copy}), and on JDK 25.0.3 C2's compilation of that loop,
 * inlined into the I/O thread's copy, left 16 bytes of 48-byte copies from the direct read buffer into a heap
 * receive buffer unwritten (bytes 8 to 24 of the piece; see bench/RESULTS.md and TcpCorruptionStressTest). The
 * element-layout copy has no such loop, so no length takes that path.
 */
final class SegmentCopy {
    private SegmentCopy() {
    }

    /**
     * Copies {@code n} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}.
     *
     * @param src       where the bytes are
     * @param srcOffset offset of the first in {@code src}
     * @param dst       where they go
     * @param dstOffset offset of the first in {@code dst}
     * @param n         how many
     */
    static void copy(final MemorySegment src, final long srcOffset, final MemorySegment dst, final long dstOffset,
        final long n) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, n);
    }
}
