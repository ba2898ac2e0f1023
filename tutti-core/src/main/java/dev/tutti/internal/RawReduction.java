package dev.tutti.internal;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.type.kernel.ByteKernels;
import dev.tutti.type.kernel.CharKernels;
import dev.tutti.type.kernel.DoubleKernels;
import dev.tutti.type.kernel.FloatKernels;
import dev.tutti.type.kernel.IntKernels;
import dev.tutti.type.kernel.Kernels;
import dev.tutti.type.kernel.LongKernels;
import dev.tutti.type.kernel.ShortKernels;

import java.lang.foreign.MemorySegment;
import java.util.function.Predicate;

import static dev.tutti.type.kernel.Kernels.BAND;
import static dev.tutti.type.kernel.Kernels.BOR;
import static dev.tutti.type.kernel.Kernels.BXOR;
import static dev.tutti.type.kernel.Kernels.LAND;
import static dev.tutti.type.kernel.Kernels.LOR;
import static dev.tutti.type.kernel.Kernels.LXOR;
import static dev.tutti.type.kernel.Kernels.MAX;
import static dev.tutti.type.kernel.Kernels.MAXLOC;
import static dev.tutti.type.kernel.Kernels.MIN;
import static dev.tutti.type.kernel.Kernels.MINLOC;
import static dev.tutti.type.kernel.Kernels.PROD;
import static dev.tutti.type.kernel.Kernels.SUM;

/**
 * One reduction over raw memory, between a datatype and the kernels: the checks of its operands, which types a
 * predefined operation is defined for (the table in {@code Op}'s javadoc), the message of an operation not defined
 * for a type, and the choice of the kernel for a predefined operation on a datatype.
 * {@code Op.reduce} (the api's local reduction) and the engine's {@code type.LocalReduction} both go through here,
 * so a reduction is checked and dispatched the same way wherever it runs.
 *
 * <p>Implementation note. Stateless; {@link #predefined} switches once on the datatype and the kernel once on the
 * operation code, then runs a monomorphic loop (see {@link Kernels}). BOOLEAN runs the byte kernels with the
 * bitwise operations mapped to the logical ones, so results stay 0/1; a pair type runs its component's kernels over
 * twice the count.
 */
public final class RawReduction {
    private RawReduction() {
    }

    /**
     * Tells whether a predefined operation is defined for a type: the arithmetic ones for the numeric types, the
     * logical and bitwise ones for BOOLEAN and the integer types, MINLOC and MAXLOC for the pair types.
     *
     * @param op   the operation's code (the ordinal of its {@code Op.Predefined})
     * @param type the element type, or null
     * @return true if {@link #predefined} has a kernel for the pair; false for a null type or an unknown code
     */
    public static boolean definedFor(final int op, final Datatype type) {
        if (null == type) {
            return false;
        }
        return switch (op) {
            case SUM, PROD, MIN, MAX -> isInteger(type) || Datatype.FLOAT == type || Datatype.DOUBLE == type;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> Datatype.BOOLEAN == type || isInteger(type);
            case MINLOC, MAXLOC -> switch (type) {
                case INT_PAIR, LONG_PAIR, FLOAT_PAIR, DOUBLE_PAIR -> true;
                default -> false;
            };
            default -> false;
        };
    }

    private static boolean isInteger(final Datatype type) {
        return switch (type) {
            case BYTE, SHORT, CHAR, INT, LONG -> true;
            default -> false;
        };
    }

    /**
     * Checks the operands of a reduction of {@code count} elements of {@code type}.
     *
     * @throws TuttiException of class {@link ErrorClass#COUNT} if {@code count} is negative, or
     *                        {@link ErrorClass#BUFFER} if a segment is null, smaller than {@code count} elements, or
     *                        {@code inout} is read-only
     */
    public static void checkSegments(final Datatype type, final MemorySegment in, final MemorySegment inout,
        final int count) {
        if (count < 0) {
            throw Errors.argument(ErrorClass.COUNT, "reduce", null, "count", count, "count >= 0");
        }
        final long bytes = (long) count * type.sizeBytes();
        if (null == in || null == inout || in.byteSize() < bytes || inout.byteSize() < bytes) {
            throw Errors.expected(ErrorClass.BUFFER, "reduce", null, "in bytes=" + size(in) + ", inout bytes="
                + size(inout), "at least " + bytes + " each (count=" + count + " of type=" + type + ")");
        }
        if (inout.isReadOnly()) {
            throw Errors.expected(ErrorClass.BUFFER, "reduce", null, "inout is read-only", "a writable segment");
        }
    }

