package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 *
 * <p>A buffer may also describe a derived datatype: {@code count} items of a {@link Layout} (a vector, an indexed
 * or struct layout, a subarray, ...) over an array or segment, e.g. every third double of an array:
 * <pre>{@code
 * Layout column = Layout.vector(rows, 1, cols, Layout.of(Datatype.DOUBLE));
 * comm.send(Buf.of(matrix, 2, column, 1), 1, 0);   // column 2 of a rows x cols matrix
 * }</pre>
 * Such a buffer's {@link #datatype()} is the layout's element type and its {@link #count()} is in elements (items
 * times {@link Layout#size()}), so it matches any buffer of as many elements of that type, derived or not. Where
 * the items are one run of memory the buffer is a plain view; otherwise sending gathers the items into a packed
 * copy and receiving scatters into them when the operation completes ({@link #pack}, {@link #unpack}).
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
    /** The items of a non-contiguous layout: null for a plain view; else in {@code memory} from byte origin. */
    private final Layout layout;
    private final MemorySegment memory;
    private final long origin;
    private final int items;

    private Buf(final Datatype datatype, final int count, final MemorySegment segment,
        final boolean[] booleans, final int booleanOffset) {
        this(datatype, count, segment, booleans, booleanOffset, null, null, 0, 0);
    }

    private Buf(final Datatype datatype, final int count, final MemorySegment segment, final boolean[] booleans,
        final int booleanOffset, final Layout layout, final MemorySegment memory, final long origin,
        final int items) {
        this.datatype = datatype;
        this.count = count;
        this.segment = segment;
        this.booleans = booleans;
        this.booleanOffset = booleanOffset;
        this.layout = layout;
        this.memory = memory;
        this.origin = origin;
        this.items = items;
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
     * null: use {@link #booleans()}; for items of a non-contiguous layout it is null too: see {@link #layout()}.
     *
     * @return the segment of exactly {@link #byteSize()} bytes, or null for boolean arrays and scattered layouts
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
     * Returns the layout of the items of a buffer that is not one contiguous view, which is packed to send and
     * unpacked on receive (see {@link #pack} and {@link #unpack}); null for a plain view (including a layout whose
     * items are contiguous).
     *
     * @return the layout, or null
     */
    public Layout layout() {
        return layout;
    }

    /**
     * Gathers this buffer's {@link #byteSize()} bytes into {@code out}, packed from its byte 0: a plain view's
     * bytes, a boolean buffer's as bytes 0/1 (the wire format of {@link Datatype#BOOLEAN}), or a layout's items
     * in type-map order.
     *
     * @param out at least {@link #byteSize()} bytes
     */
    public void pack(final MemorySegment out) {
        if (null != layout) {
            layout.pack(memory, origin, items, out);
        } else if (null != booleans) {
            for (int i = 0; i < count; i++) {
                out.set(ValueLayout.JAVA_BYTE, i, booleans[booleanOffset + i] ? (byte) 1 : (byte) 0);
            }
        } else {
            SegmentCopy.copy(segment, 0, out, 0, byteSize());
        }
    }

    /**
     * Scatters packed bytes (as {@link #pack} writes them) into this buffer: as many elements as {@code in} holds,
     * never more than {@link #count()}; a shorter {@code in} fills a prefix.
     *
     * @param in the packed bytes, from byte 0
     */
    public void unpack(final MemorySegment in) {
        if (null != layout) {
            layout.unpack(in, memory, origin, items);
        } else if (null != booleans) {
            final long n = Math.min(in.byteSize(), count);
            for (int i = 0; i < n; i++) {
                booleans[booleanOffset + i] = 0 != in.get(ValueLayout.JAVA_BYTE, i);
            }
        } else {
            SegmentCopy.copy(in, 0, segment, 0, Math.min(in.byteSize(), byteSize()));
        }
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
        if (null != layout) {
            final long per = layout.size();
            if (0 != from % per || 0 != n % per) {
                throw Errors.expected(ErrorClass.COUNT, "Buf.slice", null, "from=" + from + " n=" + n + " on a buffer "
                    + "of " + layout, "whole items: multiples of " + per + " elements");
            }
            return new Buf(datatype, n, null, null, 0, layout, memory, origin + from / per * layout.extentBytes(),
                (int) (n / per));
        }
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
        shared(s);
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

    // ------------------------------------------------------------------------------ derived-datatype factories

    /**
     * Returns a buffer of {@code count} items of a layout over an array, item 0 at element 0.
     *
     * @param a      the array; the layout's element type must be {@link Datatype#DOUBLE}
     * @param layout the layout of one item
     * @param count  items
     * @return the buffer: a plain view when the items are contiguous, else one that is packed and unpacked
     * @throws TuttiException if the layout's element type is not the array's, or the items reach outside it
     */
    public static Buf of(final double[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#BYTE} elements) over a {@code byte[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final byte[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 1L, Datatype.BYTE, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#SHORT} elements) over a {@code short[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final short[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 2L, Datatype.SHORT, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#CHAR} elements) over a {@code char[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final char[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 2L, Datatype.CHAR, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#INT} elements) over a {@code int[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final int[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 4L, Datatype.INT, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#LONG} elements) over a {@code long[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final long[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 8L, Datatype.LONG, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout (of {@link Datatype#FLOAT} elements) over a {@code float[]},
     * item 0 at element {@code offset}; see {@link #of(double[], int, Layout, int)}.
     *
     * @param a the array @param offset element of item 0 @param layout the layout @param count items @return it
     */
    public static Buf of(final float[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 4L, Datatype.FLOAT, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout over an array, item 0 at element {@code offset}: the
     * items are those of MPI's derived datatype at the buffer address {@code a + offset}, item {@code i}
     * {@code i * layout.extentBytes()} bytes further. Negative displacements reach below the offset.
     *
     * @param a      the array; the layout's element type must be {@link Datatype#DOUBLE}
     * @param offset the element that is the origin of item 0
     * @param layout the layout of one item
     * @param count  items
     * @return the buffer: a plain view when the items are contiguous, else one that is packed and unpacked
     * @throws TuttiException if the layout's element type is not the array's, or the items reach outside it
     */
    public static Buf of(final double[] a, final int offset, final Layout layout, final int count) {
        return laid(null == a ? null : MemorySegment.ofArray(a), offset * 8L, Datatype.DOUBLE, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final byte[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final short[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final char[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final int[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final long[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /** @param a the array @param layout the layout @param count items @return items from element 0; see {@link
     * #of(double[], int, Layout, int)} */
    public static Buf of(final float[] a, final Layout layout, final int count) {
        return of(a, 0, layout, count);
    }

    /**
     * Returns a buffer of {@code count} items of a layout over a segment, item 0 at byte {@code originBytes}.
     *
     * @param s           the segment, accessible from any thread (see {@link #of(MemorySegment, Datatype)})
     * @param originBytes the byte offset of item 0
     * @param layout      the layout of one item
     * @param count       items
     * @return the buffer
     * @throws TuttiException if the segment is null or confined, or the items reach outside it
     */
    public static Buf of(final MemorySegment s, final long originBytes, final Layout layout, final int count) {
        if (null != s) {
            shared(s);
        }
        return laid(s, originBytes, null, layout, count);
    }

    private static Buf laid(final MemorySegment whole, final long origin, final Datatype arrayType,
        final Layout layout, final int count) {
        if (null == whole) {
            throw nullBuffer();
        }
        if (null == layout) {
            throw Errors.argument(ErrorClass.TYPE, "Buf.of", null, "layout", null, "a Layout");
        }
        if (null != arrayType && layout.element() != arrayType) {
            throw Errors.expected(ErrorClass.TYPE, "Buf.of", null, layout + " over an array of " + arrayType,
                "a layout of " + arrayType + " elements");
        }
        if (count < 0) {
            throw Errors.argument(ErrorClass.COUNT, "Buf.of", null, "count", count, "count >= 0");
        }
        final long[] span = layout.span(origin, count);
        if (origin < 0 || span[0] < 0 || span[1] > whole.byteSize()) {
            throw Errors.expected(ErrorClass.COUNT, "Buf.of", null, "count=" + count + " items of " + layout
                + " at byte " + origin + " touch bytes [" + span[0] + ", " + span[1] + ")", "bytes inside the "
                + "buffer's [0, " + whole.byteSize() + ")");
        }
        final long elements = count * layout.size();
        if (elements > Integer.MAX_VALUE) {
            throw Errors.argument(ErrorClass.COUNT, "Buf.of", null, "elements", elements, "at most "
                + Integer.MAX_VALUE);
        }
        final Datatype type = layout.element();
        if (layout.isContiguous(count)) {
            return new Buf(type, (int) elements, whole.asSlice(span[0], elements * type.sizeBytes()), null, 0);
        }
        return new Buf(type, (int) elements, null, null, 0, layout, whole, origin, count);
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

    private static void shared(final MemorySegment s) {
        if (!s.isAccessibleBy(OTHER_THREAD)) {
            throw Errors.expected(ErrorClass.BUFFER, "Buf.of", null, "segment=" + s + " is confined to one thread, "
                + "but Tutti's transports and waiting threads access buffers from other threads", "a segment of "
                + "Arena.ofShared(), Arena.ofAuto(), Arena.global() or the heap");
        }
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
        return "Buf[" + datatype + " x " + count + (null == layout ? "" : " in " + items + " x " + layout) + "]";
    }
}
