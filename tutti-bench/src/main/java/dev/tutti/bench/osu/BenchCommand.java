package dev.tutti.bench.osu;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.bench.plot.ChartFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tutti bench OP}: an OSU-style benchmark of one operation over a range of message sizes, printed as OSU's
 * table and optionally written as CSV ({@code impl,op,ranks,bytes,avg_us}).
 *
 * <pre>
 * tutti bench pingpong                      # 2 ranks as threads, 1 B .. 4 MiB
 * tutti bench bandwidth -m 1:65536 --csv bw.csv
 * tutti bench pingpong --transport tcp -n 2 --percentiles
 * tutti bench allreduce -n 4 -m 4:1048576 --algorithm ring
 * tutti bench barrier --transport tcp -n 3
 * tutti bench allreduce --quick             # 8 B .. 1 MiB, 200 iterations: seconds
 * tutti bench allreduce --quick --plot allreduce.svg   # and its latency curve, log-log ({@link PlotCommand})
 * tutti bench tagged-overlap -n 4           # k tagged allreduces overlapped against k in a row
 * tutti bench forms -n 4                    # persistent and channel forms against per-call ones ({@link FormsCommand})
 * java -cp ... dev.tutti.bench.osu.BenchCommand pingpong -n 2
 * </pre>
 *
 * <p>Operations: {@code pingpong}, {@code bandwidth}, and every MPI collective by its MPI name in lower case
 * ({@code barrier}, {@code bcast}, {@code gather}, ..., {@code reduce_scatter_block}, {@code scan}, {@code exscan}),
 * and {@code tagged-overlap} ({@link TaggedOverlap}, ranks as threads);
 * {@code --algorithm NAME} forces a collective's algorithm. Method (as OSU): per size a warm-up, a barrier, the
 * timed iterations (for collectives each call timed alone, separated by a barrier), each rank's mean, the maximum
 * over ranks, and a check of the received data after timing (a wrong byte fails the run). Exit codes: 0 success,
 * 1 the benchmark failed, 2 bad arguments (an unknown algorithm among them: the message lists the valid ones).
 *
 * <p>{@code --plot FILE} draws the rows, once the run has succeeded, from its CSV ({@code --csv}'s, else a
 * temporary one), as {@code tutti bench plot -o FILE CSV} would; ranks in processes write the CSV as they do for
 * {@code --csv}, so the plot is drawn here, in the command's JVM.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    subcommands = {FormsCommand.class, PlotCommand.class},
    description = "OSU-style benchmark of one operation: OSU's table, optional CSV impl,op,ranks,bytes,avg_us and "
        + "plot; 'bench forms' compares the persistent and channel forms with the per-call ones in one job; "
        + "'bench plot' draws CSVs.")
