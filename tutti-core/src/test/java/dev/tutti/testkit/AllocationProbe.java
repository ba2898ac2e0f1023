package dev.tutti.testkit;

import java.lang.management.ManagementFactory;

/**
 * Bytes the calling thread allocates per call of a repeated action, as the JVM counts them
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}); nothing is timed.
 *
 * <p>The action runs {@code calls} times to warm up (the JIT, pools and caches reaching their steady size), then in
 * {@link #WINDOWS} windows of {@code calls} each, and the answer is the least window's average. A cost that every
 * call pays shows in every window and so in the answer; a burst now and then (a pool growing, compiled code replaced)
 * lands in some windows, not in all. In a collective test every rank calls this with the same counts, so every rank
 * runs the same number of calls.
 * A cost paid per pass of a wait loop (one rank's, such as the checker's coordinator's) is a cost of every call that
 * waits, so it shows in every window too, and more so on a loaded machine, where calls wait longer.
 */
public final class AllocationProbe {
    /** Windows measured after the warm-up. */
    public static final int WINDOWS = 5;

    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationProbe() {
    }

    /**
     * Runs {@code action} {@code (1 + WINDOWS) * calls} times on this thread.
     *
     * @return the least, over the windows after the warm-up, of the bytes this thread allocated per call
     */
    public static double leastPerCall(final Runnable action, final int calls) {
        for (int i = 0; i < calls; i++) {
            action.run();
        }
        final long thread = Thread.currentThread().threadId();
        double least = Double.MAX_VALUE;
        for (int w = 0; w < WINDOWS; w++) {
            final long before = MX.getThreadAllocatedBytes(thread);
            for (int i = 0; i < calls; i++) {
                action.run();
            }
            least = Math.min(least, (double) (MX.getThreadAllocatedBytes(thread) - before) / calls);
        }
        return least;
    }
}
