package mpjbuf;

/**
 * A buffer of packed data: what {@code Comm.Pack} writes, {@code Comm.Unpack} reads and {@code MPI.PACKED}
 * messages carry. Programs make one from storage of {@link BufferFactory#create(int)}:
 * {@code new Buffer(BufferFactory.create(cap), MPI.SEND_OVERHEAD, cap)}. It is also MPJ Express's device-level
 * message ({@code mpjdev.Comm.send}/{@code recv}): typed sections, each a header ({@link #putSectionHeader}) and
 * elements written contiguously, gathered by index or from a strided patch, and read back the same ways after
 * {@link #commit()}.
 *
 * <p>Implementation note: the buffer is a byte array with a fill mark, {@link #getSize()}: the number of bytes
 * written by Pack or received. Pack writes at a position its caller gives and moves the mark to the end of what it
 * wrote; a receive sets the mark to the length of the message. The layout of what Pack writes is
 * {@code mpi}'s business (each section: an 8-byte header, the data, padding to 8 bytes). The device-level
 * sections are kept apart from those bytes, by {@link Sections}. The methods that write elements are declared by
 * its write side, {@link SectionWrites}; those that read them, here.
 */
public class Buffer extends SectionWrites {
    private final RawBuffer storage;
    private final int overhead;
    private final int capacity;
    private int size;
    private Sections sections;

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

    /**
     * Starts a section of elements of {@code type}: the elements written next belong to it.
     *
     * @param type the elements' type ({@code _DYNAMIC} types and {@link Type#OBJECT} take any number of elements)
     * @throws IllegalStateException if the buffer is committed, or its capacity cannot take the header
     */
    public void putSectionHeader(final Type type) {
        sections().header(type);
    }

    /**
     * Moves to the next section (of a committed buffer); reads take their elements from it.
     *
     * @return the section's type
     * @throws IllegalStateException if the buffer is not committed or every section has been read
     */
    public Type getSectionHeader() {
        return sections().nextHeader();
    }

    /**
     * @return the number of elements of the section {@link #getSectionHeader()} moved to
     * @throws IllegalStateException if no section is open
     */
    public int getSectionSize() {
        return sections().size();
    }

    /** Ends writing (before a send) or receiving (before reading): reads then start at the first section. */
    public void commit() {
        sections().commit();
    }

    /** Empties the sections, so that the buffer can be written again. */
    public void clear() {
        sections().clear();
    }

    /**
     * The sections as a message, for {@code mpjdev.Comm}'s sends.
     *
     * @return the message's bytes
     * @throws IllegalArgumentException if an object of a section is not serialisable
     */
    public byte[] toMessage() {
        return sections().encode("mpjdev.Comm.send");
    }

    /**
     * Replaces the sections with a received message's, for {@code mpjdev.Comm}'s receives; {@link #commit()} then
     * makes them readable.
     *
     * @param message what {@link #toMessage()} made
     * @return the number of elements received
     * @throws IllegalStateException if the message cannot be read or does not fit the capacity
     */
    public int fromMessage(final byte[] message) {
        final Sections s = sections();
        s.decode("mpjdev.Comm.recv", message);
        return s.elements();
    }

    @Override
    Sections sections() {
        if (null == sections) {
            sections = new Sections(capacity);
        }
        return sections;
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final byte[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(byte[], int, int)}, or for indexes out of range
     */
    public void scatter(final byte[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(byte[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(byte[], int, int)}, or for a malformed shape
     */
    public void strScatter(final byte[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final char[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(char[], int, int)}, or for indexes out of range
     */
    public void scatter(final char[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(char[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(char[], int, int)}, or for a malformed shape
     */
    public void strScatter(final char[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final short[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(short[], int, int)}, or for indexes out of range
     */
    public void scatter(final short[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(short[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(short[], int, int)}, or for a malformed shape
     */
    public void strScatter(final short[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final boolean[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(boolean[], int, int)}, or for indexes out of range
     */
    public void scatter(final boolean[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(boolean[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(boolean[], int, int)}, or for a malformed shape
     */
    public void strScatter(final boolean[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final int[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(int[], int, int)}, or for indexes out of range
     */
    public void scatter(final int[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(int[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(int[], int, int)}, or for a malformed shape
     */
    public void strScatter(final int[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final long[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(long[], int, int)}, or for indexes out of range
     */
    public void scatter(final long[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(long[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(long[], int, int)}, or for a malformed shape
     */
    public void strScatter(final long[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final float[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(float[], int, int)}, or for indexes out of range
     */
    public void scatter(final float[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(float[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(float[], int, int)}, or for a malformed shape
     */
    public void strScatter(final float[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final double[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(double[], int, int)}, or for indexes out of range
     */
    public void scatter(final double[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(double[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(double[], int, int)}, or for a malformed shape
     */
    public void strScatter(final double[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest} from {@code dstOff}.
     *
     * @param dest   the array to fill
     * @param dstOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type or has fewer elements left
     * @throws IllegalStateException    if no section is open
     */
    public void read(final Object[] dest, final int dstOff, final int numEls) {
        sections().take("read", dest, Placement.contiguous(dstOff, numEls));
    }

    /**
     * Takes the current section's next {@code numEls} elements into {@code dest[indexes[offs + i]]}.
     *
     * @param dest    the array to fill
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #read(Object[], int, int)}, or for indexes out of range
     */
    public void scatter(final Object[] dest, final int numEls, final int offs, final int[] indexes) {
        sections().take("scatter", dest, Placement.listed("scatter", indexes, offs, numEls));
    }

    /**
     * Takes the current section's next elements into a strided patch of {@code dest}, as
     * {@link #strGather(Object[], int, int, int, int, int[])} lays it out.
     *
     * @param dest   the array to fill
     * @param dstOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #read(Object[], int, int)}, or for a malformed shape
     */
    public void strScatter(final Object[] dest, final int dstOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().take("strScatter", dest, Placement.strided("strScatter", dstOff, rank, exts, strs, shape));
    }
}
