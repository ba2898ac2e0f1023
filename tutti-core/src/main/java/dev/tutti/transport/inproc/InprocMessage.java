package dev.tutti.transport.inproc;

import dev.tutti.transport.Inbound;
import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;

/**
 * A message between two ranks of one JVM, handed over by reference.
 *
 * <p>Implementation notes. The message starts by <em>borrowing</em> the sender's payload. If the receive is
 * already posted, the sending thread matches it inside {@code arrive} and copies straight into the receive buffer:
 * one copy, no allocation beyond this object. If not, then after {@code arrive} returns the sender either
 * <em>detaches</em> (eager, length ≤ limit: copy the payload into a private array and complete the send) or
 * leaves it borrowed (rendezvous: the receiver copies from the sender's buffer when it matches, and that completes
 * the send; large messages are thus copied once and never buffered). {@code deliver} and {@code detach} race
 * when a receive is posted concurrently; the monitor of this object orders them, and {@code owned} tells
 * {@code deliver} whether the send is still waiting for it.
 */
final class InprocMessage extends Inbound {
    private final Outbound out;
    private MemorySegment data;
    private boolean owned;
    private boolean delivered;

    InprocMessage(final Outbound out) {
        super(out.context(), out.source(), out.tag(), out.typeCode(), out.payload().byteSize());
        this.out = out;
        this.data = out.payload();
    }

    /** After queueing as unexpected: take a private copy so that the sender may go on (eager only). */
    void detach() {
        final boolean detached;
        synchronized (this) {
            detached = !delivered;
            if (detached) {
                final byte[] copy = new byte[(int) lengthBytes];
                final MemorySegment own = MemorySegment.ofArray(copy);
                MemorySegment.copy(data, 0, own, 0, lengthBytes);
                data = own;
                owned = true;
            }
        }
        if (detached) {
            out.sent(null);
        }
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final boolean senderWaiting;
        synchronized (this) {
            final long n = Math.min(lengthBytes, destination.byteSize());
            if (n > 0) {
                MemorySegment.copy(data, 0, destination, 0, n);
            }
            delivered = true;
            senderWaiting = !owned;
            data = null;
        }
        if (senderWaiting) {
            out.sent(null);
        }
        done.delivered(null);
    }
}
