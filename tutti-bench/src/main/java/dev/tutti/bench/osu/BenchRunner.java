package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * What every rank runs: the benchmark over all sizes, with OSU's method.
 *
 * <p>Per size: {@link OsuBenchmark#prepare} (patterns into the buffers), a barrier (the library's
 * {@link Communicator#barrier()}), {@link OsuBenchmark#measure} (warm-up, then the timed iterations: this rank's
 * mean), {@link OsuBenchmark#verify} (the received data, checked after timing so the check costs nothing in the
 * loop), then the maximum of the means over ranks, and at rank 0 the row. Before the first size an untimed JIT
 * warm-up runs (its iterations, and at least 2 s), and before every later size a shorter one (until two chunks of
 * iterations take the same time, at most 1 s), unless {@code --jit-warmup 0} was given: each size's own code paths
 * are compiled before they are timed, as they would be in a long-running job. A rank whose check fails throws,
 * which fails the job. After each warm-up every rank sleeps until the JIT is quiet ({@link #awaitQuietCompiler}).
 */
final class BenchRunner {
    /** The JIT counts as quiet when it has compiled nothing for this long (ms)... */
    static final long QUIET_COMPILER_MS = 100;
    /** ...and a rank waits at most this long for it (ms). */
    static final long QUIET_COMPILER_MAX_MS = 2_000;
    /** Longest untimed warm-up at each size after the first. */
    static final long SIZE_WARMUP_NS = 1_000_000_000L;
    /** Two warm-up chunks whose times differ by at most this share (percent) end the warm-up. */
    static final int STABLE_PERCENT = 10;
    /** The warm-up before the first size lasts at least this long (and its iterations)... */
    static final long FIRST_WARMUP_MIN_NS = 2_000_000_000L;
    /** ...and at most this long. */
    static final long FIRST_WARMUP_MAX_NS = 5_000_000_000L;

    private BenchRunner() {
    }

    /**
     * Runs the benchmark on this rank.
     *
     * @param world  the communicator of all ranks
     * @param spec   the run
     * @param bench  this rank's benchmark instance
     * @param report the report, at rank 0; null at other ranks
     * @throws BenchmarkException if the data this rank received is wrong
     */
    static void run(final Communicator world, final BenchSpec spec, final OsuBenchmark bench, final Report report) {
        final int[] sizes = bench.sizes(spec.sizes().sizes(), world.size());
        if (0 == sizes.length) {
            throw new BenchmarkException(spec.op() + " (rank=" + world.rank() + "): none of the sizes -m "
                + spec.sizes() + " applies, expected at least " + bench.op() + "'s smallest size");
        }
        final IterationDefaults defaults = bench.defaults();
        bench.allocate(world, sizes[sizes.length - 1]);
        // The header first, before any warm-up: the first line a rank prints wakes the launcher, which forwards it
        // with code it has never run (class loading, compilation); printed between the warm-up and the first timed
        // loop, that took a core from a busy-polling rank and cost the first size 10-30 times its steady time.
        if (null != report) {
            report.begin();
        }
        final int jit = spec.jitWarmup(defaults);
        if (jit > 0) {
            bench.prepare(world, sizes[0]);
            world.barrier();
            warmUp(world, bench, sizes[0], jit, Math.max(1, spec.warmup(sizes[0], defaults)), FIRST_WARMUP_MIN_NS,
                FIRST_WARMUP_MAX_NS, spec.percentiles());
        }
        for (final int bytes : sizes) {
            bench.prepare(world, bytes);
            world.barrier();
            if (jit > 0 && bytes != sizes[0]) {
                warmUp(world, bench, bytes, jit, Math.max(1, spec.warmup(bytes, defaults)), 0, SIZE_WARMUP_NS,
                    spec.percentiles());
            }
            final int iterations = spec.iterations(bytes, defaults);
            final int warmup = spec.warmup(bytes, defaults);
            if (jit > 0) {
                // A rehearsal of the timed call, untimed: the same trip counts and branches, so that whatever the
                // compiler does only for them (on-stack replacement, recompilation) happens now.
                bench.measure(world, bytes, iterations, warmup, spec.percentiles() ? new Histogram(3) : null);
                awaitQuietCompiler();
                world.barrier();
            }
            final Histogram histogram = spec.percentiles() ? new Histogram(3) : null;
            final double meanUs = bench.measure(world, bytes, iterations, warmup, histogram);
            bench.verify(world, bytes);
            final double maxUs = Control.maxToRoot(world, meanUs);
            final Histogram all = null == histogram ? null : Control.mergeToRoot(world, histogram);
            if (null != report) {
                report.row(bytes, maxUs, all);
            }
        }
    }

    /**
     * Waits (asleep) until the JIT has compiled nothing for {@value #QUIET_COMPILER_MS} ms, at most
     * {@value #QUIET_COMPILER_MAX_MS} ms. Compilations queued by the warm-up otherwise run during the first timed
     * loop: on a host whose cores all run busy-polling ranks, a compiler thread shares a rank's core and the rank
     * stalls for scheduler slices (2-5 ms each, dozens of them), which made the first size of a run 10-30 times
     * slower than the second. Asleep, the ranks leave the cores to the compiler.
     */
    private static void awaitQuietCompiler() {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (null == jit || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        final long deadline = System.nanoTime() + QUIET_COMPILER_MAX_MS * 1_000_000L;
        long before = jit.getTotalCompilationTime();
        try {
            do {
                Thread.sleep(QUIET_COMPILER_MS); // polls the JIT's counter: it offers nothing to wait on
                final long now = jit.getTotalCompilationTime();
                if (now == before) {
                    return;
                }
                before = now;
            } while (System.nanoTime() - deadline < 0);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Untimed iterations at a size before it is measured, so that the code paths of this size (other algorithms,
     * the rendezvous protocol, larger kernels) are compiled before timing: chunks of {@code chunk} iterations
     * until {@code limit} iterations and {@code minNs} have passed and two successive chunks took the same time
     * within {@value #STABLE_PERCENT}% (at rank 0), or until {@code maxNs} has passed; rank 0 decides after each
     * chunk, so every rank runs the same number of iterations. The JIT compiles on background threads, which
     * compete with ranks that busy-poll: a warm-up that ends as soon as the loop has run often enough leaves the
     * first timed iterations of each size to code that is still being compiled.
     */
    private static void warmUp(final Communicator world, final OsuBenchmark bench, final int bytes, final int limit,
        final int chunk, final long minNs, final long maxNs, final boolean percentiles) {
        // One untimed iteration per chunk and, with percentiles, a histogram: the timed loop's branches are then
        // taken during the warm-up too, so the compiled loop does not deoptimise at the first timed call.
        final Histogram scratch = percentiles ? new Histogram(3) : null;
        final long start = System.nanoTime();
        int done = 0;
        double previous = Double.NaN;
        boolean more = true;
        while (more) {
            final double mean = bench.measure(world, bytes, chunk, 1, scratch);
            done += chunk;
            final long elapsed = System.nanoTime() - start;
            final boolean stable = Math.abs(mean - previous) <= previous * STABLE_PERCENT / 100.0;
            previous = mean;
            more = Control.fromRoot(world, elapsed < maxNs && (done < limit || elapsed < minNs || !stable));
        }
    }
}
