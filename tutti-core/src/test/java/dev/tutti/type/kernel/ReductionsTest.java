package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.type.LocalReduction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@Timeout(60)
class ReductionsTest {
    /** 4099 and 100 003 exceed one staging chunk (for 4- and 8-byte values, resp. all), so arrays are used. */
    private static final int[] COUNTS = {0, 1, 7, 4099, 100_003};
    private static final Set<Datatype> INTEGERS =
        EnumSet.of(Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG);
    private static final Set<Datatype> NUMERIC = union(INTEGERS, EnumSet.of(Datatype.FLOAT, Datatype.DOUBLE));
    private static final Set<Datatype> LOGICAL = union(INTEGERS, EnumSet.of(Datatype.BOOLEAN));
    private static final Set<Datatype> PAIRS =
        EnumSet.of(Datatype.INT_PAIR, Datatype.LONG_PAIR, Datatype.FLOAT_PAIR, Datatype.DOUBLE_PAIR);

    /** The MPI rules as the test states them, independently of {@link Op.Predefined#isDefinedFor}. */
    private static Set<Datatype> definedTypes(final Op.Predefined op) {
        return switch (op) {
            case SUM, PROD, MIN, MAX -> NUMERIC;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> LOGICAL;
            case MINLOC, MAXLOC -> PAIRS;
        };
    }

    private static Set<Datatype> union(final Set<Datatype> a, final Set<Datatype> b) {
        final EnumSet<Datatype> u = EnumSet.copyOf(a);
        u.addAll(b);
        return u;
    }

    /** The in/inout memory kinds: both alike, then mixed, read-only in, and misaligned arrays. */
    private static final Operands.Kind[][] KIND_PAIRS = {
        {Operands.Kind.ARRAY, Operands.Kind.ARRAY},
        {Operands.Kind.NATIVE, Operands.Kind.NATIVE},
        {Operands.Kind.BYTES, Operands.Kind.BYTES},
        {Operands.Kind.NATIVE, Operands.Kind.ARRAY},
        {Operands.Kind.ARRAY, Operands.Kind.BYTES},
        {Operands.Kind.READ_ONLY, Operands.Kind.ARRAY_START},
        {Operands.Kind.ARRAY_MISALIGNED, Operands.Kind.ARRAY_MISALIGNED},
    };

