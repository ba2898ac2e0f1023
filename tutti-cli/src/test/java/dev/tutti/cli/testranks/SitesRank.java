package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * A rank program for {@code TraceProcessTest}: blocking allreduces from two call sites in one loop, {@link #ROUNDS}
 * rounds of three calls of 8 bytes at {@code SitesRank.small} and one of 1 KiB at {@code SitesRank.large}, for the
 * profile's call sites estimated from sampled stacks. Prints {@code sites OK on N ranks}.
 */
public final class SitesRank {
    /** Rounds of the loop per rank. */
    public static final int ROUNDS = 2_000;
    /** Calls at the small site per round. */
    public static final int SMALL = 3;

    private SitesRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final long[] one = {1};
            final long[] sum = new long[1];
            final long[] block = new long[128];
            final long[] blockSum = new long[128];
            java.util.Arrays.fill(block, 1);
            for (int i = 0; i < ROUNDS; i++) {
                for (int k = 0; k < SMALL; k++) {
                    small(w, one, sum);
                }
                large(w, block, blockSum);
            }
            if (sum[0] != w.size() || blockSum[127] != w.size()) {
                throw new IllegalStateException("sums " + sum[0] + ", " + blockSum[127]);
            }
            if (0 == w.rank()) {
                System.out.println("sites OK on " + w.size() + " ranks");
            }
        }
    }

    private static void small(final Communicator w, final long[] in, final long[] out) {
        w.allreduce(Buf.of(in), Buf.of(out), Op.SUM);
    }

    private static void large(final Communicator w, final long[] in, final long[] out) {
        w.allreduce(Buf.of(in), Buf.of(out), Op.SUM);
    }
}
