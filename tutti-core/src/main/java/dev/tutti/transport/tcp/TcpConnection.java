package dev.tutti.transport.tcp;

import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Outbound;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One authenticated connection to one peer: the socket, its write side ({@link TcpWriter}: frames out from any
 * thread, the sender's half of the rendezvous), its read side ({@link TcpReader}: frames in by the holder of the read
 * token, the receiver's half), and failure, which both sides share.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Rendezvous.</b> The sender's writer registers a {@link StreamedSend} and writes an RTS, which carries the
 * message's first bytes (its prefix: they cross while the CTS comes back). The receiver's
 * {@link RendezvousInbound#deliver} comes here ({@link #clearToSend}): its reader registers a
 * {@link StreamedReceive} and its writer sends a CTS saying how many bytes it takes ({@code min(message,
 * destination)}: a truncated message is only sent as far as it fits). The thread that reads the CTS starts the
 * stream of the rest in its writer; the payload is read from the sender's segment chunk by chunk and written chunk
 * by chunk into the receiver's destination; the send completes when its last chunk has been copied out, the
 * receive when its last byte arrived (and its prefix, which the reader fills as an eager payload).</li>
 * <li><b>Failure.</b> {@code failure} is set once (CAS); the channel is closed and the I/O thread runs
 * {@link #cleanUp()} (a reader that sees the failure only records it and stops reading): it drops the output, fails
 * the partial eager message, every registered send and receive, and tells the sink the peer failed (unless the
 * transport is closing or the peer said goodbye). Sends that start after {@code failure} is set fail at once;
 * registrations re-check {@code failure} after inserting into their map (the volatile write of {@code failure}
 * precedes the map scan of {@code cleanUp}, and the insert precedes the re-check, so every entry is failed by one
 * side or the other).</li>
 * <li><b>Threads.</b> This class holds no lock of its own: the writer's lock and the reader's token guard their
 * sides; {@code cleanedUp} is the I/O thread's (or the closing thread's once the I/O thread has stopped).</li>
 * </ul>
 */
final class TcpConnection {
    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(TcpConnection.class, "failure", TuttiException.class);
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
    private final TcpWriter writer;
    private final TcpReader reader;
    /** The socket for heap I/O, or null (see {@link NativeSocket#of}). */
    private final NativeSocket heapSocket;
    private SelectionKey key;
    private boolean cleanedUp;

    private volatile TuttiException failure;
    /**
     * Whether the pair's messages go over this connection; false when they go over another transport (shared
     * memory) and this connection only tells when the peer goes away, so that its failure does not name tcp.
     */
    private volatile boolean routed = true;

    TcpConnection(final TcpTransport transport, final int self, final int peer, final SocketChannel channel,
        final InboundSink sink, final TcpIoLoop loop, final int stagingBytes, final int rendezvousPrefix)
        throws IOException {
        this.transport = transport;
        this.self = self;
        this.peer = peer;
        this.channel = channel;
        this.sink = sink;
        this.loop = loop;
        this.remote = String.valueOf(channel.getRemoteAddress());
        TcpSocketOptions.connected(channel);
        this.heapSocket = NativeSocket.of(channel);
        this.writer = new TcpWriter(this, channel, loop, self, stagingBytes, rendezvousPrefix, heapSocket);
        this.reader = new TcpReader(this, channel, sink, transport, heapSocket);
    }

    /** Registers with the I/O loop; called once before the loop starts. */
    void register() throws IOException {
        key = loop.register(channel, this);
    }

    /** @return the selection key (set by {@link #register} before any traffic) */
    SelectionKey key() {
        return key;
    }

    /** @return the write side */
    TcpWriter writer() {
        return writer;
    }

    // ------------------------------------------------------------------------------------------------ traffic

    /** Sends a message whole; completes {@code m} when its payload has been copied out, or fails it. */
    void sendEager(final Outbound m) {
        writer.sendEager(m);
    }

    /** As {@link TcpWriter#trySendEagerNow}. */
    boolean trySendEagerNow(final int context, final int tag, final int typeCode, final MemorySegment payload) {
        return writer.trySendEagerNow(context, tag, typeCode, payload);
    }

    /** Announces a large message (RTS); the payload is streamed when the receiver answers with a CTS. */
    void sendRendezvous(final Outbound m) {
        writer.sendRendezvous(m);
    }

    /**
     * The receiver's side of a rendezvous: {@code destination} is ready, ask the sender for the data after the
     * {@code prefix} bytes its RTS carried.
     */
    void clearToSend(final long sendId, final long messageLength, final long prefix,
        final MemorySegment destination, final Inbound.Delivery done) {
        final TuttiException failedBefore = failure;
        if (null != failedBefore) {
            done.delivered(failedBefore);
            return;
        }
        final long take = Math.min(messageLength, destination.byteSize());
        if (take <= prefix) {
            // Nothing more to move; the CTS only releases the sender. If it cannot be sent, the sender fails anyway.
            writer.sendControl(FrameDescriptor.CTS, take, sendId, 0);
            done.delivered(null);
            return;
        }
        final long id = reader.expect(destination, take, prefix, done);
        TuttiException failed = writer.sendControl(FrameDescriptor.CTS, take, sendId, id);
        if (null == failed) {
            failed = failure; // re-check after the insert: see the class notes
        }
        if (null != failed && reader.withdraw(id)) {
            done.delivered(failed);
        }
    }

    /** Queues BYE, the last frame; later sends are refused. */
    void sendBye() {
        writer.sendBye(reader.endOfStream());
    }

    /** I/O thread: the socket can take more. */
    void onWritable() throws IOException {
        writer.onWritable();
        if (writer.byeQueued()) {
            transport.settled();
        }
    }

    /**
     * I/O thread: the socket is readable (see {@link TcpReader#onReadable}).
     *
     * @return false if another thread reads it now
     */
    boolean onReadable(final ByteBuffer in, final MemorySegment inSeg) throws IOException {
        return reader.onReadable(in, inSeg);
    }

    /**
     * Any thread, while it waits for something: finishes pending output as far as the socket takes it, then reads
     * what the socket has (see {@link TcpWriter#poll} and {@link TcpReader#poll}). Never blocks.
     *
     * @param in    the caller's read buffer (little-endian), which it alone uses during this call
     * @param inSeg a segment over the whole of {@code in}
     * @return the work done (bytes read, plus one if bytes went out), 0 if none
     */
    int poll(final ByteBuffer in, final MemorySegment inSeg) {
        return flush() + reader.poll(in, inSeg);
    }

    /**
     * Any thread, while it waits for something, for a connection with nothing to read: finishes pending output as
     * far as the socket takes it (see {@link TcpWriter#poll}). Never blocks.
     *
     * @return one if bytes went out, else 0
     */
    int flush() {
        return writer.wantsWrite() ? writer.poll() : 0;
    }

    /** @return the descriptor of this connection's {@link NativeSocket}, or -1 without one */
    int nativeFd() {
        return null == heapSocket ? -1 : heapSocket.fd();
    }

    /** @return whether the peer said goodbye */
    boolean byeReceived() {
        return reader.byeReceived();
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
     * I/O thread: whether the selector watches this connection. Off while waiting threads read and write it
     * themselves (see {@link TcpIoLoop}), so that an arrival, or room in the socket for pending output, does not wake
     * the I/O thread as well.
     *
     * @param on whether to watch for reading, and for writing while output is pending
     */
    void watch(final boolean on) {
        try {
            if (on) {
                key.interestOpsOr(SelectionKey.OP_READ);
            } else {
                key.interestOpsAnd(~SelectionKey.OP_READ);
            }
        } catch (final CancelledKeyException e) {
            return; // failed or ended: nothing more to read or write
        }
        writer.watchWrites(on);
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
        try {
            writer.writeAbort(reader.endOfStream());
        } catch (final IOException e) {
            reason.addSuppressed(e);
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
        writer.clear();
        reader.cleanUp(cause);
        writer.failSends(cause);
        reader.failReceives(cause);
        if (!transport.isClosing() && !reader.byeReceived()) {
            sink.peerFailed(peer, cause);
        }
        transport.settled();
    }

    /** @return true once nothing more will happen on this connection: failed, or goodbyes exchanged and flushed */
    boolean isSettled() {
        if (null != failure || reader.endOfStream()) {
            return true;
        }
        return reader.byeReceived() && writer.byeQueued() && writer.isFlushed();
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
