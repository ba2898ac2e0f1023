package dev.tutti.transport.tcp;

import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Outbound;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write side of one {@link TcpConnection}: frames out, from any thread, and the sender's half of the rendezvous
 * protocol (the registered sends and their data streams).
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Who touches what.</b> {@code out}, {@code backlog}, {@code lastSendId}, {@code ioCompleted} and the
 * started part of every {@link StreamedSend} are used under {@code writeLock} only. {@code wantWrite} is written
 * under the lock and read without it by waiting threads (a hint: {@link #poll} re-checks it under the lock).
 * {@code sends} is concurrent: an entry is completed by whoever removes it (the success path, or
 * {@link #failSends} on the failure path), so exactly once.</li>
 * <li><b>Order.</b> Every frame is appended whole to {@code out} (a direct staging buffer) under the lock, so frames
 * never interleave and the order of appends is the order on the wire. The caller's thread then writes to the
 * non-blocking socket itself: no thread hop on the send path. Whatever the socket does not take stays in
 * {@code out}, and a waiting thread's poll or the I/O thread (OP_WRITE) finishes it. If {@code out} lacks room, or
 * the {@code backlog} is not empty (order!), the frame is copied to the heap and appended to the backlog instead;
 * an eager send completes as soon as its payload is copied, either way. Invariant (under the lock): if {@code out}
 * or the backlog is non-empty, {@code wantWrite} is set, and OP_WRITE is in the key's interest set unless the
 * connection is routed and the I/O thread stands by (the waiting threads then poll, and so write, often; the I/O
 * thread puts OP_WRITE back when it resumes, see {@link #watchWrites}). Nothing ever blocks while holding the
 * lock.</li>
 * <li><b>Rendezvous.</b> {@link #sendRendezvous} registers a {@link StreamedSend} and writes an RTS with the
 * message's first bytes (the prefix, {@code tutti.tcp.rendezvousPrefix}, copied like an eager payload) when they fit
 * the staging buffer now, which then cross the wire while the receiver's CTS comes back (when frames are queued, the
 * RTS goes alone: it waits behind them anyway, and a prefix would only be copied twice); the thread that reads the
 * peer's CTS calls {@link #startStream}, which appends the rest of the stream to the backlog, where it yields to
 * other frames after every chunk (round robin), so a large message delays other traffic by at most one chunk. A send
 * completes, outside the lock, when its last chunk has been copied out (at the CTS when the receiver takes no more
 * than the prefix).</li>
 * <li><b>Tail.</b> A rendezvous payload in native memory (or in a heap array, through a {@link NativeSocket}) is
 * not copied: its chunk is the staging buffer's tail ({@link OutBuffer}), written from the sender's memory by a
 * gathering write after the staged bytes (for a heap array: the staged bytes and the header, then the payload).
 * While a tail is attached the staging buffer takes no frame (frames queue in the backlog), so the wire order
 * holds; the send whose last chunk is the tail ({@code tailSend}) completes only once the tail is written.</li>
 * <li><b>Cost.</b> One lock per frame, uncontended in the common case; an eager frame and a rendezvous prefix are
 * copied once into the staging buffer (twice when backlogged: to the heap first); the rest of the rendezvous data
 * from a heap array is copied chunk by chunk into the staging buffer where the connection has no
 * {@link NativeSocket}, from native memory not at all.</li>
 * </ul>
 */
final class TcpWriter {
    private final TcpConnection connection;
    private final SocketChannel channel;
    private final TcpIoLoop loop;
    private final int self;
    /** Bytes of a rendezvous message sent with its RTS, at most. */
    private final int rendezvousPrefix;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final OutBuffer out;
    private final ArrayDeque<WriteJob> backlog = new ArrayDeque<>();
    private final ArrayList<Outbound> ioCompleted = new ArrayList<>();
    private final ConcurrentHashMap<Long, StreamedSend> sends = new ConcurrentHashMap<>();
    /** Output is pending (written under the write lock; read without it by waiting threads, see {@link #poll}). */
    private volatile boolean wantWrite;
    private volatile boolean byeQueued;
    private long lastSendId;
    /** The send whose last chunk is the staging buffer's tail: it completes once the tail is written. */
    private StreamedSend tailSend;

    TcpWriter(final TcpConnection connection, final SocketChannel channel, final TcpIoLoop loop, final int self,
        final int stagingBytes, final int rendezvousPrefix, final NativeSocket heapSocket) {
        this.connection = connection;
        this.channel = channel;
        this.loop = loop;
        this.self = self;
        this.rendezvousPrefix = rendezvousPrefix;
        this.out = new OutBuffer(stagingBytes, heapSocket);
    }

    // ------------------------------------------------------------------------------------------------ eager

    /** Sends a message whole; completes {@code m} when its payload has been copied out, or fails it. */
    void sendEager(final Outbound m) {
        final MemorySegment payload = m.payload();
        TuttiException failed;
        writeLock.lock();
        try {
            failed = refusalLocked();
            if (null == failed) {
                failed = writeFrameLocked(FrameDescriptor.EAGER, m.context(), m.tag(), m.typeCode(),
                    payload.byteSize(), 0, 0, payload);
            }
        } finally {
            writeLock.unlock();
        }
        m.sent(failed);
    }

    /**
     * Sends a message whole if it can go into the staging buffer now (nothing queued before it); else does nothing.
     * The caller's thread writes it to the socket, as {@link #sendEager} does.
     *
     * @return true if sent; false if nothing was done (queued frames, no room, or the connection refuses sends:
     *         the caller then sends through {@link #sendEager}, which reports the refusal)
     */
    boolean trySendEagerNow(final int context, final int tag, final int typeCode, final MemorySegment payload) {
        writeLock.lock();
        try {
            return null == refusalLocked() && stagesLocked(payload.byteSize())
                && null == writeStagedLocked(FrameDescriptor.EAGER, context, tag, typeCode, payload.byteSize(), 0, 0,
                payload);
        } finally {
            writeLock.unlock();
        }
    }

    /** Whether a frame of {@code len} payload bytes goes into {@code out} now, in order. */
    private boolean stagesLocked(final long len) {
        return backlog.isEmpty() && out.free() >= FrameDescriptor.HEADER_LENGTH + len;
    }

    /**
     * Sends a frame with its payload copied: into {@code out}, then writes what the socket takes, or, when it does
     * not fit there now, to the heap, queued in the backlog.
     *
     * @param payload the frame's payload, or null for none
     * @return the failure, or null
     */
    private TuttiException writeFrameLocked(final byte type, final int context, final int tag, final int typeCode,
        final long length, final long id, final long id2, final MemorySegment payload) {
        if (stagesLocked(null == payload ? 0 : payload.byteSize())) {
            return writeStagedLocked(type, context, tag, typeCode, length, id, id2, payload);
        }
        backlog.addLast(QueuedFrame.of(type, context, self, tag, typeCode, length, id, id2, payload));
        wantWriteLocked();
        return null;
    }

    /** Appends a frame to {@code out} (it fits: {@link #stagesLocked}) and writes what the socket takes. */
    private TuttiException writeStagedLocked(final byte type, final int context, final int tag, final int typeCode,
        final long length, final long id, final long id2, final MemorySegment payload) {
        final long len = null == payload ? 0 : payload.byteSize();
        final int at = out.reserve(FrameDescriptor.HEADER_LENGTH + (int) len);
        FrameDescriptor.putHeader(out.buffer(), at, type, context, self, tag, typeCode, length, id, id2);
        if (len > 0) {
            SegmentCopy.copy(payload, 0, out.segment(), at + FrameDescriptor.HEADER_LENGTH, len);
        }
        return flushLocked();
    }

    // ------------------------------------------------------------------------------------------------ rendezvous

    /**
     * Announces a large message (RTS) with its first bytes (the prefix, copied now) when the staging buffer takes
     * them now, else alone (frames are queued: the wire is busy, and the round trip hides behind them); the rest is
     * streamed when the receiver answers with a CTS.
     */
    void sendRendezvous(final Outbound m) {
        final MemorySegment payload = m.payload();
        TuttiException failed;
        long id = 0;
        writeLock.lock();
        try {
            failed = refusalLocked();
            if (null == failed) {
                final long most = Math.min(rendezvousPrefix, payload.byteSize());
                final long prefix = stagesLocked(most) ? most : 0;
                id = ++lastSendId;
                sends.put(id, new StreamedSend(id, self, m, prefix));
                failed = writeFrameLocked(FrameDescriptor.RTS, m.context(), m.tag(), m.typeCode(),
                    payload.byteSize(), id, prefix, 0 == prefix ? null : payload.asSlice(0, prefix));
            }
        } finally {
            writeLock.unlock();
        }
        if (null == failed) {
            failed = connection.failure(); // re-check after the insert: see TcpConnection's notes on failure
        }
        if (null != failed && (0 == id || null != sends.remove(id))) {
            m.sent(failed);
        }
    }

    /**
     * Reader: the peer's CTS for {@code sendId} arrived; streams {@code length} bytes to its receive
     * {@code receiveId} (none: the send completes at once).
     *
     * @return false if no send waits for this CTS, or the length exceeds the message (a protocol error)
     */
    boolean startStream(final long sendId, final long receiveId, final long length) {
        final StreamedSend s = sends.get(sendId);
        if (null == s || length > s.messageLength()) {
            return false;
        }
        if (length <= s.prefix) { // the receiver takes no more than the RTS carried
            if (null != sends.remove(sendId)) {
                s.outbound.sent(null);
            }
            return true;
        }
        s.start(receiveId, length);
        writeLock.lock();
        try {
            backlog.addLast(s);
            drainLocked();
        } catch (final IOException e) {
            connection.fail("failed while writing", e);
        } finally {
            writeLock.unlock();
        }
        completeSends();
        return true;
    }

    // ------------------------------------------------------------------------------------------------ control

    /** Queues BYE, the last frame; later sends are refused. */
    void sendBye(final boolean endOfStream) {
        writeLock.lock();
        try {
            if (null == connection.failure() && !endOfStream && !byeQueued) {
                writeFrameLocked(FrameDescriptor.BYE, 0, 0, 0, 0, 0, 0, null);
                byeQueued = true;
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Sends a frame without payload (CTS); returns the refusal or failure, or null. */
    TuttiException sendControl(final byte type, final long length, final long id, final long id2) {
        writeLock.lock();
        try {
            final TuttiException refused = refusalLocked();
            return null != refused ? refused : writeFrameLocked(type, 0, 0, 0, length, id, id2, null);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Writes an ABORT frame if the socket takes it now (best effort: never waits).
     *
     * @param endOfStream whether the peer has closed its side after goodbye
     * @throws IOException if the socket failed
     */
    void writeAbort(final boolean endOfStream) throws IOException {
        writeLock.lock();
        try {
            if (null == connection.failure() && !endOfStream && !byeQueued && backlog.isEmpty()
                && out.free() >= FrameDescriptor.HEADER_LENGTH) {
                FrameDescriptor.putHeader(out.buffer(), out.reserve(FrameDescriptor.HEADER_LENGTH),
                    FrameDescriptor.ABORT, 0, self, 0, 0, 0, 0, 0);
                out.writeTo(channel);
            }
        } finally {
            writeLock.unlock();
        }
    }

    private TuttiException refusalLocked() {
        final TuttiException f = connection.failure();
        if (null != f) {
            return f;
        }
        final boolean byeReceived = connection.byeReceived();
        if (byeQueued || byeReceived) {
            return Failures.unreachable("tcp send", "rank=" + self, "the connection to rank=" + connection.peer
                + " is closing (" + (byeReceived ? "rank " + connection.peer : "this rank") + " said goodbye)");
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ draining

    /** Writes what the socket takes now; leaves the rest to a later poll or the I/O thread. */
    private TuttiException flushLocked() {
        try {
            if (!out.writeTo(channel)) {
                wantWriteLocked();
            }
            return null;
        } catch (final IOException e) {
            return connection.fail("failed while writing", e);
        }
    }

    private void wantWriteLocked() {
        if (!wantWrite) {
            wantWrite = true;
            if (loop.inStandby() && connection.isRouted()) {
                return; // the waiting threads' polls write it; the I/O thread watches again when it resumes
            }
            try {
                connection.key().interestOpsOr(SelectionKey.OP_WRITE);
            } catch (final CancelledKeyException e) {
                connection.fail("was closed while writing", e); // the clean-up fails what is queued
                return;
            }
            if (!loop.inLoopThread()) {
                loop.wakeup();
            }
        }
    }

    /** I/O thread: the socket can take more. */
    void onWritable() throws IOException {
        writeLock.lock();
        try {
            drainLocked();
        } finally {
            writeLock.unlock();
        }
        completeSends();
    }

    /**
     * I/O thread, as it stands by (off) or resumes (on): takes OP_WRITE off, or puts it back if output is pending.
     * Under the lock, so that it orders with {@link #wantWriteLocked} (which reads the standby flag, written before)
     * and with the drain that takes OP_WRITE off when the output is done.
     *
     * @param on whether the I/O thread watches this connection for writing
     */
    void watchWrites(final boolean on) {
        writeLock.lock();
        try {
            if (!on) {
                connection.key().interestOpsAnd(~SelectionKey.OP_WRITE);
            } else if (wantWrite) {
                connection.key().interestOpsOr(SelectionKey.OP_WRITE);
            }
        } catch (final CancelledKeyException e) {
            // failed or ended: the clean-up drops the output
        } finally {
            writeLock.unlock();
        }
    }

    /** @return whether output is pending (a hint, read without the lock) */
    boolean wantsWrite() {
        return wantWrite;
    }

    /**
     * A waiting thread finishes pending output (a rendezvous stream, frames the socket did not take) as far as the
     * socket takes it, unless another thread holds the write lock: the stream of a large message then needs no
     * hand-off to the I/O thread for each staging buffer's worth.
     *
     * @return 1 if bytes went out, else 0 (the socket is full: the peer has not read yet)
     */
    int poll() {
        if (!writeLock.tryLock()) {
            return 0;
        }
        final long before = out.written();
        final long after;
        try {
            if (!wantWrite || null != connection.failure()) {
                return 0;
            }
            drainLocked();
        } catch (final IOException e) {
            connection.fail("failed while writing", e);
        } finally {
            after = out.written();
            writeLock.unlock();
        }
        completeSends();
        return after > before ? 1 : 0;
    }

    /** Under the lock: moves backlog jobs into {@code out} and writes until the socket is full. */
    private void drainLocked() throws IOException {
        while (true) {
            fillLocked();
            if (out.isEmpty()) {
                if (backlog.isEmpty() && wantWrite) {
                    wantWrite = false;
                    connection.key().interestOpsAnd(~SelectionKey.OP_WRITE);
                }
                return;
            }
            final boolean all = out.writeTo(channel);
            if (null != tailSend && !out.hasTail()) {
                completeLocked(tailSend); // its last bytes are in the socket: the sender's memory is free
                tailSend = null;
            }
            if (!all) {
                wantWriteLocked();
                return;
            }
        }
    }

    /** Under the lock: {@code s} is written; its completion runs outside the lock ({@link #completeSends}). */
    private void completeLocked(final StreamedSend s) {
        if (null != sends.remove(s.sendId)) {
            ioCompleted.add(s.outbound);
        }
    }

    private void fillLocked() {
        while (!backlog.isEmpty()) {
            final WriteJob job = backlog.peekFirst();
            final int freeBefore = out.free();
            if (job.fill(out)) {
                backlog.pollFirst();
                if (job instanceof StreamedSend s) {
                    if (out.hasTail()) {
                        tailSend = s; // its last chunk is written from its memory: done once written
                    } else {
                        completeLocked(s);
                    }
                }
            } else if (freeBefore == out.free() || !job.rotates()) {
                return; // no room for the next piece
            } else {
                backlog.addLast(backlog.pollFirst()); // a chunk went out: let other frames through
            }
        }
    }

    /** Completes the rendezvous sends whose last chunk went into {@code out}, outside the write lock. */
    private void completeSends() {
        while (true) {
            final Outbound done;
            writeLock.lock();
            try {
                done = ioCompleted.isEmpty() ? null : ioCompleted.removeLast();
            } finally {
                writeLock.unlock();
            }
            if (null == done) {
                return;
            }
            done.sent(null);
        }
    }

    // ------------------------------------------------------------------------------------------------ state

    /** @return whether this side said goodbye */
    boolean byeQueued() {
        return byeQueued;
    }

    /** @return whether every byte queued has been written */
    boolean isFlushed() {
        writeLock.lock();
        try {
            return out.isEmpty() && backlog.isEmpty();
        } finally {
            writeLock.unlock();
        }
    }

    /** Clean-up: drops every byte not yet written. */
    void clear() {
        writeLock.lock();
        try {
            backlog.clear();
            out.clear();
            tailSend = null;
            wantWrite = false;
        } finally {
            writeLock.unlock();
        }
    }

    /** Clean-up, holding the read token: closes the socket of heap I/O (see {@link NativeSocket}). */
    void closeHeapSocket() {
        writeLock.lock();
        try {
            out.closeHeapSocket();
        } finally {
            writeLock.unlock();
        }
    }

    /** Clean-up: fails every registered send. */
    void failSends(final TuttiException cause) {
        for (final Long id : sends.keySet()) {
            final StreamedSend s = sends.remove(id);
            if (null != s) {
                s.outbound.sent(cause);
            }
        }
    }
}
