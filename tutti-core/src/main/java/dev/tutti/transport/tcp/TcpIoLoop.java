package dev.tutti.transport.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The one I/O thread of a process's tcp transport: a selector over every connection. It reads every readable
 * connection (so peers' writes always drain and no distributed deadlock can form through full socket buffers),
 * finishes writes the sending threads left over (OP_WRITE), streams rendezvous data, and cleans up failed
 * connections. It blocks only in {@code select}; everything it calls (the sink, deliveries, the write lock) is
 * short and non-blocking.
 *
 * <p>Implementation notes. The read buffer is shared by all connections (only this thread reads; a partial
 * header is carried per connection), so memory per connection is just its staging buffer. Other threads talk
 * to this one through {@link SelectionKey#interestOpsOr} plus {@link #wakeup()} (a send left bytes over) and
 * through the {@code cleanUps} queue (a sending thread saw the socket fail). A failure inside a connection's
 * handler fails that connection only; a failure of the loop itself fails every connection, so no wait hangs.
 */
final class TcpIoLoop implements Runnable {
    /** Size of the shared read buffer. */
    static final int READ_BUFFER_BYTES = 256 * 1024;

    private final TcpTransport transport;
    private final Selector selector;
    private final ByteBuffer in = ByteBuffer.allocateDirect(READ_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment inSeg = MemorySegment.ofBuffer(in);
    private final ConcurrentLinkedQueue<TcpConnection> cleanUps = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final Consumer<SelectionKey> onKey = this::onKey;
    private volatile boolean running = true;

    TcpIoLoop(final TcpTransport transport, final int rank) throws IOException {
        this.transport = transport;
        this.selector = Selector.open();
        this.thread = Thread.ofPlatform().name("tutti-tcp-io-rank" + rank).daemon(true).unstarted(this);
    }

    SelectionKey register(final SocketChannel channel, final TcpConnection connection)
        throws ClosedChannelException {
        return channel.register(selector, SelectionKey.OP_READ, connection);
    }

    void start() {
        thread.start();
    }

    /** @return the I/O thread (for tests that measure it) */
    Thread thread() {
        return thread;
    }

    boolean inLoopThread() {
        return Thread.currentThread() == thread;
    }

    void wakeup() {
        selector.wakeup();
    }

    /** Any thread: the connection failed; the I/O thread fails what waits on it. */
    void scheduleCleanUp(final TcpConnection c) {
        cleanUps.add(c);
        selector.wakeup();
    }

    /**
     * Stops the thread and closes the selector.
     *
     * @param timeoutMs how long to wait for the thread
     * @return true if the thread ended
     */
    boolean stop(final long timeoutMs) {
        running = false;
        selector.wakeup();
        boolean ended = !thread.isAlive();
        if (!inLoopThread()) {
            try {
                thread.join(TimeUnit.MILLISECONDS.toMillis(timeoutMs));
                ended = !thread.isAlive();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (ended) {
            try {
                selector.close();
            } catch (final IOException e) {
                transport.closeProblem(e);
            }
        }
        return ended;
    }

    @Override
    public void run() {
        try {
            while (running) {
                selector.select(onKey);
                for (TcpConnection c = cleanUps.poll(); null != c; c = cleanUps.poll()) {
                    c.cleanUp();
                }
            }
        } catch (final IOException | RuntimeException e) {
            transport.loopFailed(e);
        } catch (final Error e) {
            transport.loopFailed(e);
            throw e;
        }
    }

    private void onKey(final SelectionKey key) {
        final TcpConnection c = (TcpConnection) key.attachment();
        try {
            if (key.isReadable()) {
                c.onReadable(in, inSeg);
            }
            if (key.isValid() && key.isWritable()) {
                c.onWritable();
            }
        } catch (final IOException | RuntimeException e) {
            c.fail("failed", e);
            c.cleanUp();
        }
    }
}
