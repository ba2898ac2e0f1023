package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;

import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import java.lang.foreign.MemorySegment;

/**
 * The one entry point of the collective engine for local reduction steps, {@link #reduce}, and the check that an
 * operation is defined for a type, {@link #check}, made before anything is sent.
 */
public final class Reductions {
    /*
     * Implementation notes.
     *
     * Dispatch. reduce() switches once on the datatype (and the kernel once on the op); the loop that follows is
     * monomorphic, over primitive arrays, with no boxing and no per-element dispatch. BOOLEAN runs the byte
     * kernels with BAND/BOR/BXOR mapped to LAND/LOR/LXOR, so results stay 0/1 whatever nonzero bytes come in.
     * A pair type runs its component's kernels over 2 * count values (MINLOC/MAXLOC are the only ops there).
     *
     * Why every loop runs over arrays, never over MemorySegment accessors. A loop of getAtIndex/setAtIndex is as fast
     * as an array loop while it has only ever seen one kind of segment, but an order of magnitude or more slower once
     * it has seen heap segments of two array types and native ones (JDK 25): the segment classes make the accessors'
     * type profile megamorphic, and the profile lives in shared JDK code, so no copy of our loop escapes it. The
     * library sees every kind (user arrays, byte[] staging, native shm). So:
     *   - a call over more than one chunk whose operand is a writable heap segment backed by the matching
     *     primitive array, starting at an element boundary, reduces that operand in place with the array loop
     *     (heapBase() + address(), which is the byte offset for heap segments; read-only segments have no
     *     heapBase and take the next path);
     *   - any other operand is copied chunk by chunk (CHUNK_BYTES per operand, L1-sized) into per-thread arrays
     *     with MemorySegment.copy (a bulk copy, not per-element), reduced, and inout is copied back.
     * Calls of at most one chunk always stage, because heapBase() allocates its Optional (16 B per operand per
     * call, which C2 does not eliminate under the mixed profile) and small reductions are schedule steps on the
     * hot path, which must not allocate; above one chunk, saving a copy is worth 32 B per >= 16 KiB reduced.
     * ReductionBenchmark (a test class) measures these paths with every kind of segment mixed in one JVM: the
     * array-backed one, the staged one behind it, and the segment loop far behind both.
     *
     * Allocation. None per call of at most one chunk, after warm-up: the staging chunks are per thread
     * (ThreadLocal, one pair per primitive type used, 2 * CHUNK_BYTES). User functions need whole vectors (a
     * function may group elements freely, so it cannot be chunked): they get the caller's arrays when both
     * segments start a matching array and the vector is longer than a chunk, else per-thread arrays that grow
     * to the largest count seen, retained only up to UserScratch.RETAIN_LIMIT_BYTES. A user function that
     * reduces again on its own thread gets fresh arrays.
     *
     * Threads. Stateless apart from the ThreadLocal scratch, which only its thread touches: safe to call from any
     * number of threads on disjoint inout segments.
     *
     * Floating point. One IEEE operation per element, in + inout, in element order: no reassociation within a
     * call (C2's vectorised loop computes the same per-element operation). The collective's algorithm decides
     * the bracketing across ranks.
     */

    /** Bytes per operand in one staging chunk; a power of two that keeps both chunks in L1. */
    static final int CHUNK_BYTES = 16 * 1024;

    private Reductions() {
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
        checkSegments(type, in, inout, count);
        if (0 == count) {
            return;
        }
        if (op instanceof final Op.Predefined predefined) {
            reducePredefined(predefined, type, in, inout, count);
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
            throw notDefined(opName, op, type);
        }
    }

    private static void checkSegments(final Datatype type, final MemorySegment in, final MemorySegment inout,
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

    private static void reducePredefined(final Op.Predefined op, final Datatype type, final MemorySegment in,
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
            case OBJECT -> throw unreachable(op, type.name());
        }
    }

    private static void reduceUser(final Op.User op, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        switch (type) {
            case BYTE -> {
                if (null != op.byteFunction()) {
                    ByteKernels.reduceUser(op.byteFunction(), in, inout, count);
                    return;
                }
            }
            case SHORT -> {
                if (null != op.shortFunction()) {
                    ShortKernels.reduceUser(op.shortFunction(), in, inout, count);
                    return;
                }
            }
            case CHAR -> {
                if (null != op.charFunction()) {
                    CharKernels.reduceUser(op.charFunction(), in, inout, count);
                    return;
                }
            }
            case INT -> {
                if (null != op.intFunction()) {
                    IntKernels.reduceUser(op.intFunction(), in, inout, count);
                    return;
                }
            }
            case LONG -> {
                if (null != op.longFunction()) {
                    LongKernels.reduceUser(op.longFunction(), in, inout, count);
                    return;
                }
            }
            case FLOAT -> {
                if (null != op.floatFunction()) {
                    FloatKernels.reduceUser(op.floatFunction(), in, inout, count);
                    return;
                }
            }
            case DOUBLE -> {
                if (null != op.doubleFunction()) {
                    DoubleKernels.reduceUser(op.doubleFunction(), in, inout, count);
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

    /** On BOOLEAN bytes the bitwise ops are the logical ones, which keep results 0/1. */
    private static Op.Predefined logical(final Op.Predefined op) {
        return switch (op) {
            case BAND -> Op.Predefined.LAND;
            case BOR -> Op.Predefined.LOR;
            case BXOR -> Op.Predefined.LXOR;
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

    private static TuttiException notDefined(final String opName, final Op op, final Datatype type) {
        final StringBuilder accepted = new StringBuilder();
        for (final Datatype t : Datatype.values()) {
            if (op.isDefinedFor(t)) {
                accepted.append(accepted.isEmpty() ? "" : ", ").append(t.name());
            }
        }
        final String what = "op=" + op + " is not defined for type=" + type;
        final String types = accepted.isEmpty() ? "no type" : accepted.toString();
        if (!op.isPredefined()) {
            return Errors.invalid(ErrorClass.OP, opName, null, what + ", it has functions for " + types
                + " (give a function for " + type + " or a SegmentFunction)");
        }
        return Errors.expected(ErrorClass.OP, opName, null, what,
            (Op.MINLOC == op || Op.MAXLOC == op ? "a (value, index) pair type: " : "one of ") + types);
    }

    /**
     * Reports a kernel reached with an operation it has no loop for; {@link #check} makes this impossible.
     *
     * @param op   the operation
     * @param type the element type's name
     * @return the exception to throw
     */
    static TuttiException unreachable(final Op op, final String type) {
        return Failures.internal("reduce", null, "no kernel for op=" + op + " on type=" + type
            + " after check() accepted it");
    }
}