    private static String size(final MemorySegment s) {
        return null == s ? "null" : Long.toString(s.byteSize());
    }

    /**
     * Reduces {@code in} into {@code inout} with a predefined operation: {@code inout[i] = in[i] (op) inout[i]} for
     * {@code i < count}; the caller has checked that the operation is defined for the type and the segments
     * ({@link #checkSegments}), and {@code count > 0}.
     *
     * @param op    the operation's code
     * @param type  the element type
     * @param in    the left operand
     * @param inout the right operand, overwritten with the result
     * @param count the number of elements
     */
    public static void predefined(final int op, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        switch (type) {
            case BYTE -> ByteKernels.reduce(op, in, inout, count);
            case BOOLEAN -> ByteKernels.reduce(logical(op), in, inout, count);
            case SHORT -> ShortKernels.reduce(op, in, inout, count);
            case CHAR -> CharKernels.reduce(op, in, inout, count);
            case INT -> IntKernels.reduce(op, in, inout, count);
            case LONG -> LongKernels.reduce(op, in, inout, count);
            case FLOAT -> FloatKernels.reduce(op, in, inout, count);
            case DOUBLE -> DoubleKernels.reduce(op, in, inout, count);
            case INT_PAIR -> IntKernels.reduce(op, in, inout, values(count));
            case LONG_PAIR -> LongKernels.reduce(op, in, inout, values(count));
            case FLOAT_PAIR -> FloatKernels.reduce(op, in, inout, values(count));
            case DOUBLE_PAIR -> DoubleKernels.reduce(op, in, inout, values(count));
            case OBJECT -> throw new AssertionError("no kernel for op=" + Kernels.name(op) + " on type=OBJECT"
                + " after the caller's check accepted it");
        }
    }

    /** On BOOLEAN bytes the bitwise ops are the logical ones, which keep results 0/1. */
    private static int logical(final int op) {
        return switch (op) {
            case BAND -> LAND;
            case BOR -> LOR;
            case BXOR -> LXOR;
            default -> op;
        };
    }

    private static int values(final int pairs) {
        if (pairs > Integer.MAX_VALUE / 2) {
            throw Errors.expected(ErrorClass.COUNT, "reduce", null, "count=" + pairs + " pairs",
                "at most " + Integer.MAX_VALUE / 2 + " pairs per call");
        }
        return 2 * pairs;
    }

    /**
     * The exception for an operation not defined for a type, naming the types it is defined for.
     *
     * @param opName     the collective that asks
     * @param op         the operation, as its {@code toString} reads
     * @param predefined whether it is a predefined operation
     * @param locOp      whether it is MINLOC or MAXLOC
     * @param defined    which types the operation is defined for
     * @param type       the type asked for
     * @return the exception to throw
     */
    public static TuttiException notDefined(final String opName, final Object op, final boolean predefined,
        final boolean locOp, final Predicate<Datatype> defined, final Datatype type) {
        final StringBuilder accepted = new StringBuilder();
        for (final Datatype t : Datatype.values()) {
            if (defined.test(t)) {
                accepted.append(accepted.isEmpty() ? "" : ", ").append(t.name());
            }
        }
        final String what = "op=" + op + " is not defined for type=" + type;
        final String types = accepted.isEmpty() ? "no type" : accepted.toString();
        if (!predefined) {
            return Errors.invalid(ErrorClass.OP, opName, null, what + ", it has functions for " + types
                + " (give a function for " + type + " or a SegmentFunction)");
        }
        return Errors.expected(ErrorClass.OP, opName, null, what,
            (locOp ? "a (value, index) pair type: " : "one of ") + types);
    }
}
