package dev.tutti;

import dev.tutti.internal.Provider;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * A block of memory on every rank of a communicator that every other rank reads and writes directly, with plain
 * loads and stores: MPI-3's shared-memory window ({@code MPI_Win_allocate_shared} with {@code
 * MPI_Win_shared_query}). It exists when every rank of the communicator shares memory with every other: processes
 * of one host over the shm transport (the blocks live in their shared arenas), or ranks that are threads of one JVM.
 *
 * <pre>{@code
 * SharedWindow.allocate(comm, 4096).ifPresent(win -> {
 *     MemorySegment right = win.segment((comm.rank() + 1) % comm.size());
 *     ...                                  // write into the right neighbour's block
 * });
 * }</pre>
 *
 * <p>Ordering between ranks is the caller's: publish data with a release store of a flag (for example
 * {@code ValueLayout.JAVA_LONG.varHandle().setRelease(segment, offset, value)}) and read the flag with an acquire
 * load before the data, as between threads. A rank that spins on a flag should call {@link #progress()} now and then,
 * so that the rank's other requests move on (MPI's progress rule), and ask {@link #failureOf(int)} whether the rank it
 * waits for is gone.
 *
 * <p>Lifetime: a rank that is done with the window {@link #retire() retires} it; each rank's block goes back to its
 * memory once every rank has retired (looked at when a rank retires a window, allocates one, or allocates from its
 * {@link SharedMemory} arena), so no store can land in memory handed out anew.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface SharedWindow {
    /**
     * Allocates a zeroed, 64-byte aligned block of {@code bytes} on this rank, and reaches the blocks of every other
     * rank (collective: every rank of {@code comm} calls it; the sizes may differ). Empty on every rank when some
     * rank cannot share memory with some other (another host, the tcp transport), has no room (setting {@code
     * tutti.shm.arenaMiB}), or runs the correctness checker ({@code tutti.check}: a wait on a plain store is out of
     * its sight, so it could not name a deadlock through the window; libraries then keep to messages).
     *
     * @param comm  an intracommunicator
     * @param bytes this rank's block size, {@code >= 0}
     * @return the window, or empty (the same answer on every rank)
     * @throws TuttiException of class {@link ErrorClass#ARG} before anything is sent, for a negative size
     */
    static Optional<SharedWindow> allocate(final Communicator comm, final long bytes) {
        return Provider.get().allocateWindow(comm, bytes);
    }

    /**
     * Returns a rank's block, as this rank reaches it.
     *
     * @param rank a rank of the communicator
     * @return its block ({@link #bytes(int)} long)
     * @throws TuttiException of class {@link ErrorClass#RANK} for a rank out of range
     */
    MemorySegment segment(int rank);

    /**
     * @param rank a rank of the communicator
     * @return the size of its block
     */
    long bytes(int rank);

    /** @return the number of ranks (blocks) */
    int size();

    /**
     * Returns why a rank can no longer take part (it left the job or failed, or the job is aborting), or null while
     * it can: what a rank waiting for another's store asks now and then.
     *
     * @param rank a rank of the communicator
     * @return the failure, naming the rank, or null
     */
    TuttiException failureOf(int rank);

    /**
     * Runs one pass of this rank's progress engine (its transports and outstanding collectives): a thread that spins
     * on the window's memory calls it now and then, so that the rank's other requests complete meanwhile.
     *
     * @return the work done, 0 if nothing moved
     */
    int progress();

    /**
     * Tells whether a collective of a higher progress priority than {@code level} is in flight on this rank (a
     * persistent request given a priority, such as a prioritized alltoall channel's exchange): a protocol that moves
     * data through the window, past the progress engine, runs {@link #progress()} before its stores, which advances
     * that collective first, as the engine itself would. It should not hold its stores back until the collective
     * completes: a peer may wait for those stores before it takes part in the collective.
     *
     * @param level a priority (0: the default)
     * @return true while such a collective has not completed
     */
    boolean outranked(int level);

    /**
     * Makes a protocol that moves data through the window take part in this rank's progress priority, as a persistent
     * request given a priority does ({@link PersistentRequest#setPriority}), until the returned registration is
     * closed. While {@code inFlight} says so, the rank's collectives and window protocols of lower levels see the
     * rank as {@link #outranked(int) outranked}, and advance {@code advance} before they post their next messages;
     * every pass of the rank's progress advances it with the collectives of its level, after the higher levels.
     *
     * @param level    the priority, at least 1
     * @param inFlight whether the protocol has something in flight; called from any thread of the rank, must not
     *                 block
     * @param advance  advances the protocol without blocking and returns the steps made (0: none); called from the
     *                 rank's progress by any thread of the rank, so it must not call {@link #progress()} itself
     * @return the registration; close it (on this rank) when the protocol is done
     * @throws TuttiException if {@code level} is below 1 or a function is null
     */
    Registration prioritize(int level, BooleanSupplier inFlight, IntSupplier advance);

    /** A protocol's place in the rank's priority order ({@link #prioritize}); closing it twice does nothing. */
    interface Registration extends AutoCloseable {
        /** Ends the registration. */
        @Override
        void close();
    }

    /**
     * Waits a little, the longer the more idle iterations came before: this rank's idle strategy (spins while a core
     * is free, then yields, then parks for bounded times), for a thread that spins on the window's memory.
     *
     * @param iteration how many idle calls came before this one without the awaited store (0 for the first)
     */
    void idle(int iteration);

    /**
     * Tells the other ranks that this rank will not touch the window again (no load or store through any of its
     * segments after this call). This rank's block goes back to its memory once every rank has retired the window.
     * Retiring twice does nothing.
     */
    void retire();
}
