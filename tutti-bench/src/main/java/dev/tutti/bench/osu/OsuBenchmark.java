package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

/**
 * One benchmark operation ({@code pingpong}, {@code bandwidth}, later {@code allreduce}, ...): the code one rank
 * runs for one message size. {@link BenchRunner} calls, on every rank, {@link #allocate} once, then per size
 * {@link #prepare}, a barrier, {@link #measure} and {@link #verify}; it then takes the maximum over ranks of the
 * per-rank means and prints rank 0's row.
 *
 * <p>An instance belongs to one rank (it owns that rank's buffers) and is used by one thread.
 */
public abstract class OsuBenchmark {

    /** Creates a benchmark. */
    protected OsuBenchmark() {
    }

    /** @return the operation name, in lower case as in MPI ({@code pingpong}, {@code allreduce}) */
    public abstract String op();

    /** @return a short description for the table title, e.g. {@code one-way latency} */
    public abstract String title();

    /** @return what the value column shows; latency unless overridden */
    public Metric metric() {
        return Metric.LATENCY;
    }

    /** @return the iteration counts used when {@code -i}/{@code -x} are not given */
    public abstract IterationDefaults defaults();

    /** @return the smallest number of ranks the benchmark runs with; 2 unless overridden */
    public int minRanks() {
        return 2;
    }

    /** @return whether {@code --algorithm} applies (collectives); false unless overridden */
    public boolean acceptsAlgorithm() {
        return false;
    }

    /**
     * Returns the collective whose algorithm {@code --algorithm} forces: the operation itself unless overridden (a
     * persistent or channel form runs the schedules of its per-call collective, e.g. {@code allreduce_init} those of
     * {@code allreduce}).
     *
     * @return the collective's name, as {@code Tutti.Options.algorithm} takes it
     */
    public String algorithmOp() {
        return op();
    }

    /**
     * Returns the sizes to run given the requested ones; all of them unless overridden (a barrier moves no
     * data and runs one size, 0; a reduction of floats skips sizes below one float per block).
     *
     * @param requested the sizes from {@code -m}
     * @param ranks     the number of ranks of the run
     * @return the sizes to run, in increasing order; empty if none of the requested sizes applies
     */
    public int[] sizes(final int[] requested, final int ranks) {
        return requested;
    }

    /**
     * Allocates this rank's buffers for every size up to {@code maxBytes}.
     *
     * @param world    the communicator
     * @param maxBytes the largest size that will be run
     */
    public abstract void allocate(Communicator world, int maxBytes);

    /**
     * Fills the send buffers with the pattern of this size and fills the receive buffers with something that is
     * not the expected data, so that {@link #verify} fails if nothing arrives.
     *
     * @param world the communicator
     * @param bytes the size
     */
    public abstract void prepare(Communicator world, int bytes);

    /**
     * Runs {@code warmup} untimed and then {@code iterations} timed iterations, and returns this rank's mean
     * time per operation.
     *
     * @param world      the communicator
     * @param bytes      the size
     * @param iterations the timed iterations, {@code >= 1}
     * @param warmup     the untimed iterations first, {@code >= 0}
     * @param histogram  where to record each timed operation in nanoseconds, or null
     * @return the mean in microseconds, or {@link Double#NaN} if this rank took no part (it is then left out of
     *         the maximum over ranks)
     */
    public abstract double measure(Communicator world, int bytes, int iterations, int warmup, Histogram histogram);

    /**
     * Checks the data this rank received during the last {@link #measure}.
     *
     * @param world the communicator
     * @param bytes the size
     * @throws BenchmarkException if the data is not what the peers sent
     */
    public abstract void verify(Communicator world, int bytes);
}
