package mpjbuf;

/**
 * Where the elements of one write or read of a {@link Buffer} sit in the program's array: element {@code i} of the
 * call ({@code i < count()}) is at index {@link #index(int)}. The three ways {@code Buffer} offers: contiguous from
 * an offset ({@code write}/{@code read}), listed by an index array ({@code gather}/{@code scatter}), or a strided
 * multi-dimensional patch ({@code strGather}/{@code strScatter}). A listed or strided placement is checked against
 * its own description when it is made; every placement is checked against the array by {@link Sections} before an
 * element moves ({@link #check}).
 *
 * <p>Implementation note: immutable, made per call. A listed placement reads the caller's index array, not a copy;
 * a strided one computes its indexes once, an {@code int[]} of the patch's volume.
 */
final class Placement {
    private final int count;
    private final int base;
    private final int[] indexes;

    private Placement(final int count, final int base, final int[] indexes) {
        this.count = count;
        this.base = base;
        this.indexes = indexes;
    }

    /**
     * @param offset the first element's index
     * @param count  the number of elements, checked by the section that moves them
     * @return elements {@code offset, offset + 1, ...}
     */
    static Placement contiguous(final int offset, final int count) {
        return new Placement(count, offset, null);
    }

    /**
     * @param op      the call, for the message
     * @param indexes the elements' indexes
     * @param offs    the first entry of {@code indexes} used
     * @param numEls  the number of elements
     * @return elements {@code indexes[offs], indexes[offs + 1], ...}
     * @throws IllegalArgumentException if the entries are out of {@code indexes}
     */
    static Placement listed(final String op, final int[] indexes, final int offs, final int numEls) {
        if (null == indexes || offs < 0 || numEls < 0 || offs + numEls > indexes.length) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": indexes[" + offs + ".." + (offs + numEls)
                + ") of " + (null == indexes ? "null" : "an array of " + indexes.length) + " (expected numEls "
                + "entries from offs)");
        }
        return new Placement(numEls, offs, indexes);
    }

    /**
     * @param op     the call, for the message
     * @param offset the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @return the elements of a multi-dimensional strided patch, the first dimension outermost
     * @throws IllegalArgumentException for a malformed shape
     */
    static Placement strided(final String op, final int offset, final int rank, final int exts, final int strs,
        final int[] shape) {
        if (null == shape || rank < 0 || exts < 0 || strs < 0 || exts + rank > shape.length
            || strs + rank > shape.length) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": rank=" + rank + " exts=" + exts + " strs="
                + strs + " over a shape of " + (null == shape ? "null" : shape.length + " entries") + " (expected "
                + "extents at shape[exts..exts+rank-1] and strides at shape[strs..strs+rank-1])");
        }
        int volume = 1;
        for (int d = 0; d < rank; d++) {
            if (shape[exts + d] < 0) {
                throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": extent " + d + " is " + shape[exts + d]
                    + " (expected >= 0)");
            }
            volume = Math.multiplyExact(volume, shape[exts + d]);
        }
        final int[] out = new int[volume];
        for (int i = 0; i < volume; i++) {
            int rest = i;
            int at = offset;
            for (int d = rank - 1; d >= 0; d--) {
                at += (rest % shape[exts + d]) * shape[strs + d];
                rest /= shape[exts + d];
            }
            out[i] = at;
        }
        return new Placement(volume, 0, out);
    }

    /** @return the number of elements of the call */
    int count() {
        return count;
    }

    /** @return the array index of the call's {@code i}th element */
    int index(final int i) {
        return null == indexes ? base + i : indexes[base + i];
    }

    /**
     * Checks that every element of the call is inside an array of {@code length} elements.
     *
     * @param op     the call, for the message
     * @param length the array's length
     * @param verb   how an element relates to its index, for the message ({@code "is at"}, {@code "goes to"})
     * @throws IndexOutOfBoundsException naming the first element outside
     */
    void check(final String op, final int length, final String verb) {
        for (int i = 0; i < count; i++) {
            final int k = index(i);
            if (k < 0 || k >= length) {
                throw new IndexOutOfBoundsException("mpjbuf.Buffer." + op + ": element " + i + " " + verb + " index "
                    + k + " of an array of " + length + " (expected 0.." + (length - 1) + ")");
            }
        }
    }
}
