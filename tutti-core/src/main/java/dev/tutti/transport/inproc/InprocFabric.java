package dev.tutti.transport.inproc;

import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.runtime.Configuration;
import dev.tutti.transport.InboundSink;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ranks of one JVM that reach each other by reference: a sink per world rank (null for ranks that live in
 * other processes), and the blocks of direct memory they share, and the bytes a call lends (by name, in concurrent
 * maps; names are never reused). The sinks are immutable after construction; the fabric is shared by the
 * {@link InprocTransport}s of those ranks.
 */
public final class InprocFabric {
    private final InboundSink[] sinks;
    private final boolean crowded;
    private final AtomicLong nextBlock = new AtomicLong();
    private final Map<Long, MemorySegment> blocks = new ConcurrentHashMap<>();
    private final Map<Long, Long> names = new ConcurrentHashMap<>();

    /**
     * Creates a fabric.
     *
     * @param sinksByWorldRank the receiving engine of each in-JVM rank, null elsewhere
     */
    public InprocFabric(final InboundSink[] sinksByWorldRank) {
        this.sinks = sinksByWorldRank.clone();
        int n = 0;
        for (final InboundSink s : sinks) {
            n += null == s ? 0 : 1;
        }
        this.crowded = Configuration.oversubscribed(n);
    }

    /**
     * @return whether this JVM's ranks outnumber its cores, decided once from how many they are (see
     * {@link InprocTransport#crowded})
     */
    boolean crowded() {
        return crowded;
    }

    /**
     * Makes a zeroed, 64-byte aligned block that every rank of the fabric can reach by its name
     * ({@link dev.tutti.transport.DirectMemory}); its memory is the JVM's (freed by the collector once it is given
     * back and unreferenced).
     */
    MemorySegment allocate(final long bytes) {
        final MemorySegment block = Arena.ofAuto().allocate(Math.max(1, bytes), 64);
        final long name = nextBlock.incrementAndGet();
        blocks.put(name, block);
        names.put(block.address(), name);
        return block;
    }

    /**
     * Names memory of a rank's call that the fabric's ranks read in place until {@link #endLoan}: any segment of the
     * JVM, a heap array's too (a heap segment keeps its array reachable, wherever the collector moves it).
     */
    long lend(final MemorySegment bytes) {
        final long name = nextBlock.incrementAndGet();
        blocks.put(name, bytes);
        return name;
    }

    void endLoan(final long name) {
        blocks.remove(name);
    }

    long name(final MemorySegment block) {
        final Long name = names.get(block.address());
        if (null == name) {
            throw Errors.refused("not a block of this fabric: address " + block.address());
        }
        return name;
    }

    MemorySegment resolve(final long name, final long bytes) {
        final MemorySegment block = blocks.get(name);
        if (null == block || bytes < 0 || bytes > block.byteSize()) {
            throw Errors.expected(ErrorClass.ARG, "resolveDirect", "inproc", "name=" + name + " bytes=" + bytes,
                "a live block or loan of this JVM's ranks of at least that many bytes");
        }
        return block.asSlice(0, bytes);
    }

    void free(final MemorySegment block) {
        final Long name = names.remove(block.address());
        if (null != name) {
            blocks.remove(name);
        }
    }

    InboundSink sink(final int worldRank) {
        final InboundSink s = sinks[worldRank];
        if (null == s) {
            throw Failures.badState("world rank " + worldRank + " is not in this JVM");
        }
        return s;
    }
}
