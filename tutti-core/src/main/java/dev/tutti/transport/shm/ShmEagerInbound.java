package dev.tutti.transport.shm;

import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A small message read from the inbox ring while no receive matched it: its bytes are copied out of the ring into
 * an array at once (the ring record is released right after), and copied again into the receive buffer when a
 * receive matches. The array comes from the transport's {@link EagerBufferPool} and goes back once delivered, so
 * such a message allocates only this object. Messages whose receive is already posted never take this path
 * ({@link dev.tutti.transport.InboundSink#arriveNow}).
 *
 * <p>Implementation notes. The envelope is immutable; {@code deliver} or {@code discard} runs on any thread, once,
 * and gives the array back after its last read of it (a message never delivered leaves its array to the garbage
 * collector).
 */
final class ShmEagerInbound extends Inbound {
    private final EagerBufferPool pool;
    private final byte[] data;

    ShmEagerInbound(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment ring, final long offset, final int length, final EagerBufferPool pool) {
        super(context, source, tag, typeCode, length);
        this.pool = pool;
        this.data = pool.take(length);
        // The array forms of copy: no segment wraps the array (such wrappers were most of what remained allocated).
        MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, offset, data, 0, length);
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final long n = Math.min(lengthBytes, destination.byteSize());
        if (n > 0) {
            MemorySegment.copy(data, 0, destination, ValueLayout.JAVA_BYTE, 0, (int) n);
        }
        pool.give(data);
        done.delivered(null);
    }
}
