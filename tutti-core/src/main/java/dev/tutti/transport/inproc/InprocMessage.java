package dev.tutti.transport.inproc;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message between two ranks of one JVM, handed over by reference.
 *
 * <p>Implementation notes. The message starts by <em>borrowing</em> the sender's payload. If the receive is
 * already posted, the sending thread matches it inside {@code arrive} and copies straight into the receive buffer:
 * one copy, no allocation beyond this object. If not, then after {@code arrive} returns the sender either
 * <em>detaches</em> (eager, length ≤ limit: copy the payload into a private array and complete the send) or
 * leaves it borrowed (rendezvous: the receiver copies from the sender's buffer when it matches, and that completes
 * the send; large messages are thus copied once and never buffered).
 *
 * <p>{@code deliver} (receiver side, or the sender inside {@code arrive}) and {@code detach} (sender) may race.
 * {@code state} decides, by CAS, who completes the send: BORROWED → TAKEN by {@code deliver} (it copies from the
 * sender's buffer, which stays valid because the sender has not returned from its send yet, and completes the
 * send), or BORROWED → DETACHED by {@code detach} (it has already copied into {@code owned}, written before the CAS,
 * and completes the send; a later {@code deliver} reads {@code owned} after seeing DETACHED). The CAS is the
 * release/acquire pair for {@code owned}.
 */
final class InprocMessage extends Inbound {
    private static final int BORROWED = 0;
    private static final int TAKEN = 1;
    private static final int DETACHED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(InprocMessage.class, "state", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Outbound out;
    private final MemorySegment borrowed;
    private MemorySegment owned;
    private volatile int state;

    InprocMessage(final Outbound out) {
        super(out.context(), out.source(), out.tag(), out.typeCode(), out.payload().byteSize());
        this.out = out;
        this.borrowed = out.payload();
    }

    /** After queueing as unexpected: take a private copy so that the sender may go on (eager only). */
    void detach() {
        if (BORROWED != state) {
            return; // already delivered: deliver completed the send
        }
        final MemorySegment own = MemorySegment.ofArray(new byte[(int) lengthBytes]);
        SegmentCopy.copy(borrowed, 0, own, 0, lengthBytes);
        owned = own;
        if (STATE.compareAndSet(this, BORROWED, DETACHED)) {
            out.sent(null);
        }
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final boolean fromSender = STATE.compareAndSet(this, BORROWED, TAKEN);
        final MemorySegment src = fromSender ? borrowed : owned;
        final long n = Math.min(lengthBytes, destination.byteSize());
        if (n > 0) {
            SegmentCopy.copy(src, 0, destination, 0, n);
        }
        owned = null;
        if (fromSender) {
            out.sent(null);
        }
        done.delivered(null);
    }
}
