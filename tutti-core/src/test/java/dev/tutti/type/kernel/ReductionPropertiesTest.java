package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.type.LocalReduction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Properties every collective algorithm relies on: the predefined ops are associative and commutative on the
 * kernels' actual results (bit for bit), so that any bracketing and order of the ranks' contributions gives the
 * same answer. Holds exactly for the integer and boolean ops (wrapping arithmetic), for MIN/MAX on floating types
 * including NaN and signed zeros, and for MINLOC/MAXLOC with ties; not for floating SUM/PROD, which is why those
 * are left out.
 */
class ReductionPropertiesTest {
    @Provide
    Arbitrary<Op.Predefined> integerOps() {
        return Arbitraries.of(Op.Predefined.SUM, Op.Predefined.PROD, Op.Predefined.MIN, Op.Predefined.MAX,
            Op.Predefined.LAND, Op.Predefined.LOR, Op.Predefined.LXOR, Op.Predefined.BAND, Op.Predefined.BOR,
            Op.Predefined.BXOR);
    }

    @Provide
    Arbitrary<Datatype> integerTypes() {
        return Arbitraries.of(Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG,
            Datatype.BOOLEAN);
    }

    @Provide
    Arbitrary<Op.Predefined> orderOps() {
        return Arbitraries.of(Op.Predefined.MIN, Op.Predefined.MAX, Op.Predefined.MINLOC, Op.Predefined.MAXLOC);
    }

    @Provide
    Arbitrary<Datatype> orderTypes() {
        return Arbitraries.of(Datatype.FLOAT, Datatype.DOUBLE, Datatype.INT_PAIR, Datatype.LONG_PAIR,
            Datatype.FLOAT_PAIR, Datatype.DOUBLE_PAIR);
    }

    @Provide
    Arbitrary<List<Double>> specials() {
        return Arbitraries.of(Double.NaN, Double.NEGATIVE_INFINITY, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0,
            Double.POSITIVE_INFINITY).list().ofMinSize(0).ofMaxSize(24);
    }

    @Property(tries = 1000)
    void integerOpsShouldBeAssociativeAndCommutative(@ForAll("integerOps") final Op.Predefined op,
        @ForAll("integerTypes") final Datatype type, @ForAll @Size(max = 24) final List<Long> a,
        @ForAll @Size(max = 24) final List<Long> b, @ForAll @Size(max = 24) final List<Long> c,
        @ForAll final boolean offHeap) {
        Assume.that(op.isDefinedFor(type));
        final int n = Math.min(a.size(), Math.min(b.size(), c.size()));
        try (Arena arena = Arena.ofConfined()) {
            final Vectors v = new Vectors(type, n, offHeap ? arena : null);
            assertLaws(op, type, n, v.integers(a), v.integers(b), v.integers(c), v);
        }
    }

    @Property(tries = 1000)
    void orderOpsShouldBeAssociativeAndCommutativeWithNanZerosAndTies(@ForAll("orderOps") final Op.Predefined op,
        @ForAll("orderTypes") final Datatype type, @ForAll("specials") final List<Double> a,
        @ForAll("specials") final List<Double> b, @ForAll("specials") final List<Double> c,
        @ForAll @IntRange(min = 0, max = 3) final int indexSeed, @ForAll final boolean offHeap) {
        Assume.that(op.isDefinedFor(type));
        final int n = Math.min(a.size(), Math.min(b.size(), c.size()));
        try (Arena arena = Arena.ofConfined()) {
            final Vectors v = new Vectors(type, n, offHeap ? arena : null);
            assertLaws(op, type, n, v.floating(a, indexSeed), v.floating(b, indexSeed + 1),
                v.floating(c, indexSeed + 2), v);
        }
    }

    private static void assertLaws(final Op.Predefined op, final Datatype type, final int n, final MemorySegment a,
        final MemorySegment b, final MemorySegment c, final Vectors v) {
        final MemorySegment ab = v.copy(b);
        LocalReduction.reduce(op, type, a, ab, n);
        final MemorySegment abC = v.copy(c);
        LocalReduction.reduce(op, type, ab, abC, n);

        final MemorySegment bc = v.copy(c);
        LocalReduction.reduce(op, type, b, bc, n);
        final MemorySegment aBc = v.copy(bc);
        LocalReduction.reduce(op, type, a, aBc, n);
        assertEquals(-1, abC.mismatch(aBc), "(a op b) op c != a op (b op c)");

        final MemorySegment ba = v.copy(a);
        LocalReduction.reduce(op, type, b, ba, n);
        assertEquals(-1, ab.mismatch(ba), "a op b != b op a");
    }

    /** Builds operand vectors of one type in heap (matching arrays) or native memory. */
    private static final class Vectors {
        private final Datatype type;
        private final int n;
        private final Arena arena;

        Vectors(final Datatype type, final int n, final Arena arena) {
            this.type = type;
            this.n = n;
            this.arena = arena;
        }

        MemorySegment allocate() {
            final long bytes = (long) n * type.sizeBytes();
            return null == arena ? Operands.matchingArray(type, bytes).asSlice(0, bytes) : arena.allocate(bytes);
        }

        MemorySegment copy(final MemorySegment s) {
            return allocate().copyFrom(s);
        }

        MemorySegment integers(final List<Long> values) {
            final MemorySegment s = allocate();
            for (int i = 0; i < n; i++) {
                final long x = values.get(i);
                switch (type) {
                    case BYTE -> s.set(ValueLayout.JAVA_BYTE, i, (byte) x);
                    case BOOLEAN -> s.set(ValueLayout.JAVA_BYTE, i, (byte) (x & 1));
                    case SHORT -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) x);
                    case CHAR -> s.setAtIndex(ValueLayout.JAVA_CHAR_UNALIGNED, i, (char) x);
                    case INT -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) x);
                    default -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, x);
                }
            }
            return s;
        }

        /** Values from the list; for pairs, indexes 0..3 derived from the position so that ties of both occur. */
        MemorySegment floating(final List<Double> values, final int indexSeed) {
            final MemorySegment s = allocate();
            for (int i = 0; i < n; i++) {
                final double x = values.get(i);
                final int index = (i + indexSeed) % 4;
                switch (type) {
                    case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) x);
                    case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, x);
                    case INT_PAIR -> {
                        s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, 2L * i, (int) x);
                        s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, 2L * i + 1, index);
                    }
                    case LONG_PAIR -> {
                        s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i, (long) x);
                        s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i + 1, index);
                    }
                    case FLOAT_PAIR -> {
                        s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * i, (float) x);
                        s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * i + 1, index);
                    }
                    default -> {
                        s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * i, x);
                        s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * i + 1, index);
                    }
                }
            }
            return s;
        }
    }
}
