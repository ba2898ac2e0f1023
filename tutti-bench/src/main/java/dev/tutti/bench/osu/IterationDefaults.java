package dev.tutti.bench.osu;

/**
 * How many timed iterations and warm-up iterations a benchmark runs per size when {@code -i}/{@code -x} are not
 * given. Sizes above {@link #LARGE_MESSAGE_BYTES} are "large" and run fewer iterations, as in OSU.
 *
 * <p>{@code jitWarmup} is a Java addition: before the first size, the benchmark body runs that many untimed iterations
 * (and for at least 2 s) at the first size so that the JIT has compiled the hot loop before anything is measured (C2
 * compiles after some ten thousand invocations; OSU's warm-up of 100 to 1000 iterations is sized for C), and before
 * each later size until the time per call is stable, for at most 1 s ({@code BenchRunner}). {@code --jit-warmup}
 * overrides it.
 *
 * @param smallIterations timed iterations for sizes {@code <= LARGE_MESSAGE_BYTES}
 * @param smallWarmup     warm-up iterations for those sizes
 * @param largeIterations timed iterations for larger sizes
 * @param largeWarmup     warm-up iterations for larger sizes
 * @param jitWarmup       untimed iterations before the first size
 */
public record IterationDefaults(int smallIterations, int smallWarmup, int largeIterations, int largeWarmup,
    int jitWarmup) {
    /** Sizes above this are large (OSU's {@code LARGE_MESSAGE_SIZE}, 8 KiB). */
    public static final int LARGE_MESSAGE_BYTES = 8192;

    /**
     * Returns the timed iterations for a size.
     *
     * @param bytes the message size
     * @return the iterations
     */
    public int iterations(final int bytes) {
        return bytes > LARGE_MESSAGE_BYTES ? largeIterations : smallIterations;
    }

    /**
     * Returns the warm-up iterations for a size.
     *
     * @param bytes the message size
     * @return the warm-up iterations
     */
    public int warmup(final int bytes) {
        return bytes > LARGE_MESSAGE_BYTES ? largeWarmup : smallWarmup;
    }
}
