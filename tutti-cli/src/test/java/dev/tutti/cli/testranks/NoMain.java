package dev.tutti.cli.testranks;

/** A class that {@code tutti run} cannot start: it has no {@code main} method. */
public final class NoMain {
    private NoMain() {
    }

    /** Not a main method. */
    public static void start() {
    }
}
