package dev.tutti.transport.shm;

import dev.tutti.transport.Outbound;

/**
 * A rendezvous or pushed send of the shm transport ({@link ShmTransport}) while it waits for its CTS or FIN and then
 * streams its payload through the channel to {@code dest}. Owned by the transport's poller once taken from its
 * queues ({@code wanted} and {@code done} are the poller's alone).
 */
final class ShmOutgoing {
    final int dest;
    final Outbound out;
    final long msgId;
    /** Bytes the receiver asked for (its CTS), the payload's whole length when pushed. */
    long wanted;
    /** Bytes streamed so far. */
    long done;

    ShmOutgoing(final int dest, final Outbound out, final long msgId) {
        this.dest = dest;
        this.out = out;
        this.msgId = msgId;
    }
}