public final class BenchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec commandSpec;

    @Mixin
    private final BenchOptions options = new BenchOptions();

    @Option(names = "--plot", paramLabel = "FILE.png|FILE.svg",
        description = "After the run, draw its curve (log-log: OSU's metric against message size) to FILE, a PNG "
            + "or SVG by its extension.")
    private Path plot;

    private final WorkerLauncher launcher;

    /** Creates the command; {@code --transport tcp} starts ranks with {@link LauncherWorkerLauncher}. */
    public BenchCommand() {
        this(null);
    }

    /**
     * Creates the command with a launcher for {@code --transport tcp}.
     *
     * @param launcher the launcher, or null for {@link LauncherWorkerLauncher} (the job launcher of tutti run)
     */
    public BenchCommand(final WorkerLauncher launcher) {
        this.launcher = launcher;
    }

    /**
     * Runs {@code tutti bench} standalone.
     *
     * @param args the arguments
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }

    @Override
    public Integer call() {
        if (TaggedOverlap.NAME.equals(options.op)) {
            if (null != plot) {
                throw new ParameterException(commandSpec.commandLine(), "--plot " + plot + " with "
                    + TaggedOverlap.NAME + ", expected an operation measured over message sizes");
            }
            return taggedOverlap();
        }
        final BenchSpec given;
        final OsuBenchmark bench;
        try {
            given = options.toSpec();
            bench = Benchmarks.create(given.op());
            given.checkFits(bench);
            if (null != plot) {
                ChartFiles.Format.of(plot, "--plot");
                if (Arrays.stream(bench.sizes(given.sizes().sizes(), given.ranks())).allMatch(b -> b < 1)) {
                    throw new IllegalArgumentException("--plot " + plot + " with " + given.op() + ", expected an "
                        + "operation that moves data (" + given.op() + " has no message size to plot)");
                }
            }
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandSpec.commandLine(), e.getMessage(), e);
        }
        final PrintWriter err = commandSpec.commandLine().getErr();
        Path scratch = null;
        try {
            if (null != plot && null == given.csv()) {
                scratch = Files.createTempFile("tutti-bench-" + given.op() + "-", ".csv");
            }
            final BenchSpec spec = null == scratch ? given : given.withCsv(scratch);
            final int rc = switch (spec.transport()) {
                case INPROC -> runInproc(spec, bench);
                case TCP, SHM, AUTO -> runTcp(spec, bench, err);
            };
            if (0 == rc && null != plot) {
                ChartFiles.write(plot, BenchPlots.charts(CsvReader.read(List.of(spec.csv()))));
            }
            return rc;
        } catch (final TuttiException | BenchmarkException | UncheckedIOException e) {
            err.println("tutti bench " + given.op() + " failed: " + describe(e));
            err.flush();
            return 1;
        } catch (final IOException e) {
            err.println("tutti bench " + given.op() + " failed: cannot create a temporary CSV for --plot: "
                + e.getMessage());
            err.flush();
            return 1;
        } finally {
            if (null != scratch) {
                try {
                    Files.deleteIfExists(scratch);
                } catch (final IOException e) {
                    err.println("tutti bench " + given.op() + ": cannot delete " + scratch + ": " + e.getMessage());
                }
            }
        }
    }

    /** {@code tutti bench tagged-overlap [-n RANKS] [-i BATCHES] [--quick]}: ranks as threads only. */
    private int taggedOverlap() {
        if (!BenchTransport.INPROC.label().equals(options.transport)) {
            throw new ParameterException(commandSpec.commandLine(), TaggedOverlap.NAME + " --transport "
                + options.transport + ", expected inproc (it runs its ranks as threads of this JVM)");
        }
        if (options.ranks < 1 || null != options.iterations && options.iterations < 1) {
            throw new ParameterException(commandSpec.commandLine(), TaggedOverlap.NAME + " -n " + options.ranks
                + " -i " + options.iterations + ", expected RANKS >= 1 and BATCHES >= 1");
        }
        final int batches = null != options.iterations ? options.iterations
            : options.quick ? BenchOptions.QUICK_ITERATIONS : TaggedOverlap.BATCHES;
        try {
            TaggedOverlap.run(options.ranks, batches, commandSpec.commandLine().getOut(),
                Progress.onTerminal(commandSpec.commandLine().getErr()));
            return 0;
        } catch (final TuttiException e) {
            commandSpec.commandLine().getErr().println("tutti bench " + TaggedOverlap.NAME + " failed: "
                + describe(e));
            return 1;
        }
    }

    private int runInproc(final BenchSpec spec, final OsuBenchmark bench) {
        final Tutti.Options opts = spec.tuttiOptions();
        try (Report report = Report.open(commandSpec.commandLine().getOut(), spec, bench,
            Progress.onTerminal(commandSpec.commandLine().getErr()))) {
            Tutti.runLocal(spec.ranks(), opts, world -> BenchRunner.run(world, spec,
                Benchmarks.create(spec.op()), 0 == world.rank() ? report : null));
        }
        return 0;
    }

    /**
     * Ranks as processes; rank 0 prints the table, which reaches this process's output through a
     * {@link ProgressStream} that shows the progress line on a terminal.
     */
    private int runTcp(final BenchSpec spec, final OsuBenchmark bench, final PrintWriter err) {
        final WorkerLauncher l = null == launcher ? new LauncherWorkerLauncher() : launcher;
        final BenchSpec forWorkers = null == spec.csv() ? spec : spec.withCsv(spec.csv().toAbsolutePath());
        final int rc;
        try (ProgressStream out = new ProgressStream(System.out, Progress.onTerminal(err), spec.op(),
            bench.sizes(spec.sizes().sizes(), spec.ranks()))) {
            rc = l.launch(spec.ranks(), BenchWorker.class.getName(), forWorkers.toArgs(),
                Duration.ofSeconds(spec.timeoutSeconds()), out);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        if (0 != rc) {
            err.println("tutti bench " + spec.op() + " failed: a rank exited with code " + rc);
            err.flush();
        }
        return 0 == rc ? 0 : 1;
    }

    /**
     * Describes a failure for the user: its message and the messages of its causes.
     *
     * @param e the failure
     * @return one line per cause
     */
    static String describe(final Throwable e) {
        final StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); null != c && c != c.getCause(); c = c.getCause()) {
            sb.append(System.lineSeparator()).append("  caused by ").append(c.getClass().getSimpleName())
                .append(": ").append(c.getMessage());
        }
        return sb.toString();
    }
}
