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
 * connection that no waiting thread reads (so peers' writes always drain and no distributed deadlock can form through
 * full socket buffers), finishes writes the sending threads left over (OP_WRITE), streams rendezvous data, and cleans
 * up failed connections. It blocks only in {@code select}; everything it calls (the sink, deliveries, the write lock)
 * is short and non-blocking.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>Standby.</b> Threads that wait for a message read the sockets themselves ({@link TcpTransport#poll}). While
 * they do so often (at least {@value #BUSY_POLLS_PER_MS} polls a millisecond, and {@value #MIN_BUSY_POLLS} since
 * this thread last looked, counted by the transport), this thread stands by: it takes OP_READ off the routed connections, so that an arrival wakes no second thread, and selects
 * with a timeout of {@value #STANDBY_TICK_MS} ms, after which it counts again. It resumes reading when the polls
 * stop or become rare (waiting threads that park poll once per park), and at once when a waiting thread is about to
 * park ({@link #waiterParks()}): a parked thread is then woken by this thread's read, not after its park. Only this
 * thread changes OP_READ, so the interest set follows its decisions; OP_WRITE is also set by the writers, but not on
 * a routed connection while this thread stands by ({@link TcpWriter}, under its write lock, against this thread's
 * {@code watchWrites} under the same lock); connections that carry no messages (their
 * peer is reached through shared memory) are always read here, since no waiting thread reads them.</li>
 * <li><b>Buffers.</b> This thread's read buffer is its own (waiting threads use the transport's); a partial
 * header is carried per connection, so memory per connection is its staging buffer. Other threads talk to this one
 * through {@link SelectionKey#interestOpsOr} plus {@link #wakeup()} (a send left bytes over), through the
 * {@code cleanUps} queue (a thread saw a connection fail), and through {@code parkSignal}.</li>
 * <li><b>Failure.</b> A failure inside a connection's handler fails that connection only; a failure of the loop
 * itself fails every connection, so no wait hangs.</li>
 * </ul>
 */
final class TcpIoLoop implements Runnable {
    /** Size of a read buffer (this thread's, and the waiting threads' one). */
    static final int READ_BUFFER_BYTES = 256 * 1024;
    /** How long a standby select lasts before the polls are counted again. */
    static final long STANDBY_TICK_MS = 1;
    /**
     * Polls per millisecond from which the waiting threads count as reading the sockets: a thread that spins or
     * yields polls hundreds of times a millisecond; one that parks, at most once per park, and a park lasts at least
     * the kernel's timer slack (50 microseconds).
     */
    static final long BUSY_POLLS_PER_MS = 64;
    /**
     * Polls that show a thread spinning on the sockets when this thread wakes sooner than a tick (an arrival woke
     * it): it then stands by at once rather than after a tick of racing the poller for every message.
     */
    static final long MIN_BUSY_POLLS = 16;
    private static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(STANDBY_TICK_MS);

    private final TcpTransport transport;
    private final Selector selector;
    private final ByteBuffer in = ByteBuffer.allocateDirect(READ_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment inSeg = MemorySegment.ofBuffer(in);
    private final ConcurrentLinkedQueue<TcpConnection> cleanUps = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final Consumer<SelectionKey> onKey = this::onKey;
    private volatile boolean running = true;
    /** Whether this thread stands by (written by this thread only; read by waiting threads). */
    private volatile boolean standby;
    /** Set by a waiting thread about to park while this thread stands by; cleared by this thread. */
    private volatile boolean parkSignal;
    private long pollsSeen;
    private long countedAtNs = System.nanoTime();

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

    /**
     * A waiting thread is about to park: if this thread stands by, it resumes reading now, so that the arrival the
     * parked thread waits for wakes it at once.
     */
    void waiterParks() {
        if (standby && !parkSignal) {
            parkSignal = true;
            selector.wakeup();
        }
    }

    /** @return whether this thread stands by (writers then leave pending output to the waiting threads' polls) */
    boolean inStandby() {
        return standby;
    }

    @Override
    public void run() {
        try {
            while (running) {
                if (standby) {
                    selector.select(onKey, STANDBY_TICK_MS);
                } else {
                    selector.select(onKey);
                }
                for (TcpConnection c = cleanUps.poll(); null != c; c = cleanUps.poll()) {
                    c.cleanUp();
                }
                decideStandby();
            }
        } catch (final IOException | RuntimeException e) {
            transport.loopFailed(e);
        } catch (final Error e) {
            transport.loopFailed(e);
            throw e;
        }
    }

    /**
     * Stands by while waiting threads poll often, resumes when they stop or one of them parks; the change of
     * OP_READ takes effect at the next select, which this thread makes.
     */
    private void decideStandby() {
        final long now = System.nanoTime();
        final long elapsed = now - countedAtNs;
        final boolean parking = parkSignal;
        final long polls = transport.polls();
        final long counted = polls - pollsSeen;
        if (!parking && elapsed < TICK_NS && counted < MIN_BUSY_POLLS) {
            return; // too few to tell yet: a write, a clean-up or the first arrival woke this thread
        }
        boolean busy = counted >= MIN_BUSY_POLLS && counted * TICK_NS >= BUSY_POLLS_PER_MS * elapsed;
        if (parking) {
            parkSignal = false;
            busy = false;
        }
        pollsSeen = polls;
        countedAtNs = now;
        if (busy != standby) {
            standby = busy;
            transport.watch(!busy);
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
