package dev.tutti.transport.tcp;

import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A whole frame (header and payload) copied to the heap because the connection was backlogged. */
final class QueuedFrame extends WriteJob {
    private final byte[] bytes;
    private int appended;

    private QueuedFrame(final byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Copies a frame.
     *
     * @param type     frame type
     * @param context  context id
     * @param source   sender's world rank
     * @param tag      tag
     * @param typeCode type code
     * @param length   the length field
     * @param id       the id field
     * @param id2      the id2 field
     * @param payload  the payload (its whole size is copied), or null for none
     * @return the queued frame
     */
    static QueuedFrame of(final byte type, final int context, final int source, final int tag, final int typeCode,
        final long length, final long id, final long id2, final MemorySegment payload) {
        final long payloadBytes = null == payload ? 0 : payload.byteSize();
        final byte[] b = new byte[FrameDescriptor.HEADER_LENGTH + (int) payloadBytes];
        FrameDescriptor.putHeader(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN), 0, type, context, source, tag,
            typeCode, length, id, id2);
        if (payloadBytes > 0) {
            SegmentCopy.copy(payload, 0, MemorySegment.ofArray(b), FrameDescriptor.HEADER_LENGTH, payloadBytes);
        }
        return new QueuedFrame(b);
    }

    @Override
    boolean fill(final OutBuffer out) {
        final int k = Math.min(out.free(), bytes.length - appended);
        if (k > 0) {
            out.buffer().put(out.reserve(k), bytes, appended, k);
            appended += k;
        }
        return appended == bytes.length;
    }

    @Override
    boolean rotates() {
        return false;
    }
}
