package dev.tutti.bench.osu;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.Iterator;

/**
 * The command-line options shared by {@link BenchCommand} and {@link BenchWorker} (a picocli mixin).
 * {@link #toSpec()} validates them into a {@link BenchSpec}.
 */
public final class BenchOptions {
    /** Default sizes, {@code -m}. */
    static final String SIZES = "1:4194304";
    /** Sizes with {@code --quick} (those of {@code bench/compare.sh --quick}). */
    static final String QUICK_SIZES = "8:1048576";
    /** Timed iterations per size with {@code --quick}. */
    static final int QUICK_ITERATIONS = 200;
    /** Warm-up iterations per size with {@code --quick}. */
    static final int QUICK_WARMUP = 20;

    @Parameters(index = "0", arity = "0..1", paramLabel = "OP", completionCandidates = OpNames.class,
        description = "The operation: ${COMPLETION-CANDIDATES}, or tagged-overlap (k tagged allreduces "
            + "overlapped against k in a row; -i sets its batches). ('forms' is a command of its own: "
            + "tutti bench forms --help.)")
    String op;

    @Option(names = "-n", paramLabel = "RANKS", defaultValue = "2",
        description = "Number of ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Option(names = "--transport", paramLabel = "inproc|shm|tcp|auto", defaultValue = "inproc",
        description = "inproc: ranks are threads of this JVM; shm: one JVM per rank, shared memory; tcp: one JVM per "
            + "rank, TCP; auto: one JVM per rank, shared memory within a host and TCP across hosts (for workers "
            + "started across hosts by tutti run -H) (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = "--csv", paramLabel = "FILE",
        description = "Also write rows impl,op,ranks,bytes,avg_us to FILE (overwritten).")
    Path csv;

    @Option(names = "-m", paramLabel = "[MIN:]MAX",
        description = "Message sizes in bytes, powers of two from MIN to MAX (default: " + SIZES + "; with --quick "
            + QUICK_SIZES + ").")
    String sizes;

    @Option(names = "-i", paramLabel = "ITERS",
        description = "Timed iterations per size, for every size (default: the operation's, as OSU: e.g. "
            + "pingpong 10000, or 1000 above 8 KiB; with --quick " + QUICK_ITERATIONS + ").")
    Integer iterations;

    @Option(names = "-x", paramLabel = "WARMUP",
        description = "Warm-up iterations per size, for every size (default: the operation's, e.g. pingpong "
            + "1000, or 100 above 8 KiB; with --quick " + QUICK_WARMUP + ").")
    Integer warmup;

    @Option(names = "--quick", description = "A run of seconds rather than one to two minutes: sizes " + QUICK_SIZES + ", "
        + QUICK_ITERATIONS + " iterations after " + QUICK_WARMUP + " warm-up ones (as bench/compare.sh --quick) and "
        + "no JIT warm-up, unless -m, -i, -x or --jit-warmup say otherwise. The first sizes then include "
        + "compilation: compare numbers of runs without it.")
    boolean quick;

    @Option(names = "--jit-warmup", paramLabel = "ITERS",
        description = "Untimed iterations at the first size (and at least 2 s) before anything is timed, so the "
            + "JIT has compiled the loop, and before each later size until its time per call is stable (at most "
            + "1 s); 0 for none (default: the operation's, e.g. pingpong 20000).")
    Integer jitWarmup;

    @Option(names = "--percentiles", description = "Record every operation (HdrHistogram) and print percentiles.")
    boolean percentiles;

    @Option(names = "--algorithm", paramLabel = "NAME",
        description = "Collectives only: force this algorithm instead of the library's choice (e.g. allreduce: "
            + "linear, recursive_doubling, rabenseifner, ring); an unknown name is refused with the valid ones.")
    String algorithm;

    @Option(names = "--back-to-back",
        description = "Collectives: time call after call, as a program's loop makes them, without the untimed "
            + "barrier that separates two timed calls (OSU's method, the default).")
    boolean backToBack;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0",
        description = "Abort the run after SECONDS (default: no limit).")
    int timeoutSeconds;

    /** Creates options with picocli's defaults (filled in by parsing). */
    public BenchOptions() {
    }

    /**
     * Validates the parsed options.
     *
     * @return the spec
     * @throws IllegalArgumentException naming the bad option and its value
     */
    public BenchSpec toSpec() {
        if (null == op) {
            throw new IllegalArgumentException("Missing required parameter: 'OP', expected one of "
                + String.join(", ", Benchmarks.names()) + ", tagged-overlap or forms");
        }
        if (null != iterations && iterations < 1) {
            throw new IllegalArgumentException("-i " + iterations + ", expected ITERS >= 1");
        }
        if (null != warmup && warmup < 0) {
            throw new IllegalArgumentException("-x " + warmup + ", expected WARMUP >= 0");
        }
        if (null != jitWarmup && jitWarmup < 0) {
            throw new IllegalArgumentException("--jit-warmup " + jitWarmup + ", expected ITERS >= 0");
        }
        return new BenchSpec(op, ranks, BenchTransport.parse(transport), csv,
            SizeRange.parse(null != sizes ? sizes : quick ? QUICK_SIZES : SIZES),
            orDefault(iterations, QUICK_ITERATIONS), orDefault(warmup, QUICK_WARMUP), orDefault(jitWarmup, 0),
            percentiles, algorithm, timeoutSeconds, backToBack);
    }

    /** The value given, else {@code quickValue} with {@code --quick}, else the benchmark's default. */
    private int orDefault(final Integer value, final int quickValue) {
        if (null != value) {
            return value;
        }
        return quick ? quickValue : BenchSpec.DEFAULT;
    }

    /** The operation names, for the help text and shell completion. */
    static final class OpNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Benchmarks.names().iterator();
        }
    }
}
