package dev.tutti;

import dev.tutti.internal.Errors;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A typed buffer argument: a range of a primitive array, a {@link ByteBuffer} or a {@link MemorySegment}, with
 * its element {@link Datatype} and count. Every buffer method of a communicator takes a {@code Buf}; the array or
 * memory is resolved here, once, and never copied by the factory.
 *
 * <pre>{@code
 * double[] a = new double[100];
 * comm.send(Buf.of(a), 1, 0);             // all 100 doubles
 * comm.send(Buf.of(a, 10, 5), 1, 0);      // a[10..14]
 * comm.send(Buf.of(segment, Datatype.INT), 1, 0);
 * }</pre>
 *
 * <p>For a send, the count is the number of elements sent; for a receive, it is the capacity. Offsets and counts
 * are in elements; for a {@code ByteBuffer} the range is {@code position()..limit()}. Byte order on the wire is the
 * platform's native order, which is little-endian on every platform Tutti supports.
 *
 * <p>A {@code Buf} is a view: it holds the array or memory, not a copy, so the caller must not change the data of
 * a send (or read a receive) until the operation completes.
 */
public final class Buf {
    /**
     * The in-place marker (MPI_IN_PLACE): passed as the send buffer of a collective, it means the input is already
     * in the receive buffer (see each collective for where).
     */
    public static final Buf IN_PLACE = new Buf(Datatype.BYTE, 0, null, null, 0);

    /** A thread that owns nothing: a segment it may access is accessible from any thread. */
    private static final Thread OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private final Datatype datatype;
    private final int count;
    private final MemorySegment segment;
    private final boolean[] booleans;
    private final int booleanOffset;

    private Buf(final Datatype datatype, final int count, final MemorySegment segment,
        final boolean[] booleans, final int booleanOffset) {
        this.datatype = datatype;
        this.count = count;
        this.segment = segment;
        this.booleans = booleans;
        this.booleanOffset = booleanOffset;
    }

    /** @return the element type */
    public Datatype datatype() {
        return datatype;
    }

    /** @return the number of elements (the capacity, for a receive) */
    public int count() {
        return count;
    }

    /** @return the size in bytes, {@code count * datatype.sizeBytes()} */
    public long byteSize() {
        return (long) count * datatype.sizeBytes();
    }

    /**
     * Returns the memory this buffer spans. For a {@code boolean[]} buffer, which no segment can view, this is
     * null: use {@link #booleans()}.
     *
     * @return the segment of exactly {@link #byteSize()} bytes, or null for boolean arrays
     */
    public MemorySegment segment() {
        return segment;
    }

    /** @return the boolean array of a {@link Datatype#BOOLEAN} buffer, else null */
    public boolean[] booleans() {
        return booleans;
    }

    /** @return the offset into {@link #booleans()} */
    public int booleanOffset() {
        return booleanOffset;
    }

    /**
     * Returns a buffer for elements {@code [from, from + n)} of this one, in the same memory.
     *
     * @param from the first element
     * @param n    the number of elements
     * @return the sub-buffer
     * @throws TuttiException of class {@link ErrorClass#COUNT} if the range is outside this buffer
     */
    public Buf slice(final int from, final int n) {
        checkRange("Buf.slice", from, n, count);
        if (null != booleans) {
            return new Buf(datatype, n, null, booleans, booleanOffset + from);
        }
        final long size = datatype.sizeBytes();
        return new Buf(datatype, n, segment.asSlice(from * size, n * size), null, 0);
    }

