package mpi;

import java.util.Arrays;

/**
 * Where the elements of one item of a datatype lie, in array elements from the item's start (MPJ Express counts
 * sizes, extents and displacements in elements of the buffer array, not in bytes), with the item's bounds.
 * Immutable.
 *
 * <p>Implementation note: {@link #map} is the type map in packing order. {@link #runStart}/{@link #runLength}
 * merge its consecutive displacements into runs, so packing copies one run at a time with
 * {@link System#arraycopy} whatever the array type. The bounds follow MPI: {@code lb} is the least displacement of
 * any copy of a component plus that component's lb, {@code ub} the greatest plus its ub; {@code MPI.LB}/{@code UB}
 * entries of a struct set them explicitly.
 */
final class Shape {
    final Base base;
    final int[] map;
    final int lb;
    final int ub;
    final int[] runStart;
    final int[] runLength;
    /** Whether {@code count} items are the {@code count * size} elements from the offset on. */
    final boolean contiguous;
    /** Least and greatest displacement of {@link #map} (0 and -1 if it is empty). */
    final int minDisp;
    final int maxDisp;

    Shape(final Base base, final int[] map, final int lb, final int ub) {
        this.base = base;
        this.map = map;
        this.lb = lb;
        this.ub = ub;
        int runs = 0;
        for (int i = 0; i < map.length; i++) {
            if (0 == i || map[i] != map[i - 1] + 1) {
                runs++;
            }
        }
        runStart = new int[runs];
        runLength = new int[runs];
        int r = -1;
        int min = 0;
        int max = -1;
        for (int i = 0; i < map.length; i++) {
            if (0 == i || map[i] != map[i - 1] + 1) {
                r++;
                runStart[r] = map[i];
            }
            runLength[r]++;
            min = 0 == i ? map[i] : Math.min(min, map[i]);
            max = 0 == i ? map[i] : Math.max(max, map[i]);
        }
        minDisp = min;
        maxDisp = max;
        contiguous = 0 == lb && ub == map.length && (0 == runs || (1 == runs && 0 == runStart[0]));
    }

    /** @return one element: displacement 0, extent 1 */
    static Shape basic(final Base base) {
        return new Shape(base, new int[] {0}, 0, 1);
    }

    /** @return no element and no extent: {@code MPI.LB}, {@code MPI.UB} */
    static Shape marker() {
        return new Shape(Base.MARKER, new int[0], 0, 0);
    }

    int size() {
        return map.length;
    }

    int extent() {
        return ub - lb;
    }

    /**
     * Copies of {@code old} at the given element displacements, in that order.
     *
     * @param disps the displacement of each copy
     * @param old   the component
     * @return the shape
     */
    static Shape copies(final int[] disps, final Shape old) {
        final int s = old.size();
        final int[] map = new int[Math.multiplyExact(disps.length, s)];
        int lb = 0;
        int ub = 0;
        for (int c = 0; c < disps.length; c++) {
            for (int j = 0; j < s; j++) {
                map[c * s + j] = disps[c] + old.map[j];
            }
            lb = 0 == c ? disps[c] + old.lb : Math.min(lb, disps[c] + old.lb);
            ub = 0 == c ? disps[c] + old.ub : Math.max(ub, disps[c] + old.ub);
        }
        return new Shape(old.base, map, lb, ub);
    }

    /**
     * The displacements of the copies of a block list: block {@code i} starts at {@code starts[i]}, its items one
     * extent of the component apart.
     */
    static int[] blockCopies(final int[] blockLengths, final int[] starts, final int itemExtent) {
        int n = 0;
        for (final int b : blockLengths) {
            n = Math.addExact(n, b);
        }
        final int[] d = new int[n];
        int k = 0;
        for (int i = 0; i < blockLengths.length; i++) {
            for (int j = 0; j < blockLengths[i]; j++) {
                d[k++] = starts[i] + j * itemExtent;
            }
        }
        return d;
    }

    @Override
    public String toString() {
        return base + Arrays.toString(map) + " lb=" + lb + " ub=" + ub;
    }
}
