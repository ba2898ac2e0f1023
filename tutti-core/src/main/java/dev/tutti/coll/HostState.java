package dev.tutti.coll;

/**
 * The on-host collective layer's state of one communicator ({@code dev.tutti.coll.host}), as the engine keeps it:
 * made at the communicator's first blocking barrier, allreduce, allgather or alltoall, read at each later call
 * ({@link CollComm#hostState()}), and told when the communicator's context block is retired. The layer sits above the
 * engine, so the engine knows it only through this.
 */
public interface HostState {
    /**
     * Every member has freed the communicator (their FINs are in), so every member has completed its calls on it and
     * none reads this rank's part of the region any more: gives it back. Called once, by the thread that retires the
     * block.
     */
    void retired();
}
