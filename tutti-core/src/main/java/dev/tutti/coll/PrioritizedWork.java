package dev.tutti.coll;

import dev.tutti.runtime.Agent;

/**
 * Work outside the collective schedules that takes part in a rank's priority order ({@link ActiveRuns}): a protocol
 * that moves data through a shared-memory window for a prioritized alltoall channel. While it is in flight, runs of
 * lower priority advance it before they post a round, and a rank's progress advances it with the runs of its level.
 */
public interface PrioritizedWork extends Agent {

    /** @return the priority, 1 or more (fixed for the registration's life) */
    int priority();

    /**
     * Tells whether the work has something in flight (only then does it outrank lower levels). Called from any thread
     * of the rank; must not block.
     *
     * @return true while something is in flight
     */
    boolean inFlight();

    /**
     * Advances the work without blocking. Called from the rank's progress, by any thread of the rank, after the
     * higher levels of the same pass: it must not run the rank's progress itself.
     *
     * @return the steps made, 0 if none
     */
    @Override
    int doWork();
}
