package dev.tutti.examples;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * Distributed matrix transposes between two groups with one bipartite alltoallv on an intercommunicator.
 *
 * <p>The ranks split into producers (group A, the first half of the world) and consumers (group B, the rest).
 * Producers hold matrix P (rowsP x colsP) by blocks of rows; consumers need its columns, i.e. the rows of
 * P-transposed, by blocks. At the same time consumers hold matrix Q by rows and producers need its columns. On an
 * intercommunicator the alltoallv is symmetric: every producer sends to every consumer and every consumer to
 * every producer, so both transposes travel in the one call (a one-way transpose is the same call with empty
 * counts in the other direction). Each rank checks its part against a sequential transpose.
 *
 * <pre>
 * bin/tutti run -n 6 -cp tutti-examples/target/classes dev.tutti.examples.Transpose [rowsP colsP rowsQ colsQ]
 * </pre>
 */
public final class Transpose {
    private Transpose() {
    }

    /** First index of block {@code k} of {@code n} items split into {@code parts} nearly equal blocks. */
    static int lo(final int k, final int n, final int parts) {
        return (int) ((long) k * n / parts);
    }

    static double p(final int i, final int j) {
        return i * 10_000.0 + j;
    }

    static double q(final int i, final int j) {
        return -(i * 10_000.0 + j) - 0.5;
    }

    /**
     * Runs the example.
     *
     * @param args optional: rowsP colsP rowsQ colsQ (default 600 400 350 500)
     */
    public static void main(final String[] args) {
        final int rowsP = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        final int colsP = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        final int rowsQ = args.length > 2 ? Integer.parseInt(args[2]) : 350;
        final int colsQ = args.length > 3 ? Integer.parseInt(args[3]) : 500;
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            if (world.size() < 2) {
                throw new IllegalStateException("Transpose needs at least 2 ranks (producers and consumers), got "
                    + world.size());
            }
            final int producers = world.size() / 2;
            final boolean producer = world.rank() < producers;
            final Communicator group = world.split(producer ? 0 : 1, world.rank());
            final Intercommunicator inter = group.createIntercomm(0, world, producer ? producers : 0, 42);
            final long t0 = System.nanoTime();
            // What this rank holds (rows of its matrix) and what it gets (rows of the other's transpose).
            final int holdRows = producer ? rowsP : rowsQ;
            final int holdCols = producer ? colsP : colsQ;
            final int getRows = producer ? colsQ : colsP;   // rows of the transpose = columns of the other matrix
            final int getCols = producer ? rowsQ : rowsP;
            final int me = inter.rank();
            final int mine = inter.size();
            final int theirs = inter.remoteSize();
            final int r0 = lo(me, holdRows, mine);
            final int r1 = lo(me + 1, holdRows, mine);
            final double[] held = new double[(r1 - r0) * holdCols];
            for (int r = r0; r < r1; r++) {
                for (int c = 0; c < holdCols; c++) {
                    held[(r - r0) * holdCols + c] = producer ? p(r, c) : q(r, c);
                }
            }
            // Pack for remote rank j: my rows x its columns, column-major, so it lands as rows of the transpose.
            final int[] sendCounts = new int[theirs];
            final int[] sendDispls = new int[theirs];
            final double[] send = new double[held.length];
            int at = 0;
            for (int j = 0; j < theirs; j++) {
                final int c0 = lo(j, holdCols, theirs);
                final int c1 = lo(j + 1, holdCols, theirs);
                sendDispls[j] = at;
                for (int c = c0; c < c1; c++) {
                    for (int r = r0; r < r1; r++) {
                        send[at++] = held[(r - r0) * holdCols + c];
                    }
                }
                sendCounts[j] = at - sendDispls[j];
            }
            // From remote rank j: its rows x my transposed rows, transposed-row-major.
            final int t0Row = lo(me, getRows, mine);
            final int t1Row = lo(me + 1, getRows, mine);
            final int[] recvCounts = new int[theirs];
            final int[] recvDispls = new int[theirs];
            at = 0;
            for (int j = 0; j < theirs; j++) {
                recvDispls[j] = at;
                recvCounts[j] = (t1Row - t0Row) * (lo(j + 1, getCols, theirs) - lo(j, getCols, theirs));
                at += recvCounts[j];
            }
            final double[] recv = new double[at];
            inter.alltoallv(Buf.of(send), sendCounts, sendDispls, Buf.of(recv), recvCounts, recvDispls);
            // Unpack into my rows of the transpose and check them against the sequential definition.
            final double[] transposed = new double[(t1Row - t0Row) * getCols];
            for (int j = 0; j < theirs; j++) {
                final int s0 = lo(j, getCols, theirs);
                final int s1 = lo(j + 1, getCols, theirs);
                int k = recvDispls[j];
                for (int t = t0Row; t < t1Row; t++) {
                    for (int s = s0; s < s1; s++) {
                        transposed[(t - t0Row) * getCols + s] = recv[k++];
                    }
                }
            }
            final long micros = (System.nanoTime() - t0) / 1_000;
            long wrong = 0;
            for (int t = t0Row; t < t1Row; t++) {
                for (int s = 0; s < getCols; s++) {
                    final double expected = producer ? q(s, t) : p(s, t);   // (M^T)[t][s] = M[s][t]
                    if (transposed[(t - t0Row) * getCols + s] != expected) {
                        wrong++;
                    }
                }
            }
            final long[] totals = new long[2];
            world.allreduce(Buf.of(new long[] {wrong, transposed.length}), Buf.of(totals), Op.SUM);
            if (0 == world.rank()) {
                System.out.printf("transpose: %d producers, %d consumers; P %dx%d -> consumers, Q %dx%d -> "
                    + "producers, in one bipartite alltoallv (%d us on rank 0): %d elements checked, %d wrong%n",
                    producers, world.size() - producers, rowsP, colsP, rowsQ, colsQ, micros, totals[1], totals[0]);
            }
            if (0 != totals[0]) {
                throw new IllegalStateException("transpose: " + totals[0] + " elements differ from the sequential "
                    + "transpose");
            }
            inter.free();
            group.free();
        }
    }
}
