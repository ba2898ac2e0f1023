package dev.tutti.type.kernel;

/**
 * The per-thread arrays a user function works on when its operands are not the caller's own arrays: one pair
 * per primitive type, grown to the largest vector seen up to {@link #RETAIN_LIMIT_BYTES} per array.
 *
 * <p>Owned by one thread (held in a {@link ThreadLocal}); never shared, so plain fields suffice.
 * {@link #busy} is set while a user function runs on them, so that a user function that reduces again on the same
 * thread gets fresh arrays instead of overwriting its own operands.
 *
 * @param <A> the primitive array type
 */
final class UserScratch<A> {
    /** Arrays above this size are used once and dropped, so that one huge reduction does not pin its memory. */
    static final long RETAIN_LIMIT_BYTES = 8L * 1024 * 1024;

    /** The array for the left operand, or null before first use. */
    A in;
    /** The array for the right operand and result, or null before first use. */
    A inout;
    /** True while a user function runs on {@link #in} and {@link #inout}. */
    boolean busy;

    /**
     * Tells whether arrays of this size are kept for the next call.
     *
     * @param bytes the array size
     * @return true if the size is at most {@link #RETAIN_LIMIT_BYTES}
     */
    static boolean retains(final long bytes) {
        return bytes <= RETAIN_LIMIT_BYTES;
    }
}
