package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * After a barrier, rank 2 quits as {@code args[0]} says while the others need it in an allreduce: {@code throw}
 * (an {@code IllegalStateException("boom")} out of main, which closes Tutti on its way), {@code exit0}
 * ({@code System.exit(0)}, no goodbye) or {@code none} (the correct twin: it stays, and rank 0 prints
 * {@code sum=S}, the sum of the ranks).
 */
public final class QuittingRank {
    private QuittingRank() {
    }

    public static void main(final String[] args) {
        final String mode = args[0];
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            w.barrier();
            if (2 == w.rank()) {
                switch (mode) {
                    case "throw" -> throw new IllegalStateException("boom");
                    case "exit0" -> System.exit(0);
                    case "none" -> { }
                    default -> throw new IllegalArgumentException("mode=" + mode);
                }
            }
            final int[] x = {w.rank()};
            w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
            if (0 == w.rank()) {
                System.out.println("sum=" + x[0]);
            }
        }
    }
}
