package dev.tutti.transport.inproc;

import dev.tutti.transport.InboundSink;

/**
 * The ranks of one JVM that reach each other by reference: a sink per world rank (null for ranks that live in
 * other processes). Immutable after construction; shared by the {@link InprocTransport}s of those ranks.
 */
public final class InprocFabric {
    private final InboundSink[] sinks;

    /**
     * Creates a fabric.
     *
     * @param sinksByWorldRank the receiving engine of each in-JVM rank, null elsewhere
     */
    public InprocFabric(final InboundSink[] sinksByWorldRank) {
        this.sinks = sinksByWorldRank.clone();
    }

    InboundSink sink(final int worldRank) {
        final InboundSink s = sinks[worldRank];
        if (null == s) {
            throw new IllegalStateException("world rank " + worldRank + " is not in this JVM");
        }
        return s;
    }
}
