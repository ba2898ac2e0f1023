package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * MPI_Dims_create's arithmetic. Implementation note: the processes left for the free (zero) dimensions are split
 * into prime factors, largest first, and each factor multiplies the free dimension that is smallest so far; the
 * free dimensions are then sorted into non-increasing order. That gives 6 on 2 → 3 x 2, 12 on 3 → 3 x 2 x 2,
 * 16 on 2 → 4 x 4, 7 on 2 → 7 x 1.
 */
final class Dims {
    private Dims() {
    }

    /**
     * Fills the zero entries of {@code dims}.
     *
     * @param nnodes the number of processes, > 0
     * @param dims   the dimensions: entries > 0 are fixed, 0 entries are filled
     * @throws MpiErrors.MpiError ERR_DIMS for a negative entry or a fixed product that does not divide
     *                         {@code nnodes}; ERR_ARG for {@code nnodes <= 0}
     */
    static void fill(final int nnodes, final int[] dims) {
        if (nnodes <= 0 || null == dims) {
            throw MpiErrors.error(MPI.ERR_ARG, "createDims: nnodes=" + nnodes + ", expected > 0 and a dims array");
        }
        int fixed = 1;
        int free = 0;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] < 0) {
                throw MpiErrors.error(MPI.ERR_DIMS, "createDims: dims[" + d + "]=" + dims[d] + ", expected >= 0");
            }
            if (0 == dims[d]) {
                free++;
            } else {
                fixed *= dims[d];
            }
        }
        if (0 != nnodes % fixed || (0 == free && fixed != nnodes)) {
            throw MpiErrors.error(MPI.ERR_DIMS, "createDims: the fixed dims " + Arrays.toString(dims)
                + " do not divide nnodes=" + nnodes);
        }
        if (0 == free) {
            return;
        }
        final int[] out = new int[free];
        Arrays.fill(out, 1);
        final List<Integer> primes = factors(nnodes / fixed);
        for (int i = primes.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int k = 1; k < free; k++) {
                if (out[k] < out[smallest]) {
                    smallest = k;
                }
            }
            out[smallest] *= primes.get(i);
        }
        Arrays.sort(out);
        for (int d = 0, k = free - 1; d < dims.length; d++) {
            if (0 == dims[d]) {
                dims[d] = out[k--];
            }
        }
    }

    /** @return the prime factors of {@code n}, ascending */
    private static List<Integer> factors(final int n) {
        final List<Integer> f = new ArrayList<>();
        int m = n;
        for (int p = 2; (long) p * p <= m; p++) {
            while (0 == m % p) {
                f.add(p);
                m /= p;
            }
        }
        if (m > 1) {
            f.add(m);
        }
        return f;
    }
}
