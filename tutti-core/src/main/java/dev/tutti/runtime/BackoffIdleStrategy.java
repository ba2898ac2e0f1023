package dev.tutti.runtime;

import dev.tutti.internal.Errors;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with exponential backoff up to a maximum.
 *
 * <p>Implementation notes: spinning gives the lowest latency when every rank has a core; yielding lets another
 * runnable rank use the core when ranks outnumber cores; parking stops burning CPU in long waits. The park is
 * bounded ({@code maxParkNs}) because some events (a shared-memory ring filling) wake nobody; events that can
 * wake a waiter ({@code LockSupport.unpark} on request completion) end the park early. During the spin phase a
 * timed yield now and then tells whether this CPU is shared with another runnable thread (the scheduler does put two
 * spinning ranks on one core and leave the other idle for milliseconds: spinning threads look cache-hot to its
 * load balancer); while it is, spins yield, so the thread we wait for runs at once. That yield comes every
 * {@code yieldEvery} spins, and also once {@value #MAX_SPIN_STRETCH_NS} ns have passed since the last (the clock
 * read every {@value #CLOCK_EVERY} spins from the {@value #CLOCK_EVERY}th on, so a shorter wait never reads it): a
 * spin is as long as the caller's poll between two calls, a few tens of nanoseconds on shared memory but a
 * microsecond or more where it reads sockets, and a rank whose core is shared in a way it cannot count (ranks of
 * several network namespaces or containers on one machine) would otherwise hold it for hundreds of microseconds
 * before the rank it waits for runs. The clock mark is shared by the rank's waiting threads, racy on purpose.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    /** Default of {@code yieldEvery}: a yield among every 16 spins. */
    public static final int YIELD_EVERY_DEFAULT = 16;
    /** A yield that takes longer than this ran another thread: the CPU is shared. */
    private static final long CROWDED_YIELD_NS = 2_000;
    /** The longest stretch of spins without a yield. */
    static final long MAX_SPIN_STRETCH_NS = 20_000;
    /** Spins between two reads of the clock (a power of two). */
    static final int CLOCK_EVERY = 8;
    private final int spins;
    private final int yields;
    private final long minParkNs;
    private final long maxParkNs;
    private final int yieldMask;
    private volatile boolean crowded;
    /** When the current stretch of spins began (its first clock read) or last yielded. */
    private long stretchNs;

    /**
     * Creates the strategy with a yield among every {@value #YIELD_EVERY_DEFAULT} spins.
     *
     * @param spins     iterations that only spin ({@link Thread#onSpinWait()})
     * @param yields    further iterations that yield
     * @param minParkNs the first park
     * @param maxParkNs the longest park
     */
    public BackoffIdleStrategy(final int spins, final int yields, final long minParkNs, final long maxParkNs) {
        this(spins, yields, minParkNs, maxParkNs, YIELD_EVERY_DEFAULT);
    }

    /**
     * Creates the strategy.
     *
     * @param spins      iterations that only spin ({@link Thread#onSpinWait()})
     * @param yields     further iterations that yield
     * @param minParkNs  the first park
     * @param maxParkNs  the longest park
     * @param yieldEvery during the spin phase, one iteration in this many yields instead (a power of two)
     */
    public BackoffIdleStrategy(final int spins, final int yields, final long minParkNs, final long maxParkNs,
        final int yieldEvery) {
        if (spins < 0 || yields < 0 || minParkNs < 1 || maxParkNs < minParkNs || yieldEvery < 1
            || 0 != (yieldEvery & (yieldEvery - 1))) {
            throw Errors.refused("BackoffIdleStrategy: spins=" + spins + " yields=" + yields + " minParkNs=" + minParkNs
                + " maxParkNs=" + maxParkNs + " yieldEvery=" + yieldEvery,
                "spins >= 0, yields >= 0, 1 <= minParkNs <= maxParkNs, yieldEvery a power of two");
        }
        this.spins = spins;
        this.yields = yields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.yieldMask = yieldEvery - 1;
    }

    @Override
    public void idle(final int iteration) {
        if (iteration < spins) {
            // One spin in yieldEvery yields, timed: a yield that returns at once found no other runnable thread on
            // this CPU; one that takes long ran another (the rank we wait for, when the scheduler put both ranks
            // on one core, or any other thread). Then spinning only delays that thread, so every spin yields until
            // a yield is quick again (crowded is a hint shared by the rank's waits, racy on purpose).
            if (crowded || yieldMask == (iteration & yieldMask) || longStretch(iteration)) {
                timedYield();
            } else {
                Thread.onSpinWait();
            }
        } else if (iteration < spins + yields) {
            Thread.yield();
        } else {
            final int shift = Math.min(iteration - spins - yields, 30);
            LockSupport.parkNanos(Math.min(minParkNs << shift, maxParkNs));
        }
    }

    /** Whether this spin has been going on for {@link #MAX_SPIN_STRETCH_NS} since the stretch began or yielded. */
    boolean longStretch(final int iteration) {
        if (CLOCK_EVERY - 1 != (iteration & (CLOCK_EVERY - 1))) {
            return false;
        }
        final long now = System.nanoTime();
        if (CLOCK_EVERY - 1 == iteration) {
            stretchNs = now;
            return false;
        }
        return now - stretchNs >= MAX_SPIN_STRETCH_NS;
    }

    private void timedYield() {
        final long start = System.nanoTime();
        Thread.yield();
        final long end = System.nanoTime();
        stretchNs = end;
        final boolean slow = end - start > CROWDED_YIELD_NS;
        if (slow != crowded) {
            crowded = slow;
        }
    }

    /** @return whether the last timed yield found this CPU shared (so spins yield), for tests and diagnostics */
    public boolean crowded() {
        return crowded;
    }

    /** Spins only below {@code spins}, and only while the last timed yield was quick (else every spin yields). */
    @Override
    public boolean spinsOnly(final int iteration) {
        return iteration < spins && !crowded;
    }

    @Override
    public boolean mayPark(final int iteration) {
        return iteration >= spins + yields;
    }

    @Override
    public String toString() {
        return "backoff(spins=" + spins + ",yields=" + yields + ",minParkNs=" + minParkNs + ",maxParkNs="
            + maxParkNs + ",yieldEvery=" + (yieldMask + 1) + ")";
    }
}
