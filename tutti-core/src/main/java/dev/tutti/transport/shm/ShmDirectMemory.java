package dev.tutti.transport.shm;

import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

/**
 * A rank's shared arena ({@link SharedArena}) as {@link DirectMemory}: blocks are named by their offset in the job
 * file, which every rank maps whole, so a peer reaches a block through its own mapping.
 *
 * <p>Implementation notes. The default limit is 1 MiB whether or not the host's ranks each have a core: a slot's
 * two copies in a row (the sender's in, the receiver's out) are as fast as the ring's pipelined ones (the sender
 * fills a chunk while the receiver empties the one before) or faster at every block size from 4 KiB to 1 MiB, at 2
 * and at 4 ranks on 2 cores (both as persistent alltoalls in one job; the runs are in
 * bench/history/RESULTS-diary.md). Where ranks outnumber cores, what counts is how many times a message makes a
 * rank wait: once for a slot, once per chunk and handshake for the ring, so slots win at every size measured. Slots
 * live as long as their communicator ({@code SlotLane}): their blocks together may take at most a
 * quarter of the arena ({@code slotBytes}), so that the program's shared buffers, windows and channels keep
 * their room. Thread-safety: the arena synchronizes, and so does the count of slot bytes; the rest is immutable or
 * volatile.
 */
final class ShmDirectMemory implements DirectMemory {
    /** The default limit. */
    static final long LIMIT = 1024 * 1024;

    private final SharedArena arena;
    private final ShmFile file;
    private final int rank;
    /** The transport's eager limit: a larger send out of the arena is copied once, by its receiver. */
    private final long eagerLimit;
    /** The most slot blocks may take together: a quarter of the arena. */
    private final long slotCap;
    /** Bytes of the arena in slot blocks now, and those blocks' addresses (guarded by this). */
    private long slotBytes;
    private final Set<Long> slotBlocks = new HashSet<>();

    ShmDirectMemory(final SharedArena arena, final ShmFile file, final int rank, final long eagerLimit) {
        this.arena = arena;
        this.file = file;
        this.rank = rank;
        this.eagerLimit = eagerLimit;
        this.slotCap = file.layout.arenaBytes / 4;
    }

    /**
     * 1 MiB, with or without a core per rank (see the class note).
     */
    @Override
    public long defaultDirectLimit() {
        return LIMIT;
    }

    /** {@value #HOST_LIMIT} bytes, with or without a core per rank: see {@link #HOST_LIMIT}. */
    @Override
    public long defaultHostLimit() {
        return HOST_LIMIT;
    }

    /** A send out of the arena larger than the eager limit: the receiver copies it straight out of it. */
    @Override
    public boolean copiesOnce(final MemorySegment data) {
        return data.byteSize() > eagerLimit && arena.offsetOf(data) >= 0;
    }

    @Override
    public MemorySegment tryAllocateDirect(final long bytes) {
        return arena.allocate(Math.max(0, bytes));
    }

    /** Refuses (null) a block that would take the slots past a quarter of the arena. */
    @Override
    public synchronized MemorySegment tryAllocateSlots(final long bytes) {
        final long size = Math.max(0, bytes);
        if (slotBytes + size > slotCap) {
            return null;
        }
        final MemorySegment block = arena.allocate(size);
        if (null != block) {
            slotBytes += block.byteSize();
            slotBlocks.add(block.address());
        }
        return block;
    }

    /** A block's name is its offset in the job file. */
    @Override
    public long nameDirect(final MemorySegment block) {
        final long at = arena.offsetOf(block);
        if (at < 0) {
            throw Errors.expected(ErrorClass.ARG, "nameDirect", "rank=" + rank, "segment at address="
                + block.address() + " is not in this rank's shared arena", "a block from tryAllocateDirect");
        }
        return at;
    }

    @Override
    public MemorySegment resolveDirect(final int owner, final long name, final long bytes) {
        final long base = owner >= 0 && owner < file.layout.ranks ? file.layout.arena(owner) : -1;
        if (base < 0 || bytes < 0 || name < base || name + bytes > base + file.layout.arenaBytes) {
            throw Errors.expected(ErrorClass.ARG, "resolveDirect", "rank=" + rank, "owner=" + owner + " offset="
                + name + " bytes=" + bytes, "a range inside that rank's shared arena");
        }
        return file.segment.asSlice(name, bytes);
    }

    @Override
    public synchronized void freeDirect(final MemorySegment block) {
        if (arena.free(block)) {
            if (slotBlocks.remove(block.address())) {
                slotBytes -= block.byteSize();
            }
        } else {
            throw Errors.expected(ErrorClass.ARG, "freeDirect", "rank=" + rank, "segment at address="
                + block.address() + " is not a live block of this rank's shared arena", "a block given back once");
        }
    }
}
