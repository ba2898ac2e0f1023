package dev.tutti.runtime;

/**
 * How a thread waits for something another thread or process will do. Stateless: the caller counts its idle
 * iterations and passes the count, so one instance serves every waiting thread and waiting allocates nothing.
 */
public interface IdleStrategy {

    /**
     * Waits a little, more the longer the caller has been idle.
     *
     * @param iteration how many consecutive idle calls preceded this one (0 for the first)
     */
    void idle(int iteration);

    /**
     * Returns whether a call with this iteration count may park the thread; a waiter must publish itself for
     * {@link java.util.concurrent.locks.LockSupport#unpark} before such a call.
     *
     * @param iteration the iteration count
     * @return true if {@link #idle(int)} may park
     */
    boolean mayPark(int iteration);

    /**
     * Returns whether a call with this iteration count only spins (returns within a fraction of a microsecond,
     * never yielding or parking): a timed wait reads the clock on only some of such calls.
     *
     * @param iteration the iteration count
     * @return true if {@link #idle(int)} only spins; false (the default) when not known
     */
    default boolean spinsOnly(final int iteration) {
        return false;
    }
}
