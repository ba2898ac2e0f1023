package mpjbuf;

/** Makes and releases the storage of {@link Buffer}s, as programs written for MPJ Express do for Pack/Unpack. */
public final class BufferFactory {
    private BufferFactory() {
    }

    /**
     * Makes storage of {@code capacity} bytes.
     *
     * @param capacity the number of bytes, {@code >= 0}
     * @return the storage
     * @throws IllegalArgumentException if {@code capacity} is negative
     */
    public static RawBuffer create(final int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("BufferFactory.create: capacity=" + capacity + " (expected >= 0)");
        }
        return new RawBuffer(capacity);
    }

    /**
     * Releases storage. Heap storage needs nothing: the garbage collector frees it once unreachable.
     *
     * @param buffer the storage, may be null
     */
    public static void destroy(final RawBuffer buffer) {
        // nothing to release: the storage is a heap array
    }
}
