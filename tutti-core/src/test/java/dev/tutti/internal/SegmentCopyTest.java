package dev.tutti.internal;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SegmentCopy}: every length across the JDK's 64-byte switch, heap and native, overlapping ranges both ways.
 * The rule that no other main class calls the five-argument {@code MemorySegment.copy} is in {@code LayeringTest}.
 */
class SegmentCopyTest {
    @Test
    void shouldCopyEveryLengthBetweenHeapAndNativeAtOddOffsets() {
        try (Arena arena = Arena.ofConfined()) {
            for (int n = 0; n <= 200; n++) {
                final byte[] src = pattern(n + 13, n);
                final MemorySegment nat = arena.allocate(n + 20);
                SegmentCopy.copy(MemorySegment.ofArray(src), 5, nat, 7, n);
                final byte[] back = new byte[n + 11];
                SegmentCopy.copy(nat, 7, MemorySegment.ofArray(back), 3, n);
                final byte[] want = new byte[n + 11];
                System.arraycopy(src, 5, want, 3, n);
                assertArrayEquals(want, back, "n=" + n);
                assertTrue(isZero(nat.asSlice(0, 7)) && isZero(nat.asSlice(7 + n)), "bytes outside the range, n=" + n);
            }
        }
    }

    @Test
    void shouldCopyOverlappingRangesAsIfThroughATemporary() {
        for (int n = 1; n <= 100; n++) {
            for (final int shift : new int[] {-9, -1, 1, 8, 9}) {
                final byte[] a = pattern(n + 20, n);
                final byte[] want = a.clone();
                System.arraycopy(a, 10, want, 10 + shift, n); // arraycopy is specified as if through a temporary
                SegmentCopy.copy(MemorySegment.ofArray(a), 10, MemorySegment.ofArray(a), 10 + shift, n);
                assertArrayEquals(want, a, "n=" + n + " shift=" + shift);
            }
        }
    }

    private static byte[] pattern(final int length, final int seed) {
        final byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (31 * i + seed + 1);
        }
        return b;
    }

    private static boolean isZero(final MemorySegment s) {
        for (long i = 0; i < s.byteSize(); i++) {
            if (0 != s.get(ValueLayout.JAVA_BYTE, i)) {
                return false;
            }
        }
        return true;
    }
}
