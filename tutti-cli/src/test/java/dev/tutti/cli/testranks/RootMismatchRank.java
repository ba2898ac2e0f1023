package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * One bcast: with {@code mismatch}, the last rank names root 1 and the others root 0 (the checker reports it on
 * every rank); with {@code match} (the correct twin) every rank names root 0 and rank 1 prints {@code got=0}.
 */
public final class RootMismatchRank {
    private RootMismatchRank() {
    }

    public static void main(final String[] args) {
        final boolean mismatch = "mismatch".equals(args[0]);
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int[] x = {w.rank()};
            w.bcast(Buf.of(x), mismatch && w.size() - 1 == w.rank() ? 1 : 0);
            if (1 == w.rank()) {
                System.out.println("got=" + x[0]);
            }
        }
    }
}
