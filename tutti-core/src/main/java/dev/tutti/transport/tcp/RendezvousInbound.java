package dev.tutti.transport.tcp;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A RENDEZVOUS message announced by an RTS: its envelope, and the first bytes of its payload that the RTS carried
 * (the prefix, read by the connection's reader into {@link #prefix()} as an eager payload is: into the destination
 * once it is named, else into a buffer of the prefix's size). {@link #deliver} hands the prefix its destination and
 * tells the sender (CTS) where to stream the rest, so an unexpected large message costs this object and its prefix.
 *
 * <p>Implementation notes. With a prefix the delivery has two parts, which complete on different threads in either
 * order: the prefix (the reader, or the delivering thread when the prefix had all arrived) and the stream of the
 * rest (the reader of its last DATA frame, or at once when the receiver takes no more than the prefix). {@link Both}
 * calls the receive's {@code done} once, after both, with the first failure.
 */
final class RendezvousInbound extends Inbound {
    private final TcpConnection connection;
    private final long sendId;
    private final long prefixBytes;
    /** The prefix's bytes as they arrive; null without a prefix. */
    private final EagerInbound prefix;

    RendezvousInbound(final TcpConnection connection, final int context, final int source, final int tag,
        final int typeCode, final long lengthBytes, final long sendId, final long prefixBytes) {
        super(context, source, tag, typeCode, lengthBytes);
        this.connection = connection;
        this.sendId = sendId;
        this.prefixBytes = prefixBytes;
        this.prefix = 0 == prefixBytes ? null : new EagerInbound(context, source, tag, typeCode, prefixBytes);
    }

    /** @return the receiver of the prefix's bytes (the reader fills it), or null without a prefix */
    EagerInbound prefix() {
        return prefix;
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        if (null == prefix) {
            connection.clearToSend(sendId, lengthBytes, 0, destination, done);
            return;
        }
        final Both both = new Both(done);
        prefix.deliver(destination, both); // writes no more than the destination holds
        connection.clearToSend(sendId, lengthBytes, prefixBytes, destination, both);
    }

    @Override
    public String toString() {
        return "RendezvousInbound(source=" + source + ", tag=" + tag + ", bytes=" + lengthBytes + ", prefix="
            + prefixBytes + ", sendId=" + sendId + ")";
    }

    /** Tells {@code done} once both parts of a delivery are over, with the first failure, if any. */
    private static final class Both implements Delivery {
        private final Delivery done;
        private int left = 2;
        private Throwable failure;

        Both(final Delivery done) {
            this.done = done;
        }

        @Override
        public void delivered(final Throwable cause) {
            final Throwable f;
            synchronized (this) {
                if (null == failure) {
                    failure = cause;
                }
                if (0 != --left) {
                    return;
                }
                f = failure;
            }
            done.delivered(f);
        }
    }
}
