package dev.tutti.bench.osu;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tutti bench forms}: the build-once forms (persistent {@code alltoallInit} and {@code allreduceInit}, an
 * alltoall channel) against the per-call {@code alltoall} and {@code allreduce}, interleaved in one job
 * ({@link InterleavedForms}), so that the table's ratios are those of the forms and not of the drift between jobs.
 *
 * <pre>
 * tutti bench forms -n 4                        # 8 B .. 1 KiB, one JVM per rank over shared memory
 * tutti bench forms -n 2 -m 2048:4194304 --warmup 50 --calls 20 --blocks 11
 * tutti bench forms -n 3 --transport inproc 64 4096
 * </pre>
 *
 * <p>Every option is checked before a rank starts; the ranks then run {@link InterleavedForms.Cli} (shm: one JVM per
 * rank, started as {@code tutti bench --transport shm} starts them) or {@link InterleavedForms#run} in this JVM
 * (inproc: ranks as threads). Exit codes: 0 success, 1 the benchmark failed (a wrong byte among them), 2 bad
 * arguments.
 */
@Command(name = "forms", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Persistent collectives and an alltoall channel against per-call alltoall and allreduce, "
        + "interleaved in one job: us per call and per-block speed-ups (median and quartiles).")
public final class FormsCommand implements Callable<Integer> {
    /** Default sizes: those for which the forms' target is at least 1.3x. */
    static final String SIZES = "8:1024";

    @Spec
    private CommandSpec commandSpec;

    @Option(names = "-n", paramLabel = "RANKS", defaultValue = "2",
        description = "Number of ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Option(names = "--transport", paramLabel = "shm|inproc", defaultValue = "shm",
        description = "shm: one JVM per rank, shared memory; inproc: ranks are threads of this JVM "
            + "(default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = "-m", paramLabel = "[MIN:]MAX",
        description = "Sizes in bytes, powers of two from MIN to MAX (default: " + SIZES + "); or give the sizes "
            + "themselves after the options.")
    String range;

    @Parameters(arity = "0..*", paramLabel = "BYTES", description = "Sizes in bytes (instead of -m).")
    int[] sizes;

    @Option(names = "--blocks", paramLabel = "B", defaultValue = "" + InterleavedForms.DEFAULT_BLOCKS,
        description = "Blocks per form and size (default: ${DEFAULT-VALUE}).")
    int blocks;

    @Option(names = "--calls", paramLabel = "N", defaultValue = "" + InterleavedForms.DEFAULT_CALLS,
        description = "Timed calls per block (default: ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "" + InterleavedForms.DEFAULT_WARMUP,
        description = "Untimed calls of each form before a size's first block (default: ${DEFAULT-VALUE}; "
            + "use fewer for sizes of megabytes).")
    int warmup;

    @Option(names = "--warmup-ms", paramLabel = "T", defaultValue = "" + InterleavedForms.DEFAULT_WARMUP_MS,
        description = "And at least this long per form and size, in ms (default: ${DEFAULT-VALUE}).")
    int warmupMs;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0",
        description = "Abort the run after SECONDS (default: no limit).")
    int timeoutSeconds;

    private final WorkerLauncher launcher;

    /** Creates the command; {@code --transport shm} starts ranks with {@link LauncherWorkerLauncher}. */
    public FormsCommand() {
        this(null);
    }

    /**
     * Creates the command with a launcher for {@code --transport shm}.
     *
     * @param launcher the launcher, or null for {@link LauncherWorkerLauncher}
     */
    public FormsCommand(final WorkerLauncher launcher) {
        this.launcher = launcher;
    }

    @Override
    public Integer call() {
        final int[] measured;
        final InterleavedForms bench;
        final BenchTransport where;
        try {
            where = checkedTransport();
            measured = checkedSizes();
            if (ranks < 1) {
                throw new IllegalArgumentException("-n " + ranks + ", expected RANKS >= 1");
            }
            if (timeoutSeconds < 0) {
                throw new IllegalArgumentException("--timeout " + timeoutSeconds + ", expected SECONDS >= 0");
            }
            bench = new InterleavedForms(blocks, calls, warmup, warmupMs);
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandSpec.commandLine(), e.getMessage(), e);
        }
        final PrintWriter err = commandSpec.commandLine().getErr();
        try {
            return BenchTransport.INPROC == where ? inproc(bench, measured) : shm(measured, err);
        } catch (final TuttiException | BenchmarkException e) {
            err.println("tutti bench forms failed: " + BenchCommand.describe(e));
            err.flush();
            return 1;
        }
    }

    /** @return the transport: shm or inproc, in any case */
    private BenchTransport checkedTransport() {
        final BenchTransport t = BenchTransport.parse(transport);
        if (BenchTransport.INPROC != t && BenchTransport.SHM != t) {
            throw new IllegalArgumentException("--transport " + transport + ", expected shm or inproc");
        }
        return t;
    }

    /** @return the sizes to measure, each at least 1 byte */
    private int[] checkedSizes() {
        if (null != range && null != sizes && 0 != sizes.length) {
            throw new IllegalArgumentException("-m " + range + " and sizes " + Arrays.toString(sizes)
                + ", expected one of the two");
        }
        final int[] out = null != sizes && 0 != sizes.length ? sizes
            : SizeRange.parse(null != range ? range : SIZES).sizes();
        for (final int s : out) {
            if (s < 1 || s > SizeRange.LIMIT_BYTES) {
                throw new IllegalArgumentException("size " + s + ", expected 1 to " + SizeRange.LIMIT_BYTES
                    + " bytes (the forms exchange at least one long)");
            }
        }
        return out;
    }

    /** Ranks as threads of this JVM; rank 0's table goes to the command's output, a row as each size completes. */
    private int inproc(final InterleavedForms bench, final int[] measured) {
        final Tutti.Options opts = Tutti.Options.defaults();
        final PrintWriter out = commandSpec.commandLine().getOut();
        Tutti.runLocal(ranks, 0 == timeoutSeconds ? opts : opts.timeout(Duration.ofSeconds(timeoutSeconds)),
            world -> bench.run(world, measured, 0 == world.rank() ? out : null));
        return 0;
    }

    /** One JVM per rank over shared memory, each running {@link InterleavedForms.Cli}; rank 0 prints the table. */
    private int shm(final int[] measured, final PrintWriter err) {
        final List<String> args = new ArrayList<>(List.of("--blocks", Integer.toString(blocks), "--calls",
            Integer.toString(calls), "--warmup", Integer.toString(warmup), "--warmup-ms", Integer.toString(warmupMs)));
        for (final int s : measured) {
            args.add(Integer.toString(s));
        }
        final WorkerLauncher l = null == launcher ? new LauncherWorkerLauncher() : launcher;
        final int rc = l.launch(ranks, InterleavedForms.class.getName(), args, Duration.ofSeconds(timeoutSeconds));
        if (0 != rc) {
            err.println("tutti bench forms failed: a rank exited with code " + rc);
            err.flush();
        }
        return 0 == rc ? 0 : 1;
    }
}
