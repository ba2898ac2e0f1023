package dev.tutti.transport.tcp;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A rendezvous send: registered when its RTS is written (with the payload's first {@code prefix} bytes), started by
 * the receiver's CTS, then the rest sent chunk by chunk (DATA frames) straight from the sender's payload, so it is
 * never copied whole. A payload in native memory is written by the socket straight from that memory (the chunk is
 * the staging buffer's tail, see {@link OutBuffer}): no copy in user space. So is one in a heap array where the
 * connection has a {@link NativeSocket}; elsewhere it is copied chunk by chunk into the staging buffer, the direct
 * memory the socket needs. Fields after {@link #start} are used under the connection's write lock only.
 */
final class StreamedSend extends WriteJob {
    /** Smallest chunk worth a frame header when the staging buffer is nearly full. */
    static final int MIN_CHUNK = 4 * 1024;
    /** Largest chunk copied into the staging buffer. */
    static final int MAX_CHUNK = 256 * 1024;
    /**
     * Largest chunk written straight from native memory: one frame header for this many bytes, and the most by which
     * the stream delays other frames to the same peer.
     */
    static final int MAX_DIRECT_CHUNK = 1024 * 1024;

    final long sendId;
    final Outbound outbound;
    /** Bytes the RTS carried: the stream starts after them. */
    final long prefix;
    private final int source;
    private final MemorySegment payload;
    private long receiveId;
    private long length;
    private long offset;

    StreamedSend(final long sendId, final int source, final Outbound outbound, final long prefix) {
        this.sendId = sendId;
        this.source = source;
        this.outbound = outbound;
        this.payload = outbound.payload();
        this.prefix = prefix;
        this.offset = prefix;
    }

    /** @return the full length of the message */
    long messageLength() {
        return payload.byteSize();
    }

    /** The CTS arrived: receive {@code id} takes {@code bytes} (at most the message); stream those past the prefix. */
    void start(final long id, final long bytes) {
        this.receiveId = id;
        this.length = bytes;
    }

    @Override
    boolean fill(final OutBuffer out) {
        if (payload.isNative() || out.heapIo()) {
            return attach(out);
        }
        final long left = length - offset;
        final long room = out.room() - FrameDescriptor.HEADER_LENGTH; // never moves unwritten bytes for a chunk
        if (room < Math.min(left, MIN_CHUNK)) {
            return false;
        }
        final int chunk = (int) Math.min(Math.min(left, room), MAX_CHUNK);
        final int at = out.reserve(FrameDescriptor.HEADER_LENGTH + chunk);
        FrameDescriptor.putHeader(out.buffer(), at, FrameDescriptor.DATA, 0, source, 0, 0, chunk, receiveId, offset);
        SegmentCopy.copy(payload, offset, out.segment(), at + FrameDescriptor.HEADER_LENGTH, chunk);
        offset += chunk;
        return offset == length;
    }

    /** Attaches the next chunk as the staging buffer's tail, written from the payload's memory. */
    private boolean attach(final OutBuffer out) {
        if (out.hasTail()) {
            return false;
        }
        final int chunk = (int) Math.min(length - offset, MAX_DIRECT_CHUNK);
        final MemorySegment piece = payload.asSlice(offset, chunk);
        final ByteBuffer header = piece.isNative() ? out.attachTail(piece.asByteBuffer()) : out.attachHeapTail(piece);
        FrameDescriptor.putHeader(header, 0, FrameDescriptor.DATA, 0, source, 0, 0, chunk, receiveId, offset);
        offset += chunk;
        return offset == length;
    }

    @Override
    boolean rotates() {
        return true;
    }
}
