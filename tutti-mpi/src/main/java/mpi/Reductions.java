package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Chooses, for an mpi {@link Op} and {@link Datatype}, the Tutti operation and the Tutti element type ("unit") a
 * reduction runs with. Most pairs map straight onto Tutti ({@code SUM} of {@code INT} is Tutti's {@code SUM} of
 * {@code INT}). The rest run through kernels here over raw memory ({@link dev.tutti.Op.SegmentFunction}), with a
 * unit of exactly one item so that no algorithm splits an item: MAX/MIN of {@code MPI.BYTE} (unsigned in Open MPI),
 * the product of complex numbers, MINLOC/MAXLOC of {@code SHORT_INT}, {@code FLOAT_INT}, {@code LONG_INT} and
 * {@code DOUBLE_INT}; user functions run through {@link UserOps}. Memory is read with unaligned layouts: a
 * {@code byte[]} holds pair types.
 */
final class Reductions {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private static final dev.tutti.Op UBYTE_MAX = dev.tutti.Op.user("MPI_MAX(unsigned byte)", true,
        (final dev.tutti.Datatype t, final MemorySegment in, final MemorySegment io, final int n) -> ubyte(in, io,
            n, true));
    private static final dev.tutti.Op UBYTE_MIN = dev.tutti.Op.user("MPI_MIN(unsigned byte)", true,
        (final dev.tutti.Datatype t, final MemorySegment in, final MemorySegment io, final int n) -> ubyte(in, io,
            n, false));
    /** MPI_PROD on float complex numbers, one LONG unit each (contiguous items). */
    private static final dev.tutti.Op FLOAT_COMPLEX_PROD = complexProd(false, 1, true);
    /** MPI_PROD on double complex numbers, one DOUBLE_PAIR unit each (contiguous items). */
    private static final dev.tutti.Op DOUBLE_COMPLEX_PROD = complexProd(true, 1, true);
    /**
     * MPI_PROD on complex numbers packed from a type with gaps, two FLOAT or DOUBLE units each: declared
     * non-commutative, which Tutti never splits between units (a split could cut a number in two), and applies whole
     * in rank order (a valid order for this commutative product too).
     */
    private static final dev.tutti.Op FLOAT_COMPLEX_PARTS_PROD = complexProd(false, 2, false);
    private static final dev.tutti.Op DOUBLE_COMPLEX_PARTS_PROD = complexProd(true, 2, false);
    private static final dev.tutti.Op[] MINLOC = locOps(false);
    private static final dev.tutti.Op[] MAXLOC = locOps(true);

    /**
     * A reduction as Tutti runs it.
     *
     * @param op      Tutti's operation
     * @param unit    the element type of the buffers
     * @param perItem units per item of the mpi datatype
     */
    record Plan(dev.tutti.Op op, dev.tutti.Datatype unit, int perItem) {
    }

    private Reductions() {
    }

    /**
     * @param dbl         double (else float) complex numbers
     * @param perNumber   units per complex number (1: LONG or DOUBLE_PAIR; 2: FLOAT or DOUBLE)
     * @param commutative whether Tutti may treat it as commutative (only with one unit per number)
     * @return the product of complex numbers as a Tutti operation on {@code n} units
     */
    private static dev.tutti.Op complexProd(final boolean dbl, final int perNumber, final boolean commutative) {
        final String name = "MPI_PROD(" + (dbl ? "double" : "float") + " complex" + (1 == perNumber ? "" : ", parts")
            + ")";
        if (dbl) {
            return dev.tutti.Op.user(name, commutative, (final dev.tutti.Datatype t, final MemorySegment in,
                final MemorySegment io, final int n) -> {
                for (long o = 0; o < 16L * (n / perNumber); o += 16) {
                    final double a = in.get(DOUBLE, o);
                    final double b = in.get(DOUBLE, o + 8);
                    final double c = io.get(DOUBLE, o);
                    final double d = io.get(DOUBLE, o + 8);
                    io.set(DOUBLE, o, a * c - b * d);
                    io.set(DOUBLE, o + 8, a * d + b * c);
                }
            });
        }
        return dev.tutti.Op.user(name, commutative, (final dev.tutti.Datatype t, final MemorySegment in,
            final MemorySegment io, final int n) -> {
            for (long o = 0; o < 8L * (n / perNumber); o += 8) {
                final float a = in.get(FLOAT, o);
                final float b = in.get(FLOAT, o + 4);
                final float c = io.get(FLOAT, o);
                final float d = io.get(FLOAT, o + 4);
                io.set(FLOAT, o, a * c - b * d);
                io.set(FLOAT, o + 4, a * d + b * c);
            }
        });
    }

