package mpi;

/**
 * An MPI datatype together with its Java <em>base type</em>, the primitive element type of the arrays and buffers
 * it is used with ({@code MPI.INT} with {@code int[]} or {@code IntBuffer}, the pair types such as {@code MPI.INT2}
 * with {@code byte[]} or {@code ByteBuffer}). Sizes and extents are reported in base-type elements, not bytes.
 *
 * <p>Each datatype maps onto a Tutti element type ({@link dev.tutti.Datatype}) that moves it: {@code INT} onto
 * {@code INT}, {@code FLOAT_COMPLEX} onto two {@code FLOAT}s, {@code DOUBLE_INT} (a double and an int, 16 bytes)
 * onto one 16-byte unit, and so on. Derived datatypes are contiguous ones only for now ({@link #createContiguous});
 * the other constructors throw an {@link MPIException} of class {@link MPI#ERR_UNSUPPORTED_OPERATION}.
 */
public final class Datatype implements Freeable, Cloneable {

    /** The Java element type of a datatype. */
    enum Base {
        BYTE(1), CHAR(2), SHORT(2), BOOLEAN(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        final int bytes;

        Base(final int bytes) {
            this.bytes = bytes;
        }
    }

    /** How MINLOC/MAXLOC and complex products read an item; NONE for ordinary types. */
    enum Layout {
        NONE, INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT, FLOAT_COMPLEX, DOUBLE_COMPLEX
    }

    final Base base;
    final Layout layout;
    /** Bytes of one item (extent = size: every type here is contiguous). */
    final int extentBytes;
    /** The Tutti type that moves this type's items, and how many of its elements one item is. */
    final dev.tutti.Datatype wire;
    final int wirePerItem;
    /** Basic elements per item (2 for the pair types, as MPI_Get_elements counts them). */
    final int elementsPerItem;
    private final boolean predefined;
    private final CommState state;
    private volatile boolean freed;

    Datatype(final String name, final Base base, final Layout layout, final int extentBytes,
        final dev.tutti.Datatype wire, final int wirePerItem, final int elementsPerItem, final boolean predefined) {
        this.base = base;
        this.layout = layout;
        this.extentBytes = extentBytes;
        this.wire = wire;
        this.wirePerItem = wirePerItem;
        this.elementsPerItem = elementsPerItem;
        this.predefined = predefined;
        this.state = new CommState(name);
    }

    /**
     * Builds a predefined datatype.
     *
     * @param name   MPI's name, e.g. {@code MPI_INT}
     * @param base   the Java element type
     * @param layout how reductions read an item
     * @param bytes  bytes of one item
     * @param wire   the Tutti type that moves it
     * @param per    wire elements per item
     * @param elems  basic elements per item
     * @return the datatype
     */
    static Datatype predefined(final String name, final Base base, final Layout layout, final int bytes,
        final dev.tutti.Datatype wire, final int per, final int elems) {
        return new Datatype(name, base, layout, bytes, wire, per, elems, true);
    }

    /** @return whether this is MPI.DATATYPE_NULL or a freed type */
    private boolean nullType() {
        return freed || 0 == extentBytes && null == wire;
    }

    /**
     * Checks that the type can describe data.
     *
     * @param what the operation
     * @return this
     */
    Datatype live(final String what) {
        if (nullType()) {
            throw Errors.error(MPI.ERR_TYPE, what + ": datatype=" + getNameQuietly()
                + " is null or freed, expected a valid datatype");
        }
        return this;
    }

    private String getNameQuietly() {
        return state.name();
    }

    /** @return the lower bound in base elements (always 0: no type here has holes before its data) */
    public int getLb() throws MPIException {
        MPI.check();
        return 0;
    }

    /** @return the extent in base elements ({@code MPI.INT.getExtent() == 1}, {@code MPI.INT2.getExtent() == 8}) */
    public int getExtent() throws MPIException {
        MPI.check();
        return extentBytes / base.bytes;
    }

    /** @return the true lower bound in base elements */
    public int getTrueLb() throws MPIException {
        MPI.check();
        return 0;
    }

    /** @return the true extent in base elements */
    public int getTrueExtent() throws MPIException {
        MPI.check();
        return extentBytes / base.bytes;
    }

    /** @return the size (bytes of data) in base elements */
    public int getSize() throws MPIException {
        MPI.check();
        return extentBytes / base.bytes;
    }

