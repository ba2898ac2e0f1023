package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The direct memory a thread hands a {@link UserFunction} as its two operands ({@link UserOps}), reused from call
 * to call: a reduction in a loop would otherwise allocate two direct buffers per call of the function, which costs
 * far more than the copy and leaves their native memory to the garbage collector.
 *
 * <p>Implementation note: one instance per thread (a thread-local), used only by its thread. {@link #acquire}
 * marks it busy until {@link #release}; a call made meanwhile on the same thread (a user function that reduces
 * again) gets no scratch and allocates. The two buffers grow to a power of two at least as large as the largest
 * operand seen, up to {@link #RETAIN_BYTES}; larger operands are allocated per call and dropped. The function sees
 * a slice of exactly the operand's size ({@code capacity() == count * extent}, as Open MPI's bindings give it), in
 * native byte order; its bytes are whatever the caller writes there (the callers overwrite or zero them).
 */
final class OperandScratch {
    /** Operands larger than this are not kept between calls. */
    static final int RETAIN_BYTES = 1 << 20;
    private static final int MIN_BYTES = 256;
    private static final ThreadLocal<OperandScratch> MINE = ThreadLocal.withInitial(OperandScratch::new);

    private ByteBuffer first;
    private ByteBuffer second;
    private boolean busy;

    private OperandScratch() {
    }

    /**
     * Takes the calling thread's scratch for two operands of {@code bytes} each.
     *
     * @param bytes bytes per operand
     * @return the scratch, now busy; or null if the operands are too large to keep or the scratch is in use
     */
    static OperandScratch acquire(final long bytes) {
        if (bytes > RETAIN_BYTES) {
            return null;
        }
        final OperandScratch s = MINE.get();
        if (s.busy) {
            return null;
        }
        s.busy = true;
        if (null == s.first || s.first.capacity() < bytes) {
            final int size = Math.max(MIN_BYTES, Integer.highestOneBit((int) Math.max(1, bytes - 1)) << 1);
            s.first = ByteBuffer.allocateDirect(size);
            s.second = ByteBuffer.allocateDirect(size);
        }
        return s;
    }

    /** @param bytes the operand's size @return a native-order view of the first operand's memory */
    ByteBuffer first(final long bytes) {
        return first.slice(0, (int) bytes).order(ByteOrder.nativeOrder());
    }

    /** @param bytes the operand's size @return a native-order view of the second operand's memory */
    ByteBuffer second(final long bytes) {
        return second.slice(0, (int) bytes).order(ByteOrder.nativeOrder());
    }

    /** Gives the scratch back: the function has returned and the result was copied out. */
    void release() {
        busy = false;
    }

    /**
     * Returns a new operand, for calls that get no scratch.
     *
     * @param bytes its size
     * @return a zeroed, native-order direct buffer of exactly {@code bytes}
     */
    static ByteBuffer fresh(final long bytes) {
        return ByteBuffer.allocateDirect(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder());
    }
}
