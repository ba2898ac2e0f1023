package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A large message announced by its sender (RTS): only the envelope has arrived. When matched, {@code deliver}
 * either copies the payload straight out of the sender's shared arena (single copy, then FIN to the sender), or
 * registers the receive and sends CTS with the number of bytes wanted, after which the sender streams that many
 * bytes through the pair's chunk channel ({@link ShmTransport}). A truncating receive asks only for what fits,
 * so the rest never moves; a discarded message asks for 0 bytes and the sender completes at once.
 */
final class ShmRendezvousInbound extends Inbound {
    private final ShmTransport transport;
    private final long msgId;
    private final long sharedOffset;

    private ShmRendezvousInbound(final ShmTransport transport, final int context, final int source, final int tag,
        final int typeCode, final long lengthBytes, final long msgId, final long sharedOffset) {
        super(context, source, tag, typeCode, lengthBytes);
        this.transport = transport;
        this.msgId = msgId;
        this.sharedOffset = sharedOffset;
    }

    /**
     * Reads an RTS or RTS_SHARED record ({@link ShmRecordDescriptor}).
     *
     * @param transport the receiving transport
     * @param f         the mapping
     * @param at        the record's offset
     * @return the announced message
     */
    static ShmRendezvousInbound read(final ShmTransport transport, final MemorySegment f, final long at) {
        return new ShmRendezvousInbound(transport, f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTEXT_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.SOURCE_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TAG_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TYPE_CODE_OFFSET),
            f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.LENGTH_OFFSET),
            f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.MSG_ID_OFFSET),
            f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.SHARED_AT_OFFSET));
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        transport.deliverRendezvous(source, msgId, sharedOffset, Math.min(lengthBytes, destination.byteSize()),
            destination, done);
    }
}
