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
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class UserOpTest {
    private static final Op INT_SUM = Op.user("isum", true, (int[] in, int[] inout, int count) -> {
        for (int i = 0; i < count; i++) {
            inout[i] += in[i];
        }
    });

    /** Every 4 doubles are a row-major 2x2 matrix; inout = in x inout. Associative, not commutative. */
    private static final Op MATMUL = Op.user("matmul", false, UserOpTest::matmul);

    private static void matmul(final double[] in, final double[] inout, final int count) {
        for (int m = 0; m + 3 < count; m += 4) {
            final double a = in[m];
            final double b = in[m + 1];
            final double c = in[m + 2];
            final double d = in[m + 3];
            final double e = inout[m];
            final double f = inout[m + 1];
            final double g = inout[m + 2];
            final double h = inout[m + 3];
            inout[m] = a * e + b * g;
            inout[m + 1] = a * f + b * h;
            inout[m + 2] = c * e + d * g;
            inout[m + 3] = c * f + d * h;
        }
    }

    static Stream<Arguments> kindsAndCounts() {
        final Operands.Kind[][] kinds = {
            {Operands.Kind.ARRAY_START, Operands.Kind.ARRAY_START},
            {Operands.Kind.ARRAY, Operands.Kind.ARRAY},
            {Operands.Kind.NATIVE, Operands.Kind.NATIVE},
            {Operands.Kind.BYTES, Operands.Kind.ARRAY_START},
            {Operands.Kind.READ_ONLY, Operands.Kind.NATIVE},
        };
        final List<Arguments> cases = new ArrayList<>();
        for (final Operands.Kind[] k : kinds) {
            for (final int count : new int[] {0, 4, 36, 100_004}) {
                cases.add(Arguments.of(k[0], k[1], count));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "in={0} inout={1} count={2}")
    @MethodSource("kindsAndCounts")
    void shouldApplyCommutativeUserOpOnEveryMemoryKind(final Operands.Kind inKind, final Operands.Kind inoutKind,
        final int count) {
        final SplittableRandom random = new SplittableRandom(count);
        try (Arena arena = Arena.ofConfined()) {
            final Operands in = Operands.create(inKind, Datatype.INT, count, arena, random, null);
            final Operands inout = Operands.create(inoutKind, Datatype.INT, count, arena, random, null);
            final MemorySegment expected = inout.copy();
            ReferenceReduction.reduce(Op.Predefined.SUM, Datatype.INT, in.copy(), expected, count);
            final MemorySegment inBefore = in.copy();

            LocalReduction.reduce(INT_SUM, Datatype.INT, in.operand, inout.operand, count);

            ReductionsTest.assertSameElements(Datatype.INT, expected, inout.operand, count);
            assertEquals(-1, inBefore.mismatch(in.operand), "in was modified");
            assertEquals(-1, inout.paddingChange(), "inout's padding was modified");
        }
    }

    @ParameterizedTest(name = "in={0} inout={1} count={2}")
    @MethodSource("kindsAndCounts")
    void shouldApplyNonCommutativeOpWithInAsLeftOperand(final Operands.Kind inKind, final Operands.Kind inoutKind,
        final int count) {
        final SplittableRandom random = new SplittableRandom(count + 1);
        try (Arena arena = Arena.ofConfined()) {
            final Operands in = Operands.create(inKind, Datatype.DOUBLE, count, arena, random, null);
            final Operands inout = Operands.create(inoutKind, Datatype.DOUBLE, count, arena, random, null);
            final double[] left = in.operand.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED);
            final double[] expected = inout.operand.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED);
            final double[] swapped = left.clone();
            matmul(left, expected, count);
            matmul(inout.operand.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED), swapped, count);

            LocalReduction.reduce(MATMUL, Datatype.DOUBLE, in.operand, inout.operand, count);

            assertArrayEquals(expected, inout.operand.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED));
            if (count > 0) {
                assertFalse(Arrays.equals(swapped, expected), "the data must tell the two orders apart");
            }
        }
    }

    @Test
    void shouldPassTheCallersArraysWhenBothStartAnArrayLongerThanAChunk() {
        final int count = IntKernels.CHUNK + 1;
        final int[] in = new int[count];
        final int[] inout = new int[count + 1];
        java.util.Arrays.fill(in, 1);
        java.util.Arrays.fill(inout, 10);
        final Object[] seen = new Object[3];
        final Op op = Op.user("spy", true, (int[] a, int[] b, int n) -> {
            seen[0] = a;
            seen[1] = b;
            seen[2] = n;
            INT_SUM_FN.apply(a, b, n);
        });
        LocalReduction.reduce(op, Datatype.INT, MemorySegment.ofArray(in), MemorySegment.ofArray(inout), count);
        assertSame(in, seen[0]);
        assertSame(inout, seen[1]);
        assertEquals(count, seen[2]);
        assertEquals(11, inout[count - 1]);
        assertEquals(10, inout[count]);
        LocalReduction.reduce(op, Datatype.INT, MemorySegment.ofArray(in), MemorySegment.ofArray(inout), 3);
        assertNotSame(in, seen[0], "short vectors are copied: heapBase() would allocate");
        assertEquals(12, inout[2]);
    }

    private static final Op.IntFunction INT_SUM_FN = (a, b, count) -> {
        for (int i = 0; i < count; i++) {
            b[i] += a[i];
        }
    };

    @Test
    void shouldUseSegmentFunctionForTypesWithoutTypedFunction() {
        final AtomicInteger segmentCalls = new AtomicInteger();
        final Op op = Op.builder("pairSum", true)
            .ints(INT_SUM_FN)
            .segments((type, in, inout, count) -> {
                segmentCalls.incrementAndGet();
                assertEquals(Datatype.INT_PAIR, type);
                for (long i = 0; i < 2L * count; i++) {
                    inout.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i,
                        in.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i)
                            + inout.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i));
                }
            })
            .build();
        final int[] pairs = {1, 2, 3, 4};
        LocalReduction.reduce(op, Datatype.INT_PAIR, MemorySegment.ofArray(new int[] {10, 20, 30, 40}),
            MemorySegment.ofArray(pairs), 2);
        assertArrayEquals(new int[] {11, 22, 33, 44}, pairs);
        assertEquals(1, segmentCalls.get());
        final int[] ints = {1};
        LocalReduction.reduce(op, Datatype.INT, MemorySegment.ofArray(new int[] {5}), MemorySegment.ofArray(ints), 1);
        assertArrayEquals(new int[] {6}, ints);
        assertEquals(1, segmentCalls.get(), "the typed function must win over the segment function");
    }

    @Test
    void shouldRefuseTypesTheUserOpHasNoFunctionFor() {
        final TuttiException e = assertThrows(TuttiException.class,
            () -> LocalReduction.check("allreduce", MATMUL, Datatype.INT));
        assertEquals(ErrorClass.OP, e.errorClass());
        assertEquals("allreduce: op=matmul(user, non-commutative) is not defined for type=INT, it has functions "
            + "for DOUBLE (give a function for INT or a SegmentFunction)", e.getMessage());
        assertThrows(TuttiException.class, () -> LocalReduction.reduce(MATMUL, Datatype.BOOLEAN,
            MemorySegment.ofArray(new byte[1]), MemorySegment.ofArray(new byte[1]), 1));
        final Op raw = Op.user("raw", true, (type, in, inout, count) -> { });
        assertTrue(raw.isDefinedFor(Datatype.DOUBLE_PAIR));
        assertEquals(ErrorClass.OP, assertThrows(TuttiException.class,
            () -> LocalReduction.check("reduce", raw, Datatype.OBJECT)).errorClass());
    }

    @Test
    void shouldGiveFreshArraysToReductionNestedInUserFunction() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment innerIn = arena.allocate(4 * 4L);
            final MemorySegment innerInout = arena.allocate(4 * 4L);
            final Op outer = Op.user("outer", true, (int[] in, int[] inout, int count) -> {
                innerIn.fill((byte) 1);
                innerInout.fill((byte) 0);
                LocalReduction.reduce(INT_SUM, Datatype.INT, innerIn, innerInout, 4);
                for (int i = 0; i < count; i++) {
                    inout[i] += in[i] + innerInout.getAtIndex(ValueLayout.JAVA_INT, i % 4);
                }
            });
            final MemorySegment in = arena.allocate(4 * 4L);
            final MemorySegment inout = arena.allocate(4 * 4L);
            in.setAtIndex(ValueLayout.JAVA_INT, 0, 100);
            inout.setAtIndex(ValueLayout.JAVA_INT, 0, 1000);
            LocalReduction.reduce(outer, Datatype.INT, in, inout, 4);
            assertEquals(1100 + 0x01010101, inout.getAtIndex(ValueLayout.JAVA_INT, 0));
            assertEquals(0x01010101, inout.getAtIndex(ValueLayout.JAVA_INT, 3));
        }
    }

    @Test
    void shouldPropagateExceptionOfUserFunctionAndLeaveStagedInoutUntouched() {
        final Op failing = Op.user("failing", true, (long[] in, long[] inout, int count) -> {
            inout[0] = 42;
            throw new IllegalStateException("user bug");
        });
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment inout = arena.allocate(8);
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LocalReduction.reduce(failing, Datatype.LONG, arena.allocate(8), inout, 1));
            assertEquals("user bug", e.getMessage());
            assertEquals(0, inout.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    @Test
    void shouldNotAllocatePerCallAfterWarmUpUpToOneChunk() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment in = arena.allocate(8 * 1000L, 8);
            final MemorySegment inout = arena.allocate(8 * 1000L, 8);
            for (int i = 0; i < 200; i++) {
                reduceBoth(in, inout);
            }
            final long empty0 = threads.getCurrentThreadAllocatedBytes();
            final long empty1 = threads.getCurrentThreadAllocatedBytes();
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1000; i++) {
                reduceBoth(in, inout);
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before - (empty1 - empty0);
            assertTrue(allocated < 1000, "allocated " + allocated + " bytes in 4000 reductions");
        }
    }

    private static final MemorySegment HEAP_IN = MemorySegment.ofArray(new double[256]);
    private static final MemorySegment HEAP_INOUT = MemorySegment.ofArray(new double[256]);

    private static void reduceBoth(final MemorySegment in, final MemorySegment inout) {
        LocalReduction.reduce(Op.SUM, Datatype.DOUBLE, in, inout, 1000);
        LocalReduction.reduce(MATMUL, Datatype.DOUBLE, in, inout, 1000);
        LocalReduction.reduce(Op.SUM, Datatype.DOUBLE, HEAP_IN, HEAP_INOUT, 256);
        LocalReduction.reduce(MATMUL, Datatype.DOUBLE, HEAP_IN, HEAP_INOUT, 256);
    }
}
