package mpjbuf;

/**
 * A buffer of packed data: what {@code Comm.Pack} writes, {@code Comm.Unpack} reads and {@code MPI.PACKED}
 * messages carry. Programs make one from storage of {@link BufferFactory#create(int)}:
 * {@code new Buffer(BufferFactory.create(cap), MPI.SEND_OVERHEAD, cap)}.
 *
 * <p>Implementation note: the buffer is a byte array with a fill mark, {@link #getSize()}: the number of bytes
 * written by Pack or received. Pack writes at a position its caller gives and moves the mark to the end of what it
 * wrote; a receive sets the mark to the length of the message. The layout of what Pack writes is
 * {@code mpi}'s business (each section: an 8-byte header, the data, padding to 8 bytes).
 */
public class Buffer {
    private final RawBuffer storage;
    private final int overhead;
    private final int capacity;
    private int size;

    /**
     * @param staticBuffer the storage
     * @param overhead     bytes kept free at the start for a device header (Tutti's devices need none; recorded
     *                     only)
     * @param capacity     the usable number of bytes, at most the storage's
     * @throws IllegalArgumentException if the storage is null or smaller than the capacity
     */
    public Buffer(final RawBuffer staticBuffer, final int overhead, final int capacity) {
        if (null == staticBuffer) {
            throw new IllegalArgumentException("mpjbuf.Buffer: staticBuffer=null (expected storage from "
                + "BufferFactory.create)");
        }
        if (capacity < 0 || capacity > staticBuffer.getCapacity()) {
            throw new IllegalArgumentException("mpjbuf.Buffer: capacity=" + capacity + " (expected 0.."
                + staticBuffer.getCapacity() + ", the storage's size)");
        }
        this.storage = staticBuffer;
        this.overhead = overhead;
        this.capacity = capacity;
    }

    /** @return the storage given to the constructor (for {@link BufferFactory#destroy}) */
    public RawBuffer getStaticBuffer() {
        return storage;
    }

    /** @return the usable number of bytes */
    public int getCapacity() {
        return capacity;
    }

    /** @return the number of bytes of data: the end of what Pack wrote or the length of the received message */
    public int getSize() {
        return size;
    }

    /** @return the header bytes given to the constructor */
    public int getOverhead() {
        return overhead;
    }

    /**
     * Sets the number of bytes of data (used by Pack and by receives).
     *
     * @param newSize the new fill mark, {@code 0..getCapacity()}
     * @throws IllegalArgumentException if out of range
     */
    public void setSize(final int newSize) {
        if (newSize < 0 || newSize > capacity) {
            throw new IllegalArgumentException("mpjbuf.Buffer.setSize: size=" + newSize + " (expected 0.." + capacity
                + ")");
        }
        this.size = newSize;
    }

    /**
     * The bytes themselves, shared, not copied: for {@code mpi}'s Pack, Unpack and PACKED messages.
     *
     * @return the storage's array (its first {@link #getCapacity()} bytes are this buffer's)
     */
    public byte[] array() {
        return storage.bytes();
    }
}
