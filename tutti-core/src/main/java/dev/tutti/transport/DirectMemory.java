package dev.tutti.transport;

import java.lang.foreign.MemorySegment;

/**
 * Memory that a rank's peers on the same transport can write into directly: the shared arena of the shm transport,
 * the heap of the JVM for ranks that are its threads. The collective layer keeps the slots of persistent collectives
 * there (see {@code dev.tutti.coll.slot.SlotLane}): a block is made by its owner, named to a peer by a number, and
 * reached by the peer through that number.
 *
 * <p>Thread-safety: every method may be called from any thread of the owning rank.
 */
public interface DirectMemory {
    /**
     * The largest block of a per-call collective through a communicator's on-host region where the region is on by
     * default ({@link #defaultHostLimit}): up to there its flags and one copy each way beat the message layer's
     * matched messages, between processes and between threads (bench/RESULTS.md).
     */
    long HOST_LIMIT = 8192;

    /**
     * Returns the largest message that goes through direct memory when the setting {@code tutti.coll.directLimit}
     * is left at its default: where it was measured to beat the transport's own messages.
     *
     * @return bytes, 0 for none
     */
    long defaultDirectLimit();

    /**
     * Returns the largest message that goes through direct memory: the setting {@code tutti.coll.directLimit}, or
     * {@link #defaultDirectLimit()} where the setting is negative (its default). The one place that decides it.
     *
     * @return bytes, 0 for none
     */
    default long directLimit() {
        final long setting = dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.intValue();
        return setting < 0 ? defaultDirectLimit() : setting;
    }

    /**
     * Returns the largest block of a blocking per-call collective that goes through a communicator's on-host region
     * (the collective layer's {@code coll.host}) when the setting {@code tutti.coll.hostLimit} is left at its
     * default: where that region was measured to beat the transport's messages; 0 keeps per-call collectives on the
     * message layer.
     *
     * @return bytes, 0 for none
     */
    default long defaultHostLimit() {
        return 0;
    }

    /**
     * Tells whether the ranks that share this memory outnumber the cores that run them, where the transport's own
     * messages beat the on-host region's chunk area: then calls past the region's cells keep the message layer unless
     * the setting {@code tutti.coll.hostChunks} is {@code on}. Every rank that shares the memory finds the same.
     *
     * @return true if crowded
     */
    default boolean crowded() {
        return false;
    }

    /**
     * Tells whether the transport moves a message sent from {@code data} with one copy (the receiver's, straight out
     * of the sender's memory), which beats a slot's two: a persistent collective that sends from such memory keeps
     * the message layer.
     *
     * @param data a message's bytes as the sender holds them
     * @return true if the transport copies them once
     */
    default boolean copiesOnce(final MemorySegment data) {
        return false;
    }

    /**
     * Lends bytes of a call of this rank to its peers, who then copy them straight out of where they lie
     * ({@link #resolveDirect} with the name) instead of through a slot: where the peers reach them and one copy beats
     * a slot's two. The bytes stay lent, and unchanged, until {@link #endLoan}. Between processes that is memory of
     * the shared arena past the eager limit ({@link #copiesOnce}), named as a block is, and a loan needs no ending;
     * between threads of one JVM it is any memory, heap arrays too.
     *
     * @param bytes the bytes, as the lending rank holds them
     * @return their name, at least 0; or -1 where the peers cannot read them in place
     */
    default long lend(final MemorySegment bytes) {
        return copiesOnce(bytes) ? nameDirect(bytes) : -1;
    }

    /**
     * Ends a loan: its name reaches nothing any more. The lending rank calls it once every peer is done reading.
     *
     * @param name a name from {@link #lend}
     */
    default void endLoan(final long name) {
        // Between processes a loan is a range of the arena, which needs no bookkeeping.
    }

    /**
     * Makes a zeroed block, 64-byte aligned.
     *
     * @param bytes its size, at least 0
     * @return the block, or null when there is no room
     */
    MemorySegment tryAllocateDirect(long bytes);

    /**
     * Makes a zeroed block, 64-byte aligned, for slots that stay as long as their communicator: the memory may keep
     * such blocks to a share of itself, so that they never crowd out the program's shared buffers and windows.
     *
     * @param bytes its size, at least 0
     * @return the block, or null when there is no room (or the slots' share is used up)
     */
    default MemorySegment tryAllocateSlots(final long bytes) {
        return tryAllocateDirect(bytes);
    }

    /**
     * Returns the number by which peers reach a block of this rank ({@link #resolveDirect}).
     *
     * @param block a block from {@link #tryAllocateDirect}
     * @return its name
     */
    long nameDirect(MemorySegment block);

    /**
     * Returns a peer's block, as this rank reaches it.
     *
     * @param owner the peer's world rank
     * @param name  the block's name ({@link #nameDirect} on the peer)
     * @param bytes how much of it to reach, from its start
     * @return the block
     * @throws dev.tutti.TuttiException if there is no such block of that size
     */
    MemorySegment resolveDirect(int owner, long name, long bytes);

    /**
     * Gives a block back.
     *
     * @param block a block from {@link #tryAllocateDirect}, given back once
     */
    void freeDirect(MemorySegment block);
}
