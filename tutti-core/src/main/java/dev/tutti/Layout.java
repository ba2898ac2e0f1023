package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A derived datatype: where, relative to a buffer's origin, the elements of one <em>item</em> lie, all of one
 * primitive element type. Built from {@link #of(Datatype) one element} by MPI's constructors (contiguous, vector,
 * hvector, indexed, hindexed, struct of one element type, resized, subarray); used through
 * {@code Buf.of(array, layout, count)}, which describes {@code count} items, item {@code i} at byte
 * {@code i * extentBytes()} from the origin.
 *
 * <p>Every quantity here is in bytes, except {@link #size()} (elements of one item). The <em>type map</em> is held
 * as blocks of contiguous bytes in type-map order (the order data is packed in), adjacent blocks merged, so a
 * layout whose items tile memory is recognized as {@link #isContiguous(int) contiguous} and sent from its memory with
 * no copy. The lower bound and extent follow MPI: {@code lb} is the least displacement of any copy of a component
 * type plus that type's lb, {@code ub} the greatest plus its ub ({@link #resized} sets both); a struct's extent is
 * rounded up to a whole number of elements. A layout is immutable.
 *
 * <p>Implementation note: packing walks the blocks of each item with {@link MemorySegment#copy}, one bulk copy per
 * block; the cost is one copy of the data plus one call per block.
 */
public final class Layout {
    private final Datatype element;
    private final long[] disp;
    private final long[] len;
    private final long lb;
    private final long extent;
    private final long sizeBytes;

    private Layout(final Datatype element, final long[] disp, final long[] len, final long lb, final long extent) {
        this.element = element;
        this.disp = disp;
        this.len = len;
        this.lb = lb;
        this.extent = extent;
        long s = 0;
        for (final long l : len) {
            s += l;
        }
        this.sizeBytes = s;
    }

    /**
     * Returns the layout of one element.
     *
     * @param element the element type: any but {@link Datatype#BOOLEAN} and {@link Datatype#OBJECT}
     * @return the layout
     * @throws TuttiException of class {@link ErrorClass#TYPE} for a type no memory describes
     */
    public static Layout of(final Datatype element) {
        if (null == element || Datatype.BOOLEAN == element || Datatype.OBJECT == element) {
            throw Errors.argument(ErrorClass.TYPE, "Layout.of", null, "element", element,
                "one of BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE or a pair type");
        }
        final long s = element.sizeBytes();
        return new Layout(element, new long[] {0}, new long[] {s}, 0, s);
    }

    /**
     * {@code count} items of {@code old} one after another (MPI_Type_contiguous).
     *
     * @param count the number of items, {@code >= 0}
     * @param old   the item
     * @return the layout
     */
    public static Layout contiguous(final int count, final Layout old) {
        nonNegative("Layout.contiguous", "count", count);
        return vector(1, count, 0, old);
    }

    /**
     * {@code count} blocks of {@code blockLength} items of {@code old}, block starts {@code stride} extents of
     * {@code old} apart (MPI_Type_vector).
     *
     * @param count       blocks
     * @param blockLength items per block
     * @param stride      distance of block starts, in extents of {@code old} (may be negative)
     * @param old         the item
     * @return the layout
     */
    public static Layout vector(final int count, final int blockLength, final int stride, final Layout old) {
        need("Layout.vector", old);
        return hvector(count, blockLength, stride * old.extent, old);
    }

    /**
     * As {@link #vector} with the stride in bytes (MPI_Type_create_hvector).
     *
     * @param count       blocks
     * @param blockLength items per block
     * @param strideBytes distance of block starts in bytes
     * @param old         the item
     * @return the layout
     */
    public static Layout hvector(final int count, final int blockLength, final long strideBytes, final Layout old) {
        nonNegative("Layout.hvector", "count", count);
        nonNegative("Layout.hvector", "blockLength", blockLength);
        need("Layout.hvector", old);
        final int[] lengths = new int[count];
        final long[] displs = new long[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = blockLength;
            displs[i] = i * strideBytes;
        }
        return place("Layout.hvector", lengths, displs, same(old, count), false);
    }

    /**
     * Blocks of items of {@code old} at displacements counted in extents of {@code old} (MPI_Type_indexed).
     *
     * @param blockLengths  items per block
     * @param displacements block starts, in extents of {@code old}
     * @param old           the item
     * @return the layout
     */
    public static Layout indexed(final int[] blockLengths, final int[] displacements, final Layout old) {
        need("Layout.indexed", old);
        lengths("Layout.indexed", blockLengths, null == displacements ? -1 : displacements.length);
        final long[] d = new long[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = displacements[i] * old.extent;
        }
        return hindexed(blockLengths, d, old);
    }

    /**
     * Blocks of items of {@code old} at byte displacements (MPI_Type_create_hindexed).
     *
     * @param blockLengths       items per block
     * @param displacementsBytes block starts in bytes
     * @param old                the item
     * @return the layout
     */
    public static Layout hindexed(final int[] blockLengths, final long[] displacementsBytes, final Layout old) {
        need("Layout.hindexed", old);
        lengths("Layout.hindexed", blockLengths, null == displacementsBytes ? -1 : displacementsBytes.length);
        return place("Layout.hindexed", blockLengths, displacementsBytes, same(old, blockLengths.length), false);
    }

    /**
     * Blocks of items of possibly different layouts of one element type at byte displacements
     * (MPI_Type_create_struct); the extent is rounded up to a whole number of elements, as MPI pads a struct.
     *
     * @param blockLengths       items per block
     * @param displacementsBytes block starts in bytes
     * @param types              the item layout of each block, all of one element type
     * @return the layout
     */
    public static Layout struct(final int[] blockLengths, final long[] displacementsBytes, final Layout[] types) {
        lengths("Layout.struct", blockLengths, null == displacementsBytes ? -1 : displacementsBytes.length);
        if (null == types || types.length != blockLengths.length) {
            throw Errors.expected(ErrorClass.ARG, "Layout.struct", null, "types has " + (null == types ? "null"
                : types.length + " entries"), blockLengths.length + " layouts, one per block");
        }
        for (final Layout t : types) {
            need("Layout.struct", t);
            if (t.element != types[0].element) {
                throw Errors.expected(ErrorClass.TYPE, "Layout.struct", null, "types of elements " + types[0].element
                    + " and " + t.element, "one element type in every block");
            }
        }
        return place("Layout.struct", blockLengths, displacementsBytes, types, true);
    }

    /**
     * The same data with a new lower bound and extent (MPI_Type_create_resized).
     *
     * @param old         the layout
     * @param lbBytes     the new lower bound in bytes
     * @param extentBytes the new extent in bytes, {@code >= 0}
     * @return the layout
     */
    public static Layout resized(final Layout old, final long lbBytes, final long extentBytes) {
        need("Layout.resized", old);
        if (extentBytes < 0) {
            throw Errors.argument(ErrorClass.ARG, "Layout.resized", null, "extentBytes", extentBytes, ">= 0");
        }
        return new Layout(old.element, old.disp, old.len, lbBytes, extentBytes);
    }

    /**
     * A sub-block of an n-dimensional array of items of {@code old} (MPI_Type_create_subarray): lower bound 0 and
     * the extent of the whole array, so consecutive items are consecutive whole arrays.
     *
     * @param sizes        the array's extent in each dimension
     * @param subsizes     the block's extent in each dimension, {@code 0 <= subsizes[d] <= sizes[d]}
     * @param starts       the block's first index in each dimension, {@code starts[d] + subsizes[d] <= sizes[d]}
     * @param fortranOrder false for C order (the last index varies fastest), true for Fortran order
     * @param old          the item
     * @return the layout
     */
    public static Layout subarray(final int[] sizes, final int[] subsizes, final int[] starts,
        final boolean fortranOrder, final Layout old) {
        final String op = "Layout.subarray";
        need(op, old);
        final int n = null == sizes ? 0 : sizes.length;
        if (0 == n || null == subsizes || null == starts || subsizes.length != n || starts.length != n) {
            throw Errors.expected(ErrorClass.ARG, op, null, "sizes, subsizes and starts of lengths " + n + ", "
                + (null == subsizes ? "null" : subsizes.length) + ", " + (null == starts ? "null" : starts.length),
                "three arrays of one length >= 1");
        }
        final int[] sz = new int[n];
        final int[] sub = new int[n];
        final int[] st = new int[n];
        for (int d = 0; d < n; d++) {
            final int from = fortranOrder ? n - 1 - d : d; // dimension d of C order
            sz[d] = sizes[from];
            sub[d] = subsizes[from];
            st[d] = starts[from];
            if (sz[d] < 1 || sub[d] < 0 || st[d] < 0 || (long) st[d] + sub[d] > sz[d]) {
                throw Errors.expected(ErrorClass.ARG, op, null, "dimension " + from + ": size=" + sizes[from]
                    + " subsize=" + subsizes[from] + " start=" + starts[from],
                    "size >= 1, subsize >= 0, start >= 0 and start + subsize <= size");
            }
        }
        final long[] stride = new long[n];
        stride[n - 1] = old.extent;
        for (int d = n - 2; d >= 0; d--) {
            stride[d] = stride[d + 1] * sz[d + 1];
        }
        long rows = 1;
        for (int d = 0; d < n - 1; d++) {
            rows *= sub[d];
        }
        if (0 == sub[n - 1]) {
            rows = 0;
        }
        final int[] lengths = new int[(int) rows];
        final long[] displs = new long[(int) rows];
        final int[] index = new int[n];
        for (int r = 0; r < rows; r++) {
            long at = (long) st[n - 1] * stride[n - 1];
            for (int d = 0; d < n - 1; d++) {
                at += (long) (st[d] + index[d]) * stride[d];
            }
            lengths[r] = sub[n - 1];
            displs[r] = at;
            for (int d = n - 2; d >= 0; d--) { // next row, in C order
                if (++index[d] < sub[d]) {
                    break;
                }
                index[d] = 0;
            }
        }
        return resized(hindexed(lengths, displs, old), 0, stride[0] * sz[0]);
    }

    /** Places {@code counts[k]} consecutive items of {@code types[k]} at byte {@code displs[k]}, for each k. */
    private static Layout place(final String op, final int[] counts, final long[] displs, final Layout[] types,
        final boolean pad) {
        int blocks = 0;
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] < 0) {
                throw Errors.argument(ErrorClass.ARG, op, null, "blockLengths[" + k + "]", counts[k], ">= 0");
            }
            blocks = Math.addExact(blocks, Math.multiplyExact(counts[k], types[k].disp.length));
        }
        final long[] d = new long[blocks];
        final long[] l = new long[blocks];
        int b = 0;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int k = 0; k < counts.length; k++) {
            final Layout t = types[k];
            for (int j = 0; j < counts[k]; j++) {
                final long at = displs[k] + j * t.extent;
                lo = Math.min(lo, at + t.lb);
                hi = Math.max(hi, at + t.lb + t.extent);
                for (int i = 0; i < t.disp.length; i++) {
                    if (b > 0 && d[b - 1] + l[b - 1] == at + t.disp[i]) {
                        l[b - 1] += t.len[i]; // adjacent: one block
                    } else {
                        d[b] = at + t.disp[i];
                        l[b++] = t.len[i];
                    }
                }
            }
        }
        final Datatype element = types.length > 0 ? types[0].element : Datatype.BYTE;
        if (Long.MAX_VALUE == lo) {
            lo = 0;
            hi = 0;
        }
        long ext = hi - lo;
        final long es = element.sizeBytes();
        if (pad && 0 != ext % es) {
            ext += es - ext % es;
        }
        return new Layout(element, Arrays.copyOf(d, b), Arrays.copyOf(l, b), lo, ext);
    }

    private static Layout[] same(final Layout old, final int n) {
        final Layout[] t = new Layout[n];
        Arrays.fill(t, old);
        return t;
    }

    private static void need(final String op, final Layout old) {
        if (null == old) {
            throw Errors.argument(ErrorClass.TYPE, op, null, "old", null, "a layout");
        }
    }

    private static void nonNegative(final String op, final String arg, final int value) {
        if (value < 0) {
            throw Errors.argument(ErrorClass.COUNT, op, null, arg, value, ">= 0");
        }
    }

    private static void lengths(final String op, final int[] blockLengths, final int displacements) {
        if (null == blockLengths || blockLengths.length != displacements) {
            throw Errors.expected(ErrorClass.ARG, op, null, "blockLengths of length " + (null == blockLengths ? "null"
                : blockLengths.length) + " and displacements of length " + (displacements < 0 ? "null"
                : displacements), "two arrays of one length");
        }
    }

    /**
     * Returns the same layout seen as bytes: the same blocks, bounds and extent with element type
     * {@link Datatype#BYTE}, so that layouts of different element types can be combined in one {@link #struct}
     * (whose buffers then match only byte-typed buffers of the same size).
     *
     * @return the byte layout
     */
    public Layout asBytes() {
        return new Layout(Datatype.BYTE, disp, len, lb, extent);
    }

    // ------------------------------------------------------------------------------------------ queries

    /** @return the element type of every element of the layout */
    public Datatype element() {
        return element;
    }

    /** @return the elements of one item (MPI_Type_size divided by the element size) */
    public long size() {
        return sizeBytes / element.sizeBytes();
    }

    /** @return the bytes of data of one item (MPI_Type_size) */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** @return the lower bound in bytes */
    public long lbBytes() {
        return lb;
    }

    /** @return the extent in bytes: the distance from one item to the next */
    public long extentBytes() {
        return extent;
    }

    /** @return the true lower bound in bytes: the least displacement of any data */
    public long trueLbBytes() {
        long lo = 0 == disp.length ? 0 : Long.MAX_VALUE;
        for (final long d : disp) {
            lo = Math.min(lo, d);
        }
        return lo;
    }

    /** @return the true extent in bytes: from the first byte of data to one past the last */
    public long trueExtentBytes() {
        long hi = 0 == disp.length ? 0 : Long.MIN_VALUE;
        for (int i = 0; i < disp.length; i++) {
            hi = Math.max(hi, disp[i] + len[i]);
        }
        return hi - trueLbBytes();
    }

    /** @return the number of contiguous blocks of one item, in type-map order (adjacent ones merged) */
    public int blocks() {
        return disp.length;
    }

    /**
     * Tells whether {@code count} items are one run of memory in type-map order, so that a buffer of them is a
     * plain view with no packing.
     *
     * @param count items
     * @return whether they are contiguous
     */
    public boolean isContiguous(final int count) {
        return disp.length <= 1 && (count <= 1 || 0 == disp.length || len[0] == extent);
    }

    /**
     * Returns the first byte that {@code count} items at {@code origin} touch, and one past the last, or an empty
     * range at the origin when they touch nothing.
     *
     * @param origin byte offset of item 0
     * @param count  items
     * @return {@code {first, end}}
     */
    public long[] span(final long origin, final int count) {
        if (0 == count || 0 == sizeBytes) {
            return new long[] {origin, origin};
        }
        final long lo = trueLbBytes();
        final long hi = lo + trueExtentBytes();
        final long last = (count - 1L) * extent;
        return new long[] {origin + lo + Math.min(0, last), origin + hi + Math.max(0, last)};
    }

    // ------------------------------------------------------------------------------------ gather, scatter

    /**
     * Gathers {@code count} items at byte {@code origin} of {@code memory} into {@code out}, packed, from its byte
     * 0 ({@link #sizeBytes()} bytes per item).
     *
     * @param memory the memory the items lie in
     * @param origin byte offset of item 0
     * @param count  items
     * @param out    at least {@code count * sizeBytes()} bytes
     */
    public void pack(final MemorySegment memory, final long origin, final int count, final MemorySegment out) {
        long at = 0;
        for (int i = 0; i < count; i++) {
            final long base = origin + i * extent;
            for (int b = 0; b < disp.length; b++) {
                SegmentCopy.copy(memory, base + disp[b], out, at, len[b]);
                at += len[b];
            }
        }
    }

    /**
     * Scatters packed bytes into the items at byte {@code origin} of {@code memory}: as many of them as
     * {@code in} holds (a shorter message fills a prefix, in type-map order), never more than {@code count} items.
     *
     * @param in     packed bytes, from byte 0
     * @param memory the memory the items lie in
     * @param origin byte offset of item 0
     * @param count  items
     */
    public void unpack(final MemorySegment in, final MemorySegment memory, final long origin, final int count) {
        long at = 0;
        final long have = in.byteSize();
        for (int i = 0; i < count && at < have; i++) {
            final long base = origin + i * extent;
            for (int b = 0; b < disp.length && at < have; b++) {
                final long n = Math.min(len[b], have - at);
                SegmentCopy.copy(in, at, memory, base + disp[b], n);
                at += n;
            }
        }
    }

    @Override
    public String toString() {
        return "Layout[" + element + ", size=" + size() + ", lb=" + lb + ", extent=" + extent + ", blocks="
            + disp.length + "]";
    }
}
