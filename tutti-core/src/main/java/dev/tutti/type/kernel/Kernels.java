package dev.tutti.type.kernel;


/**
 * What the reduction kernels share: the predefined operations by code ({@link #SUM} ... {@link #MAXLOC}, in the
 * order of {@code Op.Predefined}, whose ordinal is its code) and the staging chunk. This package is pure arithmetic
 * over memory segments and knows nothing of the api: one kernel class per primitive type ({@link IntKernels} ...),
 * each taking an operation code, or a user function through an adapter ({@code UserApply}).
 * {@code dev.tutti.internal.RawReduction} checks the operands and picks the kernel for a datatype.
 */
public final class Kernels {
    /*
     * Implementation notes.
     *
     * Dispatch. RawReduction.predefined() switches once on the datatype (and the kernel once on the op code); the loop
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
     * Every loop reads and writes both arrays at one index, b[i] = a[i] (op) b[i]: C2 (JDK 25) vectorises a loop over
     * two arrays of one type only when it can rule out that a store to one feeds a later load from the other, which
     * it can at one index and cannot at two (a[ai + i], b[bi + i] with ai != bi may be the same array, shifted), and
     * the loop at two indices runs several times slower (bench/RESULTS.md, on-host section). So ranges at one index
     * reduce in place; ranges at two (an operand staged from a segment, a receive buffer's block at an offset) are
     * copied chunk by chunk to index 0 of the per-thread arrays, both of them, and the result copied back: three
     * L1-sized copies cost less than the scalar loop. MINLOC and MAXLOC keep their loops over pairs.
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
     * The error of a kernel reached with an operation it has no loop for: the caller has checked that the operation
     * is defined for the type, so this is a broken invariant, not an argument to report.
     *
     * @param op   the operation's code
     * @param type the element type's name
     * @return the error to throw
     */
    static AssertionError unreachable(final int op, final String type) {
        return new AssertionError("no kernel for op=" + NAMES[op] + " on type=" + type
            + " after the caller's check accepted it");
    }
}
