package mpjbuf;

/**
 * The storage of a {@link Buffer}: a fixed number of bytes, made by {@link BufferFactory#create(int)}. On the Java
 * heap (MPJ Express could also use direct memory; nothing a program sees depends on it).
 */
public final class RawBuffer {
    private final byte[] bytes;

    RawBuffer(final int capacity) {
        this.bytes = new byte[capacity];
    }

    /** @return the number of bytes this storage holds */
    public int getCapacity() {
        return bytes.length;
    }

    byte[] bytes() {
        return bytes;
    }
}
