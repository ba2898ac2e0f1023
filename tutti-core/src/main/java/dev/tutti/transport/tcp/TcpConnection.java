package dev.tutti.transport.tcp;

import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Outbound;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One authenticated connection to one peer: frames out (any thread) and frames in (the holder of the read token),
 * the eager and rendezvous protocols, and failure.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Writing.</b> Every frame is appended whole to {@code out} (a direct staging buffer) under
 * {@code writeLock}, so frames never interleave and the order of appends is the order on the wire. The caller's
 * thread then writes to the non-blocking socket itself: no thread hop on the send path. Whatever the socket does
 * not take stays in {@code out}, and the I/O thread finishes it on OP_WRITE. If {@code out} lacks room, or the
 * {@code backlog} is not empty (order!), the frame is copied to the heap and appended to the backlog instead; an
 * eager send completes as soon as its payload is copied, either way. Backlog jobs are moved into {@code out} by
 * the I/O thread, and by a thread that reads a CTS (it starts the stream). Invariant (under the lock): if
 * {@code out} or the backlog is non-empty, {@code wantWrite} is set and OP_WRITE is in the key's interest set.
 * Nothing ever blocks while holding the lock.</li>
 * <li><b>Rendezvous.</b> The sender registers a {@link StreamedSend} in {@code sends} and writes an RTS. The
 * receiver's {@link RendezvousInbound#deliver} registers a {@link StreamedReceive} in {@code receives} and writes a
 * CTS saying how many bytes it takes ({@code min(message, destination)}: a truncated message is only sent as far
 * as it fits). The thread that reads the CTS then appends the stream to the backlog, where it yields to other frames
 * after every chunk (round robin), so a huge message delays other traffic by at most one chunk. The payload is
 * read from the sender's segment chunk by chunk and written chunk by chunk into the receiver's destination; the
 * send completes when its last chunk has been copied out, the receive when its last byte arrived. Entries of both
 * maps are completed by whoever removes them (success path or failure path), so exactly once.</li>
 * <li><b>Reading</b> (any thread holding the read token {@code reading}: a waiting thread through {@link #poll},
 * the I/O thread through {@link #onReadable}): a small state machine over the reader's read buffer; a partial
 * header is carried over in {@code carry}, payload bytes are handed on as they come (see {@link EagerInbound}).
 * Every field of the read state ({@code carry}, {@code readState}, {@code payloadLeft}, {@code eager},
 * {@code streaming}) is read and written only under the token, whose CAS and release store order one holder's
 * accesses before the next one's. A holder parses every whole frame it read before it releases the token, so
 * frames from this peer reach the sink in wire order, which is send order, whoever reads. The token is only ever
 * tried on the fast path (a taken token means its holder reads); {@link #cleanUp()} waits for it, since a holder
 * never blocks. Reading in application threads is safe against interrupts: a non-blocking channel's read installs
 * no interrupt hook, so an interrupted reader does not close the socket.</li>
 * <li><b>Failure.</b> {@code failure} is set once (CAS); the channel is closed and the I/O thread runs
 * {@link #cleanUp()} (a reader that sees the failure only records it and stops reading): it fails the partial eager
 * message, every registered send and receive, drops the backlog and
 * tells the sink the peer failed (unless the transport is closing or the peer said goodbye). Sends that start
 * after {@code failure} is set fail at once; registrations re-check {@code failure} after inserting into their map
 * (the volatile write of {@code failure} precedes the map scan of {@code cleanUp}, and the insert precedes the
 * re-check, so every entry is failed by one side or the other).</li>
 * </ul>
 */
final class TcpConnection {
    private static final VarHandle FAILURE;
    private static final VarHandle READING;
    private static final int READ_HEADER = 0;
    private static final int READ_EAGER = 1;
    private static final int READ_DATA = 2;
    /** Largest eager message accepted from a peer: what a byte[] can hold. */
    private static final long MAX_EAGER_BYTES = Integer.MAX_VALUE - 16;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(TcpConnection.class, "failure", TuttiException.class);
            READING = MethodHandles.lookup().findVarHandle(TcpConnection.class, "reading", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int self;
    final int peer;
    private final SocketChannel channel;
    private final String remote;
    private final InboundSink sink;
    private final TcpIoLoop loop;
    private final TcpTransport transport;
    private SelectionKey key;

    private final ReentrantLock writeLock = new ReentrantLock();
    private final OutBuffer out;
    private final ArrayDeque<WriteJob> backlog = new ArrayDeque<>();
    /** Output is pending (written under the write lock; read without it by waiting threads, see {@link #poll}). */
    private volatile boolean wantWrite;
    private long lastSendId;
    private volatile boolean byeQueued;

    private final ConcurrentHashMap<Long, StreamedSend> sends = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, StreamedReceive> receives = new ConcurrentHashMap<>();
    private final AtomicLong lastReceiveId = new AtomicLong();

    /** The read token: 1 while a thread reads this connection (see the class notes). */
    private volatile int reading;
    private final byte[] carry = new byte[FrameDescriptor.HEADER_LENGTH];
    private final ArrayList<Outbound> ioCompleted = new ArrayList<>();
    private int carried;
    private int readState = READ_HEADER;
    private long payloadLeft;
    private EagerInbound eager;
    private StreamedReceive streaming;
    private volatile boolean byeReceived;
    private volatile boolean endOfStream;
    private boolean cleanedUp;

    private volatile TuttiException failure;
    /**
     * Whether the pair's messages go over this connection; false when they go over another transport (shared
     * memory) and this connection only tells when the peer goes away, so that its failure does not name tcp.
     */
    private volatile boolean routed = true;

    TcpConnection(final TcpTransport transport, final int self, final int peer, final SocketChannel channel,
        final InboundSink sink, final TcpIoLoop loop, final int stagingBytes) throws IOException {
        this.transport = transport;
        this.self = self;
        this.peer = peer;
        this.channel = channel;
        this.sink = sink;
        this.loop = loop;
        this.out = new OutBuffer(stagingBytes);
        this.remote = String.valueOf(channel.getRemoteAddress());
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, Boolean.TRUE);
    }

    /** Registers with the I/O loop; called once before the loop starts. */
    void register() throws IOException {
        key = loop.register(channel, this);
    }

    // ------------------------------------------------------------------------------------------------ sending

    /** Sends a message whole; completes {@code m} when its payload has been copied out, or fails it. */
    void sendEager(final Outbound m) {
        final MemorySegment payload = m.payload();
        TuttiException failed;
        writeLock.lock();
        try {
            failed = refusalLocked();
            if (null == failed) {
                if (stagesLocked(payload.byteSize())) {
                    failed = writeEagerLocked(m.context(), m.tag(), m.typeCode(), payload);
                } else {
                    backlog.addLast(QueuedFrame.of(FrameDescriptor.EAGER, m.context(), self, m.tag(), m.typeCode(),
                        payload.byteSize(), 0, 0, payload));
                    wantWriteLocked();
                }
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
                && null == writeEagerLocked(context, tag, typeCode, payload);
        } finally {
            writeLock.unlock();
        }
    }

    /** Whether an eager frame of {@code len} payload bytes goes into {@code out} now, in order. */
    private boolean stagesLocked(final long len) {
        return backlog.isEmpty() && out.free() >= FrameDescriptor.HEADER_LENGTH + len;
    }

    /** Appends an eager frame to {@code out} (it fits: {@link #stagesLocked}) and writes what the socket takes. */
    private TuttiException writeEagerLocked(final int context, final int tag, final int typeCode,
        final MemorySegment payload) {
        final long len = payload.byteSize();
        final int at = out.reserve(FrameDescriptor.HEADER_LENGTH + (int) len);
        FrameDescriptor.putHeader(out.buffer(), at, FrameDescriptor.EAGER, context, self, tag, typeCode, len, 0, 0);
        if (len > 0) {
            SegmentCopy.copy(payload, 0, out.segment(), at + FrameDescriptor.HEADER_LENGTH, len);
        }
        return flushLocked();
    }

    /** Announces a large message (RTS); the payload is streamed when the receiver answers with a CTS. */
    void sendRendezvous(final Outbound m) {
        TuttiException failed;
        long id = 0;
        writeLock.lock();
        try {
            failed = refusalLocked();
            if (null == failed) {
                id = ++lastSendId;
                sends.put(id, new StreamedSend(id, self, m));
                failed = writeControlLocked(FrameDescriptor.RTS, m.context(), m.tag(), m.typeCode(),
                    m.payload().byteSize(), id, 0);
            }
        } finally {
            writeLock.unlock();
        }
        if (null == failed) {
            failed = failure; // re-check after the insert: see the class notes
        }
        if (null != failed && (0 == id || null != sends.remove(id))) {
            m.sent(failed);
        }
    }

    /** The receiver's side of a rendezvous: {@code destination} is ready, ask the sender for the data. */
    void clearToSend(final long sendId, final long messageLength, final MemorySegment destination,
        final Inbound.Delivery done) {
        final TuttiException failedBefore = failure;
        if (null != failedBefore) {
            done.delivered(failedBefore);
            return;
        }
        final long take = Math.min(messageLength, destination.byteSize());
        if (0 == take) {
            // Nothing to move; the CTS only releases the sender. If it cannot be sent, the sender fails anyway.
            sendControl(FrameDescriptor.CTS, 0, sendId, 0);
            done.delivered(null);
            return;
        }
        final long id = lastReceiveId.incrementAndGet();
        receives.put(id, new StreamedReceive(id, destination, take, done));
        TuttiException failed = sendControl(FrameDescriptor.CTS, take, sendId, id);
        if (null == failed) {
            failed = failure; // re-check after the insert: see the class notes
        }
        if (null != failed && null != receives.remove(id)) {
            done.delivered(failed);
        }
    }

    /** Queues BYE, the last frame; later sends are refused. */
    void sendBye() {
        writeLock.lock();
        try {
            if (null == failure && !endOfStream && !byeQueued) {
                writeControlLocked(FrameDescriptor.BYE, 0, 0, 0, 0, 0, 0);
                byeQueued = true;
            }
        } finally {
            writeLock.unlock();
        }
    }

    private TuttiException sendControl(final byte type, final long length, final long id, final long id2) {
        writeLock.lock();
        try {
            final TuttiException refused = refusalLocked();
            return null != refused ? refused : writeControlLocked(type, 0, 0, 0, length, id, id2);
        } finally {
            writeLock.unlock();
        }
    }

    private TuttiException refusalLocked() {
        final TuttiException f = failure;
        if (null != f) {
            return f;
        }
        if (byeQueued || byeReceived) {
            return Failures.unreachable("tcp send", "rank=" + self, "the connection to rank=" + peer
                + " is closing (" + (byeReceived ? "rank " + peer : "this rank") + " said goodbye)");
        }
        return null;
    }

    private TuttiException writeControlLocked(final byte type, final int context, final int tag, final int typeCode,
        final long length, final long id, final long id2) {
        if (backlog.isEmpty() && out.free() >= FrameDescriptor.HEADER_LENGTH) {
            FrameDescriptor.putHeader(out.buffer(), out.reserve(FrameDescriptor.HEADER_LENGTH), type, context, self,
                tag, typeCode, length, id, id2);
            return flushLocked();
        }
        backlog.addLast(QueuedFrame.of(type, context, self, tag, typeCode, length, id, id2, null));
        wantWriteLocked();
        return null;
    }

    /** Writes what the socket takes now; leaves the rest to the I/O thread. */
    private TuttiException flushLocked() {
        try {
            if (!out.writeTo(channel)) {
                wantWriteLocked();
            }
            return null;
        } catch (final IOException e) {
            return fail("failed while writing", e);
        }
    }

    private void wantWriteLocked() {
        if (!wantWrite) {
            wantWrite = true;
            try {
                key.interestOpsOr(SelectionKey.OP_WRITE);
            } catch (final CancelledKeyException e) {
                fail("was closed while writing", e); // the clean-up fails what is queued
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
        if (byeQueued) {
            transport.settled();
        }
    }

    /** Under the lock: moves backlog jobs into {@code out} and writes until the socket is full. */
    private void drainLocked() throws IOException {
        while (true) {
            fillLocked();
            if (out.isEmpty()) {
                if (backlog.isEmpty() && wantWrite) {
                    wantWrite = false;
                    key.interestOpsAnd(~SelectionKey.OP_WRITE);
                }
                return;
            }
            if (!out.writeTo(channel)) {
                wantWriteLocked();
                return;
            }
        }
    }

    private void fillLocked() {
        while (!backlog.isEmpty()) {
            final WriteJob job = backlog.peekFirst();
            final int freeBefore = out.free();
            if (job.fill(out)) {
                backlog.pollFirst();
                if (job instanceof StreamedSend s && null != sends.remove(s.sendId)) {
                    ioCompleted.add(s.outbound);
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

    // ------------------------------------------------------------------------------------------------ receiving

    /**
     * I/O thread: the socket is readable. Reads it unless another thread reads it now (that thread then takes what
     * the socket has).
     *
     * @param in    the I/O thread's read buffer (little-endian)
     * @param inSeg a segment over the whole of {@code in}
     * @throws IOException if the socket failed; the caller fails the connection
     */
    void onReadable(final ByteBuffer in, final MemorySegment inSeg) throws IOException {
        if (!tryAcquireRead()) {
            return;
        }
        try {
            if (readable()) {
                readLocked(in, inSeg);
            }
        } finally {
            releaseRead();
        }
    }

    /**
     * Any thread, while it waits for something: reads what the socket has now and dispatches the frames it
     * completes, unless another thread reads this connection now. Never blocks; a failure fails the connection
     * (the I/O thread cleans up).
     *
     * @param in    the caller's read buffer (little-endian), which it alone uses during this call
     * @param inSeg a segment over the whole of {@code in}
     * @return the bytes read, 0 if none (or another thread reads)
     */
    int poll(final ByteBuffer in, final MemorySegment inSeg) {
        final int written = wantWrite ? pollWrites() : 0;
        if (!tryAcquireRead()) {
            return written;
        }
        try {
            return written + (readable() ? readLocked(in, inSeg) : 0);
        } catch (final IOException | RuntimeException e) {
            fail("failed", e);
            return 1; // the failure is news: the caller's wait looks at it at once
        } finally {
            releaseRead();
        }
    }

    /**
     * A waiting thread finishes pending output (a rendezvous stream, frames the socket did not take) as far as the
     * socket takes it, unless another thread holds the write lock: the stream of a large message then needs no
     * hand-off to the I/O thread for each staging buffer's worth.
     *
     * @return 1 if bytes went out, else 0 (the socket is full: the peer has not read yet)
     */
    private int pollWrites() {
        if (!writeLock.tryLock()) {
            return 0;
        }
        final long before = out.written();
        final long after;
        try {
            if (!wantWrite || null != failure) {
                return 0;
            }
            drainLocked();
        } catch (final IOException e) {
            fail("failed while writing", e);
        } finally {
            after = out.written();
            writeLock.unlock();
        }
        completeSends();
        return after > before ? 1 : 0;
    }

    /** Whether reading may go on: the connection neither failed nor ended (read under the read token). */
    private boolean readable() {
        return null == failure && !endOfStream;
    }

    private boolean tryAcquireRead() {
        return 0 == reading && READING.compareAndSet(this, 0, 1);
    }

    private void releaseRead() {
        READING.setRelease(this, 0); // pairs with the CAS of the next tryAcquireRead: the read state goes with it
    }

    /** Takes the read token, waiting for a holder to finish (it never blocks while it holds the token). */
    private void acquireRead() {
        while (!tryAcquireRead()) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Under the read token: one read from the socket, and the frames it completes. */
    private int readLocked(final ByteBuffer in, final MemorySegment inSeg) throws IOException {
        in.clear();
        final int carriedBefore = carried;
        if (carried > 0) {
            in.put(carry, 0, carried);
            carried = 0;
        }
        final int n = channel.read(in);
        in.flip();
        if (n < 0) {
            onEndOfStream(in.remaining());
            return 1;
        }
        if (0 == n) {
            carried = carriedBefore; // still in carry
            return 0;
        }
        parse(in, inSeg);
        final int left = in.remaining();
        if (left > 0) {
            in.get(carry, 0, left);
            carried = left;
        }
        return n;
    }

    private void parse(final ByteBuffer in, final MemorySegment inSeg) {
        while (true) {
            if (READ_HEADER == readState) {
                if (in.remaining() < FrameDescriptor.HEADER_LENGTH) {
                    return;
                }
                final int at = in.position();
                in.position(at + FrameDescriptor.HEADER_LENGTH);
                onHeader(in, inSeg, at);
            } else {
                final int available = in.remaining();
                if (0 == available) {
                    return;
                }
                final int pos = in.position();
                final long k = Math.min(available, payloadLeft);
                if (READ_EAGER == readState) {
                    eager.accept(inSeg, pos, k);
                } else {
                    streaming.accept(inSeg, pos, k);
                }
                in.position(pos + (int) k);
                payloadLeft -= k;
                if (0 == payloadLeft) {
                    if (READ_DATA == readState) {
                        endOfChunk();
                    }
                    eager = null;
                    readState = READ_HEADER;
                }
            }
        }
    }

    private void onHeader(final ByteBuffer in, final MemorySegment inSeg, final int at) {
        final int type = in.get(at + FrameDescriptor.TYPE_OFFSET) & 0xFF;
        final int source = in.getInt(at + FrameDescriptor.SOURCE_OFFSET);
        final long length = in.getLong(at + FrameDescriptor.LENGTH_OFFSET);
        final long id = in.getLong(at + FrameDescriptor.ID_OFFSET);
        if (source != peer || byeReceived || length < 0) {
            throw protocolError(type, source, length, byeReceived ? "frame after BYE" : "bad source or length");
        }
        switch (type) {
            case FrameDescriptor.EAGER -> {
                if (length > MAX_EAGER_BYTES) {
                    throw protocolError(type, source, length, "eager frame larger than an array");
                }
                final int context = in.getInt(at + FrameDescriptor.CONTEXT_OFFSET);
                final int tag = in.getInt(at + FrameDescriptor.TAG_OFFSET);
                final int typeCode = in.getInt(at + FrameDescriptor.TYPE_CODE_OFFSET);
                final int pos = in.position();
                if (in.remaining() >= length && sink.arriveNow(context, peer, tag, typeCode, inSeg, pos, length)) {
                    in.position(pos + (int) length); // received: copied from the read buffer into the receive
                    return;
                }
                final EagerInbound m = new EagerInbound(context, peer, tag, typeCode, length);
                if (length > 0) {
                    eager = m;
                    payloadLeft = length;
                    readState = READ_EAGER;
                }
                sink.arrive(m);
            }
            case FrameDescriptor.RTS -> sink.arrive(new RendezvousInbound(this,
                in.getInt(at + FrameDescriptor.CONTEXT_OFFSET), peer, in.getInt(at + FrameDescriptor.TAG_OFFSET),
                in.getInt(at + FrameDescriptor.TYPE_CODE_OFFSET), length, id));
            case FrameDescriptor.CTS -> onClearToSend(id, in.getLong(at + FrameDescriptor.ID2_OFFSET), length, type);
            case FrameDescriptor.DATA -> {
                final StreamedReceive r = receives.get(id);
                final long offset = in.getLong(at + FrameDescriptor.ID2_OFFSET);
                if (null == r || offset != r.received() || 0 == length || offset + length > r.length) {
                    throw protocolError(type, source, length, "DATA for receiveId=" + id + " offset=" + offset
                        + " does not continue a registered receive");
                }
                streaming = r;
                payloadLeft = length;
                readState = READ_DATA;
            }
            case FrameDescriptor.BYE -> {
                byeReceived = true;
                sink.peerLeft(peer);
                sendBye(); // the answer: the peer's close need not wait for this rank's program to close
                transport.settled();
            }
            case FrameDescriptor.ABORT -> {
                fail("was aborted by rank " + peer + " (its program failed)", null,
                    "it aborted: its program failed"); // the I/O thread cleans up
                in.position(in.limit()); // the last frame: nothing after it is read
            }
            default -> throw protocolError(type, source, length, "unknown frame type");
        }
    }

    private void onClearToSend(final long sendId, final long receiveId, final long length, final int type) {
        final StreamedSend s = sends.get(sendId);
        if (null == s || length > s.messageLength()) {
            throw protocolError(type, peer, length, "CTS for sendId=" + sendId + " that is not waiting");
        }
        if (0 == length) {
            if (null != sends.remove(sendId)) {
                s.outbound.sent(null);
            }
            return;
        }
        s.start(receiveId, length);
        writeLock.lock();
        try {
            backlog.addLast(s);
            drainLocked();
        } catch (final IOException e) {
            fail("failed while writing", e);
        } finally {
            writeLock.unlock();
        }
        completeSends();
    }

    private void endOfChunk() {
        final StreamedReceive r = streaming;
        streaming = null;
        if (r.received() == r.length && null != receives.remove(r.receiveId)) {
            r.done.delivered(null);
        }
    }

    private void onEndOfStream(final int partialBytes) {
        if (byeReceived && 0 == partialBytes && READ_HEADER == readState) {
            endOfStream = true;
            key.cancel();
            transport.settled();
            return;
        }
        fail(byeReceived ? "was closed in the middle of a frame" : "was closed by the peer without goodbye (BYE)",
            null); // the I/O thread cleans up
    }

    private IllegalStateException protocolError(final int type, final int source, final long length,
        final String what) {
        return Failures.badState("protocol error from rank=" + peer + ": " + what + " (frame type="
            + FrameDescriptor.typeName(type) + ", source=" + source + ", length=" + length + ")");
    }

    // ------------------------------------------------------------------------------------------------ failure

    /**
     * Records that the connection failed (the first cause wins), closes it and has the I/O thread clean up.
     * Any thread.
     *
     * @param what  what happened, e.g. {@code "failed while reading"}
     * @param cause the underlying exception, or null
     * @return the connection's failure
     */
    TuttiException fail(final String what, final Throwable cause) {
        return fail(what, cause, "it left without goodbye");
    }

    /**
     * As {@link #fail(String, Throwable)}, with the words for a peer whose messages do not go over this connection.
     *
     * @param what     what happened to the connection, e.g. {@code "failed while reading"}
     * @param cause    the underlying exception, or null
     * @param unrouted what happened to the peer, e.g. {@code "it left without goodbye"}, when the pair talks over
     *                 another transport; null to say {@code what} anyway (a failure of this rank's own tcp side)
     * @return the connection's failure
     */
    TuttiException fail(final String what, final Throwable cause, final String unrouted) {
        final String how = routed || null == unrouted ? "the tcp connection from rank=" + self + " to rank=" + peer
            + " (" + remote + ") " + what + (null == cause ? "" : ": " + cause)
            : unrouted + " (noticed by rank " + self + ")";
        final TuttiException e = Failures.peerFailed(peer, how, cause);
        if (FAILURE.compareAndSet(this, null, e)) {
            closeChannel(e);
            loop.scheduleCleanUp(this);
            return e;
        }
        return failure;
    }

    /** The pair's messages go over another transport; a failure of this connection then does not name tcp. */
    void unrouted() {
        routed = false;
    }

    /** @return whether the pair's messages go over this connection (waiting threads read it) */
    boolean isRouted() {
        return routed;
    }

    /**
     * I/O thread: whether the selector watches this connection for reading. Off while waiting threads read it
     * themselves (see {@link TcpIoLoop}), so that an arrival does not wake the I/O thread as well.
     *
     * @param on whether to watch for reading
     */
    void readInterest(final boolean on) {
        try {
            if (on) {
                key.interestOpsOr(SelectionKey.OP_READ);
            } else {
                key.interestOpsAnd(~SelectionKey.OP_READ);
            }
        } catch (final CancelledKeyException e) {
            // failed or ended: nothing more to read
        }
    }

    /** Closes the socket; a failure to close is attached to {@code reason}. */
    void closeChannel(final Throwable reason) {
        try {
            channel.close();
        } catch (final IOException e) {
            reason.addSuppressed(e);
        }
    }

    /**
     * Leaves at once without goodbye: writes an ABORT frame if the socket takes it now (best effort: never waits),
     * then closes, so the peer fails this rank with "aborted" rather than with a lost connection; either way it
     * fails it.
     */
    void abort(final TuttiException reason) {
        writeLock.lock();
        try {
            if (null == failure && !endOfStream && !byeQueued && backlog.isEmpty()
                && out.free() >= FrameDescriptor.HEADER_LENGTH) {
                FrameDescriptor.putHeader(out.buffer(), out.reserve(FrameDescriptor.HEADER_LENGTH),
                    FrameDescriptor.ABORT, 0, self, 0, 0, 0, 0, 0);
                out.writeTo(channel);
            }
        } catch (final IOException e) {
            reason.addSuppressed(e);
        } finally {
            writeLock.unlock();
        }
        if (FAILURE.compareAndSet(this, null, reason)) {
            closeChannel(reason);
        }
    }

    /**
     * After a failure (I/O thread, or the closing thread once the I/O thread has stopped): fails everything that
     * waits on this connection and tells the sink, once. With no failure recorded, records {@code closed}.
     */
    void cleanUp(final TuttiException closed) {
        if (null == failure && FAILURE.compareAndSet(this, null, closed)) {
            closeChannel(closed);
        }
        cleanUp();
    }

    void cleanUp() {
        if (cleanedUp) {
            return;
        }
        cleanedUp = true;
        final TuttiException cause = failure;
        key.cancel();
        writeLock.lock();
        try {
            backlog.clear();
            out.clear();
            wantWrite = false;
        } finally {
            writeLock.unlock();
        }
        acquireRead(); // the read state: a thread that reads now finishes first, and no thread reads after
        try {
            if (null != eager) {
                eager.fail(cause);
                eager = null;
            }
            streaming = null;
            readState = READ_HEADER;
        } finally {
            releaseRead();
        }
        for (final Long id : sends.keySet()) {
            final StreamedSend s = sends.remove(id);
            if (null != s) {
                s.outbound.sent(cause);
            }
        }
        for (final Long id : receives.keySet()) {
            final StreamedReceive r = receives.remove(id);
            if (null != r) {
                r.done.delivered(cause);
            }
        }
        if (!transport.isClosing() && !byeReceived) {
            sink.peerFailed(peer, cause);
        }
        transport.settled();
    }

    /** @return true once nothing more will happen on this connection: failed, or goodbyes exchanged and flushed */
    boolean isSettled() {
        if (null != failure || endOfStream) {
            return true;
        }
        if (!byeReceived || !byeQueued) {
            return false;
        }
        writeLock.lock();
        try {
            return out.isEmpty() && backlog.isEmpty();
        } finally {
            writeLock.unlock();
        }
    }

    /** @return the failure, or null */
    TuttiException failure() {
        return failure;
    }

    @Override
    public String toString() {
        return "TcpConnection(rank=" + self + " -> rank=" + peer + ", " + remote + ")";
    }
}
