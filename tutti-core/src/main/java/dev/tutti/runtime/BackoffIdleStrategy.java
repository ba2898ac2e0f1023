package dev.tutti.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with exponential backoff up to a maximum.
 *
 * <p>Implementation notes: spinning gives the lowest latency when every rank has a core; yielding lets another
 * runnable rank use the core when ranks outnumber cores; parking stops burning CPU in long waits. The park is
 * bounded ({@code maxParkNs}) because some events (a shared-memory ring filling) wake nobody; events that can
 * wake a waiter ({@code LockSupport.unpark} on request completion) end the park early.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private static final int YIELD_EVERY = 16;
    private final int spins;
    private final int yields;
    private final long minParkNs;
    private final long maxParkNs;

    /**
     * Creates the strategy.
     *
     * @param spins     iterations that only spin ({@link Thread#onSpinWait()})
     * @param yields    further iterations that yield
     * @param minParkNs the first park
     * @param maxParkNs the longest park
     */
    public BackoffIdleStrategy(final int spins, final int yields, final long minParkNs, final long maxParkNs) {
        if (spins < 0 || yields < 0 || minParkNs < 1 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("BackoffIdleStrategy: spins=" + spins + " yields=" + yields
                + " minParkNs=" + minParkNs + " maxParkNs=" + maxParkNs
                + ", expected spins >= 0, yields >= 0, 1 <= minParkNs <= maxParkNs");
        }
        this.spins = spins;
        this.yields = yields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
    }

    @Override
    public void idle(final int iteration) {
        if (iteration < spins) {
            // Every 16th spin yields: if the rank we wait for shares our CPU (the scheduler put both ranks on one
            // core), it runs at once instead of after the whole spin phase; on an idle core a yield returns at once.
            if (YIELD_EVERY - 1 == (iteration & (YIELD_EVERY - 1))) {
                Thread.yield();
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

    @Override
    public boolean mayPark(final int iteration) {
        return iteration >= spins + yields;
    }

    @Override
    public String toString() {
        return "backoff(spins=" + spins + ",yields=" + yields + ",minParkNs=" + minParkNs + ",maxParkNs="
            + maxParkNs + ")";
    }
}
