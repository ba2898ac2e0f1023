package dev.tutti.internal;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;

import java.lang.foreign.MemorySegment;

/**
 * An {@link Op} applied on this rank with no communication: what {@link Op#reduce} (raw memory, the local step of
 * every reducing collective) and {@link Op#reduceLocal} (two buffers, MPI_Reduce_local) do. It checks the call, then
 * hands a predefined operation to its kernel ({@link RawReduction}) and a user operation to its function
 * ({@link UserFunctions}); the api's {@code Op} keeps the contract and delegates here.
 *
 * <p>Implementation note. Stateless. {@link #reduce} costs the checks and one switch on the datatype before the
 * kernel's loop. {@link #reduceLocal} reduces plain views in place; a buffer of a {@code Layout} or of booleans is
 * first gathered into a heap copy of its packed elements (one allocation and copy of {@code byteSize()} bytes per
 * such operand), and {@code inout}'s copy is scattered back after.
 */
public final class OpReduction {
    private OpReduction() {
    }

    /**
     * The body of {@link Op#reduceLocal}: {@code inout[i] = in[i] (op) inout[i]} for every element of two buffers.
     *
     * @param op    the operation
     * @param in    the left operand, not modified
     * @param inout the right operand, overwritten with the result
     * @throws TuttiException as {@link Op#reduceLocal} says
     */
    public static void reduceLocal(final Op op, final Buf in, final Buf inout) {
        if (null == in || null == inout || Buf.IN_PLACE == in || Buf.IN_PLACE == inout) {
            throw Errors.argument(ErrorClass.ARG, "reduceLocal", null, null == in || Buf.IN_PLACE == in ? "in"
                : "inout", null == in || null == inout ? "null" : "IN_PLACE", "a buffer");
        }
        if (in.datatype() != inout.datatype()) {
            throw Errors.expected(ErrorClass.TYPE, "reduceLocal", null, "in type=" + in.datatype() + ", inout type="
                + inout.datatype(), "one type");
        }
        if (in.count() != inout.count()) {
            throw Errors.expected(ErrorClass.COUNT, "reduceLocal", null, "in count=" + in.count() + ", inout count="
                + inout.count(), "one count");
        }
        final MemorySegment a = null != in.segment() ? in.segment() : packedCopy(in);
        final MemorySegment b = null != inout.segment() ? inout.segment() : packedCopy(inout);
        reduce(op, inout.datatype(), a, b, inout.count());
        if (null == inout.segment()) {
            inout.unpack(b);
        }
    }

    /** @return a heap copy of a buffer's packed elements (a layout's items, or booleans as bytes 0/1) */
    private static MemorySegment packedCopy(final Buf b) {
        final MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(b.byteSize())]);
        b.pack(out);
        return out;
    }

    /**
     * The body of {@link Op#reduce}: {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}, over raw memory.
     *
     * @param op    the operation
     * @param type  the element type
     * @param in    the left operand, not modified
     * @param inout the right operand, overwritten with the result
     * @param count the number of elements
     * @throws TuttiException as {@link Op#reduce} says
     */
    public static void reduce(final Op op, final Datatype type, final MemorySegment in, final MemorySegment inout,
        final int count) {
        if (null == type) {
            throw Errors.argument(ErrorClass.TYPE, "reduce", null, "type", null, "a Datatype (op=" + op + ")");
        }
        if (!op.isDefinedFor(type)) {
            throw RawReduction.notDefined("reduce", op, op.isPredefined(), Op.MINLOC == op || Op.MAXLOC == op,
                op::isDefinedFor, type);
        }
        RawReduction.checkSegments(type, in, inout, count);
        if (0 == count) {
            return;
        }
        switch (op) {
            case final Op.Predefined predefined -> RawReduction.predefined(predefined.ordinal(), type, in, inout,
                count);
            case final Op.User user -> UserFunctions.apply(user, type, in, inout, count);
        }
    }
}
