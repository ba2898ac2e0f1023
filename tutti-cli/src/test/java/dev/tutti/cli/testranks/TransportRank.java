package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.internal.Settings;

/**
 * A rank program for CLI tests: joins the job, sums the ranks with an allreduce, and prints
 * {@code rank R transport=T sum=S}, T being the {@code tutti.transport} system property it was given.
 */
public final class TransportRank {
    private TransportRank() {
    }

    /**
     * Runs the rank.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final int[] sum = {tutti.world().rank()};
            tutti.world().allreduce(Buf.IN_PLACE, Buf.of(sum), Op.SUM);
            System.out.println("rank " + tutti.world().rank() + " transport="
                + System.getProperty(Settings.TRANSPORT.name()) + " sum=" + sum[0]);
        }
    }
}
