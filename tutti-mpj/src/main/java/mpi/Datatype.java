package mpi;

/**
 * A datatype: the base type of its elements (which fixes the Java array a buffer must be) and where the elements of
 * one item lie. Sizes, extents and bounds count array elements, not bytes ({@code MPI.INT.Extent()} is 1), as in
 * MPJ Express; {@link #getByteSize()} gives bytes. The static factories build derived types; {@code Commit()} and
 * {@code free()} have nothing to do (every type is usable as soon as it is made).
 *
 * <p>Implementation note: the layout is a {@link Shape}, set once by the subclass's constructor; buffers are read
 * and written through it by {@link Slab}.
 */
public abstract class Datatype implements Freeable {
    /** The code of the base type ({@link #getType()}): 0 NULL, 1 BYTE, ... 9 PACKED, 12 OBJECT, -1 LB/UB. */
    public int baseType;

    /** Set by the subclass constructor; a program's own subclass gets a type with no elements. */
    Shape shape = Shape.marker();

    /** For subclasses. A subclass of a program's own describes no elements (base type NULL). */
    public Datatype() {
        this.baseType = Base.NULL.code;
    }

    final Shape shape() {
        return shape;
    }

    final Base base() {
        return shape.base;
    }

    /** @return the base type's code (see {@link #baseType}) */
    public int getType() {
        return baseType;
    }

    /** @return the bytes of one item's elements ({@code MPI.INT}: 4); 0 for objects and markers */
    public int getByteSize() {
        return shape.size() * shape.base.bytes;
    }

    /**
     * @return the extent in array elements: how far apart consecutive items lie
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Extent() throws MPIException {
        return shape.extent();
    }

    /**
     * @return the number of elements in one item
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Size() throws MPIException {
        return shape.size();
    }

    /**
     * @return the lower bound in array elements
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Lb() throws MPIException {
        return shape.lb;
    }

    /**
     * @return the upper bound in array elements
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Ub() throws MPIException {
        return shape.ub;
    }

    /**
     * Commits the type: nothing to do, every type is usable as made.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    public void Commit() throws MPIException {
        // every datatype is ready when constructed
    }

    /**
     * Nothing to release.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    @Override
    @SuppressWarnings({"removal", "deprecation", "checkstyle:NoFinalizer"})
    public void finalize() throws MPIException {
        // nothing held outside the Java heap
    }

    /** Frees the type: nothing to release. */
    @Override
    public void free() {
        // nothing held outside the Java heap
    }

    /**
     * {@code count} items of {@code oldtype} one after another.
     *
     * @param count   items, {@code >= 0}
     * @param oldtype the item
     * @return the type ({@link Contiguous})
     * @throws MPIException for a negative count or a null type
     */
    public static Datatype Contiguous(final int count, final Datatype oldtype) throws MPIException {
        return new Contiguous(count, oldtype);
    }

    /**
     * {@code count} blocks of {@code blocklength} items of {@code oldtype}, block starts {@code stride} extents of
     * {@code oldtype} apart.
     *
     * @param count       blocks, {@code >= 0}
     * @param blocklength items per block, {@code >= 0}
     * @param stride      distance of block starts in extents of {@code oldtype}
     * @param oldtype     the item
     * @return the type ({@link Vector})
     * @throws MPIException for a negative count or a null type
     */
    public static Datatype Vector(final int count, final int blocklength, final int stride, final Datatype oldtype)
        throws MPIException {
        return new Vector(count, blocklength, stride, oldtype, true);
    }

    /**
     * As {@link #Vector}, but the stride counts array elements.
     *
     * @param count       blocks
     * @param blocklength items per block
     * @param stride      distance of block starts in array elements
     * @param oldtype     the item
     * @return the type ({@link Vector})
     * @throws MPIException for a negative count or a null type
     */
    public static Datatype Hvector(final int count, final int blocklength, final int stride, final Datatype oldtype)
        throws MPIException {
        return new Vector(count, blocklength, stride, oldtype, false);
    }

    /**
     * Blocks of items of {@code oldtype} at displacements counted in extents of {@code oldtype}.
     *
     * @param array_of_blocklengths   items per block
     * @param array_of_displacements  block starts in extents of {@code oldtype}
     * @param oldtype                 the item
     * @return the type ({@link Indexed})
     * @throws MPIException if the arrays are null or of different lengths, or a length is negative
     */
    public static Datatype Indexed(final int[] array_of_blocklengths, final int[] array_of_displacements,
        final Datatype oldtype) throws MPIException {
        return new Indexed(array_of_blocklengths, array_of_displacements, oldtype, true);
    }

    /**
     * As {@link #Indexed}, but the displacements count array elements.
     *
     * @param array_of_blocklengths   items per block
     * @param array_of_displacements  block starts in array elements
     * @param oldtype                 the item
     * @return the type ({@link Indexed})
     * @throws MPIException if the arrays are null or of different lengths, or a length is negative
     */
    public static Datatype Hindexed(final int[] array_of_blocklengths, final int[] array_of_displacements,
        final Datatype oldtype) throws MPIException {
        return new Indexed(array_of_blocklengths, array_of_displacements, oldtype, false);
    }

    /**
     * Blocks of items of several types sharing one base type, at displacements in array elements; {@code MPI.LB}
     * and {@code MPI.UB} entries set the bounds.
     *
     * @param array_of_blocklengths  items per block
     * @param array_of_displacements block starts in array elements
     * @param array_of_types         the item of each block
     * @return the type ({@link Struct})
     * @throws MPIException if the base types differ, or the arrays are null or of different lengths
     */
    public static Datatype Struct(final int[] array_of_blocklengths, final int[] array_of_displacements,
        final Datatype[] array_of_types) throws MPIException {
        return new Struct(array_of_blocklengths, array_of_displacements, array_of_types);
    }

    /** @return the base type and the type map, for error messages */
    @Override
    public String toString() {
        final String name = MPI.nameOf(this);
        return null != name ? "MPI." + name : getClass().getSimpleName() + "(" + shape + ")";
    }

    // ---- argument checks shared by the constructors of the derived types

    static Shape checkedOld(final String op, final Datatype oldtype) {
        if (null == oldtype) {
            throw new MPIException(op + ": oldtype=null (expected a datatype)");
        }
        return oldtype.shape;
    }

    static void nonNegative(final String op, final String arg, final int value) {
        if (value < 0) {
            throw new MPIException(op + ": " + arg + "=" + value + " (expected >= 0)");
        }
    }

    static void sameLength(final String op, final int[] lengths, final int[] displacements) {
        if (null == lengths || null == displacements) {
            throw new MPIException(op + ": array_of_blocklengths and array_of_displacements must not be null");
        }
        if (lengths.length != displacements.length) {
            throw new MPIException(op + ": array_of_blocklengths has " + lengths.length + " entries, "
                + "array_of_displacements " + displacements.length + " (expected the same number)");
        }
        for (int i = 0; i < lengths.length; i++) {
            nonNegative(op, "array_of_blocklengths[" + i + "]", lengths[i]);
        }
    }
}
