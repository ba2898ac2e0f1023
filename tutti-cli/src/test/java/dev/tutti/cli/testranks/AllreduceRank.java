package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.runtime.identity.Identities;

/**
 * A rank program for jobs started by another launcher ({@code SlurmClusterTest}): joins through
 * {@link Tutti#init()}, checks one allreduce and one bcast, and prints {@code rank R of N (SOURCE) sum=S}, SOURCE
 * being the identity source that found the rank (e.g. {@code slurm}).
 *
 * <p>With the arguments {@code die V}, rank V then prints {@code rank V dies now} and halts with status 0 (no
 * goodbye, and nothing the launcher finds wrong); the others run allreduces until they fail, which must end them
 * with a non-zero status and an exception naming rank V.
 */
public final class AllreduceRank {
    private AllreduceRank() {
    }

    public static void main(final String[] args) {
        final String source = Identities.detect(System.getenv()).chosen().source();
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
            System.out.println("rank " + r + " of " + n + " (" + source + ") sum=" + sum[0]);
            if (args.length > 1 && "die".equals(args[0])) {
                loopUntilFailure(w, Integer.parseInt(args[1]));
            }
        }
    }

    private static void loopUntilFailure(final Communicator w, final int victim) {
        if (victim == w.rank()) {
            System.out.println("rank " + victim + " dies now");
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
        final long[] sum = new long[1];
        for (int i = 0; i < 1_000_000; i++) {
            w.allreduce(Buf.of(new long[] {i}), Buf.of(sum), Op.SUM);
        }
        throw new IllegalStateException("rank " + w.rank() + ": a million allreduces completed without rank "
            + victim);
    }
}
