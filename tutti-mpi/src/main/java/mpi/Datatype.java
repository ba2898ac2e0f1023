package mpi;

/**
 * An MPI datatype together with its Java <em>base type</em>, the primitive element type of the arrays and buffers
 * it is used with ({@code MPI.INT} with {@code int[]} or {@code IntBuffer}, the pair types such as {@code MPI.INT2}
 * with {@code byte[]} or {@code ByteBuffer}). Sizes and extents are reported in base-type elements, not bytes.
 *
 * <p>Each datatype maps onto a Tutti element type ({@link dev.tutti.Datatype}) that moves it: {@code INT} onto
 * {@code INT}, {@code FLOAT_COMPLEX} onto two {@code FLOAT}s, {@code DOUBLE_INT} (a double and an int, 16 bytes)
 * onto one 16-byte unit, and so on.
 *
 * <p>Derived datatypes are Tutti {@link dev.tutti.Layout}s of the old type's Tutti element: a buffer of one is a
 * Tutti layout buffer, packed to send and unpacked on receive (a plain view when its items are contiguous). A
 * contiguous type of a predefined one stays a plain run of elements. A struct of blocks of different element types
 * is a layout of bytes. Derived types over {@code MPI.BOOLEAN} are not supported (ERR_TYPE).
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
    /** A derived type's layout (its element is {@link #wire}), or null for a run of whole items. */
    final dev.tutti.Layout shape;
    /**
     * Bytes one item occupies on the wire and in packed form (the extent, for a type without a shape): a pair type's
     * padding included, as Tutti moves it; what {@link Status} counts divide by.
     */
    final int sizeBytes;
    /**
     * Bytes of data in one item as MPI_Type_size counts them: the basic elements' sizes without any padding (a
     * {@code SHORT_INT} is 6, two of them 12), for {@link #getSize()}.
     */
    final int dataBytes;
    /**
     * The alignment of an item in bytes (MPI's k_i): a derived type's extent is rounded up to a multiple of the
     * largest alignment of its parts, as MPI (4.1.6) says and Open MPI does, unless its bounds are explicit.
     */
    final int alignBytes;
    /** Whether the bounds are explicit (createResized, or built from such a type): the extent is not rounded. */
    final boolean userBound;
    /**
     * The sizes in bytes of one item's basic elements in type-map order, when they differ (a struct of mixed
     * types, and types built from it), for {@link Status#getElements}; null when every element has the same size.
     * Written once by the factory that builds the type, before the type is returned.
     */
    int[] signature;
    private final boolean predefined;
    /**
     * Whether the type can always describe data: predefined and not {@code DATATYPE_NULL}. Such a type is never
     * freed and always committed, so the hot paths skip {@link #usable}'s checks for it.
     */
    final boolean settled;
    private final CommState state;
    private volatile boolean freed;
    /** Whether the type may describe data in communication: predefined ones always, derived ones after commit. */
    private volatile boolean committed;

    Datatype(final String name, final Base base, final Layout layout, final int extentBytes,
        final dev.tutti.Datatype wire, final int wirePerItem, final int elementsPerItem, final boolean predefined,
        final int alignBytes, final int dataBytes) {
        this.dataBytes = dataBytes;
        this.alignBytes = alignBytes;
        this.userBound = false;
        this.base = base;
        this.layout = layout;
        this.extentBytes = extentBytes;
        this.wire = wire;
        this.wirePerItem = wirePerItem;
        this.elementsPerItem = elementsPerItem;
        this.predefined = predefined;
        this.settled = predefined && null != wire;
        this.committed = predefined;
        this.state = predefined ? new CommState(name) : CommState.unnamed(name);
        this.shape = null;
        this.sizeBytes = extentBytes;
    }

    private Datatype(final String name, final Base base, final Layout layout, final dev.tutti.Layout shape,
        final int elementsPerItem, final int alignBytes, final boolean userBound, final int dataBytes) {
        this.dataBytes = dataBytes;
        this.alignBytes = alignBytes;
        this.userBound = userBound;
        this.base = base;
        this.layout = layout;
        this.shape = shape;
        this.extentBytes = Math.toIntExact(shape.extentBytes());
        this.sizeBytes = Math.toIntExact(shape.sizeBytes());
        this.wire = shape.element();
        this.wirePerItem = Math.toIntExact(shape.size());
        this.elementsPerItem = elementsPerItem;
        this.predefined = false;
        this.settled = false;
        this.state = CommState.unnamed(name);
    }

    /**
     * Builds a predefined datatype.
     *
     * @param name   MPI's name, e.g. {@code MPI_INT32_T}
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
        return new Datatype(name, base, layout, bytes, wire, per, elems, true, alignment(layout, wire, bytes),
            pairData(layout, bytes));
    }

    /**
     * The data bytes of a predefined item, as MPI_Type_size counts them: a pair's members without the padding
     * between and after them ({@code SHORT_INT} 6, {@code LONG_INT} and {@code DOUBLE_INT} 12, as in Open MPI),
     * which Tutti moves with the data; every other type's whole size.
     */
    private static int pairData(final Layout layout, final int bytes) {
        return switch (layout) {
            case SHORT_INT -> Short.BYTES + Integer.BYTES;
            case LONG_INT, DOUBLE_INT -> Long.BYTES + Integer.BYTES;
            default -> bytes;
        };
    }

    /** The natural alignment of a predefined type: its C type's (a pair's largest member's). */
    private static int alignment(final Layout layout, final dev.tutti.Datatype wire, final int bytes) {
        return switch (layout) {
            case INT2, SHORT_INT, FLOAT_INT -> 4;
            case LONG_INT, DOUBLE_INT -> 8;
            case FLOAT_COMPLEX, DOUBLE_COMPLEX, NONE -> 0 == bytes ? 1 : Math.max(1, wire.sizeBytes());
        };
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
            throw MpiErrors.error(MPI.ERR_TYPE, what + ": datatype=" + getNameQuietly()
                + " is null or freed, expected a valid datatype");
        }
        return this;
    }

    /**
     * Checks that the type can describe data in communication (p2p, collectives, pack and unpack): live, and
     * committed if derived, as MPI requires and Open MPI checks (ERR_TYPE). Constructors, size and extent queries
     * and {@link Status} counts need no commit.
     *
     * @param what the operation
     * @return this
     */
    Datatype usable(final String what) {
        live(what);
        return committedFor(what);
    }

    /**
     * Checks only the commit, for a type that may be null when nothing moves ({@code MPI.DATATYPE_NULL} with count
     * 0 is predefined, hence committed).
     *
     * @param what the operation
     * @return this
     */
    Datatype committedFor(final String what) {
        if (!committed) {
            throw MpiErrors.error(MPI.ERR_TYPE, what + ": datatype=" + getNameQuietly() + " is not committed, "
                + "expected commit() before it is used in communication");
        }
        return this;
    }

    private String getNameQuietly() {
        return state.name();
    }

    /** @return the lower bound in base elements */
    public int getLb() throws MPIException {
        MPI.check();
        return null == shape ? 0 : (int) (shape.lbBytes() / base.bytes);
    }

    /** @return the extent in base elements ({@code MPI.INT.getExtent() == 1}, {@code MPI.INT2.getExtent() == 8}) */
    public int getExtent() throws MPIException {
        MPI.check();
        return extentBytes / base.bytes;
    }

    /** @return the true lower bound in base elements: where the first data lies */
    public int getTrueLb() throws MPIException {
        MPI.check();
        return null == shape ? 0 : (int) (shape.trueLbBytes() / base.bytes);
    }

    /** @return the true extent in base elements: from the first data to the end of the last */
    public int getTrueExtent() throws MPIException {
        MPI.check();
        return null == shape ? extentBytes / base.bytes : (int) (shape.trueExtentBytes() / base.bytes);
    }

    /**
     * Returns the size of one item's data in base elements, as MPI_Type_size counts it: no padding, not even the
     * padding inside the pair types ({@code createContiguous(2, MPI.SHORT_INT).getSize() == 12}), which Tutti
     * moves with the data.
     *
     * @return the size in base elements
     */
    public int getSize() throws MPIException {
        MPI.check();
        return dataBytes / base.bytes;
    }

    /**
     * Commits the type for use in communication (a layout needs no further preparation); committing a committed
     * type does nothing. A null or freed type is an ERR_TYPE error.
     */
    public void commit() throws MPIException {
        MPI.COMM_WORLD.run("MPI_Type_commit", () -> {
            live("commit");
            committed = true;
        });
    }

    /** Frees a derived type; the handle becomes null. Freeing a predefined type is an ERR_TYPE error. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw new MPIException(MPI.ERR_TYPE, MpiErrors.string(MPI.ERR_TYPE),
                MpiErrors.error(MPI.ERR_TYPE, "free: " + state.name() + " is predefined and cannot be freed"));
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
        final Datatype d = null != shape ? new Datatype(state.name(), base, layout, shape, elementsPerItem,
            alignBytes, userBound, dataBytes) : new Datatype(state.name(), base, layout, extentBytes, wire, wirePerItem,
            elementsPerItem, false, alignBytes, dataBytes);
        d.signature = signature;
        d.committed = committed;
        d.state.name(CommState.fit("dup", "Dup " + state.shownName())); // Open MPI's name of a duplicate
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
        return Derived.make("createContiguous", () -> {
            Derived.old("createContiguous", oldType);
            if (count < 0) {
                throw MpiErrors.error(MPI.ERR_COUNT, "createContiguous: count=" + count + ", expected count >= 0");
            }
            final String name = "contiguous(" + count + ", " + oldType.state.name() + ")";
            if (null == oldType.shape) {
                final Datatype d = new Datatype(name, oldType.base, oldType.layout, // pairs stay pairs for reductions
                    count * oldType.extentBytes, oldType.wire, count * oldType.wirePerItem,
                    count * oldType.elementsPerItem, false, oldType.alignBytes, count * oldType.dataBytes);
                d.signature = repeat(oldType.signature, count);
                return d;
            }
            return derived("contiguous(" + count + ")", oldType, dev.tutti.Layout.contiguous(count, oldType.item()),
                count);
        });
    }

    /**
     * Builds {@code count} blocks of {@code blockLength} items, block starts {@code stride} extents of
     * {@code oldType} apart (MPI_Type_vector).
     *
     * @param count       blocks
     * @param blockLength items per block
     * @param stride      distance of block starts in extents of {@code oldType}
     * @param oldType     the item
     * @return the new type
     */
    public static Datatype createVector(final int count, final int blockLength, final int stride,
        final Datatype oldType) throws MPIException {
        MPI.check();
        return Derived.make("createVector", () -> derived("vector(" + count + ", " + blockLength + ", " + stride
            + ")", Derived.old("createVector", oldType), dev.tutti.Layout.vector(count, blockLength, stride,
            oldType.item()), count * blockLength));
    }

    /**
     * As {@link #createVector} with the stride in bytes (MPI_Type_create_hvector).
     *
     * @param count       blocks
     * @param blockLength items per block
     * @param stride      distance of block starts in bytes
     * @param oldType     the item
     * @return the new type
     */
    public static Datatype createHVector(final int count, final int blockLength, final int stride,
        final Datatype oldType) throws MPIException {
        MPI.check();
        return Derived.make("createHVector", () -> derived("hvector(" + count + ", " + blockLength + ", " + stride
            + ")", Derived.old("createHVector", oldType), dev.tutti.Layout.hvector(count, blockLength, stride,
            oldType.item()), count * blockLength));
    }

    /**
     * Builds blocks of items at displacements in extents of {@code oldType} (MPI_Type_indexed).
     *
     * @param blockLengths  items per block
     * @param displacements block starts in extents of {@code oldType}
     * @param oldType       the item
     * @return the new type
     */
    public static Datatype createIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException {
        MPI.check();
        return Derived.make("createIndexed", () -> derived("indexed", Derived.old("createIndexed", oldType),
            dev.tutti.Layout.indexed(blockLengths, Derived.perBlock("createIndexed", blockLengths, displacements),
                oldType.item()), Derived.sum(blockLengths)));
    }

    /**
     * Builds blocks of items at byte displacements (MPI_Type_create_hindexed).
     *
     * @param blockLengths  items per block
     * @param displacements block starts in bytes
     * @param oldType       the item
     * @return the new type
     */
    public static Datatype createHIndexed(final int[] blockLengths, final int[] displacements,
        final Datatype oldType) throws MPIException {
        MPI.check();
        return Derived.make("createHIndexed", () -> derived("hindexed", Derived.old("createHIndexed", oldType),
            dev.tutti.Layout.hindexed(blockLengths, Derived.longs(Derived.perBlock("createHIndexed", blockLengths,
                displacements)), oldType.item()),
            Derived.sum(blockLengths)));
    }

    /**
     * Builds blocks of items of given types at byte displacements (MPI_Type_create_struct). The result's base type
     * is {@code BYTE}; when the blocks' types have different Tutti elements the data moves as bytes.
     *
     * @param blockLengths  items per block
     * @param displacements block starts in bytes
     * @param types         the type of each block's items
     * @return the new type
     */
    public static Datatype createStruct(final int[] blockLengths, final int[] displacements, final Datatype[] types)
        throws MPIException {
        MPI.check();
        return Derived.make("createStruct", () -> Derived.struct(blockLengths, displacements, types));
    }

    /**
     * The same data with a new lower bound and extent, both in bytes (MPI_Type_create_resized).
     *
     * @param oldType the type
     * @param lb      the new lower bound in bytes
     * @param extent  the new extent in bytes
     * @return the new type
     */
    public static Datatype createResized(final Datatype oldType, final int lb, final int extent)
        throws MPIException {
        MPI.check();
        return Derived.make("createResized", () -> {
            final Datatype old = Derived.old("createResized", oldType);
            final Datatype d = new Datatype("resized(" + lb + ", " + extent + ") of " + old.state.name(), old.base,
                old.layout, dev.tutti.Layout.resized(old.item(), lb, extent), old.elementsPerItem, old.alignBytes,
                true, old.dataBytes);
            d.signature = old.signature;
            return d;
        });
    }

    /**
     * Builds a derived type over a layout.
     *
     * @param name     the name
     * @param base     the Java element type of its buffers
     * @param shape    the layout
     * @param elements  basic elements per item
     * @param align     the largest alignment of its parts
     * @param userBound whether a part has explicit bounds
     * @param data      bytes of data per item (MPI_Type_size)
     * @return the type (its extent padded to the alignment unless the bounds are explicit)
     */
    static Datatype derived(final String name, final Base base, final dev.tutti.Layout shape, final int elements,
        final int align, final boolean userBound, final int data) {
        return new Datatype(name, base, Layout.NONE, padded(shape, align, userBound), elements, align, userBound,
            data);
    }

    /**
     * Rounds a derived layout's extent up to a multiple of its alignment (MPI's epsilon), unless its bounds are
     * explicit.
     */
    private static dev.tutti.Layout padded(final dev.tutti.Layout shape, final int align, final boolean userBound) {
        final long extent = shape.extentBytes();
        final long epsilon = align > 1 ? Math.floorMod(extent, (long) align) : 0;
        return userBound || 0 == epsilon ? shape : dev.tutti.Layout.resized(shape, shape.lbBytes(),
            extent + align - epsilon);
    }

    /**
     * Builds a derived type of items of {@code old}: as {@link #derived(String, Base, dev.tutti.Layout, int, int,
     * boolean, int)}, remembering how reductions must read {@code old}'s items.
     *
     * @param name  the constructor's description
     * @param old   the old type
     * @param shape the layout
     * @param items items of {@code old} in one item of the new type
     * @return the type
     */
    static Datatype derived(final String name, final Datatype old, final dev.tutti.Layout shape, final int items) {
        final Datatype d = new Datatype(name + " of " + old.state.name(), old.base, old.layout, padded(shape,
            old.alignBytes, old.userBound), items * old.elementsPerItem, old.alignBytes, old.userBound,
            items * old.dataBytes);
        d.signature = repeat(old.signature, items);
        return d;
    }

    /**
     * Returns whether the items of this type fill their extent with data from byte 0, with no gap: a derived type
     * that reductions with a user function may treat as plain memory, as Open MPI hands such a function the
     * memory of {@code count} extents.
     *
     * @return whether it is dense
     */
    boolean dense() {
        return null == shape || shape.lbBytes() == 0 && shape.trueLbBytes() == 0
            && shape.sizeBytes() == shape.extentBytes();
    }

    /** Types with more basic elements per item than this keep no signature (getElements then divides). */
    private static final int MAX_SIGNATURE = 1 << 16;

    /** @return the sizes of one item's basic elements: {@link #signature}, or equal sizes */
    int[] elementSizes() {
        if (null != signature) {
            return signature;
        }
        final int[] s = new int[elementsPerItem];
        java.util.Arrays.fill(s, sizeBytes / Math.max(1, elementsPerItem));
        return s;
    }

    /**
     * Returns a signature repeated: the signature of {@code times} items of a type.
     *
     * @param sig   the item's signature, or null
     * @param times items
     * @return the repeated signature, or null if {@code sig} is null or the result would be too long
     */
    static int[] repeat(final int[] sig, final long times) {
        if (null == sig || times < 0 || sig.length * times > MAX_SIGNATURE) {
            return null;
        }
        final int[] out = new int[(int) (sig.length * times)];
        for (int i = 0; i < times; i++) {
            System.arraycopy(sig, 0, out, i * sig.length, sig.length);
        }
        return out;
    }

    /** @return the layout of one item of this type, in its Tutti element */
    dev.tutti.Layout item() {
        if (null != shape) {
            return shape;
        }
        if (dev.tutti.Datatype.BOOLEAN == wire) {
            throw MpiErrors.error(MPI.ERR_TYPE, "derived datatypes of " + state.name() + " are not supported");
        }
        final dev.tutti.Layout one = dev.tutti.Layout.contiguous(wirePerItem, dev.tutti.Layout.of(wire));
        return one.extentBytes() == extentBytes ? one : dev.tutti.Layout.resized(one, 0, extentBytes);
    }

    /** @return the name, for messages */
    String name() {
        return state.name();
    }

    /** @param name the new name (at most {@code MPI.MAX_OBJECT_NAME - 1} characters are kept) */
    public void setName(final String name) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Type_set_name", () -> state.name(CommState.fit("setName", name)));
    }

    /**
     * Returns the name: for a predefined type the name of the C type Open MPI's bindings map it onto
     * ({@code MPI_INT32_T} for {@code MPI.INT}, {@code MPI_DOUBLE}, {@code MPI_2INT}, ...); for a derived type the
     * name last set, {@code "Dup "} and the old type's name for a duplicate, or an empty string.
     *
     * @return the name
     */
    public String getName() throws MPIException {
        MPI.check();
        return state.shownName();
    }

    /** @return a new attribute key for datatypes */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Keyvals.create(Keyvals.Kind.TYPE);
    }

    /** @param keyval a key from {@link #createKeyval()}: it can no longer store values */
    public static void freeKeyval(final int keyval) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Type_free_keyval", () -> Keyvals.free(Keyvals.Kind.TYPE, keyval));
    }

    /*
     * Datatype errors go to MPI_COMM_WORLD's handler, as Open MPI reports errors of objects that belong to no
     * communicator.
     */

    /** @param keyval the key @param value a Serializable value, stored as a copy */
    public void setAttr(final int keyval, final Object value) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Type_set_attr", () -> {
            Keyvals.writable("setAttr", Keyvals.Kind.TYPE, keyval);
            state.put(keyval, value);
        });
    }

    /** @param keyval the key @return a fresh copy of the value, or null if not set */
    public Object getAttr(final int keyval) throws MPIException {
        return MPI.COMM_WORLD.get("MPI_Type_get_attr", () -> {
            Keyvals.readable(keyval);
            return state.get(keyval);
        });
    }

    /** @param keyval the key to remove */
    public void deleteAttr(final int keyval) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Type_delete_attr", () -> {
            Keyvals.deletable(Keyvals.Kind.TYPE, keyval);
            state.delete(keyval);
        });
    }

    @Override
    public String toString() {
        return state.name();
    }
}
