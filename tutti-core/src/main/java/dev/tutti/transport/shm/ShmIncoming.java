package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A matched streamed receive of the shm transport ({@link ShmTransport}): chunks arriving. The channel carries
 * {@code total} bytes (after CTS the bytes wanted; pushed, the whole message), of which the first {@code wanted} go
 * to the destination. Owned by the transport's poller once taken from its queue ({@code received} is the
 * poller's alone).
 */
final class ShmIncoming {
    final int source;
    final long msgId;
    final MemorySegment destination;
    final long wanted;
    final long total;
    final boolean pushed;
    final Inbound.Delivery done;
    /** Bytes taken out of the channel so far. */
    long received;

    ShmIncoming(final int source, final long msgId, final MemorySegment destination, final long wanted,
        final long total, final boolean pushed, final Inbound.Delivery done) {
        this.source = source;
        this.msgId = msgId;
        this.destination = destination;
        this.wanted = wanted;
        this.total = total;
        this.pushed = pushed;
        this.done = done;
    }
}
