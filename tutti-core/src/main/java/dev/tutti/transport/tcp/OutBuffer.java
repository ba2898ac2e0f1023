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
 */
final class OutBuffer {
    private final ByteBuffer buf;
    private final MemorySegment seg;
    private long written;

    OutBuffer(final int capacity) {
        this.buf = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        this.seg = MemorySegment.ofBuffer(buf); // covers the whole capacity: created while position=0, limit=capacity
        buf.limit(0);
    }

    /** @return the buffer, for absolute puts at indexes returned by {@link #reserve} */
    ByteBuffer buffer() {
        return buf;
    }

    /** @return a segment over the whole buffer, for copies at indexes returned by {@link #reserve} */
    MemorySegment segment() {
        return seg;
    }

    /** @return how many bytes can still be appended (after compaction) */
    int free() {
        return buf.capacity() - buf.remaining();
    }

    /** @return true if no byte waits to be written */
    boolean isEmpty() {
        return !buf.hasRemaining();
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
        written += channel.write(buf);
        if (buf.hasRemaining()) {
            return false;
        }
        buf.position(0).limit(0);
        return true;
    }

    /** @return the bytes written to the socket so far */
    long written() {
        return written;
    }

    /** Drops every unwritten byte. */
    void clear() {
        buf.position(0).limit(0);
    }
}
