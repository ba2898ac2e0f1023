package mpi.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * Matrix multiply C = A B in the Open MPI Java style, with derived datatypes, twice:
 * <ol>
 * <li>by rows: a row of n doubles is a contiguous type; rank 0 scatters blocks of rows of A, broadcasts B, and
 * gathers the rows of C;</li>
 * <li>by columns: a column block of B (n rows of {@code cb} doubles, stride n) is a vector type, resized to the
 * extent of {@code cb} doubles so that consecutive blocks start {@code cb} columns apart; rank 0 scatters the
 * column blocks of B (each rank receives its block as contiguous n x cb), broadcasts A, and gathers the column
 * blocks of C back into place through the same type.</li>
 * </ol>
 * Rank 0 checks both against a serial product and prints "matrix multiply OK"; a mismatch aborts with 3.
 * The order is n = 2 x ranks (argument 0 multiplies it).
 */
public final class MatrixMultiply {
    private MatrixMultiply() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final int per = 2 * (args.length > 0 ? Integer.parseInt(args[0]) : 1);
        final int n = per * size;
        final double[] a = new double[n * n];
        final double[] b = new double[n * n];
        double[] expected = null;
        if (0 == rank) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    a[i * n + j] = (i + 2 * j) % 7 - 3;
                    b[i * n + j] = (3 * i + j) % 5 + 0.5;
                }
            }
            expected = multiply(a, b, n, n, n);
        }

        // 1. rows
        final Datatype row = Datatype.createContiguous(n, MPI.DOUBLE);
        row.commit();
        final double[] myRows = new double[per * n];
        MPI.COMM_WORLD.scatter(a, per, row, myRows, per, row, 0);
        MPI.COMM_WORLD.bcast(b, n * n, MPI.DOUBLE, 0);
        final double[] myC = multiply(myRows, b, per, n, n);
        final double[] byRows = new double[n * n];
        MPI.COMM_WORLD.gather(myC, per, row, byRows, per, row, 0);
        row.free();

        // 2. column blocks
        final Datatype block = Datatype.createVector(n, per, n, MPI.DOUBLE);
        final Datatype column = Datatype.createResized(block, 0, per * 8);
        column.commit();
        final double[] myCols = new double[n * per];
        MPI.COMM_WORLD.scatter(b, 1, column, myCols, n * per, MPI.DOUBLE, 0);
        MPI.COMM_WORLD.bcast(a, n * n, MPI.DOUBLE, 0);
        final double[] myCCols = multiply(a, myCols, n, n, per);
        final double[] byColumns = new double[n * n];
        MPI.COMM_WORLD.gather(myCCols, n * per, MPI.DOUBLE, byColumns, 1, column, 0);
        column.free();
        block.free();

        if (0 == rank) {
            for (int k = 0; k < n * n; k++) {
                if (expected[k] != byRows[k] || expected[k] != byColumns[k]) {
                    System.err.println("mismatch at (" + k / n + "," + k % n + "): " + expected[k] + " by rows "
                        + byRows[k] + " by columns " + byColumns[k]);
                    MPI.COMM_WORLD.abort(3);
                }
            }
            System.out.println("matrix multiply OK (n=" + n + ")");
        }
        MPI.Finalize();
    }

    /** @return the rows x cols product of x (rows x inner) and y (inner x cols), all row-major */
    private static double[] multiply(final double[] x, final double[] y, final int rows, final int inner,
                                     final int cols) {
        final double[] z = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < inner; k++) {
                final double xik = x[i * inner + k];
                for (int j = 0; j < cols; j++) {
                    z[i * cols + j] += xik * y[k * cols + j];
                }
            }
        }
        return z;
    }
}
