package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A small message read from the inbox ring while no receive matched it: its bytes are copied out of the ring into
 * an array at once (the ring record is released right after), and copied again into the receive buffer when a
 * receive matches. The array comes from the transport's {@link EagerBufferPool} and this object from its
 * {@link Envelopes}, and both go back once delivered, so such a message allocates nothing once the pools hold a few.
 * Messages whose receive is already posted never take this path ({@link dev.tutti.transport.InboundSink#arriveNow}).
 *
 * <p>Implementation notes. {@link #of} fills a recycled (or new) message on the polling thread before the matcher
 * publishes it; {@code deliver} or {@code discard} runs on any thread, once, reads the message for the last time,
 * gives the array back, then the message itself, and only then completes the receive (which read the envelope when
 * it matched). A message never delivered leaves both to the garbage collector.
 */
final class ShmEagerInbound extends Inbound {
    private final EagerBufferPool buffers;
    private final Envelopes envelopes;
    private byte[] data;

    private ShmEagerInbound(final EagerBufferPool buffers, final Envelopes envelopes) {
        super(0, 0, 0, 0, 0);
        this.buffers = buffers;
        this.envelopes = envelopes;
    }

    /**
     * Copies a message out of the ring into a pooled message.
     *
     * @param context   context id
     * @param source    sender's world rank
     * @param tag       tag
     * @param typeCode  type code
     * @param ring      the inbox ring's memory
     * @param offset    where the payload starts in {@code ring}
     * @param length    the payload's length
     * @param buffers   the transport's array pool
     * @param envelopes the transport's message pool
     * @return the message, ready to hand to the matcher
     */
    static ShmEagerInbound of(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment ring, final long offset, final int length, final EagerBufferPool buffers,
        final Envelopes envelopes) {
        ShmEagerInbound m = envelopes.take();
        if (null == m) {
            m = new ShmEagerInbound(buffers, envelopes);
        }
        m.envelope(context, source, tag, typeCode, length);
        m.data = buffers.take(length);
        // The array forms of copy: no segment wraps the array (such wrappers were most of what remained allocated).
        MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, offset, m.data, 0, length);
        return m;
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final long n = Math.min(lengthBytes, destination.byteSize());
        final byte[] bytes = data;
        if (n > 0) {
            MemorySegment.copy(bytes, 0, destination, ValueLayout.JAVA_BYTE, 0, (int) n);
        }
        data = null;
        buffers.give(bytes);
        envelopes.give(this);
        done.delivered(null);
    }

    /**
     * Delivered messages kept for reuse, a few per transport.
     *
     * <p>Implementation notes. {@value #SLOTS} slots; {@link #take} empties the first full one ({@code getAndSet},
     * an acquire), {@link #give} fills the first empty one ({@code compareAndSet}, a release), so the giver's last
     * reads of a message happen-before the taker's writes; a message is in at most one slot or in flight. A full
     * pool drops what it is given, an empty one makes the caller allocate.
     */
    static final class Envelopes {
        static final int SLOTS = 64;
        private final AtomicReferenceArray<ShmEagerInbound> slots = new AtomicReferenceArray<>(SLOTS);

        ShmEagerInbound take() {
            for (int i = 0; i < SLOTS; i++) {
                if (null != slots.getPlain(i)) {
                    final ShmEagerInbound m = slots.getAndSet(i, null);
                    if (null != m) {
                        return m;
                    }
                }
            }
            return null;
        }

        void give(final ShmEagerInbound m) {
            for (int i = 0; i < SLOTS; i++) {
                if (null == slots.getPlain(i) && slots.compareAndSet(i, null, m)) {
                    return;
                }
            }
        }
    }
}
