package dev.tutti.coll;

import dev.tutti.p2p.P2pEngine;

/**
 * The collective layer's per-rank state: the nonblocking runs in flight ({@link ActiveRuns}) and the hook of the
 * one door ({@link CollHook}), if any. One instance per engine, kept in its collective-state slot; communicators
 * cache it ({@link CollComm}).
 *
 * <p>Implementation note. The hook is a volatile field read once per collective call (on x86 a plain load); it is
 * meant to be installed when a rank starts, before its first collective, and calls already past the door keep the
 * hook they saw.
 */
public final class CollHooks {
    private final ActiveRuns runs;
    private volatile CollHook hook;
    /** The rank's communicators by collective context, from creation until their block is retired. */
    private final java.util.concurrent.ConcurrentHashMap<Integer, CollComm> comms =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** The first mismatch found among a retired block's unreceived messages ({@link CollLeftovers}), or null. */
    private final java.util.concurrent.atomic.AtomicReference<dev.tutti.TuttiException> retiredMismatch =
        new java.util.concurrent.atomic.AtomicReference<>();

    private CollHooks(final ActiveRuns runs) {
        this.runs = runs;
    }

    static CollHooks of(final P2pEngine engine) {
        return engine.collectiveState(() -> {
            final ActiveRuns a = new ActiveRuns();
            engine.addAgent(a);
            return new CollHooks(a);
        });
    }

    /**
     * Installs the hook that every later collective call of this rank passes (the checker's, the tracer's, a
     * test's), replacing any earlier one; null removes it.
     *
     * @param engine the rank's engine
     * @param hook   the hook, or null
     */
    public static void install(final P2pEngine engine, final CollHook hook) {
        of(engine).hook = hook;
    }

    /**
     * Returns the hook installed on a rank (for tests and tools: whether the checker is on).
     *
     * @param engine the rank's engine
     * @return the hook, or null if none
     */
    public static CollHook installed(final P2pEngine engine) {
        return of(engine).hook;
    }

    /**
     * Whether a nonblocking, tagged or persistent collective of this rank on one of a range of contexts is still
     * running (started, not yet complete): a freed communicator's block must not be handed back while its runs may
     * still send.
     *
     * @param engine      the rank's engine
     * @param fromContext the first context of the range
     * @param toContext   the end of the range (exclusive)
     * @return whether such a run is in flight
     */
    public static boolean inFlight(final P2pEngine engine, final int fromContext, final int toContext) {
        return of(engine).runs.inFlight(fromContext, toContext);
    }

    java.util.concurrent.ConcurrentHashMap<Integer, CollComm> comms() {
        return comms;
    }

    java.util.concurrent.atomic.AtomicReference<dev.tutti.TuttiException> retiredMismatch() {
        return retiredMismatch;
    }

    ActiveRuns runs() {
        return runs;
    }

    public CollHook hook() {
        return hook;
    }
}
