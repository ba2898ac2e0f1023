package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A small message read from the inbox ring while no receive matched it: its bytes are copied out of the ring into
 * a private array at once (the ring record is released right after), and copied again into the receive buffer
 * when a receive matches. Messages whose receive is already posted never take this path
 * ({@link dev.tutti.transport.InboundSink#arriveNow}).
 *
 * <p>Implementation notes. Immutable after construction; {@code deliver} may run on any thread, once.
 */
final class ShmEagerInbound extends Inbound {
    private final byte[] data;

    ShmEagerInbound(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment ring, final long offset, final int length) {
        super(context, source, tag, typeCode, length);
        this.data = new byte[length];
        MemorySegment.copy(ring, offset, MemorySegment.ofArray(data), 0, length);
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final long n = Math.min(lengthBytes, destination.byteSize());
        if (n > 0) {
            MemorySegment.copy(MemorySegment.ofArray(data), 0, destination, 0, n);
        }
        done.delivered(null);
    }
}