    static Stream<Arguments> everyDefinedCase() {
        final List<Arguments> cases = new ArrayList<>();
        for (final Op.Predefined op : Op.Predefined.values()) {
            for (final Datatype type : definedTypes(op)) {
                for (final int count : COUNTS) {
                    for (final Operands.Kind[] kinds : KIND_PAIRS) {
                        cases.add(Arguments.of(op, type, count, kinds[0], kinds[1]));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} count={2} in={3} inout={4}")
    @MethodSource("everyDefinedCase")
    void shouldMatchScalarReference(final Op.Predefined op, final Datatype type, final int count,
        final Operands.Kind inKind, final Operands.Kind inoutKind) {
        final SplittableRandom random = new SplittableRandom(Objects.hash(op, type, count, inKind, inoutKind));
        try (Arena arena = Arena.ofConfined()) {
            final Operands in = Operands.create(inKind, type, count, arena, random, op);
            final Operands inout = Operands.create(inoutKind, type, count, arena, random, op);
            final MemorySegment inBefore = in.copy();
            final MemorySegment expected = inout.copy();
            ReferenceReduction.reduce(op, type, inBefore, expected, count);

            LocalReduction.reduce(op, type, in.operand, inout.operand, count);

            assertSameElements(type, expected, inout.operand, count);
            assertEquals(-1, inBefore.mismatch(in.operand), "in was modified");
            assertEquals(-1, inout.paddingChange(), "inout's padding was modified");
            assertEquals(-1, in.paddingChange(), "in's padding was modified");
        }
    }

    static void assertSameElements(final Datatype type, final MemorySegment expected, final MemorySegment actual,
        final int count) {
        final long at = expected.mismatch(actual);
        if (-1 != at) {
            final long element = at / type.sizeBytes();
            fail("element " + element + " of " + count + " differs: expected bytes "
                + hex(expected, element, type) + " but got " + hex(actual, element, type));
        }
    }

    private static String hex(final MemorySegment s, final long element, final Datatype type) {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < type.sizeBytes(); i++) {
            sb.append(String.format("%02x", s.get(ValueLayout.JAVA_BYTE, element * type.sizeBytes() + i)));
        }
        return sb.toString();
    }

    @Test
    void shouldStateTheMpiRulesForEveryOpAndType() {
        for (final Op.Predefined op : Op.Predefined.values()) {
            for (final Datatype type : Datatype.values()) {
                assertEquals(definedTypes(op).contains(type), op.isDefinedFor(type), op + " on " + type);
            }
        }
    }

    @Test
    void shouldRefuseEveryUndefinedPairWithMessageNamingOpAndType() {
        int refused = 0;
        for (final Op.Predefined op : Op.Predefined.values()) {
            for (final Datatype type : Datatype.values()) {
                if (definedTypes(op).contains(type)) {
                    LocalReduction.check("allreduce", op, type);
                    continue;
                }
                final TuttiException e = assertThrows(TuttiException.class,
                    () -> LocalReduction.check("allreduce", op, type), op + " on " + type);
                assertEquals(ErrorClass.OP, e.errorClass());
                assertTrue(e.getMessage().startsWith("allreduce: op=" + op + " is not defined for type=" + type
                    + ", expected "), e.getMessage());
                final TuttiException r = assertThrows(TuttiException.class, () -> LocalReduction.reduce(op, type,
                    MemorySegment.ofArray(new byte[32]), MemorySegment.ofArray(new byte[32]), 1));
                assertEquals(ErrorClass.OP, r.errorClass());
                refused++;
            }
        }
        assertEquals(12 * Datatype.values().length - 4 * 7 - 6 * 6 - 2 * 4, refused);
    }

    @Test
    void shouldListAcceptedTypesInRefusal() {
        final TuttiException e = assertThrows(TuttiException.class,
            () -> LocalReduction.check("allreduce", Op.MINLOC, Datatype.DOUBLE));
        assertEquals("allreduce: op=MINLOC is not defined for type=DOUBLE, expected a (value, index) pair type: "
            + "INT_PAIR, LONG_PAIR, FLOAT_PAIR, DOUBLE_PAIR", e.getMessage());
        final TuttiException land = assertThrows(TuttiException.class,
            () -> LocalReduction.check("reduce", Op.LAND, Datatype.FLOAT));
        assertEquals("reduce: op=LAND is not defined for type=FLOAT, expected one of BYTE, BOOLEAN, CHAR, SHORT, "
            + "INT, LONG", land.getMessage());
    }

    @Test
    void shouldRefuseBadArguments() {
        final MemorySegment eight = MemorySegment.ofArray(new int[2]);
        assertEquals(ErrorClass.OP, assertThrows(TuttiException.class,
            () -> LocalReduction.check("scan", null, Datatype.INT)).errorClass());
        assertEquals(ErrorClass.TYPE, assertThrows(TuttiException.class,
            () -> LocalReduction.check("scan", Op.SUM, null)).errorClass());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> LocalReduction.reduce(Op.SUM, Datatype.INT, eight, eight, -1)).errorClass());
        final TuttiException small = assertThrows(TuttiException.class,
            () -> LocalReduction.reduce(Op.SUM, Datatype.INT, eight, MemorySegment.ofArray(new int[3]), 3));
        assertEquals(ErrorClass.BUFFER, small.errorClass());
        assertEquals("reduce: in bytes=8, inout bytes=12, expected at least 12 each (count=3 of type=INT)",
            small.getMessage());
        assertEquals(ErrorClass.BUFFER, assertThrows(TuttiException.class,
            () -> LocalReduction.reduce(Op.SUM, Datatype.INT, null, eight, 1)).errorClass());
        assertEquals(ErrorClass.BUFFER, assertThrows(TuttiException.class,
            () -> LocalReduction.reduce(Op.SUM, Datatype.INT, eight, eight.asReadOnly(), 1)).errorClass());
    }

    @Test
    void shouldWrapIntegerSumAndProduct() {
        final int[] in = {Integer.MAX_VALUE, Integer.MIN_VALUE, 65_536};
        final int[] inout = {1, -1, 65_536};
        LocalReduction.reduce(Op.SUM, Datatype.INT, MemorySegment.ofArray(in), MemorySegment.ofArray(inout), 3);
        assertArrayEquals(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 131_072}, inout);
        final int[] p = {1, -1, 65_536};
        LocalReduction.reduce(Op.PROD, Datatype.INT, MemorySegment.ofArray(in), MemorySegment.ofArray(p), 3);
        assertArrayEquals(new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, 0}, p);
        final byte[] b = {127, -128};
        LocalReduction.reduce(Op.SUM, Datatype.BYTE, MemorySegment.ofArray(new byte[] {1, -1}),
            MemorySegment.ofArray(b), 2);
        assertArrayEquals(new byte[] {-128, 127}, b);
    }

    @Test
    void shouldTreatCharAsUnsigned() {
        final char[] inout = {1, 0xFFFF, 0xFFFF};
        LocalReduction.reduce(Op.MAX, Datatype.CHAR, MemorySegment.ofArray(new char[] {0x8000, 1, 0}),
            MemorySegment.ofArray(inout), 3);
        assertArrayEquals(new char[] {0x8000, 0xFFFF, 0xFFFF}, inout);
        final char[] sum = {0xFFFF};
        LocalReduction.reduce(Op.SUM, Datatype.CHAR, MemorySegment.ofArray(new char[] {2}), MemorySegment.ofArray(sum),
            1);
        assertArrayEquals(new char[] {1}, sum);
    }

    @Test
    void shouldPropagateNanAndOrderSignedZerosInMinAndMax() {
        final double[] in = {Double.NaN, 1.0, -0.0, 0.0};
        final double[] min = {1.0, Double.NaN, 0.0, -0.0};
        final double[] max = min.clone();
        LocalReduction.reduce(Op.MIN, Datatype.DOUBLE, MemorySegment.ofArray(in), MemorySegment.ofArray(min), 4);
        LocalReduction.reduce(Op.MAX, Datatype.DOUBLE, MemorySegment.ofArray(in), MemorySegment.ofArray(max), 4);
        assertAll(
            () -> assertTrue(Double.isNaN(min[0]) && Double.isNaN(min[1])),
            () -> assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(min[2])),
            () -> assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(min[3])),
            () -> assertTrue(Double.isNaN(max[0]) && Double.isNaN(max[1])),
            () -> assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(max[2])),
            () -> assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(max[3])));
        final float[] f = {Float.NaN};
        LocalReduction.reduce(Op.MIN, Datatype.FLOAT, MemorySegment.ofArray(new float[] {1f}), MemorySegment.ofArray(f),
            1);
        assertTrue(Float.isNaN(f[0]));
    }

    @Test
    void shouldPickLowerIndexOnTiesAndLetNanWinInLocOps() {
        final int[] in = {5, 7, 5, 2, 5, 9};
        final int[] min = {5, 3, 5, 1, 4, 0};
        LocalReduction.reduce(Op.MINLOC, Datatype.INT_PAIR, MemorySegment.ofArray(in), MemorySegment.ofArray(min), 3);
        assertArrayEquals(new int[] {5, 3, 5, 1, 4, 0}, min);
        final int[] max = {5, 3, 5, 1, 4, 0};
        LocalReduction.reduce(Op.MAXLOC, Datatype.INT_PAIR, MemorySegment.ofArray(in), MemorySegment.ofArray(max), 3);
        assertArrayEquals(new int[] {5, 3, 5, 1, 5, 9}, max);

        final double[] din = {Double.NaN, 4, 1.0, 0, -0.0, 8, Double.NaN, 3};
        final double[] dmin = {1.0, 2, Double.NaN, 1, 0.0, 1, Double.NaN, 5};
        final double[] dmax = dmin.clone();
        LocalReduction.reduce(Op.MINLOC, Datatype.DOUBLE_PAIR, MemorySegment.ofArray(din), MemorySegment.ofArray(dmin),
            4);
        LocalReduction.reduce(Op.MAXLOC, Datatype.DOUBLE_PAIR, MemorySegment.ofArray(din), MemorySegment.ofArray(dmax),
            4);
        assertAll(
            () -> assertEquals(4.0, dmin[1]),
            () -> assertEquals(1.0, dmin[3]),
            () -> assertEquals(-0.0, dmin[4]),
            () -> assertEquals(8.0, dmin[5]),
            () -> assertEquals(3.0, dmin[7]),
            () -> assertEquals(4.0, dmax[1]),
            () -> assertEquals(1.0, dmax[3]),
            () -> assertEquals(0.0, dmax[4]),
            () -> assertEquals(1.0, dmax[5]),
            () -> assertEquals(3.0, dmax[7]));
    }

    @Test
    void shouldKeepBooleanResultsZeroOrOne() {
        final byte[] in = {2, 0, -1, 1, 0};
        for (final Op op : List.of(Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR)) {
            final byte[] inout = {1, 4, -128, 0, 0};
            LocalReduction.reduce(op, Datatype.BOOLEAN, MemorySegment.ofArray(in), MemorySegment.ofArray(inout), 5);
            for (int i = 0; i < inout.length; i++) {
                final boolean a = 0 != in[i];
                final boolean b = 0 != new byte[] {1, 4, -128, 0, 0}[i];
                final boolean expected = switch ((Op.Predefined) op) {
                    case LAND, BAND -> a && b;
                    case LOR, BOR -> a || b;
                    default -> a != b;
                };
                assertEquals(expected ? 1 : 0, inout[i], op + " element " + i);
            }
        }
    }

    @Test
    void shouldTreatNonzeroAsTrueInLogicalOpsOnIntegers() {
        final long[] inout = {0, 6, 5, -9};
        LocalReduction.reduce(Op.LXOR, Datatype.LONG, MemorySegment.ofArray(new long[] {3, 0, 7, Long.MIN_VALUE}),
            MemorySegment.ofArray(inout), 4);
        assertArrayEquals(new long[] {1, 1, 0, 0}, inout);
    }

    @Test
    void shouldReduceInPlaceWhenInAndInoutAreTheSameSegment() {
        final double[] a = {1.5, -2, 3};
        final MemorySegment s = MemorySegment.ofArray(a);
        LocalReduction.reduce(Op.SUM, Datatype.DOUBLE, s, s, 3);
        assertArrayEquals(new double[] {3, -4, 6}, a);
    }
}