    /**
     * Returns how to run a reduction.
     *
     * @param what the operation, for messages
     * @param op   the mpi operation
     * @param type the mpi datatype
     * @return the plan
     * @throws MpiErrors.MpiError of class ERR_OP for a null, freed or unsuitable operation
     */
    static Plan plan(final String what, final Op op, final Datatype type) {
        if (null == op || op.isNull()) {
            throw MpiErrors.error(MPI.ERR_OP, what + ": op=" + (null == op ? "null" : "freed")
                + ", expected a valid op");
        }
        if (null == type) {
            throw MpiErrors.error(MPI.ERR_TYPE, what + ": datatype=null, expected a datatype");
        }
        if (!type.settled) {
            type.live(what);
        }
        final Op.Planned last = op.planned; // the plan depends only on the op and the type, both checked live
        if (null != last && type == last.type()) {
            return last.plan();
        }
        final Plan p = planNow(what, op, type);
        op.planned = new Op.Planned(type, p);
        return p;
    }

    private static Plan planNow(final String what, final Op op, final Datatype type) {
        if (null != op.function) {
            return UserOps.plan(what, op, type);
        }
        if (null == op.tutti) {
            throw MpiErrors.error(MPI.ERR_OP, what + ": op=" + op + " is for one-sided accumulate only");
        }
        final dev.tutti.Op t = op.tutti;
        final boolean loc = dev.tutti.Op.MINLOC == t || dev.tutti.Op.MAXLOC == t;
        switch (type.layout) {
            case SHORT_INT, FLOAT_INT, LONG_INT, DOUBLE_INT -> {
                if (!loc) {
                    throw MpiErrors.error(MPI.ERR_OP, what + ": op=" + op + " is not defined for " + type
                        + ", expected MPI.MINLOC or MPI.MAXLOC");
                }
                final dev.tutti.Op k = (dev.tutti.Op.MAXLOC == t ? MAXLOC : MINLOC)[type.layout.ordinal()];
                // every pair is one unit of the pair's wire type (LONG or LONG_PAIR), derived types' too
                return new Plan(k, type.wire, type.wirePerItem);
            }
            case FLOAT_COMPLEX, DOUBLE_COMPLEX -> {
                final boolean single = type.layout == Datatype.Layout.FLOAT_COMPLEX;
                if (dev.tutti.Op.PROD == t && null != type.shape) { // packed from a layout: 2 floats or doubles each
                    return new Plan(single ? FLOAT_COMPLEX_PARTS_PROD : DOUBLE_COMPLEX_PARTS_PROD, type.wire,
                        type.wirePerItem);
                }
                if (dev.tutti.Op.PROD == t) { // one unit per complex number
                    return single ? new Plan(FLOAT_COMPLEX_PROD, dev.tutti.Datatype.LONG, type.wirePerItem / 2)
                        : new Plan(DOUBLE_COMPLEX_PROD, dev.tutti.Datatype.DOUBLE_PAIR, type.wirePerItem / 2);
                }
                if (dev.tutti.Op.SUM != t) {
                    throw MpiErrors.error(MPI.ERR_OP, what + ": op=" + op + " is not defined for " + type
                        + ", expected MPI.SUM or MPI.PROD");
                }
                return new Plan(t, type.wire, type.wirePerItem);
            }
            default -> {
                if (Datatype.Base.BYTE == type.base && dev.tutti.Datatype.BYTE == type.wire
                    && (dev.tutti.Op.MAX == t || dev.tutti.Op.MIN == t)) {
                    return new Plan(dev.tutti.Op.MAX == t ? UBYTE_MAX : UBYTE_MIN, dev.tutti.Datatype.BYTE,
                        type.wirePerItem);
                }
                if (!t.isDefinedFor(type.wire)) {
                    throw MpiErrors.error(MPI.ERR_OP, what + ": op=" + op + " is not defined for " + type);
                }
                return new Plan(t, type.wire, type.wirePerItem);
            }
        }
    }

