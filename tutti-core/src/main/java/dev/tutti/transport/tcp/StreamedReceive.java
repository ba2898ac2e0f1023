package dev.tutti.transport.tcp;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * A rendezvous receive: the destination named by the matched receive, filled by DATA frames by the holder of the
 * connection's read token (only it touches {@code received}). Completion, success or failure, is claimed by
 * removing it from its connection's map, so {@code done} is called exactly once.
 */
final class StreamedReceive {
    final long receiveId;
    final long length;
    final Inbound.Delivery done;
    private final MemorySegment destination;
    private long received;

    StreamedReceive(final long receiveId, final MemorySegment destination, final long length,
        final Inbound.Delivery done) {
        this.receiveId = receiveId;
        this.destination = destination;
        this.length = length;
        this.done = done;
    }

    /** @return bytes received so far */
    long received() {
        return received;
    }

    /** Reader: the next {@code n} bytes of the message are at {@code src[srcOffset..]}. */
    void accept(final MemorySegment src, final long srcOffset, final long n) {
        SegmentCopy.copy(src, srcOffset, destination, received, n);
        received += n;
    }
}
