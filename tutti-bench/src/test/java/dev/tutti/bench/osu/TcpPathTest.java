package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The multi-process wiring, without a TCP transport: what the command hands the launcher, and the worker's checks. */
@Timeout(60)
class TcpPathTest {

    @Test
    void shouldHandWorkersTheSameRunWithAbsoluteCsv() {
        final List<Object> seen = new ArrayList<>();
        final WorkerLauncher fake = (ranks, mainClass, args, timeout) -> {
            seen.add(ranks);
            seen.add(mainClass);
            seen.add(args);
            seen.add(timeout);
            return 0;
        };
        final CommandLine cl = new CommandLine(new BenchCommand(fake));
        cl.setOut(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("pingpong", "--transport", "tcp", "-n", "2", "-m", "1:64", "--csv", "rel.csv",
            "--timeout", "12"));
        assertEquals(2, seen.get(0));
        assertEquals(BenchWorker.class.getName(), seen.get(1));
        @SuppressWarnings("unchecked")
        final List<String> args = (List<String>) seen.get(2);
        final BenchOptions o = new BenchOptions();
        new CommandLine(o).parseArgs(args.toArray(String[]::new));
        final BenchSpec s = o.toSpec();
        assertEquals(Path.of("rel.csv").toAbsolutePath(), s.csv());
        assertEquals(BenchTransport.TCP, s.transport());
        assertEquals(new SizeRange(1, 64), s.sizes());
        assertEquals(Duration.ofSeconds(12), seen.get(3));
    }

    @Test
    void shouldReportFailedRankExitCode() {
        final StringWriter err = new StringWriter();
        final CommandLine cl = new CommandLine(new BenchCommand((ranks, mainClass, args, timeout) -> 3));
        cl.setErr(new PrintWriter(err));
        assertEquals(1, cl.execute("bandwidth", "--transport", "tcp"));
        assertTrue(err.toString().contains("a rank exited with code 3"), err.toString());
    }

    @Test
    void shouldRefuseToRunWorkerOutsideAJobOfTheRightSize() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final BenchSpec spec = new BenchSpec("pingpong", 2, BenchTransport.TCP, null, new SizeRange(1, 4), 2, 0,
            0, false, null, 0, false);
        final int rc = BenchWorker.run(spec, new PrintStream(new ByteArrayOutputStream(), true),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, rc);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("job size=1 but -n 2"),
            err.toString(StandardCharsets.UTF_8));
    }
}
