package dev.tutti.bench.osu;

/**
 * How long the harness's untimed phases may last ({@link BenchRunner}): the JIT warm-ups, the waits for a quiet
 * JVM, the young collection and the rehearsals before each timed loop. A run uses {@link #STANDARD}; tests that
 * check the order of the phases, not their effect on a measurement, use shorter ones.
 *
 * @param firstWarmupMinNs the warm-up before the first size lasts at least this long (and its iterations)...
 * @param firstWarmupMaxNs ...and at most this long
 * @param sizeWarmupMaxNs  the longest untimed warm-up at each size after the first
 * @param quietMaxMs       the longest wait for a quiet JVM after a rehearsal or a discarded loop
 * @param collectMaxMs     the longest time spent filling the young generation before a size's rehearsals
 * @param rehearsalMaxMs   no further rehearsal of the timed call starts after this long
 * @param quietStreakMs    rehearsals end once they have been quiet this long (for large sizes' few iterations)
 */
record Pacing(long firstWarmupMinNs, long firstWarmupMaxNs, long sizeWarmupMaxNs, long quietMaxMs, long collectMaxMs,
    long rehearsalMaxMs, long quietStreakMs) {
    /** The pacing of every benchmark run. */
    static final Pacing STANDARD = new Pacing(2_000_000_000L, 5_000_000_000L, 2_000_000_000L, 2_000, 2_000, 3_000,
        300);
}
