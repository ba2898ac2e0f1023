package dev.tutti.transport.shm;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Arrays that hold small messages which arrived before their receive was posted ({@link ShmEagerInbound}), kept
 * for reuse so that such messages allocate (almost) nothing.
 *
 * <p>Why: when ranks outnumber cores, a rank often finds a collective's messages in its inbox before it has posted
 * the receives (its peers ran first). Copying each into a new array would make every rank allocate about what it
 * receives, at every such call. That garbage costs twice: a young collection stalls every rank for milliseconds,
 * and until the heap has been touched once, fresh eden pages fault in on first write (stalls inside
 * {@code sink.arrive} that a pre-touched heap does not have).
 *
 * <p>Implementation notes. One bounded slot array per size class (powers of two from {@value #MIN_BYTES} bytes up
 * to {@value #MAX_BYTES}); larger arrays are not pooled. {@link #take} empties the lowest full slot it finds
 * ({@code getAndSet}), {@link #give} fills the lowest empty one ({@code compareAndSet}); both scan at most
 * {@value #SLOTS} slots, usually one or two since few messages wait at a time. Any thread may call either (the
 * poller takes, whoever delivers gives); an array is in at most one slot or one message at a time. The giver's last
 * reads of an array happen-before the next taker's writes: the giver's {@code compareAndSet} is a release, the
 * taker's {@code getAndSet} of the same slot an acquire. A full
 * class drops the array it is given (memory stays bounded: {@value #SLOTS} arrays per class), an empty one
 * allocates.
 */
final class EagerBufferPool {
    /** Smallest array handed out. */
    static final int MIN_BYTES = 64;
    /** Largest pooled array; longer messages get arrays of their own. */
    static final int MAX_BYTES = 64 * 1024;
    /** Arrays kept per size class. */
    static final int SLOTS = 32;
    private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_BYTES);
    private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_BYTES) - MIN_SHIFT + 1;
    /** What an empty message gets: nothing to copy, nothing to pool. */
    private static final byte[] EMPTY = new byte[0];

    private final AtomicReferenceArray<byte[]> slots = new AtomicReferenceArray<>(CLASSES * SLOTS);

    /**
     * Returns an array of at least {@code length} bytes (its contents are stale).
     *
     * @param length bytes needed, at least 0
     * @return a pooled array, or a new one; for 0 bytes a shared empty array ({@link #give} ignores it)
     */
    byte[] take(final int length) {
        if (0 == length) {
            return EMPTY;
        }
        if (length > MAX_BYTES) {
            return new byte[length];
        }
        final int c = sizeClass(length);
        for (int i = c * SLOTS, end = i + SLOTS; i < end; i++) {
            if (null != slots.getPlain(i)) {
                final byte[] b = slots.getAndSet(i, null);
                if (null != b) {
                    return b;
                }
            }
        }
        return new byte[MIN_BYTES << c];
    }

    /**
     * Gives an array back; nobody may use it afterwards.
     *
     * @param b an array from {@link #take}
     */
    void give(final byte[] b) {
        final int n = b.length;
        if (n > MAX_BYTES || n < MIN_BYTES || 0 != (n & (n - 1))) {
            return; // not one of ours
        }
        final int c = sizeClass(n);
        for (int i = c * SLOTS, end = i + SLOTS; i < end; i++) {
            if (null == slots.getPlain(i) && slots.compareAndSet(i, null, b)) {
                return;
            }
        }
    }

    /** @return arrays held now (for tests) */
    int held() {
        int n = 0;
        for (int i = 0; i < slots.length(); i++) {
            if (null != slots.get(i)) {
                n++;
            }
        }
        return n;
    }

    private static int sizeClass(final int length) {
        final int bits = 32 - Integer.numberOfLeadingZeros(Math.max(length, MIN_BYTES) - 1);
        return bits - MIN_SHIFT;
    }
}
