package dev.tutti;

import dev.tutti.internal.Provider;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The shared-memory arena of a communicator's rank, when the job runs over the shm transport: the memory that
 * {@link Tutti#allocShared} hands out, reachable from a communicator alone (libraries above the api, such as the
 * alltoall channels, hold a communicator, not the {@link Tutti} instance). A send whose payload lies in a block of
 * the arena and is larger than {@link #singleCopyAbove()} bytes is copied once, by the receiving rank, straight out
 * of the sender's block; smaller ones are copied inline, as from any buffer.
 *
 * <pre>{@code
 * SharedMemory.of(comm).ifPresent(arena -> {
 *     MemorySegment block = arena.tryAllocate(1 << 20);   // null when the arena is full
 *     ...
 *     arena.free(block);
 * });
 * }</pre>
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface SharedMemory {
    /**
     * Returns the arena of the calling rank of {@code comm}.
     *
     * @param comm a communicator
     * @return the arena, or empty when the job has no shm transport (embedded jobs, tcp only) or comm is null
     */
    static Optional<SharedMemory> of(final Comm comm) {
        return Provider.get().sharedMemory(comm);
    }

    /**
     * Allocates a zeroed block of the arena, 64-byte aligned.
     *
     * @param bytes the size, {@code >= 0}
     * @return the block, or null if the arena has no free run of that size (setting {@code tutti.shm.arenaMiB})
     * @throws TuttiException of class {@link ErrorClass#ARG} if bytes is negative
     */
    MemorySegment tryAllocate(long bytes);

    /**
     * Returns a block from {@link #tryAllocate} (or {@link Tutti#allocShared}) to the arena.
     *
     * @param block the block
     * @throws TuttiException of class {@link ErrorClass#ARG} if it is not a live block of this rank's arena
     */
    void free(MemorySegment block);

    /**
     * Returns the largest message of a persistent collective (or an alltoall channel) that goes through slots of the
     * arenas between ranks of this host, copied in by the sender and out by the receiver with no matching: the
     * setting {@code tutti.coll.directLimit}, by default 1 MiB. Up to there that beats a send out of the arena
     * ({@link #singleCopyAbove()}), so buffers of such calls are best left in Java arrays.
     *
     * @return bytes, 0 when persistent collectives do not use slots
     */
    long slotLimit();

    /**
     * @return the payload size in bytes above which a send from the arena takes the single-copy path (the shm
     *         eager limit)
     */
    long singleCopyAbove();
}
