package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * A rank program for jobs started by another launcher ({@code SlurmClusterTest}): joins through
 * {@link Tutti#init()}, checks one allreduce and one bcast, and prints {@code rank R of N sum=S}.
 */
public final class AllreduceRank {
    private AllreduceRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int r = w.rank();
            final int n = w.size();
            final long[] sum = new long[1];
            w.allreduce(Buf.of(new long[] {r + 1}), Buf.of(sum), Op.SUM);
            final long[] b = {0 == r ? 4711 : 0};
            w.bcast(Buf.of(b), 0);
            if (sum[0] != (long) n * (n + 1) / 2 || 4711 != b[0]) {
                throw new IllegalStateException("rank " + r + ": allreduce " + sum[0] + ", bcast " + b[0]);
            }
            System.out.println("rank " + r + " of " + n + " sum=" + sum[0]);
        }
    }
}
