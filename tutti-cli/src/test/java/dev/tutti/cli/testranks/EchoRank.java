package dev.tutti.cli.testranks;

import java.util.Arrays;

/**
 * A rank program for CLI tests (never calls {@code Tutti.init()}): prints {@code rank R of S CLI_TEST=v args=[...]};
 * with argument {@code throw=R} rank R throws, with {@code hang} every rank sleeps forever.
 */
public final class EchoRank {
    private EchoRank() {
    }

    /**
     * Runs the rank.
     *
     * @param args the arguments
     * @throws InterruptedException never
     */
    public static void main(final String[] args) throws InterruptedException {
        final String rank = System.getenv("TUTTI_RANK");
        System.out.println("rank " + rank + " of " + System.getenv("TUTTI_SIZE") + " CLI_TEST="
            + System.getenv("CLI_TEST") + " args=" + Arrays.toString(args));
        if (Arrays.asList(args).contains("throw=" + rank)) {
            throw new IllegalStateException("rank " + rank + " was told to throw");
        }
        if (Arrays.asList(args).contains("hang")) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
