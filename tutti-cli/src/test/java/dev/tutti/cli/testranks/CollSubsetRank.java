package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

import java.util.Arrays;
import java.util.List;

/**
 * A rank program that runs a representative subset of the collectives over real processes (tcp) and checks each
 * result against its closed form; it throws (and so fails the job) on the first wrong value.
 */
public final class CollSubsetRank {
    private CollSubsetRank() {
    }

    static void check(final boolean ok, final String what) {
        if (!ok) {
            throw new IllegalStateException("wrong result: " + what);
        }
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int me = w.rank();
            final int p = w.size();
            for (final int n : new int[] {1, 1000, 100_000}) {
                final double[] x = new double[n];
                Arrays.fill(x, me + 1);
                final double[] sum = new double[n];
                w.allreduce(Buf.of(x), Buf.of(sum), Op.SUM);
                check(sum[n - 1] == p * (p + 1) / 2.0, "allreduce n=" + n);

                final long[] b = new long[n];
                if (p - 1 == me) {
                    Arrays.fill(b, 42);
                }
                w.bcast(Buf.of(b), p - 1);
                check(b[0] == 42 && b[n - 1] == 42, "bcast n=" + n);

                final int[] out = new int[p * n];
                for (int j = 0; j < p; j++) {
                    Arrays.fill(out, j * n, (j + 1) * n, me * 1000 + j);
                }
                final int[] in = new int[p * n];
                w.alltoall(Buf.of(out), Buf.of(in));
                for (int j = 0; j < p; j++) {
                    check(in[j * n] == j * 1000 + me && in[(j + 1) * n - 1] == j * 1000 + me, "alltoall n=" + n);
                }

                final int[] all = new int[p * n];
                w.allgather(Buf.of(out, 0, n), Buf.of(all));
                for (int j = 0; j < p; j++) {
                    check(all[j * n] == j * 1000, "allgather n=" + n);
                }

                final double[] red = new double[n];
                w.reduce(Buf.of(x), Buf.of(red), Op.MAX, 1 % p);
                check(me != 1 % p || red[n - 1] == p, "reduce n=" + n);

                final double[] block = new double[n];
                final double[] rsIn = new double[p * n];
                Arrays.fill(rsIn, 1.0);
                w.reduceScatterBlock(Buf.of(rsIn), Buf.of(block), Op.SUM);
                check(block[n - 1] == p, "reduce_scatter_block n=" + n);

                final int[] scan = new int[1];
                w.scan(Buf.of(new int[] {me + 1}), Buf.of(scan), Op.SUM);
                check(scan[0] == (me + 1) * (me + 2) / 2, "scan");

                final int[] g = me == 0 ? new int[p * n] : null;
                w.gather(Buf.of(out, 0, n), me == 0 ? Buf.of(g) : null, 0);
                check(me != 0 || g[(p - 1) * n] == (p - 1) * 1000, "gather n=" + n);
            }
            w.barrier();
            check(w.allgatherObject("r" + me).equals(java.util.stream.IntStream.range(0, p).mapToObj(i -> "r" + i)
                .toList()), "allgatherObject");
            final List<Integer> back = w.alltoallObject(java.util.Collections.nCopies(p, me));
            check(back.equals(java.util.stream.IntStream.range(0, p).boxed().toList()), "alltoallObject");
            if (0 == me) {
                System.out.println("collective subset OK on " + p + " ranks");
            }
        }
    }
}
