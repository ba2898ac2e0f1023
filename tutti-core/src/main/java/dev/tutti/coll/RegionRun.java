package dev.tutti.coll;

/**
 * A call's run through its communicator's on-host region that completes after its start: a persistent request's
 * start ({@link HostState#start}). Made and advanced by the on-host layer ({@code dev.tutti.coll.host}); the request
 * that started it asks it, one thread at a time (as for every request).
 */
public interface RegionRun {
    /**
     * Advances the run without waiting.
     *
     * @return true once it is complete: its output is in the call's buffers and its input may be reused
     * @throws dev.tutti.TuttiException if it failed (a peer made another call, or is gone)
     */
    boolean test();

    /**
     * Waits until the run is complete.
     *
     * @throws dev.tutti.TuttiException if it failed, or the waiting thread was interrupted
     */
    void await();
}
