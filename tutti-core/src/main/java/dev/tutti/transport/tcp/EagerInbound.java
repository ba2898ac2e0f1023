package dev.tutti.transport.tcp;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;

/**
 * An EAGER message: announced to the sink as soon as its header is read, filled as its payload streams in.
 *
 * <p>Implementation notes. The connection's reader (the holder of its read token: a waiting thread or the I/O
 * thread) calls {@link #accept} for each piece of payload it reads, and
 * {@link #deliver} may be called at any time from any thread (synchronously inside the sink's {@code arrive} when
 * a receive was posted, later by the thread that posts the receive). The monitor of this object orders the two.
 * Bytes go straight into the destination once {@code deliver} has named it: so a message whose receive is posted
 * is copied once, from the reader's read buffer into the receive buffer, and never buffered. Bytes that
 * arrive before {@code deliver} go into {@code buffered}, allocated on the first such byte with exactly the
 * message's length; {@code deliver} copies them over and drops the buffer. {@code done} is called, outside the
 * monitor, by whichever of the two sees both the destination and the last byte. If the connection fails first,
 * {@link #fail} makes the delivery (now or later) report the failure.
 */
final class EagerInbound extends Inbound {
    private MemorySegment buffered;
    private MemorySegment destination;
    private Delivery done;
    private long filled;
    private boolean complete;
    private Throwable failure;

    EagerInbound(final int context, final int source, final int tag, final int typeCode, final long lengthBytes) {
        super(context, source, tag, typeCode, lengthBytes);
        complete = 0 == lengthBytes;
    }

    /** Reader: the next {@code n} payload bytes are at {@code src[srcOffset..]}. */
    void accept(final MemorySegment src, final long srcOffset, final long n) {
        final Delivery fire;
        synchronized (this) {
            final MemorySegment dst = destination;
            if (null != dst) {
                copyBounded(src, srcOffset, dst, filled, n);
            } else {
                if (null == buffered) {
                    buffered = MemorySegment.ofArray(new byte[(int) lengthBytes]);
                }
                SegmentCopy.copy(src, srcOffset, buffered, filled, n);
            }
            filled += n;
            complete = filled == lengthBytes;
            fire = complete ? takeDone() : null;
        }
        if (null != fire) {
            fire.delivered(null);
        }
    }

    /** The connection failed before the payload was complete. */
    void fail(final Throwable cause) {
        final Delivery fire;
        synchronized (this) {
            if (complete || null != failure) {
                return;
            }
            failure = cause;
            buffered = null;
            fire = takeDone();
        }
        if (null != fire) {
            fire.delivered(cause);
        }
    }

    @Override
    public void deliver(final MemorySegment dst, final Delivery delivery) {
        final Throwable failed;
        synchronized (this) {
            failed = failure;
            if (null == failed) {
                if (null != buffered) {
                    copyBounded(buffered, 0, dst, 0, filled);
                    buffered = null;
                }
                destination = dst;
                if (!complete) {
                    done = delivery;
                    return;
                }
            }
        }
        delivery.delivered(failed);
    }

    private Delivery takeDone() {
        final Delivery d = done;
        done = null;
        return d;
    }

    /** Copies the part of {@code src[srcOffset, +n)} that lands inside {@code dst} at {@code dstOffset}. */
    private static void copyBounded(final MemorySegment src, final long srcOffset, final MemorySegment dst,
        final long dstOffset, final long n) {
        final long k = Math.min(n, dst.byteSize() - dstOffset);
        if (k > 0) {
            SegmentCopy.copy(src, srcOffset, dst, dstOffset, k);
        }
    }

    @Override
    public String toString() {
        return "EagerInbound(source=" + source + ", tag=" + tag + ", bytes=" + lengthBytes + ")";
    }
}
