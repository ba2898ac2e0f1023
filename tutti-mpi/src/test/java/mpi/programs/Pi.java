package mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * The classic pi program in the Open MPI Java style: rank 0 broadcasts the number of intervals, each rank
 * integrates 4/(1+x^2) over its share of them (midpoint rule, intervals dealt round-robin), and a sum reduction
 * to rank 0 gives pi. Prints "pi OK" at rank 0 when the result is within the rule's error; otherwise aborts with 3.
 */
public final class Pi {
    private Pi() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final int[] n = new int[1];
        if (0 == rank) {
            n[0] = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        }
        MPI.COMM_WORLD.bcast(n, 1, MPI.INT, 0);
        final double h = 1.0 / n[0];
        double sum = 0.0;
        for (int i = rank + 1; i <= n[0]; i += size) {
            final double x = h * (i - 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        final double[] mine = {h * sum};
        final double[] pi = new double[1];
        MPI.COMM_WORLD.reduce(mine, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (0 == rank) {
            final double error = Math.abs(pi[0] - Math.PI);
            System.out.printf("pi is approximately %.16f, error is %.3e%n", pi[0], error);
            if (error > 1.0 / ((double) n[0] * n[0])) {
                System.err.println("mismatch: pi " + pi[0]);
                MPI.COMM_WORLD.abort(3);
            }
            System.out.println("pi OK");
        }
        MPI.Finalize();
    }
}
