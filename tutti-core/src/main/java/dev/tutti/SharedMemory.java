package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.Transport;
import dev.tutti.transport.shm.ShmTransport;

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
public final class SharedMemory {
    private final ShmTransport shm;
    private final P2pEngine engine;

    private SharedMemory(final ShmTransport shm, final P2pEngine engine) {
        this.shm = shm;
        this.engine = engine;
    }

    /**
     * Returns the arena of the calling rank of {@code comm}.
     *
     * @param comm a communicator
     * @return the arena, or empty when the job has no shm transport (embedded jobs, tcp only) or comm is null
     */
    public static Optional<SharedMemory> of(final Comm comm) {
        if (null == comm) {
            return Optional.empty();
        }
        for (final Transport t : comm.engine().transports()) {
            if (t instanceof ShmTransport s) {
                return Optional.of(new SharedMemory(s, comm.engine()));
            }
        }
        return Optional.empty();
    }

    /**
     * Allocates a zeroed block of the arena, 64-byte aligned.
     *
     * @param bytes the size, {@code >= 0}
     * @return the block, or null if the arena has no free run of that size (setting {@code tutti.shm.arenaMiB})
     * @throws TuttiException of class {@link ErrorClass#ARG} if bytes is negative
     */
    public MemorySegment tryAllocate(final long bytes) {
        if (bytes < 0) {
            throw Errors.argument(ErrorClass.ARG, "SharedMemory.tryAllocate", null, "bytes", bytes, ">= 0");
        }
        SharedWindow.sweep(engine); // blocks of windows every rank has retired come back first
        final MemorySegment block;
        try {
            block = shm.allocShared(bytes);
        } catch (final TuttiException full) {
            return null; // the only refusal of a size >= 0: no room
        }
        return block; // zeroed by the arena
    }

    /**
     * Returns a block from {@link #tryAllocate} (or {@link Tutti#allocShared}) to the arena.
     *
     * @param block the block
     * @throws TuttiException of class {@link ErrorClass#ARG} if it is not a live block of this rank's arena
     */
    public void free(final MemorySegment block) {
        shm.freeShared(block);
    }

    /**
     * Returns the largest message of a persistent collective (or an alltoall channel) that goes through slots of the
     * arenas between ranks of this host, copied in by the sender and out by the receiver with no matching: the
     * setting {@code tutti.coll.directLimit}, by default 1 MiB. Up to there that beats a send out of the arena
     * ({@link #singleCopyAbove()}), so buffers of such calls are best left in Java arrays.
     *
     * @return bytes, 0 when persistent collectives do not use slots
     */
    public long slotLimit() {
        return shm.directMemory().directLimit();
    }

    /**
     * @return the payload size in bytes above which a send from the arena takes the single-copy path (the shm
     *         eager limit)
     */
    public long singleCopyAbove() {
        return shm.eagerLimit();
    }

    @Override
    public String toString() {
        return "SharedMemory(" + shm + ")";
    }
}
