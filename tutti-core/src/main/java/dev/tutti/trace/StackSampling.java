package dev.tutti.trace;

import dev.tutti.internal.Settings;

/**
 * Which of a thread's point-to-point and collective calls take their stack, as the setting {@code tutti.jfr.stacks}
 * says: every call ({@code on}), none ({@code off}), or ({@code sampled}) one call after each gap of a pseudo-random
 * length, uniform in {@code 1 .. 2N-1} calls, so one call in {@code N} ({@link Settings#JFR_STACK_SAMPLE}) on average.
 *
 * <p>Implementation note. Gaps vary because a fixed period aliases: a loop that calls {@code k} sites in turn, with
 * {@code k} dividing the period, would have every sample at one site. Each thread has its own countdown and generator
 * (a {@link ThreadLocal}, touched by its thread alone: nothing shared, no atomics), seeded alike on every thread, so a
 * thread that makes the same calls samples the same ones in every run. Cost per call when sampled: one thread-local
 * lookup and a decrement; the generator runs once per sample. Read only when Tutti records.
 */
final class StackSampling {
    /** Calls per stack on average: 1 for every call, 0 for none. */
    static final int EVERY = every(Settings.JFR_STACKS.choice());

    private static final ThreadLocal<StackSampling> THREAD = ThreadLocal.withInitial(StackSampling::new);

    /** The calls left before the next one with a stack, this one included. */
    private int left;
    /** The generator's state (xorshift, never 0). */
    private int seed = 0x2545F491;

    private StackSampling() {
        left = gap();
    }

    /**
     * @param choice the setting's value: {@code on}, {@code sampled} or {@code off}
     * @return the calls per stack on average: 1, {@link Settings#JFR_STACK_SAMPLE} or 0
     */
    static int every(final String choice) {
        return switch (choice) {
            case "on" -> 1;
            case "off" -> 0;
            default -> Settings.JFR_STACK_SAMPLE;
        };
    }

    /** @return whether the calling thread's call that begins now takes its stack */
    static boolean stack() {
        return switch (EVERY) {
            case 0 -> false;
            case 1 -> true;
            default -> THREAD.get().next();
        };
    }

    /** @return whether this call, the next of this sampler's thread, takes its stack */
    boolean next() {
        if (--left > 0) {
            return false;
        }
        left = gap();
        return true;
    }

    /** @return the next gap, uniform in {@code 1 .. 2N-1} calls */
    private int gap() {
        int x = seed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        seed = x;
        return 1 + (int) (Integer.toUnsignedLong(x) % (2L * Settings.JFR_STACK_SAMPLE - 1));
    }

    /** @return a sampler of its own (for tests: the one of a thread that has made no call yet) */
    static StackSampling fresh() {
        return new StackSampling();
    }
}
