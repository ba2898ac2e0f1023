package dev.tutti.bench.osu;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One {@code tutti bench} command line run in this JVM, as the tests of the command see it.
 *
 * @param exitCode the command's exit code
 * @param out      what it printed to standard output
 * @param err      what it printed to standard error
 */
record BenchRun(int exitCode, String out, String err) {
    /**
     * Runs {@code tutti bench} with these arguments.
     *
     * @param args the arguments after {@code bench}
     * @return the run
     */
    static BenchRun of(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        final int rc = cl.execute(args);
        return new BenchRun(rc, out.toString(), err.toString());
    }
}
