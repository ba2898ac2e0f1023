package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-struct-like datatype over byte buffers. A subclass adds its fields in its constructor ({@code addInt()},
 * {@code addDouble(3)}, ...: each returns the field's byte offset; fields follow one another with no alignment, and
 * {@link #setOffset} moves the next one) and implements {@link #newData()}, which returns its view class, a
 * subclass of {@link Data} that reads and writes the fields of one element. The extent is the end of the fields
 * rounded up to their largest alignment, as MPI's struct types and C structs pad ({double, int} has extent 16).
 * The first {@link #getType()}, {@link #getExtent()} or {@code getData} fixes the layout; later {@code add} calls
 * fail with an {@link AssertionError}. {@link #getType()} is a struct {@link Datatype} of base type {@code BYTE}
 * whose extent is the struct's.
 */
public abstract class Struct {
    private record Field(Datatype type, int length, int offset) {
    }

    private final List<Field> fields = new ArrayList<>();
    private int next;
    private int extent;
    private boolean fixed;
    private Datatype type;

    /** @return the extent of one element in bytes */
    public final int getExtent() throws MPIException {
        fix();
        return extent;
    }

    /** @return the committed struct datatype (built at the first call) */
    public final Datatype getType() throws MPIException {
        fix();
        synchronized (fields) {
            if (null == type) {
                final int n = fields.size();
                final int[] lengths = new int[n];
                final int[] offsets = new int[n];
                final Datatype[] types = new Datatype[n];
                for (int i = 0; i < n; i++) {
                    lengths[i] = fields.get(i).length;
                    offsets[i] = fields.get(i).offset;
                    types[i] = fields.get(i).type;
                }
                final Datatype t = Datatype.createResized(Datatype.createStruct(lengths, offsets, types), 0, extent);
                t.commit();
                type = t;
            }
            return type;
        }
    }

    /** @return a new, unattached view of one element (the subclass's {@link Data} class) */
    protected abstract Data newData();

    /** @param buffer the buffer @return a view of element 0 of {@code buffer} */
    public final <T extends Data> T getData(final ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /** @param buffer the buffer @param index the element @return a view of element {@code index}, at byte {@code index * getExtent()} */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(final ByteBuffer buffer, final int index) throws MPIException {
        final Data d = newData();
        d.attach(buffer, index * getExtent());
        return (T) d;
    }

    /** @param array the bytes, viewed in native order @return a view of element 0 */
    public final <T extends Data> T getData(final byte[] array) throws MPIException {
        return getData(array, 0);
    }

    /** @param array the bytes, viewed in native order @param index the element @return a view of that element */
    public final <T extends Data> T getData(final byte[] array, final int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /**
     * Moves the next field to byte {@code offset}.
     *
     * @param offset the byte offset
     * @return this
     */
    public final Struct setOffset(final int offset) {
        open();
        next = offset;
        return this;
    }

    /** @return the offset of a new byte field */
    public final int addByte() {
        return addByte(1);
    }

    /** @param length elements @return the offset of a new byte array field */
    public final int addByte(final int length) {
        return add(MPI.BYTE, length);
    }

    /** @return the offset of a new char field */
    public final int addChar() {
        return addChar(1);
    }

    /** @param length elements @return the offset of a new char array field */
    public final int addChar(final int length) {
        return add(MPI.CHAR, length);
    }

    /** @return the offset of a new short field */
    public final int addShort() {
        return addShort(1);
    }

    /** @param length elements @return the offset of a new short array field */
    public final int addShort(final int length) {
        return add(MPI.SHORT, length);
    }

    /** @return the offset of a new int field */
    public final int addInt() {
        return addInt(1);
    }

    /** @param length elements @return the offset of a new int array field */
    public final int addInt(final int length) {
        return add(MPI.INT, length);
    }

    /** @return the offset of a new long field */
    public final int addLong() {
        return addLong(1);
    }

    /** @param length elements @return the offset of a new long array field */
    public final int addLong(final int length) {
        return add(MPI.LONG, length);
    }

    /** @return the offset of a new float field */
    public final int addFloat() {
        return addFloat(1);
    }

    /** @param length elements @return the offset of a new float array field */
    public final int addFloat(final int length) {
        return add(MPI.FLOAT, length);
    }

    /** @return the offset of a new double field */
    public final int addDouble() {
        return addDouble(1);
    }

    /** @param length elements @return the offset of a new double array field */
    public final int addDouble(final int length) {
        return add(MPI.DOUBLE, length);
    }

    /** @param struct a struct @return the offset of a new field holding one of its elements */
    public final int addStruct(final Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /** @param struct a struct @param length elements @return the offset of a new array of its elements */
    public final int addStruct(final Struct struct, final int length) throws MPIException {
        return add(struct.getType(), length);
    }

    /** @param type a datatype @return the offset of a new field of one item */
    public final int addData(final Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /** @param type a datatype @param length items @return the offset of a new array field */
    public final int addData(final Datatype type, final int length) throws MPIException {
        return add(type, length);
    }

    private int add(final Datatype t, final int length) {
        open();
        final int at = next;
        fields.add(new Field(t, length, at));
        next = at + length * t.extentBytes;
        extent = Math.max(extent, next);
        return at;
    }

    private void open() {
        if (fixed) { // Open MPI asserts this
            throw new AssertionError("the struct's layout is fixed (getType, getExtent or getData was called)");
        }
    }

    /** @return the extent, fixing the layout */
    final int fixedExtent() {
        fix();
        return extent;
    }

    private void fix() {
        synchronized (fields) {
            if (!fixed) {
                fixed = true;
                int align = 1;
                for (final Field f : fields) {
                    align = Math.max(align, f.type.alignBytes);
                }
                // as MPI's struct type: the end of the fields rounded up to their largest alignment (C's
                // padding); a setOffset after the last field may pad further
                extent = Math.max(extent + Math.floorMod(-extent, align), next);
            }
        }
    }

    /**
     * A view of one element of a {@link Struct} in a byte buffer: subclasses read and write fields with the typed
     * accessors, {@code field} being the byte offset an {@code add} call returned and {@code index} the element
     * of an array field. Byte arrays are viewed in native order; a {@code ByteBuffer} in its own order.
     */
    public abstract class Data {
        private ByteBuffer buffer;
        private int base;

        final void attach(final ByteBuffer b, final int offset) {
            buffer = b;
            base = offset;
        }

        private ByteBuffer b() {
            return buffer;
        }

        /** @return the buffer this element lies in */
        public final ByteBuffer getBuffer() {
            return buffer;
        }

        /** @param field the field @return its byte */
        protected final byte getByte(final int field) {
            return getByte(field, 0);
        }

        /** @param field the field @param index the element @return the byte */
        protected final byte getByte(final int field, final int index) {
            return b().get(base + field + index);
        }

        /** @param field the field @param v the value */
        protected final void putByte(final int field, final byte v) {
            putByte(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putByte(final int field, final int index, final byte v) {
            b().put(base + field + index, v);
        }

        /** @param field the field @return its char */
        protected final char getChar(final int field) {
            return getChar(field, 0);
        }

        /** @param field the field @param index the element @return the char */
        protected final char getChar(final int field, final int index) {
            return b().getChar(base + field + index * 2);
        }

        /** @param field the field @param v the value */
        protected final void putChar(final int field, final char v) {
            putChar(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putChar(final int field, final int index, final char v) {
            b().putChar(base + field + index * 2, v);
        }

        /** @param field the field @return its short */
        protected final short getShort(final int field) {
            return getShort(field, 0);
        }

        /** @param field the field @param index the element @return the short */
        protected final short getShort(final int field, final int index) {
            return b().getShort(base + field + index * 2);
        }

        /** @param field the field @param v the value */
        protected final void putShort(final int field, final short v) {
            putShort(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putShort(final int field, final int index, final short v) {
            b().putShort(base + field + index * 2, v);
        }

        /** @param field the field @return its int */
        protected final int getInt(final int field) {
            return getInt(field, 0);
        }

        /** @param field the field @param index the element @return the int */
        protected final int getInt(final int field, final int index) {
            return b().getInt(base + field + index * 4);
        }

        /** @param field the field @param v the value */
        protected final void putInt(final int field, final int v) {
            putInt(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putInt(final int field, final int index, final int v) {
            b().putInt(base + field + index * 4, v);
        }

        /** @param field the field @return its long */
        protected final long getLong(final int field) {
            return getLong(field, 0);
        }

        /** @param field the field @param index the element @return the long */
        protected final long getLong(final int field, final int index) {
            return b().getLong(base + field + index * 8);
        }

        /** @param field the field @param v the value */
        protected final void putLong(final int field, final long v) {
            putLong(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putLong(final int field, final int index, final long v) {
            b().putLong(base + field + index * 8, v);
        }

        /** @param field the field @return its float */
        protected final float getFloat(final int field) {
            return getFloat(field, 0);
        }

        /** @param field the field @param index the element @return the float */
        protected final float getFloat(final int field, final int index) {
            return b().getFloat(base + field + index * 4);
        }

        /** @param field the field @param v the value */
        protected final void putFloat(final int field, final float v) {
            putFloat(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putFloat(final int field, final int index, final float v) {
            b().putFloat(base + field + index * 4, v);
        }

        /** @param field the field @return its double */
        protected final double getDouble(final int field) {
            return getDouble(field, 0);
        }

        /** @param field the field @param index the element @return the double */
        protected final double getDouble(final int field, final int index) {
            return b().getDouble(base + field + index * 8);
        }

        /** @param field the field @param v the value */
        protected final void putDouble(final int field, final double v) {
            putDouble(field, 0, v);
        }

        /** @param field the field @param index the element @param v the value */
        protected final void putDouble(final int field, final int index, final double v) {
            b().putDouble(base + field + index * 8, v);
        }

        /** @param struct the nested struct @param field the field @return a view of the nested element */
        protected final <S extends Struct, D extends Struct.Data> D getData(final S struct, final int field) {
            return getData(struct, field, 0);
        }

        /**
         * @param struct the nested struct
         * @param field  the field
         * @param index  the element of an array of structs
         * @return a view of the nested element
         */
        @SuppressWarnings("unchecked")
        protected final <S extends Struct, D extends Struct.Data> D getData(final S struct, final int field,
            final int index) {
            final Struct.Data d = struct.newData();
            d.attach(buffer, base + field + index * struct.fixedExtent());
            return (D) d;
        }

        /** @param type the field's datatype @param field the field @return a buffer over the field */
        protected final ByteBuffer getBuffer(final Datatype type, final int field) {
            return slice(base + field, type.extentBytes);
        }

        /**
         * @param type  the field's datatype
         * @param field the field
         * @param index the item of an array field
         * @return a buffer over that item
         */
        protected final ByteBuffer getBuffer(final Datatype type, final int field, final int index)
            throws MPIException {
            MPI.check();
            return slice(base + field + index * type.extentBytes, type.extentBytes);
        }

        private ByteBuffer slice(final int at, final int length) {
            return buffer.slice(at, length).order(buffer.order());
        }
    }
}