    // ---------------------------------------------------------------------------------------------- factories

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final byte[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final byte[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.BYTE, count, MemorySegment.ofArray(a).asSlice(offset, count), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final short[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final short[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.SHORT, count, MemorySegment.ofArray(a).asSlice(offset * 2L, count * 2L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final char[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final char[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.CHAR, count, MemorySegment.ofArray(a).asSlice(offset * 2L, count * 2L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final int[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final int[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.INT, count, MemorySegment.ofArray(a).asSlice(offset * 4L, count * 4L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final long[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final long[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.LONG, count, MemorySegment.ofArray(a).asSlice(offset * 8L, count * 8L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final float[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final float[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.FLOAT, count, MemorySegment.ofArray(a).asSlice(offset * 4L, count * 4L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final double[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final double[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.DOUBLE, count, MemorySegment.ofArray(a).asSlice(offset * 8L, count * 8L), null, 0);
    }

    /** @param a the array, whole @return a buffer over it */
    public static Buf of(final boolean[] a) {
        return of(a, 0, null == a ? 0 : a.length);
    }

    /** @param a array @param offset first element @param count elements @return a buffer over the range */
    public static Buf of(final boolean[] a, final int offset, final int count) {
        checkArray(a, offset, count, null == a ? 0 : a.length);
        return new Buf(Datatype.BOOLEAN, count, null, a, offset);
    }

    /**
     * Returns a byte buffer over {@code position()..limit()} of a heap or direct {@link ByteBuffer}.
     *
     * @param b the buffer
     * @return a {@link Datatype#BYTE} buffer
     */
    public static Buf of(final ByteBuffer b) {
        return of(b, Datatype.BYTE);
    }

    /**
     * Returns a typed buffer over {@code position()..limit()} of a heap or direct {@link ByteBuffer}; the
     * count is the remaining bytes divided by the element size.
     *
     * @param b    the buffer
     * @param type the element type
     * @return the buffer
     * @throws TuttiException if {@code b} is null, or the remaining bytes are not a multiple of the element size
     */
    public static Buf of(final ByteBuffer b, final Datatype type) {
        if (null == b) {
            throw nullBuffer();
        }
        return of(MemorySegment.ofBuffer(b), type);
    }

    /**
     * Returns a typed buffer over a whole {@link MemorySegment} (heap or native, including one from a shared
     * arena). The count is the segment size divided by the element size. The segment must be accessible from any
     * thread (heap, or an {@code ofShared}, {@code ofAuto} or {@code global} arena): transports and waiting
     * threads of the rank read and write it.
     *
     * @param s    the segment
     * @param type the element type
     * @return the buffer
     * @throws TuttiException if {@code s} is null or confined to one thread, the type is {@link Datatype#BOOLEAN}
     *                        or {@link Datatype#OBJECT}, or the size is not a multiple of the element size
     */
    public static Buf of(final MemorySegment s, final Datatype type) {
        if (null == s) {
            throw nullBuffer();
        }
        if (!s.isAccessibleBy(OTHER_THREAD)) {
            throw Errors.expected(ErrorClass.BUFFER, "Buf.of", null, "segment=" + s + " is confined to one thread, "
                + "but Tutti's transports and waiting threads access buffers from other threads", "a segment of "
                + "Arena.ofShared(), Arena.ofAuto(), Arena.global() or the heap");
        }
        if (Datatype.BOOLEAN == type || Datatype.OBJECT == type || null == type) {
            throw Errors.expected(ErrorClass.TYPE, "Buf.of", null, "type=" + type + " cannot describe raw memory",
                "one of BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE");
        }
        final long size = s.byteSize();
        final long count = size / type.sizeBytes();
        if (count * type.sizeBytes() != size || count > Integer.MAX_VALUE) {
            throw Errors.expected(ErrorClass.COUNT, "Buf.of", null, "segment bytes=" + size
                + " is not a whole number of " + type + " elements (size " + type.sizeBytes() + ")",
                "a multiple of " + type.sizeBytes() + " bytes, at most count=" + Integer.MAX_VALUE + " elements");
        }
        return new Buf(type, (int) count, s, null, 0);
    }

    /**
     * Returns a typed buffer over {@code count} elements of a segment starting at element {@code offset}.
     *
     * @param s      the segment
     * @param type   the element type
     * @param offset the first element
     * @param count  the number of elements
     * @return the buffer
     * @throws TuttiException if the range is outside the segment
     */
    public static Buf of(final MemorySegment s, final Datatype type, final long offset, final int count) {
        final Buf whole = of(s, type);
        if (offset < 0 || offset > Integer.MAX_VALUE) {
            throw Errors.argument(ErrorClass.COUNT, "Buf.of", null, "offset", offset, "0.." + whole.count
                + " (the segment's element count)");
        }
        return whole.slice((int) offset, count);
    }

    /**
     * Returns a {@link Datatype#INT_PAIR} buffer over a whole {@code int[]} that holds (value, index) pairs as
     * value, index, value, index, ...: the argument form of {@link Op#MINLOC} and {@link Op#MAXLOC}.
     *
     * @param a the array; its length must be even
     * @return a buffer of {@code a.length / 2} pairs
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if its length is odd
     */
    public static Buf pairs(final int[] a) {
        return pairs(a, 0, pairCount(a, null == a ? 0 : a.length));
    }

    /**
     * Returns a {@link Datatype#INT_PAIR} buffer over pairs {@code [offsetPairs, offsetPairs + countPairs)} of a
     * {@code int[]} that holds (value, index) pairs as value, index, value, index, ...
     *
     * @param a           the array
     * @param offsetPairs the first pair (array index {@code 2 * offsetPairs})
     * @param countPairs  the number of pairs
     * @return the buffer, whose count is {@code countPairs}
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if the range is outside the array's {@code a.length / 2} pairs
     */
    public static Buf pairs(final int[] a, final int offsetPairs, final int countPairs) {
        checkArray(a, offsetPairs, countPairs, null == a ? 0 : a.length / 2);
        return new Buf(Datatype.INT_PAIR, countPairs, MemorySegment.ofArray(a).asSlice(offsetPairs * 8L,
            countPairs * 8L), null, 0);
    }

    /**
     * Returns a {@link Datatype#LONG_PAIR} buffer over a whole {@code long[]} that holds (value, index) pairs as
     * value, index, value, index, ...: the argument form of {@link Op#MINLOC} and {@link Op#MAXLOC}.
     *
     * @param a the array; its length must be even
     * @return a buffer of {@code a.length / 2} pairs
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if its length is odd
     */
    public static Buf pairs(final long[] a) {
        return pairs(a, 0, pairCount(a, null == a ? 0 : a.length));
    }

    /**
     * Returns a {@link Datatype#LONG_PAIR} buffer over pairs {@code [offsetPairs, offsetPairs + countPairs)} of a
     * {@code long[]} that holds (value, index) pairs as value, index, value, index, ...
     *
     * @param a           the array
     * @param offsetPairs the first pair (array index {@code 2 * offsetPairs})
     * @param countPairs  the number of pairs
     * @return the buffer, whose count is {@code countPairs}
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if the range is outside the array's {@code a.length / 2} pairs
     */
    public static Buf pairs(final long[] a, final int offsetPairs, final int countPairs) {
        checkArray(a, offsetPairs, countPairs, null == a ? 0 : a.length / 2);
        return new Buf(Datatype.LONG_PAIR, countPairs, MemorySegment.ofArray(a).asSlice(offsetPairs * 16L,
            countPairs * 16L), null, 0);
    }

    /**
     * Returns a {@link Datatype#FLOAT_PAIR} buffer over a whole {@code float[]} that holds (value, index) pairs as
     * value, index, value, index, ...: the argument form of {@link Op#MINLOC} and {@link Op#MAXLOC}.
     *
     * @param a the array; its length must be even
     * @return a buffer of {@code a.length / 2} pairs
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if its length is odd
     */
    public static Buf pairs(final float[] a) {
        return pairs(a, 0, pairCount(a, null == a ? 0 : a.length));
    }

    /**
     * Returns a {@link Datatype#FLOAT_PAIR} buffer over pairs {@code [offsetPairs, offsetPairs + countPairs)} of a
     * {@code float[]} that holds (value, index) pairs as value, index, value, index, ...
     *
     * @param a           the array
     * @param offsetPairs the first pair (array index {@code 2 * offsetPairs})
     * @param countPairs  the number of pairs
     * @return the buffer, whose count is {@code countPairs}
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if the range is outside the array's {@code a.length / 2} pairs
     */
    public static Buf pairs(final float[] a, final int offsetPairs, final int countPairs) {
        checkArray(a, offsetPairs, countPairs, null == a ? 0 : a.length / 2);
        return new Buf(Datatype.FLOAT_PAIR, countPairs, MemorySegment.ofArray(a).asSlice(offsetPairs * 8L,
            countPairs * 8L), null, 0);
    }

    /**
     * Returns a {@link Datatype#DOUBLE_PAIR} buffer over a whole {@code double[]} that holds (value, index) pairs as
     * value, index, value, index, ...: the argument form of {@link Op#MINLOC} and {@link Op#MAXLOC}.
     *
     * @param a the array; its length must be even
     * @return a buffer of {@code a.length / 2} pairs
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if its length is odd
     */
    public static Buf pairs(final double[] a) {
        return pairs(a, 0, pairCount(a, null == a ? 0 : a.length));
    }

    /**
     * Returns a {@link Datatype#DOUBLE_PAIR} buffer over pairs {@code [offsetPairs, offsetPairs + countPairs)} of a
     * {@code double[]} that holds (value, index) pairs as value, index, value, index, ...
     *
     * @param a           the array
     * @param offsetPairs the first pair (array index {@code 2 * offsetPairs})
     * @param countPairs  the number of pairs
     * @return the buffer, whose count is {@code countPairs}
     * @throws TuttiException of class {@link ErrorClass#BUFFER} if {@code a} is null, or {@link ErrorClass#COUNT}
     *                        if the range is outside the array's {@code a.length / 2} pairs
     */
    public static Buf pairs(final double[] a, final int offsetPairs, final int countPairs) {
        checkArray(a, offsetPairs, countPairs, null == a ? 0 : a.length / 2);
        return new Buf(Datatype.DOUBLE_PAIR, countPairs, MemorySegment.ofArray(a).asSlice(offsetPairs * 16L,
            countPairs * 16L), null, 0);
    }

    private static int pairCount(final Object a, final int length) {
        if (null == a) {
            throw nullBuffer();
        }
        if (0 != (length & 1)) {
            throw Errors.expected(ErrorClass.COUNT, "Buf.pairs", null, "array length=" + length + " is odd",
                "an even length (value, index, value, index, ...)");
        }
        return length / 2;
    }

    private static TuttiException nullBuffer() {
        return Errors.argument(ErrorClass.BUFFER, "Buf.of", null, "buffer", null, "an array, ByteBuffer or "
            + "MemorySegment");
    }

    private static void checkArray(final Object a, final int offset, final int count, final int length) {
        if (null == a) {
            throw nullBuffer();
        }
        checkRange("Buf.of", offset, count, length);
    }

    private static void checkRange(final String what, final int offset, final int count, final int length) {
        if (count < 0) {
            throw Errors.argument(ErrorClass.COUNT, what, null, "count", count, "count >= 0");
        }
        if (offset < 0 || (long) offset + count > length) {
            throw Errors.expected(ErrorClass.COUNT, what, null, "offset=" + offset + " count=" + count
                + " exceeds length=" + length, "0 <= offset and offset + count <= length");
        }
    }

    @Override
    public String toString() {
        return "Buf[" + datatype + " x " + count + "]";
    }
}
