package dev.tutti.transport.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * The staging buffer of one connection's outgoing bytes: direct, little-endian, always in "read mode" (the
 * unwritten bytes are {@code [position, limit)}). Frames are appended at the limit and the socket drains from the
 * position. Not thread-safe: guarded by the connection's write lock.
 *
 * <p>A <em>tail</em> may follow the staged bytes: one DATA frame whose header is here and whose payload is a view of
 * the sender's own native memory, written by the same gathering {@code write} as the staged bytes, so that payload
 * is never copied in user space. While a tail is attached nothing can be appended ({@link #free()} is 0): bytes
 * appended after it would go out before its unwritten part. A tail in a heap array ({@link #attachHeapTail}) is
 * written by the connection's {@link NativeSocket} once the staged bytes and its header are out: two system calls,
 * still no copy in user space.
 */
final class OutBuffer {
    private final ByteBuffer buf;
    private final MemorySegment seg;
    private final ByteBuffer tailHeader = ByteBuffer.allocateDirect(FrameDescriptor.HEADER_LENGTH)
        .order(ByteOrder.LITTLE_ENDIAN);
    /** The staged bytes, the tail's header, the tail's payload: what one gathering write takes. */
    private final ByteBuffer[] gather = {null, tailHeader, null};
    private boolean tail;
    private long written;
    /** The socket for heap tails, or null (heap payloads are then copied in: {@link #heapIo()} is false). */
    private final NativeSocket heapSocket;
    /** The heap tail's payload (null for none or a native tail), and how far it is written. */
    private MemorySegment heapTail;
    private long heapTailAt;

    OutBuffer(final int capacity, final NativeSocket heapSocket) {
        this.heapSocket = heapSocket;
        this.buf = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        this.seg = MemorySegment.ofBuffer(buf); // covers the whole capacity: created while position=0, limit=capacity
        buf.limit(0);
        gather[0] = buf;
    }

    /** @return whether a tail is attached (then nothing can be appended until it is written) */
    boolean hasTail() {
        return tail;
    }

    /**
     * Attaches a tail: a DATA frame whose payload is written straight from {@code payload}.
     *
     * @param payload the frame's payload, a view of native memory that stays unchanged until the tail is written
     * @return the header's buffer, to be filled at index 0 by the caller
     */
    ByteBuffer attachTail(final ByteBuffer payload) {
        tail = true;
        tailHeader.clear();
        gather[2] = payload;
        return tailHeader;
    }

    /** @return whether a payload in a heap array can be a tail ({@link #attachHeapTail}) */
    boolean heapIo() {
        return null != heapSocket;
    }

    /**
     * Attaches a tail whose payload is in a heap array (only if {@link #heapIo()}).
     *
     * @param payload the frame's payload, unchanged until the tail is written
     * @return the header's buffer, to be filled at index 0 by the caller
     */
    ByteBuffer attachHeapTail(final MemorySegment payload) {
        tail = true;
        tailHeader.clear();
        heapTail = payload;
        heapTailAt = 0;
        return tailHeader;
    }

    /** @return the buffer, for absolute puts at indexes returned by {@link #reserve} */
    ByteBuffer buffer() {
        return buf;
    }

    /** @return a segment over the whole buffer, for copies at indexes returned by {@link #reserve} */
    MemorySegment segment() {
        return seg;
    }

    /** @return how many bytes can still be appended (after compaction); 0 while a tail is attached */
    int free() {
        return tail ? 0 : buf.capacity() - buf.remaining();
    }

    /** @return how many bytes can be appended without moving the unwritten ones; 0 while a tail is attached */
    int room() {
        return tail ? 0 : buf.capacity() - buf.limit();
    }

    /** @return true if no byte waits to be written */
    boolean isEmpty() {
        return !tail && !buf.hasRemaining();
    }

    /**
     * Appends {@code n} bytes to be filled by the caller and returns where they start.
     *
     * @param n bytes to append, at most {@link #free()}
     * @return the absolute index of the first
     */
    int reserve(final int n) {
        if (buf.capacity() - buf.limit() < n) {
            buf.compact();
            buf.flip();
        }
        final int at = buf.limit();
        buf.limit(at + n);
        return at;
    }

    /**
     * Writes what the socket takes without blocking.
     *
     * @param channel the non-blocking socket
     * @return true if everything was written
     * @throws IOException if the socket failed
     */
    boolean writeTo(final SocketChannel channel) throws IOException {
        if (null != heapTail) {
            if (tailHeader.hasRemaining()) {
                written += channel.write(gather, 0, 2);
                if (tailHeader.hasRemaining()) {
                    return false;
                }
            }
            final long size = heapTail.byteSize();
            while (heapTailAt < size) {
                final long n = heapSocket.write(heapTail, heapTailAt, size - heapTailAt);
                if (0 == n) {
                    return false;
                }
                heapTailAt += n;
                written += n;
            }
            tail = false;
            heapTail = null;
        } else if (tail) {
            written += channel.write(gather);
            if (gather[2].hasRemaining()) {
                return false;
            }
            tail = false;
            gather[2] = null;
        } else {
            written += channel.write(buf);
            if (buf.hasRemaining()) {
                return false;
            }
        }
        buf.position(0).limit(0);
        return true;
    }

    /** @return the bytes written to the socket so far */
    long written() {
        return written;
    }

    /** Drops every unwritten byte, and the tail. */
    void clear() {
        buf.position(0).limit(0);
        tail = false;
        gather[2] = null;
        heapTail = null;
    }

    /** Under the write lock (and the read token): the heap tails' socket is closed (see {@link NativeSocket}). */
    void closeHeapSocket() {
        if (null != heapSocket) {
            heapSocket.close();
        }
    }
}
