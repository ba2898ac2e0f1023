package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A small message read from the inbox ring. It starts by <em>borrowing</em> its bytes in the ring: if the receive
 * is posted, the polling thread matches it inside {@code arrive} and copies straight from the ring into the receive
 * buffer (one copy end to end after the sender's copy-in). Otherwise, before the ring record is released, the
 * poller {@linkplain #detach() detaches} it into a private array.
 *
 * <p>Implementation notes. {@code deliver} (any thread that matches it) and {@code detach} (the poller) race when a
 * receive is posted concurrently; this object's monitor orders them, and {@code delivered} tells {@code detach}
 * that there is nothing left to keep.
 */
final class ShmEagerInbound extends Inbound {
    private MemorySegment data;
    private boolean delivered;

    ShmEagerInbound(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment inRing) {
        super(context, source, tag, typeCode, inRing.byteSize());
        this.data = inRing;
    }

    /** Called by the poller after {@code arrive}: keeps a private copy unless already delivered. */
    void detach() {
        synchronized (this) {
            if (!delivered) {
                if (0 == lengthBytes) {
                    data = MemorySegment.NULL;
                } else {
                    final byte[] copy = new byte[(int) lengthBytes];
                    MemorySegment.copy(data, 0, MemorySegment.ofArray(copy), 0, lengthBytes);
                    data = MemorySegment.ofArray(copy);
                }
            }
        }
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        synchronized (this) {
            final long n = Math.min(lengthBytes, destination.byteSize());
            if (n > 0) {
                MemorySegment.copy(data, 0, destination, 0, n);
            }
            delivered = true;
            data = null;
        }
        done.delivered(null);
    }
}
