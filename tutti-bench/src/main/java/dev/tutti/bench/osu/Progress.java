package dev.tutti.bench.osu;

import java.io.PrintWriter;

/**
 * A one-line progress indicator on a terminal: {@code bench allreduce: 4096 B (13 of 23 sizes)}, rewritten in place
 * (carriage return, erase to end of line) and erased before each row of the table, so that a long run shows what
 * it is measuring without adding lines. Off (every method does nothing) when the output is not a terminal.
 */
final class Progress {
    private static final String ERASE_LINE = "\r\u001b[K";

    private final PrintWriter out;
    private boolean shown;

    private Progress(final PrintWriter out) {
        this.out = out;
    }

    /**
     * An indicator writing to {@code out} if this process's console is a terminal, else one that does nothing.
     *
     * @param out where the line goes (standard error, so that the table on standard output stays clean)
     * @return the indicator
     */
    static Progress onTerminal(final PrintWriter out) {
        final java.io.Console console = System.console();
        return new Progress(null != console && console.isTerminal() ? out : null);
    }

    /**
     * An indicator that always writes (tests).
     *
     * @param out where the line goes
     * @return the indicator
     */
    static Progress to(final PrintWriter out) {
        return new Progress(out);
    }

    /** @return an indicator that does nothing */
    static Progress none() {
        return new Progress(null);
    }

    /**
     * Shows which size is being measured.
     *
     * @param op    the operation
     * @param bytes the message size
     * @param index its position, from 0
     * @param count the number of sizes
     */
    void size(final String op, final int bytes, final int index, final int count) {
        if (null != out) {
            out.print(ERASE_LINE + "bench " + op + ": " + bytes + " B (" + (index + 1) + " of " + count + " sizes)");
            out.flush();
            shown = true;
        }
    }

    /** Erases the line, if one is shown. */
    void clear() {
        if (null != out && shown) {
            out.print(ERASE_LINE);
            out.flush();
            shown = false;
        }
    }
}
