package dev.tutti.transport.shm;

import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A large message whose sender streams its chunks right after announcing it (RTS_PUSH), without waiting for
 * clear-to-send ({@link ShmTransport}). Its chunks wait in the pair's chunk channel until a receive matches; the
 * receiving poller then copies them straight into the receive buffer. Only if a later message from the same sender
 * must get past them (its receive matched first), or the sender said goodbye, does the poller move them to a
 * private heap buffer, from which a later match copies.
 *
 * <p>Implementation notes. Two threads meet here: whoever matches the message ({@link #deliver}, any thread, once)
 * and the receiving rank's poll-token holder (which alone calls {@link #startBuffering}, {@link #buffer} and
 * {@link #fail}). The lock on this object decides who comes first: a match before buffering began registers an
 * ordinary incoming transfer with the transport (the chunks go straight to the receive buffer); once buffering
 * began, the match only records the receive buffer, and whichever of the match and the last buffered chunk comes
 * second copies the buffer into it and completes. Cost: an expected message takes the lock once; on the buffered
 * path it is taken two or three times per chunk (uncontended but for the one match).
 */
final class ShmPushedInbound extends Inbound {
    private final ShmTransport transport;
    private final long msgId;
    /* Guarded by this. */
    private boolean matched;
    private MemorySegment buffer;
    private long buffered;
    private MemorySegment destination;
    private Delivery done;
    private Throwable failure;

    private ShmPushedInbound(final ShmTransport transport, final int context, final int source, final int tag,
        final int typeCode, final long lengthBytes, final long msgId) {
        super(context, source, tag, typeCode, lengthBytes);
        this.transport = transport;
        this.msgId = msgId;
    }

    /**
     * Reads an RTS_PUSH record ({@link ShmRecordDescriptor}).
     *
     * @param transport the receiving transport
     * @param f         the mapping
     * @param at        the record's offset
     * @return the announced message
     */
    static ShmPushedInbound read(final ShmTransport transport, final MemorySegment f, final long at) {
        return new ShmPushedInbound(transport, f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTEXT_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.SOURCE_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TAG_OFFSET),
            f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TYPE_CODE_OFFSET),
            f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.LENGTH_OFFSET),
            f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.MSG_ID_OFFSET));
    }

    long msgId() {
        return msgId;
    }

    @Override
    public void deliver(final MemorySegment destination, final Delivery done) {
        final long wanted = Math.min(lengthBytes, destination.byteSize());
        final Throwable failed;
        synchronized (this) {
            matched = true;
            if (null == buffer) {
                transport.deliverPushed(source, msgId, lengthBytes, wanted, destination, done);
                return;
            }
            if (null == failure && buffered < lengthBytes) {
                this.destination = destination;
                this.done = done; // the poller completes it with the last chunk
                return;
            }
            failed = failure;
        }
        complete(destination, wanted, done, failed);
    }

    /**
     * Poller: starts moving the chunks to the heap, unless a receive matched first.
     *
     * @return false if a receive matched (its transfer is registered with the transport)
     */
    synchronized boolean startBuffering() {
        if (null != buffer) {
            return true;
        }
        if (matched) {
            return false;
        }
        buffer = MemorySegment.ofArray(new byte[Math.toIntExact(lengthBytes)]);
        return true;
    }

    /** @return whether buffering began (poller) */
    synchronized boolean buffering() {
        return null != buffer;
    }

    /**
     * Poller: copies one chunk into the heap buffer; the last one completes a receive that matched meanwhile.
     *
     * @param file   the mapping
     * @param data   the chunk's data offset in the file
     * @param offset where in the message the chunk starts
     * @param bytes  the chunk's length
     * @return whether every byte is in the heap buffer now
     */
    boolean buffer(final MemorySegment file, final long data, final long offset, final long bytes) {
        final MemorySegment d;
        final Delivery c;
        synchronized (this) {
            SegmentCopy.copy(file, data, buffer, offset, bytes);
            buffered += bytes;
            if (buffered < lengthBytes || null == done) {
                return buffered == lengthBytes;
            }
            d = destination;
            c = done;
            done = null;
        }
        complete(d, Math.min(lengthBytes, d.byteSize()), c, null);
        return true;
    }

    /**
     * Poller: the sender failed before every chunk arrived; a receive that matched, or matches later, fails.
     *
     * @param e the cause
     */
    void fail(final Throwable e) {
        final Delivery c;
        synchronized (this) {
            if (null != buffer && buffered == lengthBytes) {
                return; // everything is here: a match still succeeds
            }
            failure = e;
            c = done;
            done = null;
        }
        if (null != c) {
            c.delivered(e);
        }
    }

    private void complete(final MemorySegment destination, final long wanted, final Delivery done,
        final Throwable failed) {
        if (null == failed && wanted > 0) {
            SegmentCopy.copy(buffer, 0, destination, 0, wanted);
        }
        done.delivered(failed);
    }
}
