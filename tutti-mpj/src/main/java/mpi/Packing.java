package mpi;

import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * {@code Comm.Pack}, {@code Unpack} and {@code Pack_size} on {@code mpjbuf.Buffer}s. Each Pack writes one section at
 * the given byte position:
 *
 * <pre>
 *   0       4       8                      8 + data
 *   | base  | count | elements (big-endian) | padding to a multiple of 8 |
 * </pre>
 *
 * where {@code base} is the datatype's {@link Datatype#getType()} code and {@code count} the number of elements; an
 * {@code MPI.OBJECT} section's data is a 4-byte length and the serialised elements ({@link Wire}). Unpack reads one
 * section and checks its base type against the datatype it is given.
 */
final class Packing {
    private static final int HEADER = 8;

    private Packing() {
    }

    static int packSize(final String call, final int incount, final Datatype datatype) {
        if (null == datatype) {
            throw Fail.error(call + ": datatype=null (expected a datatype)");
        }
        if (Base.OBJECT == datatype.base()) {
            throw Fail.error(call + ": the packed size of MPI.OBJECT elements is known only once they are serialised "
                + "(pack them into a buffer large enough and use the position Pack returns)");
        }
        final long data = (long) Slab.elements(call, incount, datatype) * datatype.base().bytes;
        return (int) (HEADER + pad(data));
    }

    private static long pad(final long n) {
        return (n + 7) & ~7L;
    }

    static int pack(final String call, final Object inbuf, final int offset, final int incount,
        final Datatype datatype, final mpjbuf.Buffer outbuf, final int position) {
        Slab.check(call, "inbuf", inbuf, offset, incount, datatype);
        if (null == outbuf) {
            throw Fail.error(call + ": outbuf=null (expected an mpjbuf.Buffer)");
        }
        final Base b = datatype.base();
        final int n = Slab.elements(call, incount, datatype);
        final Object dense = 0 == n ? b.newArray(0) : Slab.pack(inbuf, offset, incount, datatype.shape());
        try {
            final ByteBuffer out = ByteBuffer.wrap(outbuf.array(), 0, outbuf.getCapacity()).position(position);
            out.putInt(b.code).putInt(n);
            switch (dense) {
                case byte[] a -> out.put(a);
                case char[] a -> out.asCharBuffer().put(a);
                case short[] a -> out.asShortBuffer().put(a);
                case boolean[] a -> {
                    for (final boolean v : a) {
                        out.put((byte) (v ? 1 : 0));
                    }
                }
                case int[] a -> out.asIntBuffer().put(a);
                case long[] a -> out.asLongBuffer().put(a);
                case float[] a -> out.asFloatBuffer().put(a);
                case double[] a -> out.asDoubleBuffer().put(a);
                case Object[] a -> {
                    final byte[] bytes = Wire.write(call, a);
                    out.putInt(bytes.length).put(bytes);
                }
                default -> throw Fail.error(call + ": datatype " + datatype + " cannot be packed");
            }
            final int data = dense instanceof Object[] ? out.position() - position - HEADER
                : n * b.bytes;
            final long end = position + HEADER + pad(data);
            if (end > outbuf.getCapacity()) {
                throw new BufferOverflowException();
            }
            outbuf.setSize((int) Math.max(outbuf.getSize(), end));
            return (int) end;
        } catch (final BufferOverflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw Fail.error(call + ": " + incount + " items of " + datatype + " at position " + position
                + " do not fit in the mpjbuf.Buffer of capacity " + outbuf.getCapacity());
        }
    }

    static int unpack(final String call, final mpjbuf.Buffer inbuf, final int position, final Object outbuf,
        final int offset, final int outcount, final Datatype datatype) {
        Slab.check(call, "outbuf", outbuf, offset, outcount, datatype);
        if (null == inbuf) {
            throw Fail.error(call + ": inbuf=null (expected an mpjbuf.Buffer)");
        }
        final Base b = datatype.base();
        try {
            final ByteBuffer in = ByteBuffer.wrap(inbuf.array(), 0, inbuf.getCapacity()).position(position);
            final int code = in.getInt();
            final int n = in.getInt();
            if (code != b.code) {
                throw Fail.error(call + ": the section at position " + position + " holds elements of type code "
                    + code + ", but datatype " + datatype + " has code " + b.code);
            }
            final int capacity = Slab.elements(call, outcount, datatype);
            Object dense = b.newArray(n);
            switch (dense) {
                case byte[] a -> in.get(a);
                case char[] a -> in.asCharBuffer().get(a);
                case short[] a -> in.asShortBuffer().get(a);
                case boolean[] a -> {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = 0 != in.get();
                    }
                }
                case int[] a -> in.asIntBuffer().get(a);
                case long[] a -> in.asLongBuffer().get(a);
                case float[] a -> in.asFloatBuffer().get(a);
                case double[] a -> in.asDoubleBuffer().get(a);
                case Object[] a -> {
                    final byte[] bytes = new byte[in.getInt()];
                    in.get(bytes);
                    dense = Wire.read(call, bytes);
                }
                default -> throw Fail.error(call + ": datatype " + datatype + " cannot be unpacked");
            }
            final int got = java.lang.reflect.Array.getLength(dense);
            if (got > capacity) {
                throw Fail.error(call + ": outcount " + capacity + " is less than length " + got
                    + " (the packed section holds more elements than the output buffer)");
            }
            Slab.unpack(dense, 0, got, outbuf, offset, datatype.shape());
            final int data = dense instanceof Object[] ? in.position() - position - HEADER : n * b.bytes;
            return (int) (position + HEADER + pad(data));
        } catch (final BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw Fail.error(call + ": no packed section of " + datatype + " at position " + position
                + " of the mpjbuf.Buffer (capacity " + inbuf.getCapacity() + ")");
        }
    }
}
