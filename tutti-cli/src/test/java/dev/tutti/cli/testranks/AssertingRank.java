package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * Rank 1 fails an assertion (an {@link AssertionError}, not an exception) after wire-up; every other rank then waits
 * for a message from rank 1 that never comes.
 */
public final class AssertingRank {
    private AssertingRank() {
    }

    /**
     * Runs the rank.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            w.barrier();
            if (1 == w.rank()) {
                throw new AssertionError("rank one asserts");
            }
            w.recv(Buf.of(new int[1]), 1, 0);
        }
    }
}
