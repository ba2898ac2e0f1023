package dev.tutti.type;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.type.kernel.ByteKernels;
import dev.tutti.type.kernel.CharKernels;
import dev.tutti.type.kernel.DoubleKernels;
import dev.tutti.type.kernel.FloatKernels;
import dev.tutti.type.kernel.IntKernels;
import dev.tutti.type.kernel.Kernels;
import dev.tutti.type.kernel.LongKernels;
import dev.tutti.type.kernel.ShortKernels;

import java.lang.foreign.MemorySegment;

/**
 * The engine's one entry for local reduction steps with an {@link Op}, {@link #reduce}, and the check that an
 * operation is defined for a type, {@link #check}, made before anything is sent. It turns the op into what the
 * kernels ({@link Kernels}) take, which know no {@code Op}: a predefined op's code (its ordinal), or a user
 * function with the adapter that applies it to arrays. {@link Op#reduceLocal} does the same on its own, so that
 * the api's {@code Op} and this class do not use each other.
 */
public final class LocalReduction {
    private static final ByteKernels.UserApply<Op.ByteFunction> BYTES = Op.ByteFunction::apply;
    private static final ShortKernels.UserApply<Op.ShortFunction> SHORTS = Op.ShortFunction::apply;
    private static final CharKernels.UserApply<Op.CharFunction> CHARS = Op.CharFunction::apply;
    private static final IntKernels.UserApply<Op.IntFunction> INTS = Op.IntFunction::apply;
    private static final LongKernels.UserApply<Op.LongFunction> LONGS = Op.LongFunction::apply;
    private static final FloatKernels.UserApply<Op.FloatFunction> FLOATS = Op.FloatFunction::apply;
    private static final DoubleKernels.UserApply<Op.DoubleFunction> DOUBLES = Op.DoubleFunction::apply;

    private LocalReduction() {
    }

    /**
     * Reduces {@code in} into {@code inout}: {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}.
     * {@code in} is the left operand (the lower rank's data), which matters for non-commutative operations. The
     * segments hold {@code count} elements of {@code type} in native byte order, heap or native, aligned or not;
     * BOOLEAN elements are bytes 0/1. The two must not overlap unless they are the same.
     *
     * @param op    the operation
     * @param type  the element type
     * @param in    the left operand, at least {@code count * type.sizeBytes()} bytes, not modified
     * @param inout the right operand, overwritten with the result
     * @param count the number of elements
     * @throws TuttiException of class {@link ErrorClass#OP} if the operation is not defined for the type (see
     *                        {@link #check}), {@link ErrorClass#COUNT} if {@code count} is negative, or
     *                        {@link ErrorClass#BUFFER} if a segment is null, smaller than {@code count} elements, or
     *                        {@code inout} is read-only; an exception thrown by a user function propagates as is
     */
    public static void reduce(final Op op, final Datatype type, final MemorySegment in, final MemorySegment inout,
        final int count) {
        check("reduce", op, type);
        Kernels.checkSegments(type, in, inout, count);
        if (0 == count) {
            return;
        }
        if (op instanceof final Op.Predefined predefined) {
            Kernels.reducePredefined(predefined.ordinal(), type, in, inout, count);
        } else {
            reduceUser((Op.User) op, type, in, inout, count);
        }
    }

    /**
     * Checks, before anything is sent, that an operation may reduce a type.
     *
     * @param opName the collective that asks, for the message (for example {@code "allreduce"})
     * @param op     the operation
     * @param type   the element type
     * @throws TuttiException of class {@link ErrorClass#OP} if {@code op} is null or not defined for {@code type}
     *                        (the message names the collective, the op, the type and the types it accepts), or of
     *                        class {@link ErrorClass#TYPE} if {@code type} is null
     */
    public static void check(final String opName, final Op op, final Datatype type) {
        if (null == op) {
            throw Errors.argument(ErrorClass.OP, opName, null, "op", null, "a predefined or user Op");
        }
        if (null == type) {
            throw Errors.argument(ErrorClass.TYPE, opName, null, "type", null, "a Datatype (op=" + op + ")");
        }
        if (!op.isDefinedFor(type)) {
            throw Kernels.notDefined(opName, op, op.isPredefined(), Op.MINLOC == op || Op.MAXLOC == op,
                op::isDefinedFor, type);
        }
    }

    private static void reduceUser(final Op.User op, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        switch (type) {
            case BYTE -> {
                if (null != op.byteFunction()) {
                    ByteKernels.reduceUser(op.byteFunction(), BYTES, in, inout, count);
                    return;
                }
            }
            case SHORT -> {
                if (null != op.shortFunction()) {
                    ShortKernels.reduceUser(op.shortFunction(), SHORTS, in, inout, count);
                    return;
                }
            }
            case CHAR -> {
                if (null != op.charFunction()) {
                    CharKernels.reduceUser(op.charFunction(), CHARS, in, inout, count);
                    return;
                }
            }
            case INT -> {
                if (null != op.intFunction()) {
                    IntKernels.reduceUser(op.intFunction(), INTS, in, inout, count);
                    return;
                }
            }
            case LONG -> {
                if (null != op.longFunction()) {
                    LongKernels.reduceUser(op.longFunction(), LONGS, in, inout, count);
                    return;
                }
            }
            case FLOAT -> {
                if (null != op.floatFunction()) {
                    FloatKernels.reduceUser(op.floatFunction(), FLOATS, in, inout, count);
                    return;
                }
            }
            case DOUBLE -> {
                if (null != op.doubleFunction()) {
                    DoubleKernels.reduceUser(op.doubleFunction(), DOUBLES, in, inout, count);
                    return;
                }
            }
            default -> {
                // no typed functions for BOOLEAN, the pairs and OBJECT: only the segment function applies
            }
        }
        // check() has made sure a segment function exists when no typed one does
        op.segmentFunction().apply(type, in, inout, count);
    }
}