    /** Commits the type for use in communication; nothing to do for the types built here. */
    public void commit() throws MPIException {
        MPI.check();
    }

    /** Frees a derived type; the handle becomes null. Freeing a predefined type is an ERR_TYPE error. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw new MPIException(MPI.ERR_TYPE, Errors.string(MPI.ERR_TYPE),
                Errors.error(MPI.ERR_TYPE, "free: " + state.name() + " is predefined and cannot be freed"));
        }
        freed = true;
    }

    /** @return whether the handle is null (DATATYPE_NULL, or freed) */
    public boolean isNull() {
        return nullType();
    }

    /** @return a duplicate; a failure is wrapped in a RuntimeException */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (final MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** @return a new datatype with the same layout, attributes copied */
    public Datatype dup() throws MPIException {
        MPI.check();
        final Datatype d = new Datatype(state.name(), base, layout, extentBytes, wire, wirePerItem, elementsPerItem,
            false);
        d.state.name(state.name());
        return d;
    }

    /**
     * Builds {@code count} consecutive copies of a type (MPI_Type_contiguous).
     *
     * @param count   the number of copies
     * @param oldType the type copied
     * @return the new type
     */
    public static Datatype createContiguous(final int count, final Datatype oldType) throws MPIException {
        MPI.check();
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, Errors.string(MPI.ERR_COUNT), Errors.error(MPI.ERR_COUNT,
                "createContiguous: count=" + count + ", expected count >= 0"));
        }
        if (null == oldType || oldType.nullType()) {
            throw new MPIException(MPI.ERR_TYPE, Errors.string(MPI.ERR_TYPE), Errors.error(MPI.ERR_TYPE,
                "createContiguous: oldType is null or freed"));
        }
        final Layout layout = 1 == count ? oldType.layout : Layout.NONE;
        return new Datatype("contiguous(" + count + ", " + oldType.state.name() + ")", oldType.base, layout,
            count * oldType.extentBytes, oldType.wire, count * oldType.wirePerItem, count * oldType.elementsPerItem,
            false);
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createVector(final int count, final int blockLength, final int stride,
        final Datatype oldType) throws MPIException {
        throw unsupported("createVector");
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createHVector(final int count, final int blockLength, final int stride,
        final Datatype oldType) throws MPIException {
        throw unsupported("createHVector");
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException {
        throw unsupported("createIndexed");
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createHIndexed(final int[] blockLengths, final int[] displacements,
        final Datatype oldType) throws MPIException {
        throw unsupported("createHIndexed");
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createStruct(final int[] blockLengths, final int[] displacements, final Datatype[] types)
        throws MPIException {
        throw unsupported("createStruct");
    }

    /** Not supported yet: throws an MPIException of class ERR_UNSUPPORTED_OPERATION. */
    public static Datatype createResized(final Datatype oldType, final int lb, final int extent)
        throws MPIException {
        throw unsupported("createResized");
    }

    private static MPIException unsupported(final String what) throws MPIException {
        MPI.check();
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, Errors.string(MPI.ERR_UNSUPPORTED_OPERATION),
            Errors.unsupported("Datatype." + what));
    }

    /** @param name the new name */
    public void setName(final String name) throws MPIException {
        MPI.check();
        state.name(name);
    }

    /** @return the name ({@code MPI_INT} for the predefined ones) */
    public String getName() throws MPIException {
        MPI.check();
        return state.name();
    }

    /** @return a new attribute key for datatypes */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return CommState.newKeyval();
    }

    /** @param keyval a key from {@link #createKeyval()}; nothing to release */
    public static void freeKeyval(final int keyval) throws MPIException {
        MPI.check();
    }

    /** @param keyval the key @param value a Serializable value, stored as a copy */
    public void setAttr(final int keyval, final Object value) throws MPIException {
        MPI.check();
        state.put(keyval, value);
    }

    /** @param keyval the key @return a fresh copy of the value, or null if not set */
    public Object getAttr(final int keyval) throws MPIException {
        MPI.check();
        return state.get(keyval);
    }

    /** @param keyval the key to remove */
    public void deleteAttr(final int keyval) throws MPIException {
        MPI.check();
        state.delete(keyval);
    }

    @Override
    public String toString() {
        return state.name();
    }
}
