package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tutti bench forms}: reached through {@code tutti bench}, its table in-process, what it hands the launcher
 * for one JVM per rank, and every bad argument refused before a rank starts.
 */
@Timeout(60)
class FormsCommandTest {
    /** A launcher that records what it was asked and answers {@code rc}. */
    private static final class Recording implements WorkerLauncher {
        final List<String> calls = new ArrayList<>();
        final int rc;

        Recording(final int rc) {
            this.rc = rc;
        }

        @Override
        public int launch(final int ranks, final String mainClass, final List<String> args, final Duration timeout) {
            calls.add(ranks + " " + mainClass + " " + String.join(" ", args) + " timeout=" + timeout.toSeconds());
            return rc;
        }
    }

    private record Run(int status, String out, String err) {
    }

    private static Run bench(final WorkerLauncher launcher, final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand());
        cl.getCommandSpec().removeSubcommand("forms"); // the same command, with the recording launcher
        cl.addSubcommand("forms", new CommandLine(new FormsCommand(launcher)));
        cl.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        final int status = cl.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void shouldPrintTheTableOfEveryFormInProcess() {
        final Recording none = new Recording(0);
        final Run r = bench(none, "forms", "--transport", "INPROC", "-n", "3", "--blocks", "2", "--calls", "3",
            "--warmup", "2", "--warmup-ms", "0", "-m", "8:16");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("# interleaved forms, 3 ranks, 2 blocks x 3 calls"), r.out());
        assertTrue(r.out().contains("| bytes | alltoall | alltoall_init | alltoall_channel | allreduce | "
            + "allreduce_init |"), r.out());
        assertTrue(r.out().contains("\n| 8 | ") && r.out().contains("\n| 16 | "), r.out());
        assertTrue(none.calls.isEmpty(), none.calls.toString());
    }

    @Test
    void shouldStartOneJvmPerRankWithTheBenchmarksOptions() {
        final Recording launcher = new Recording(0);
        final Run r = bench(launcher, "forms", "-n", "4", "--blocks", "11", "--calls", "20", "--warmup", "50",
            "--timeout", "600", "2048", "4194304");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of("4 " + InterleavedForms.class.getName() + " --blocks 11 --calls 20 --warmup 50 "
            + "--warmup-ms 500 2048 4194304 timeout=600"), launcher.calls);

        final Recording defaults = new Recording(0);
        assertEquals(0, bench(defaults, "forms").status());
        assertEquals(List.of("2 " + InterleavedForms.class.getName() + " --blocks 20 --calls 500 --warmup 20000 "
            + "--warmup-ms 500 8 16 32 64 128 256 512 1024 timeout=0"), defaults.calls);
    }

    @Test
    void shouldFailWhenARankFails() {
        final Run r = bench(new Recording(3), "forms", "-m", "64");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("tutti bench forms failed: a rank exited with code 3"), r.err());
    }

    @Test
    void shouldRefuseBadArgumentsBeforeStartingARank() {
        final String[][] bad = {
            {"-n", "0"}, {"-m", "0:8"}, {"-m", "8:64", "128"}, {"--transport", "tcp"}, {"--blocks", "0"},
            {"--calls", "0"}, {"--warmup", "-1"}, {"--warmup-ms", "-1"}, {"--timeout", "-1"}, {"-m", "x"}, {"0"},
            {"--transport", "carrier-pigeon"},
        };
        final String[] named = {"-n 0", "size 0", "-m 8:64 and sizes [128]", "--transport tcp", "blocks=0",
            "calls=0", "warmup=-1", "warmupMs=-1", "--timeout -1", "-m 'x'", "size 0", "--transport carrier-pigeon"};
        for (int i = 0; i < bad.length; i++) {
            final Recording launcher = new Recording(0);
            final String[] args = new String[bad[i].length + 1];
            args[0] = "forms";
            System.arraycopy(bad[i], 0, args, 1, bad[i].length);
            final Run r = bench(launcher, args);
            assertEquals(2, r.status(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains(named[i]), String.join(" ", args) + ": " + r.err());
            assertTrue(launcher.calls.isEmpty(), String.join(" ", args) + ": " + launcher.calls);
        }
    }

    @Test
    void shouldStillAskForAnOperationWithoutForms() {
        final Run r = bench(new Recording(0));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("Missing required parameter: 'OP'") && r.err().contains("forms"), r.err());
    }
}
