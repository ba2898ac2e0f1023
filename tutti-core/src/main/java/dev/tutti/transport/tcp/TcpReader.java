package dev.tutti.transport.tcp;

import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read side of one {@link TcpConnection}: frame parsing, eager payloads into the sink's receives, and the
 * receiver's half of the rendezvous protocol (the registered receives that DATA frames fill).
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Who reads.</b> Any thread holding the read token {@code reading}: a waiting thread through {@link #poll},
 * the I/O thread through {@link #onReadable}. Every field of the read state ({@code carry}, {@code carried},
 * {@code readState}, {@code payloadLeft}, {@code eager}, {@code streaming}, the {@code received} count of every
 * {@link StreamedReceive}) is read and written only under the token, whose CAS and release store order one
 * holder's accesses before the next one's. The token is only ever tried on the fast path (a taken token means its
 * holder reads); {@link #cleanUp} waits for it, since a holder never blocks.</li>
 * <li><b>Order.</b> A holder parses every whole frame it read before it releases the token (a partial header is
 * carried over in {@code carry}), so frames from this peer reach the sink in wire order, which is send order,
 * whoever reads, and no byte read is lost. Payload bytes are handed on as they come (see {@link EagerInbound}).</li>
 * <li><b>Rendezvous.</b> An RTS's prefix (the message's first bytes) is read as an eager payload is, by the
 * message's {@link RendezvousInbound#prefix()}. {@link #expect} registers a {@link StreamedReceive} for the rest in
 * {@code receives} before its CTS is written; DATA frames name it by id. An entry is completed by whoever removes
 * it (the last chunk, or {@link #failReceives}), so exactly once.</li>
 * <li><b>Interrupts.</b> Reading in application threads is safe against interrupts: a non-blocking channel's read
 * installs no interrupt hook, so an interrupted reader does not close the socket.</li>
 * <li><b>Cost.</b> One {@code read} system call per poll that finds bytes; eager payloads are copied once from the
 * reader's buffer into the receive (or into a byte[] of their size when unexpected), rendezvous chunks once into a
 * heap destination without a {@link NativeSocket}; a native destination (and a heap one with it) is read into by
 * the socket itself ({@link #readDirect}), the chunk's header by a read of its own.</li>
 * </ul>
 */
final class TcpReader {
    private static final VarHandle READING;
    private static final int READ_HEADER = 0;
    private static final int READ_EAGER = 1;
    private static final int READ_DATA = 2;
    /** Largest eager message accepted from a peer: what a byte[] can hold. */
    private static final long MAX_EAGER_BYTES = Integer.MAX_VALUE - 16;

    static {
        try {
            READING = MethodHandles.lookup().findVarHandle(TcpReader.class, "reading", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final TcpConnection connection;
    private final SocketChannel channel;
    private final InboundSink sink;
    private final TcpTransport transport;
    private final int peer;
    private final ConcurrentHashMap<Long, StreamedReceive> receives = new ConcurrentHashMap<>();
    private final AtomicLong lastReceiveId = new AtomicLong();
    /** Reads rendezvous data straight into heap destinations; null: they are filled from the read buffer. */
    private final NativeSocket heapSocket;

    /** The read token: 1 while a thread reads this connection (see the class notes). */
    private volatile int reading;
    private final byte[] carry = new byte[FrameDescriptor.HEADER_LENGTH];
    private int carried;
    private int readState = READ_HEADER;
    private long payloadLeft;
    private EagerInbound eager;
    private StreamedReceive streaming;
    /**
     * The last DATA frame's receive if it reads straight into native memory: while it expects more, a read in the
     * header state takes only a header, so that the next chunk's payload is read direct too, not through {@code in}
     * (an eager payload between two chunks is read whole, as ever).
     */
    private StreamedReceive stream;
    private volatile boolean byeReceived;
    private volatile boolean endOfStream;

    TcpReader(final TcpConnection connection, final SocketChannel channel, final InboundSink sink,
        final TcpTransport transport, final NativeSocket heapSocket) {
        this.heapSocket = heapSocket;
        this.connection = connection;
        this.channel = channel;
        this.sink = sink;
        this.transport = transport;
        this.peer = connection.peer;
    }

    /**
     * I/O thread: the socket is readable. Reads it unless another thread reads it now (that thread then takes what
     * the socket has).
     *
     * @param in    the I/O thread's read buffer (little-endian)
     * @param inSeg a segment over the whole of {@code in}
     * @return false if another thread reads now (the socket may stay readable until it is done)
     * @throws IOException if the socket failed; the caller fails the connection
     */
    boolean onReadable(final ByteBuffer in, final MemorySegment inSeg) throws IOException {
        if (!tryAcquireRead()) {
            return false;
        }
        try {
            if (readable()) {
                readLocked(in, inSeg);
            }
            return true;
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
     * @return the bytes read, 0 if none (or another thread reads); 1 if the connection failed (news for the caller)
     */
    int poll(final ByteBuffer in, final MemorySegment inSeg) {
        if (!tryAcquireRead()) {
            return 0;
        }
        try {
            return readable() ? readLocked(in, inSeg) : 0;
        } catch (final IOException | RuntimeException e) {
            connection.fail("failed", e);
            return 1; // the failure is news: the caller's wait looks at it at once
        } finally {
            releaseRead();
        }
    }

    /**
     * Registers the destination of a rendezvous receive before its CTS is sent.
     *
     * @param destination where the data goes
     * @param take        bytes to take, at most the destination's size
     * @param prefix      bytes the RTS carried (the stream's first offset), less than {@code take}
     * @param done        told once the last byte arrived, or the connection failed
     * @return the receive id to name in the CTS
     */
    long expect(final MemorySegment destination, final long take, final long prefix, final Inbound.Delivery done) {
        final long id = lastReceiveId.incrementAndGet();
        receives.put(id, new StreamedReceive(id, destination, take, prefix, done));
        return id;
    }

    /**
     * Withdraws a receive registered by {@link #expect} (its CTS could not be sent).
     *
     * @return true if the caller now owns its completion
     */
    boolean withdraw(final long id) {
        return null != receives.remove(id);
    }

    /** @return whether the peer said goodbye */
    boolean byeReceived() {
        return byeReceived;
    }

    /** @return whether the peer closed its side after goodbye */
    boolean endOfStream() {
        return endOfStream;
    }

    /** Whether reading may go on: the connection neither failed nor ended (read under the read token). */
    private boolean readable() {
        return null == connection.failure() && !endOfStream;
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
        if (READ_DATA == readState && streaming.direct(heapSocket)) {
            return readDirect();
        }
        in.clear();
        if (READ_HEADER == readState && null != stream && stream.received() < stream.length) {
            in.limit(FrameDescriptor.HEADER_LENGTH); // likely the stream's next DATA header: its payload goes direct
        }
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

    /**
     * Under the read token, inside a DATA frame for a native destination (or a heap one, through the
     * {@link NativeSocket}): the socket reads straight into it, at most to the end of the frame.
     */
    private int readDirect() throws IOException {
        final StreamedReceive r = streaming;
        final int n = r.readFrom(channel, heapSocket, payloadLeft);
        if (n < 0) {
            onEndOfStream(0); // in the middle of a frame: a failure
            return 1;
        }
        if (n > 0) {
            payloadLeft -= n;
            if (0 == payloadLeft) {
                endOfChunk();
                readState = READ_HEADER;
            }
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
            case FrameDescriptor.RTS -> {
                final long prefix = in.getLong(at + FrameDescriptor.ID2_OFFSET);
                if (prefix < 0 || prefix > length || prefix > MAX_EAGER_BYTES) {
                    throw protocolError(type, source, length, "RTS with prefix=" + prefix + " outside the message");
                }
                final RendezvousInbound m = new RendezvousInbound(connection,
                    in.getInt(at + FrameDescriptor.CONTEXT_OFFSET), peer, in.getInt(at + FrameDescriptor.TAG_OFFSET),
                    in.getInt(at + FrameDescriptor.TYPE_CODE_OFFSET), length, id, prefix);
                if (prefix > 0) {
                    eager = m.prefix(); // read like an eager payload: into the receive once it is named
                    payloadLeft = prefix;
                    readState = READ_EAGER;
                }
                sink.arrive(m);
            }
            case FrameDescriptor.CTS -> {
                if (!connection.writer().startStream(id, in.getLong(at + FrameDescriptor.ID2_OFFSET), length)) {
                    throw protocolError(type, peer, length, "CTS for sendId=" + id + " that is not waiting");
                }
            }
            case FrameDescriptor.DATA -> {
                final StreamedReceive r = receives.get(id);
                final long offset = in.getLong(at + FrameDescriptor.ID2_OFFSET);
                if (null == r || offset != r.received() || 0 == length || offset + length > r.length) {
                    throw protocolError(type, source, length, "DATA for receiveId=" + id + " offset=" + offset
                        + " does not continue a registered receive");
                }
                streaming = r;
                stream = r.direct(heapSocket) ? r : null;
                payloadLeft = length;
                readState = READ_DATA;
            }
            case FrameDescriptor.BYE -> {
                byeReceived = true;
                sink.peerLeft(peer);
                connection.sendBye(); // the answer: the peer's close need not wait for this rank's program to close
                transport.settled();
            }
            case FrameDescriptor.ABORT -> {
                connection.fail("was aborted by rank " + peer + " (its program failed)", null,
                    "it aborted: its program failed"); // the I/O thread cleans up
                in.position(in.limit()); // the last frame: nothing after it is read
            }
            default -> throw protocolError(type, source, length, "unknown frame type");
        }
    }

    private void endOfChunk() {
        final StreamedReceive r = streaming;
        streaming = null;
        if (r.received() == r.length) {
            stream = null;
            if (null != receives.remove(r.receiveId)) {
                r.done.delivered(null);
            }
        }
    }

    private void onEndOfStream(final int partialBytes) {
        if (byeReceived && 0 == partialBytes && READ_HEADER == readState) {
            endOfStream = true;
            connection.key().cancel();
            transport.settled();
            return;
        }
        connection.fail(byeReceived ? "was closed in the middle of a frame"
            : "was closed by the peer without goodbye (BYE)", null); // the I/O thread cleans up
    }

    private IllegalStateException protocolError(final int type, final int source, final long length,
        final String what) {
        return Failures.badState("protocol error from rank=" + peer + ": " + what + " (frame type="
            + FrameDescriptor.typeName(type) + ", source=" + source + ", length=" + length + ")");
    }

    /**
     * Clean-up, after a failure: waits for a thread that reads now (no thread reads after, since the failure is
     * set), fails the partial eager message and drops the read state.
     */
    void cleanUp(final TuttiException cause) {
        acquireRead();
        try {
            connection.writer().closeHeapSocket(); // under both: no thread reads or writes through it after this
            if (null != eager) {
                eager.fail(cause);
                eager = null;
            }
            streaming = null;
            stream = null;
            readState = READ_HEADER;
        } finally {
            releaseRead();
        }
    }

    /** Clean-up: fails every registered receive. */
    void failReceives(final TuttiException cause) {
        for (final Long id : receives.keySet()) {
            final StreamedReceive r = receives.remove(id);
            if (null != r) {
                r.done.delivered(cause);
            }
        }
    }
}
