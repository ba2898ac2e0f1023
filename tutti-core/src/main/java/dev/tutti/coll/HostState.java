package dev.tutti.coll;

import dev.tutti.TuttiException;

/**
 * The on-host collective layer's state of one communicator ({@code dev.tutti.coll.host}), as the engine keeps it:
 * made at the communicator's first blocking barrier, allreduce, allgather or alltoall, read at each later call
 * ({@link CollComm#hostState()}) and persistent start ({@link #start}), asked by a stalled run of the message layer
 * ({@link #stalled}), and told when the
 * communicator's context block is retired. The layer sits above the engine, so the engine knows it only through this.
 */
public interface HostState {
    /**
     * Every member has freed the communicator (their FINs are in), so every member has completed its calls on it and
     * none reads this rank's part of the region any more: gives it back. Called once, by the thread that retires the
     * block.
     */
    void retired();

    /**
     * Why a run of the message layer that has stalled can never complete, as the calls the peers published in the
     * region show: a peer that published this call as another call (kind, root, count or type, op, or blocking or
     * not), or as this call through the region (it sends no message, and may not wait for this rank). Asked on idle
     * passes of a stalled wait only; it reads the peers' published words and may be asked from any thread.
     *
     * @param call   the call's number in the region ({@link CollCall#hostCall()}), from 1
     * @param header the call's header, as its messages carry it
     * @param op     the operation, for the message
     * @return the failure, or null while the peers' calls show none
     */
    default TuttiException stalled(final long call, final CollHeader header, final String op) {
        return null;
    }

    /**
     * Numbers a persistent request's start (or a nonblocking call) as the communicator's next call-ordered call, and
     * starts it through the region if it goes there ({@link Road#onHost}), or may ({@link Road#agreedLater}: then,
     * should a rank offer no cells, the run starts the call on the message layer through {@code fallback} and
     * completes with it); else publishes the call's words alone, sets its number ({@link CollCall#hostCall(long)}) and
     * returns null, and the caller runs it on the message layer.
     *
     * @param call     the request's call, intracommunicator, with no hook
     * @param reuse    the request's run of an earlier start, complete, or null
     * @param fallback how the call starts on the message layer under a drawn tag, if it is one whose ranks agree its
     *                 road after its start ({@link Road#agreedLater})
     * @return the run, started, or null
     * @throws TuttiException never for a peer's call (a run reports those when it is tested or waited for)
     */
    default RegionRun start(final CollCall call, final RegionRun reuse, final MessageFallback fallback) {
        return null;
    }

    /**
     * A persistent request was made on this rank (its init, which every rank makes at the same place of its order,
     * as MPI orders persistent inits like collectives): a start of it past the region's cells would take the chunk
     * area, which is agreed only at a blocking call, so the communicator's next blocking call that waits for every
     * peer agrees one, and the request's starts after that call take it.
     *
     * @param call the request's call, intracommunicator, with no hook
     */
    default void persistentMade(final CollCall call) {
    }
}
