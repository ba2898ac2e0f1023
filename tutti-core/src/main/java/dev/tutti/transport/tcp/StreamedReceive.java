package dev.tutti.transport.tcp;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A rendezvous receive: the destination named by the matched receive, filled by DATA frames by the holder of the
 * connection's read token (only it touches {@code received} and {@code window}). Completion, success or failure, is
 * claimed by removing it from its connection's map, so {@code done} is called exactly once. A destination in native
 * memory is read into by the socket itself ({@link #window}): no copy in user space; so is one in a heap array where
 * the connection has a {@link NativeSocket}, else it is filled from the reader's read buffer.
 */
final class StreamedReceive {
    final long receiveId;
    final long length;
    final Inbound.Delivery done;
    private final MemorySegment destination;
    private long received;
    /** A buffer over the whole destination, made on the first direct read (native destinations only). */
    private ByteBuffer window;

    StreamedReceive(final long receiveId, final MemorySegment destination, final long length, final long prefix,
        final Inbound.Delivery done) {
        this.receiveId = receiveId;
        this.destination = destination;
        this.length = length;
        this.received = prefix;
        this.done = done;
    }

    /** @return the offset of the next byte to arrive: the prefix (which the RTS carried) and the bytes received */
    long received() {
        return received;
    }

    /**
     * @param heapSocket the connection's socket for heap I/O, or null
     * @return whether the socket may read straight into the destination (native memory of a buffer's size, or any
     *         with {@code heapSocket})
     */
    boolean direct(final NativeSocket heapSocket) {
        return destination.isNative() ? length <= Integer.MAX_VALUE : null != heapSocket;
    }

    /**
     * Reader, for a {@link #direct} destination: reads at most {@code n} of its next bytes from the socket straight
     * into it.
     *
     * @return the bytes read (then counted as received), 0 if none, -1 at the end of the stream
     */
    int readFrom(final SocketChannel channel, final NativeSocket heapSocket, final long n) throws IOException {
        final int got = destination.isNative() ? channel.read(window(n))
            : (int) heapSocket.read(destination, received, Math.min(n, Integer.MAX_VALUE));
        if (got > 0) {
            received += got;
        }
        return got;
    }

    /**
     * Reader: the destination's next {@code n} bytes as a buffer for the socket to read into; then
     * {@link #advance} by what it read.
     */
    ByteBuffer window(final long n) {
        if (null == window) {
            window = destination.asSlice(0, length).asByteBuffer();
        }
        window.limit((int) (received + n)).position((int) received);
        return window;
    }


    /** Reader: the next {@code n} bytes of the message are at {@code src[srcOffset..]}. */
    void accept(final MemorySegment src, final long srcOffset, final long n) {
        SegmentCopy.copy(src, srcOffset, destination, received, n);
        received += n;
    }
}
