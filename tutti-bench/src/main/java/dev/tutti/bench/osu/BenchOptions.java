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
    @Parameters(index = "0", paramLabel = "OP", completionCandidates = OpNames.class,
        description = "The operation: ${COMPLETION-CANDIDATES}.")
    String op;

    @Option(names = "-n", paramLabel = "RANKS", defaultValue = "2",
        description = "Number of ranks (default: ${DEFAULT-VALUE}).")
    int ranks;

    @Option(names = "--transport", paramLabel = "inproc|shm|tcp", defaultValue = "inproc",
        description = "inproc: ranks are threads of this JVM; shm: one JVM per rank, shared memory; tcp: one JVM per "
            + "rank, TCP (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = "--csv", paramLabel = "FILE",
        description = "Also write rows impl,op,ranks,bytes,avg_us to FILE (overwritten).")
    Path csv;

    @Option(names = "-m", paramLabel = "[MIN:]MAX", defaultValue = "1:4194304",
        description = "Message sizes in bytes, powers of two from MIN to MAX (default: ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "-i", paramLabel = "ITERS",
        description = "Timed iterations per size, for every size (default: the operation's, as OSU: e.g. "
            + "pingpong 10000, or 1000 above 8 KiB).")
    Integer iterations;

    @Option(names = "-x", paramLabel = "WARMUP",
        description = "Warm-up iterations per size, for every size (default: the operation's, e.g. pingpong "
            + "1000, or 100 above 8 KiB).")
    Integer warmup;

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
        if (null != iterations && iterations < 1) {
            throw new IllegalArgumentException("-i " + iterations + ", expected ITERS >= 1");
        }
        if (null != warmup && warmup < 0) {
            throw new IllegalArgumentException("-x " + warmup + ", expected WARMUP >= 0");
        }
        if (null != jitWarmup && jitWarmup < 0) {
            throw new IllegalArgumentException("--jit-warmup " + jitWarmup + ", expected ITERS >= 0");
        }
        return new BenchSpec(op, ranks, BenchTransport.parse(transport), csv, SizeRange.parse(sizes),
            orDefault(iterations), orDefault(warmup), orDefault(jitWarmup), percentiles, algorithm, timeoutSeconds);
    }

    private static int orDefault(final Integer value) {
        return null == value ? BenchSpec.DEFAULT : value;
    }

    /** The operation names, for the help text and shell completion. */
    static final class OpNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Benchmarks.names().iterator();
        }
    }
}
