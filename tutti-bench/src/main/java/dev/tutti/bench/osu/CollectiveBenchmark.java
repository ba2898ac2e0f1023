package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

/**
 * Base of the collective benchmarks ({@code barrier}, {@code bcast}, {@code reduce}, {@code allreduce},
 * {@code allgather}, {@code alltoall}, ...), with OSU's method: each call is timed on its own and followed by an
 * untimed barrier, so that no rank starts call {@code i + 1} while another is still in call {@code i}; each rank
 * averages its timed calls and the table shows the maximum over ranks. A subclass supplies the buffers, one call
 * ({@link #invoke}) and the check of the result.
 *
 * <p>Defaults as OSU's collectives: 1000 iterations after 100 warm-up ones up to 8 KiB, 100 after 10 above, and a
 * JIT warm-up of 2000 calls at the first size. {@code bytes} means what it means in OSU for that collective
 * (the message per rank for allgather/alltoall, the whole vector for bcast/reduce/allreduce).
 */
public abstract class CollectiveBenchmark extends OsuBenchmark {
    private static final IterationDefaults DEFAULTS = new IterationDefaults(1_000, 100, 100, 10, 2_000);

    private String algorithm;

    /** Creates a collective benchmark. */
    protected CollectiveBenchmark() {
    }

    /**
     * Runs the operation once at this size.
     *
     * @param world the communicator
     * @param bytes the size
     */
    protected abstract void invoke(Communicator world, int bytes);

    /**
     * Sets the algorithm to force ({@code --algorithm}), or null for the library's choice.
     *
     * @param name the algorithm name, or null
     */
    public final void algorithm(final String name) {
        this.algorithm = name;
    }

    /** @return the algorithm to force, or null for the library's choice */
    protected final String algorithm() {
        return algorithm;
    }

    @Override
    public IterationDefaults defaults() {
        return DEFAULTS;
    }

    @Override
    public int minRanks() {
        return 1;
    }

    @Override
    public boolean acceptsAlgorithm() {
        return true;
    }

    @Override
    public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
        final Histogram histogram) {
        final int total = warmup + iterations;
        long sum = 0;
        for (int i = 0; i < total; i++) {
            final long t0 = System.nanoTime();
            invoke(world, bytes);
            final long t = System.nanoTime() - t0;
            if (i >= warmup) {
                sum += t;
                if (null != histogram) {
                    histogram.recordValue(t);
                }
            }
            separate(world);
        }
        return sum / 1e3 / iterations;
    }

    /**
     * Separates two timed calls: the benchmark's point-to-point barrier until the library has a barrier.
     *
     * @param world the communicator
     */
    protected void separate(final Communicator world) {
        Control.barrier(world);
    }
}
