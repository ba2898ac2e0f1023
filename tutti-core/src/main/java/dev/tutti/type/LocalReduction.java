package dev.tutti.type;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.RawReduction;

import java.lang.foreign.MemorySegment;

/**
 * The engine's one entry for local reduction steps with an {@link Op}, {@link #reduce} (the op's own
 * {@link Op#reduce}, which turns it into what the kernels take: they know no {@code Op}), and the check that an
 * operation is defined for a type, {@link #check}, made before anything is sent.
 */
public final class LocalReduction {

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
        if (null == op) {
            throw Errors.argument(ErrorClass.OP, "reduce", null, "op", null, "a predefined or user Op");
        }
        op.reduce(type, in, inout, count);
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
            throw RawReduction.notDefined(opName, op, op.isPredefined(), Op.MINLOC == op || Op.MAXLOC == op,
                op::isDefinedFor, type);
        }
    }
}
