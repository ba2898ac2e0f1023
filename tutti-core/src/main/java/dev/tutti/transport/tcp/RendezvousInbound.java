package dev.tutti.transport.tcp;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A RENDEZVOUS message announced by an RTS: only its envelope is here. {@link #deliver} tells the sender (CTS)
 * where to stream the data, so an unexpected large message costs only this object.
 */
final class RendezvousInbound extends Inbound {
    private final TcpConnection connection;
    private final long sendId;

    RendezvousInbound(final TcpConnection connection, final int context, final int source, final int tag,
        final int typeCode, final long lengthBytes, final long sendId) {
        super(context, source, tag, typeCode, lengthBytes);
        this.connection = connection;
        this.sendId = sendId;
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        connection.clearToSend(sendId, lengthBytes, destination, done);
    }

    @Override
    public String toString() {
        return "RendezvousInbound(source=" + source + ", tag=" + tag + ", bytes=" + lengthBytes + ", sendId="
            + sendId + ")";
    }
}
