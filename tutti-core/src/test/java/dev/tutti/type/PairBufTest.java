package dev.tutti.type;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PairBufTest {
    @Test
    void shouldSizePairTypesAndKeepExistingOrdinals() {
        assertEquals(8, Datatype.INT_PAIR.sizeBytes());
        assertEquals(16, Datatype.LONG_PAIR.sizeBytes());
        assertEquals(8, Datatype.FLOAT_PAIR.sizeBytes());
        assertEquals(16, Datatype.DOUBLE_PAIR.sizeBytes());
        final Datatype[] original = {Datatype.BYTE, Datatype.BOOLEAN, Datatype.CHAR, Datatype.SHORT, Datatype.INT,
            Datatype.FLOAT, Datatype.LONG, Datatype.DOUBLE, Datatype.OBJECT};
        for (int i = 0; i < original.length; i++) {
            assertEquals(i, original[i].ordinal());
            assertEquals(original[i], Datatype.fromCode(i));
        }
        assertEquals(Datatype.DOUBLE_PAIR, Datatype.fromCode(Datatype.DOUBLE_PAIR.ordinal()));
    }

    @Test
    void shouldViewWholeArraysAsPairs() {
        assertPairs(Buf.pairs(new int[] {1, 2, 3, 4}), Datatype.INT_PAIR, 2);
        assertPairs(Buf.pairs(new long[] {1, 2}), Datatype.LONG_PAIR, 1);
        assertPairs(Buf.pairs(new float[6]), Datatype.FLOAT_PAIR, 3);
        assertPairs(Buf.pairs(new double[0]), Datatype.DOUBLE_PAIR, 0);
    }

    private static void assertPairs(final Buf b, final Datatype type, final int count) {
        assertEquals(type, b.datatype());
        assertEquals(count, b.count());
        assertEquals((long) count * type.sizeBytes(), b.byteSize());
        assertEquals(b.byteSize(), b.segment().byteSize());
    }

    @Test
    void shouldViewPairRangesInPlace() {
        final int[] a = {0, 0, 5, 1, 6, 2, 0, 0};
        final Buf b = Buf.pairs(a, 1, 2);
        assertEquals(2, b.count());
        assertArrayEquals(new int[] {5, 1, 6, 2}, b.segment().toArray(ValueLayout.JAVA_INT));
        b.segment().set(ValueLayout.JAVA_INT, 0, 9);
        assertEquals(9, a[2]);
        final double[] d = {1, 2, 3, 4};
        assertArrayEquals(new double[] {3, 4}, Buf.pairs(d, 1, 1).segment().toArray(ValueLayout.JAVA_DOUBLE));
        assertEquals(16, Buf.pairs(new long[] {1, 2, 3, 4}, 1, 1).segment().address());
        assertEquals(8, Buf.pairs(new float[] {1, 2, 3, 4}, 1, 1).segment().address());
    }

    @Test
    void shouldRefuseOddLengthNullAndOutOfRange() {
        final TuttiException odd = assertThrows(TuttiException.class, () -> Buf.pairs(new int[3]));
        assertEquals(ErrorClass.COUNT, odd.errorClass());
        assertEquals("Buf.pairs: array length=3 is odd, expected an even length (value, index, value, index, ...)",
            odd.getMessage());
        assertEquals(ErrorClass.BUFFER, assertThrows(TuttiException.class,
            () -> Buf.pairs((double[]) null)).errorClass());
        assertEquals(ErrorClass.BUFFER, assertThrows(TuttiException.class,
            () -> Buf.pairs((long[]) null, 0, 0)).errorClass());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> Buf.pairs(new float[4], 1, 2)).errorClass());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> Buf.pairs(new int[5], 2, 1)).errorClass());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> Buf.pairs(new int[4], 0, -1)).errorClass());
    }

    @Test
    void shouldAcceptPairTypesOverRawMemory() {
        final Buf b = Buf.of(MemorySegment.ofArray(new byte[32]), Datatype.LONG_PAIR);
        assertEquals(2, b.count());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> Buf.of(MemorySegment.ofArray(new byte[12]), Datatype.INT_PAIR)).errorClass());
    }
}
