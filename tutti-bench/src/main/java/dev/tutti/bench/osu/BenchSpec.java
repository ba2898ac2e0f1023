package dev.tutti.bench.osu;

import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated benchmark run: what {@link BenchOptions} parse into, and what a {@link BenchWorker} is started with
 * ({@link #toArgs()} gives the command line back).
 *
 * @param op             the operation name
 * @param ranks          the number of ranks, {@code >= 1}
 * @param transport      where the ranks run
 * @param csv            the CSV file to write, or null
 * @param sizes          the message sizes
 * @param iterations     timed iterations per size for every size, or {@link #DEFAULT} for the benchmark's own
 * @param warmup         warm-up iterations per size for every size, or {@link #DEFAULT}
 * @param jitWarmup      untimed iterations at the first size before anything is timed, or {@link #DEFAULT}
 * @param percentiles    whether to record per-operation times and print percentiles
 * @param algorithm      the collective algorithm to force, or null
 * @param timeoutSeconds the longest the whole run may take, or 0 for no limit
 * @param backToBack     collectives: whether two timed calls follow each other with no untimed barrier between
 *                       them ({@code --back-to-back})
 */
public record BenchSpec(String op, int ranks, BenchTransport transport, Path csv, SizeRange sizes, int iterations,
    int warmup, int jitWarmup, boolean percentiles, String algorithm, int timeoutSeconds, boolean backToBack) {
    /** Value of {@code iterations}/{@code warmup} meaning "the benchmark's default". */
    public static final int DEFAULT = -1;

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the option, its value and what is allowed
     */
    public BenchSpec {
        if (null == op || op.isBlank()) {
            throw new IllegalArgumentException("OP is missing, expected one of " + Benchmarks.names());
        }
        if (ranks < 1) {
            throw new IllegalArgumentException("-n " + ranks + ", expected RANKS >= 1");
        }
        if (DEFAULT != iterations && iterations < 1) {
            throw new IllegalArgumentException("-i " + iterations + ", expected ITERS >= 1");
        }
        if (DEFAULT != warmup && warmup < 0) {
            throw new IllegalArgumentException("-x " + warmup + ", expected WARMUP >= 0");
        }
        if (DEFAULT != jitWarmup && jitWarmup < 0) {
            throw new IllegalArgumentException("--jit-warmup " + jitWarmup + ", expected ITERS >= 0");
        }
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("--timeout " + timeoutSeconds + ", expected SECONDS >= 0");
        }
        if (null == transport || null == sizes) {
            throw new IllegalArgumentException("transport=" + transport + ", sizes=" + sizes
                + ", expected both set");
        }
    }

    /** @return the CSV impl column: {@code tutti-inproc}, {@code tutti-tcp}, ...; {@code tutti-mpi-shm}, ... for mpi-* */
    public String impl() {
        return (op.startsWith(MpiApi.PREFIX) ? "tutti-mpi-" : "tutti-") + transport.label();
    }

    /**
     * Returns the timed iterations at a size.
     *
     * @param bytes    the size
     * @param defaults the benchmark's defaults
     * @return {@code -i} if given, else the default for the size
     */
    public int iterations(final int bytes, final IterationDefaults defaults) {
        return DEFAULT != iterations ? iterations : defaults.iterations(bytes);
    }

    /**
     * Returns the warm-up iterations at a size.
     *
     * @param bytes    the size
     * @param defaults the benchmark's defaults
     * @return {@code -x} if given, else the default for the size
     */
    public int warmup(final int bytes, final IterationDefaults defaults) {
        return DEFAULT != warmup ? warmup : defaults.warmup(bytes);
    }

    /**
     * Returns the JIT warm-up iterations before the first size.
     *
     * @param defaults the benchmark's defaults
     * @return {@code --jit-warmup} if given, else the default
     */
    public int jitWarmup(final IterationDefaults defaults) {
        return DEFAULT != jitWarmup ? jitWarmup : defaults.jitWarmup();
    }

    /**
     * Returns a copy writing its CSV to another file.
     *
     * @param file the file, or null
     * @return the copy
     */
    public BenchSpec withCsv(final Path file) {
        return new BenchSpec(op, ranks, transport, file, sizes, iterations, warmup, jitWarmup, percentiles,
            algorithm, timeoutSeconds, backToBack);
    }

    /**
     * Returns the command line that parses back into this spec (for starting workers).
     *
     * @return the arguments
     */
    public List<String> toArgs() {
        final List<String> a = new ArrayList<>(List.of(op, "-n", Integer.toString(ranks), "--transport",
            transport.label(), "-m", sizes.toString()));
        if (DEFAULT != iterations) {
            a.addAll(List.of("-i", Integer.toString(iterations)));
        }
        if (DEFAULT != warmup) {
            a.addAll(List.of("-x", Integer.toString(warmup)));
        }
        if (DEFAULT != jitWarmup) {
            a.addAll(List.of("--jit-warmup", Integer.toString(jitWarmup)));
        }
        if (null != csv) {
            a.addAll(List.of("--csv", csv.toString()));
        }
        if (percentiles) {
            a.add("--percentiles");
        }
        if (null != algorithm) {
            a.addAll(List.of("--algorithm", algorithm));
        }
        if (0 != timeoutSeconds) {
            a.addAll(List.of("--timeout", Integer.toString(timeoutSeconds)));
        }
        if (backToBack) {
            a.add("--back-to-back");
        }
        return a;
    }

    /**
     * Checks that the spec suits the benchmark.
     *
     * @param bench the benchmark of {@link #op()}
     * @throws IllegalArgumentException if there are too few ranks, none of the sizes applies to the operation,
     *                                  {@code --algorithm} is given for an operation without algorithms, or the
     *                                  algorithm is unknown for the operation (the message lists the valid ones),
     *                                  or {@code --back-to-back} for one that is no collective
     */
    public void checkFits(final OsuBenchmark bench) {
        if (ranks < bench.minRanks()) {
            throw new IllegalArgumentException("-n " + ranks + ": " + op + " needs RANKS >= " + bench.minRanks());
        }
        if (0 == bench.sizes(sizes.sizes(), ranks).length) {
            throw new IllegalArgumentException("-m " + sizes + ": none of these sizes applies to " + op
                + " with -n " + ranks + " (a float reduction needs at least 4 bytes, reduce_scatter_block 4 bytes "
                + "per rank)");
        }
        if (null != algorithm && !bench.acceptsAlgorithm()) {
            throw new IllegalArgumentException("--algorithm " + algorithm + ": " + op
                + " has no algorithms, the option applies to collectives");
        }
        if (backToBack && !(bench instanceof CollectiveBenchmark)) {
            throw new IllegalArgumentException("--back-to-back: " + op + " is no collective, expected a collective "
                + "such as allreduce (the option drops the barrier between two timed collective calls)");
        }
        tuttiOptions();
    }

    /**
     * Returns the options of the Tutti job: the timeout, and the forced algorithm of the operation if
     * {@code --algorithm} was given ({@code Tutti.Options.algorithm(op, name)}, so every communicator of the job
     * uses it).
     *
     * @return the options
     * @throws IllegalArgumentException if the algorithm is unknown for the operation; the message lists the
     *                                  valid names
     */
    public Tutti.Options tuttiOptions() {
        final Tutti.Options base = Tutti.Options.defaults().timeout(Duration.ofSeconds(timeoutSeconds));
        if (null == algorithm) {
            return base;
        }
        try {
            return base.algorithm(Benchmarks.names().contains(op) ? Benchmarks.create(op).algorithmOp() : op,
                algorithm);
        } catch (final TuttiException e) {
            final String reason = null == e.getCause() ? e.getMessage() : e.getCause().getMessage();
            throw new IllegalArgumentException("--algorithm " + algorithm + ": " + reason, e);
        }
    }
}
