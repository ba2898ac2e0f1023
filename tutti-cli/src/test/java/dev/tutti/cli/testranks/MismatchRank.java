package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * Collectives that do not match, in ways where no rank receives a message of the other call: {@code roots} (every
 * rank bcasts, rank 1 naming itself the root and the others rank 0), {@code bcast-reduce} (rank 0 bcasts, the others
 * reduce to rank 0); {@code twin} is their correct twin. Each rank prints {@code rank R returned} once its calls
 * have returned.
 */
public final class MismatchRank {
    private MismatchRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int[] data = new int[4];
            switch (args[0]) {
                case "roots" -> w.bcast(Buf.of(data), 1 == w.rank() ? 1 : 0);
                case "bcast-reduce" -> {
                    if (0 == w.rank()) {
                        w.bcast(Buf.of(data), 0);
                    } else {
                        w.reduce(Buf.of(data), Buf.of(new int[4]), Op.SUM, 0);
                    }
                }
                default -> {
                    w.bcast(Buf.of(data), 0);
                    w.reduce(Buf.of(data), Buf.of(new int[4]), Op.SUM, 0);
                }
            }
            System.out.println("rank " + w.rank() + " returned");
        }
    }
}