    /**
     * Applies a reduction locally, {@code inOut = in op inOut} (MPI_Reduce_local): a predefined operation through
     * Tutti's {@link dev.tutti.Op#reduceLocal}, one of this package's kernels or a user operation directly.
     *
     * @param what  the operation, for messages
     * @param plan  the plan
     * @param in    the left operand
     * @param inOut the right operand and result
     */
    static void local(final String what, final Plan plan, final dev.tutti.Buf in, final dev.tutti.Buf inOut) {
        if (plan.op().isPredefined()) {
            plan.op().reduceLocal(in, inOut); // Tutti's own kernels
            return;
        }
        if (!(plan.op() instanceof dev.tutti.Op.User u) || null == u.segmentFunction()) {
            throw MpiErrors.unsupported(what + " with op " + plan.op().name());
        }
        final MemorySegment a = null != in.segment() ? in.segment() : packed(in);
        final MemorySegment b = null != inOut.segment() ? inOut.segment() : packed(inOut);
        u.segmentFunction().apply(plan.unit(), a, b, inOut.count());
        if (null == inOut.segment()) {
            inOut.unpack(b); // a layout's data (its gaps untouched), or booleans
        }
    }

    /** @return a copy of a buffer's packed data: the items of a layout, or the bytes of booleans */
    private static MemorySegment packed(final dev.tutti.Buf b) {
        final MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(b.byteSize())]);
        b.pack(out);
        return out;
    }

    private static void ubyte(final MemorySegment in, final MemorySegment io, final int n, final boolean max) {
        for (int i = 0; i < n; i++) {
            final int a = Byte.toUnsignedInt(in.get(ValueLayout.JAVA_BYTE, i));
            final int b = Byte.toUnsignedInt(io.get(ValueLayout.JAVA_BYTE, i));
            if (max ? a > b : a < b) {
                io.set(ValueLayout.JAVA_BYTE, i, (byte) a);
            }
        }
    }

    /** MINLOC or MAXLOC kernels indexed by {@link Datatype.Layout} ordinal (null where Tutti's own serves). */
    private static dev.tutti.Op[] locOps(final boolean max) {
        final dev.tutti.Op[] ops = new dev.tutti.Op[Datatype.Layout.values().length];
        for (final Datatype.Layout l : Datatype.Layout.values()) {
            final int size;
            final int indexAt;
            switch (l) {
                case SHORT_INT, FLOAT_INT -> {
                    size = 8;
                    indexAt = 4;
                }
                case LONG_INT, DOUBLE_INT -> {
                    size = 16;
                    indexAt = 8;
                }
                default -> {
                    continue;
                }
            }
            ops[l.ordinal()] = dev.tutti.Op.user((max ? "MPI_MAXLOC(" : "MPI_MINLOC(") + l + ")", true,
                (final dev.tutti.Datatype t, final MemorySegment in, final MemorySegment io, final int n) -> {
                    for (int i = 0; i < n; i++) {
                        final long o = (long) size * i;
                        final int c = compare(l, in, io, o);
                        final int ia = in.get(INT, o + indexAt);
                        final int ib = io.get(INT, o + indexAt);
                        if (max ? c > 0 : c < 0) {
                            // The element-layout copy, never the five-argument one: see dev.tutti's SegmentCopy.
                            MemorySegment.copy(in, ValueLayout.JAVA_BYTE, o, io, ValueLayout.JAVA_BYTE, o, size);
                        } else if (0 == c && ia < ib) {
                            io.set(INT, o + indexAt, ia);
                        }
                    }
                });
        }
        return ops;
    }

    private static int compare(final Datatype.Layout l, final MemorySegment a, final MemorySegment b, final long o) {
        return switch (l) {
            case SHORT_INT -> Short.compare(a.get(SHORT, o), b.get(SHORT, o));
            case FLOAT_INT -> Float.compare(a.get(FLOAT, o), b.get(FLOAT, o));
            case LONG_INT -> Long.compare(a.get(LONG, o), b.get(LONG, o));
            case DOUBLE_INT -> Double.compare(a.get(DOUBLE, o), b.get(DOUBLE, o));
            default -> throw new IllegalArgumentException(l.toString());
        };
    }

    /** The body of {@link Comm#reduceLocal}: {@code inOutBuf = inBuf op inOutBuf} over {@code count} items. */
    static void local(final Object inBuf, final Object inOutBuf, final int count, final Datatype type, final Op op) {
        final Plan p = plan("reduceLocal", op, type);
        local("reduceLocal", p, Bufs.of("reduceLocal", inBuf, count, type, p.unit(), p.perItem(), null),
            Bufs.of("reduceLocal", inOutBuf, count, type, p.unit(), p.perItem(), null));
    }
}
