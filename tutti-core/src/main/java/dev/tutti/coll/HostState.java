package dev.tutti.coll;

/**
 * The on-host collective layer's state of one communicator ({@code dev.tutti.coll.host}), as the engine keeps it:
 * made at the communicator's first blocking collective, read at each later call ({@link CollComm#hostState()}), and
 * told when the communicator is freed. The layer sits above the engine, so the engine knows it only through this.
 */
public interface HostState {
    /** The communicator is freed on this rank: gives back what the state holds, when nothing reads it any more. */
    void freed();
}
