package dev.tutti.calls;

import dev.tutti.Comm;
import dev.tutti.ErrorClass;
import dev.tutti.SharedMemory;
import dev.tutti.SharedWindow;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.Transport;
import dev.tutti.transport.shm.ShmTransport;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * A {@link SharedMemory}: the shm transport's arena of the communicator's rank. Stateless beyond the transport and
 * the engine it holds, so every method may be called from any thread.
 */
public final class SharedMemoryImpl implements SharedMemory {
    private final ShmTransport shm;
    private final P2pEngine engine;

    private SharedMemoryImpl(final ShmTransport shm, final P2pEngine engine) {
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
        final P2pEngine engine = ((CommImpl) comm).engine();
        for (final Transport t : engine.transports()) {
            if (t instanceof ShmTransport s) {
                return Optional.of(new SharedMemoryImpl(s, engine));
            }
        }
        return Optional.empty();
    }

    @Override
    public MemorySegment tryAllocate(final long bytes) {
        if (bytes < 0) {
            throw Errors.argument(ErrorClass.ARG, "SharedMemory.tryAllocate", null, "bytes", bytes, ">= 0");
        }
        SharedWindowImpl.sweep(engine); // blocks of windows every rank has retired come back first
        final MemorySegment block;
        try {
            block = shm.allocShared(bytes);
        } catch (final TuttiException full) {
            return null; // the only refusal of a size >= 0: no room
        }
        return block; // zeroed by the arena
    }

    @Override
    public void free(final MemorySegment block) {
        shm.freeShared(block);
    }

    @Override
    public long slotLimit() {
        return shm.directMemory().directLimit();
    }

    @Override
    public long singleCopyAbove() {
        return shm.eagerLimit();
    }

    @Override
    public String toString() {
        return "SharedMemory(" + shm + ")";
    }
}
