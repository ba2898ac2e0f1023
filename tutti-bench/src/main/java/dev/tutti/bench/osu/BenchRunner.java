package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

/**
 * What every rank runs: the benchmark over all sizes, with OSU's method.
 *
 * <p>Per size: {@link OsuBenchmark#prepare} (patterns into the buffers), a barrier (the library's
 * {@link Communicator#barrier()}), {@link OsuBenchmark#measure} (warm-up, then the timed iterations: this rank's
 * mean), {@link OsuBenchmark#verify} (the received data, checked after timing so the check costs nothing in the
 * loop), then the maximum of the means over ranks, and at rank 0 the row. Before the first size an untimed JIT
 * warm-up runs, unless {@code --jit-warmup 0} was given. A rank whose check fails throws, which fails the job.
 */
final class BenchRunner {
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
        final int jit = spec.jitWarmup(defaults);
        if (jit > 0) {
            bench.prepare(world, sizes[0]);
            world.barrier();
            bench.measure(world, sizes[0], jit, 0, null);
        }
        if (null != report) {
            report.begin();
        }
        for (final int bytes : sizes) {
            bench.prepare(world, bytes);
            world.barrier();
            final Histogram histogram = spec.percentiles() ? new Histogram(3) : null;
            final double meanUs = bench.measure(world, bytes, spec.iterations(bytes, defaults),
                spec.warmup(bytes, defaults), histogram);
            bench.verify(world, bytes);
            final double maxUs = Control.maxToRoot(world, meanUs);
            final Histogram all = null == histogram ? null : Control.mergeToRoot(world, histogram);
            if (null != report) {
                report.row(bytes, maxUs, all);
            }
        }
    }
}
