package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

/**
 * Base of the collective benchmarks ({@code barrier}, {@code bcast}, {@code allreduce}, ... : one per MPI
 * collective), with OSU's method: each call is timed on its own and followed by an untimed
 * {@link Communicator#barrier()}, so that no rank starts call {@code i + 1} while another is still in call
 * {@code i}; each rank averages its timed calls and the table shows the maximum over ranks. A subclass supplies
 * the buffers ({@link #allocate}, and in {@link #prepare} the patterns and the {@code Buf} views, so that the timed
 * loop creates nothing), one call ({@link #invoke}) and the check of the last call's result ({@link #verify}).
 *
 * <p>Defaults as OSU's collectives: 1000 iterations after 100 warm-up ones up to 8 KiB, 100 after 10 above, and a
 * JIT warm-up of 20000 calls at the first size (as for pingpong: with fewer, C2 still compiles during the first
 * sizes, and on a 2-core machine the compiler threads take a core from the ranks). {@code bytes} means what it means in OSU for that collective: the
 * message for bcast, the block each rank contributes or receives for the gather, scatter, allgather and alltoall
 * families, the whole vector for the reductions. The root of rooted collectives is rank 0.
 *
 * <p>With {@code --back-to-back} ({@link #backToBack()}) the timed calls follow each other as a program's loop
 * makes them, with no barrier between: what a call costs in such a loop, not its latency alone.
 *
 * <p>The algorithm is the library's choice unless {@code --algorithm} forces one; the command does that through
 * {@code Tutti.Options.algorithm(op, name)} for the whole job, so the benchmark itself does not see it.
 */
public abstract class CollectiveBenchmark extends OsuBenchmark {
    private static final IterationDefaults DEFAULTS = new IterationDefaults(1_000, 100, 100, 10, 20_000);

    /** The root of rooted collectives (bcast, gather, scatter, reduce and their variants). */
    protected static final int ROOT = 0;

    /** Whether a barrier separates two timed calls. */
    private boolean separated = true;

    /** Creates a collective benchmark. */
    protected CollectiveBenchmark() {
    }

    /** Times call after call, with no barrier between two ({@code --back-to-back}). */
    public void backToBack() {
        separated = false;
    }

    /**
     * Runs the operation once at this size, on the buffers {@link #prepare} set up.
     *
     * @param world the communicator
     * @param bytes the size
     */
    protected abstract void invoke(Communicator world, int bytes);

    @Override
    public String title() {
        return "collective latency";
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
            if (separated) {
                separate(world);
            }
        }
        return sum / 1e3 / iterations;
    }

    /**
     * Separates two timed calls: the library's barrier, untimed. A barrier benchmark overrides this to do nothing
     * (OSU's {@code osu_barrier} times barrier after barrier).
     *
     * @param world the communicator
     */
    protected void separate(final Communicator world) {
        world.barrier();
    }
}
