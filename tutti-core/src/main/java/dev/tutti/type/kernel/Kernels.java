package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;

import java.lang.foreign.MemorySegment;
import java.util.function.Predicate;

/**
 * The reduction kernels' one entry, which knows no {@code Op}: the predefined operations by code ({@link #SUM} ...
 * {@link #MAXLOC}, in the order of {@code Op.Predefined}, whose ordinal is its code), the segment checks made
 * before a reduction, and the message of an operation not defined for a type. The per-type kernels
 * ({@link IntKernels} ...) take user functions through an adapter ({@code UserApply}), so that this package
 * never names the api's function types; {@code dev.tutti.type.LocalReduction} is the op-aware dispatch of the engine.
 */
public final class Kernels {
    /*
     * Implementation notes.
     *
     * Dispatch. reducePredefined() switches once on the datatype (and the kernel once on the op code); the loop
     * that follows is monomorphic, over primitive arrays, with no boxing and no per-element dispatch. BOOLEAN runs the
     * byte kernels with BAND/BOR/BXOR mapped to LAND/LOR/LXOR, so results stay 0/1 whatever nonzero bytes come in.
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

    /** Code of a predefined operation: the ordinal of the {@code Op.Predefined} of the same name. */
    public static final int SUM = 0;
    /** @see #SUM */
    public static final int PROD = 1;
    /** @see #SUM */
    public static final int MIN = 2;
    /** @see #SUM */
    public static final int MAX = 3;
    /** @see #SUM */
    public static final int LAND = 4;
    /** @see #SUM */
    public static final int LOR = 5;
    /** @see #SUM */
    public static final int LXOR = 6;
    /** @see #SUM */
    public static final int BAND = 7;
    /** @see #SUM */
    public static final int BOR = 8;
    /** @see #SUM */
    public static final int BXOR = 9;
    /** @see #SUM */
    public static final int MINLOC = 10;
    /** @see #SUM */
    public static final int MAXLOC = 11;

    /** The names of the codes, as {@code Op.Predefined} spells them. */
    private static final String[] NAMES = {"SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR",
        "MINLOC", "MAXLOC"};

    /** Bytes per operand in one staging chunk; a power of two that keeps both chunks in L1. */
    static final int CHUNK_BYTES = 16 * 1024;

    private Kernels() {
    }

    /**
     * @param code a predefined operation's code
     * @return its name, as {@code Op.Predefined} spells it
     */
    public static String name(final int code) {
        return NAMES[code];
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
    public static void reducePredefined(final int op, final Datatype type, final MemorySegment in,
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

    /**
     * Reports a kernel reached with an operation it has no loop for; {@link #check} makes this impossible.
     *
     * @param op   the operation's code
     * @param type the element type's name
     * @return the exception to throw
     */
    static TuttiException unreachable(final int op, final String type) {
        return Failures.internal("reduce", null, "no kernel for op=" + NAMES[op] + " on type=" + type
            + " after check() accepted it");
    }
}
