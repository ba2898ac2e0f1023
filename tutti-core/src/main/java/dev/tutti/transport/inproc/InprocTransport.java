package dev.tutti.transport.inproc;

import java.lang.foreign.MemorySegment;

import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Outbound;
import dev.tutti.transport.Transport;

/**
 * Transport between ranks that are threads of one JVM (and a process's messages to itself). The sending thread
 * does all the work: it matches the message at the receiver and, if the receive is posted, copies the data into
 * it; no other thread is involved, so there is no hand-off latency. See {@link InprocMessage} for the protocol.
 *
 * <p>Ordering: a thread's sends to one destination call {@code arrive} in program order, and arrivals are matched
 * in call order, so non-overtaking holds.
 */
public final class InprocTransport implements Transport, DirectMemory {
    private final InprocFabric fabric;
    private final long eagerLimit;
    private final boolean crowded;

    /**
     * Creates the transport of one rank.
     *
     * @param fabric     the ranks of this JVM
     * @param eagerLimit largest message copied eagerly when no receive is posted; larger ones wait for the
     *                   receiver, which copies from the sender's buffer
     */
    public InprocTransport(final InprocFabric fabric, final long eagerLimit) {
        this.fabric = fabric;
        this.eagerLimit = eagerLimit;
        this.crowded = fabric.crowded();
    }

    @Override
    public void send(final int destWorldRank, final Outbound message) {
        final InprocMessage m = new InprocMessage(message);
        fabric.sink(destWorldRank).arrive(m);
        if (m.lengthBytes <= eagerLimit) {
            m.detach();
        }
    }

    /** @return this transport: its fabric's blocks are the direct memory of the JVM's ranks */
    @Override
    public DirectMemory directMemory() {
        return this;
    }

    /** 16 KiB: between threads, a slot takes half the time of a matched message (measured at 2 ranks, 8 B-1 KiB). */
    @Override
    public long defaultDirectLimit() {
        return 16 * 1024;
    }

    /** {@value #HOST_LIMIT} bytes, however many the JVM's ranks are (see {@link #crowded}). */
    @Override
    public long defaultHostLimit() {
        return HOST_LIMIT;
    }

    /**
     * Whether the JVM's ranks outnumber its cores. Then the chunk area's pipeline, which waits for every rank at each
     * chunk, loses to the message layer, where a message larger than the eager limit is copied once, by its receiver,
     * out of the sender's array; the cells still win, for every operation timed with the barrier after it
     * (bench/RESULTS.md, "Threads that outnumber the cores"). Decided once per fabric, so every rank of the JVM
     * decides alike.
     */
    @Override
    public boolean crowded() {
        return crowded;
    }

    @Override
    public MemorySegment tryAllocateDirect(final long bytes) {
        return fabric.allocate(bytes);
    }

    @Override
    public long nameDirect(final MemorySegment block) {
        return fabric.name(block);
    }

    @Override
    public MemorySegment resolveDirect(final int owner, final long name, final long bytes) {
        return fabric.resolve(name, bytes);
    }

    /** Any bytes: a peer's one copy straight out of them beats a slot's two. */
    @Override
    public long lend(final MemorySegment bytes) {
        return fabric.lend(bytes);
    }

    @Override
    public void endLoan(final long name) {
        fabric.endLoan(name);
    }

    @Override
    public void freeDirect(final MemorySegment block) {
        fabric.free(block);
    }

    @Override
    public void close() {
        // Nothing to release: messages are objects of the heap.
    }

    @Override
    public String toString() {
        return "inproc";
    }
}
