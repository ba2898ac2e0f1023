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
import java.util.concurrent.locks.LockSupport;
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
 * they do so, this thread stands by: it takes OP_READ off the routed connections, so that an arrival wakes no second
 * thread (on a machine with as many busy threads as cores, a second thread woken per message takes the core of a
 * rank, and reads the message first as often as not, a hand-off), and selects with a timeout of
 * {@value #STANDBY_TICK_MS} ms, after which it counts again. "While they do so" is counted by the transport as busy
 * polls: +1 for a poll of a thread that keeps waiting (spins or yields), -1 for one about to park (a parking waiter
 * makes one of each per park, which cancel out). It stands by once {@value #MIN_BUSY_POLLS} busy polls were made
 * since it last looked (a polling thread that sees them while this thread reads wakes it, once:
 * {@link #waiterPolls}, so this does not wait for an arrival, which a spinning waiter may read first), and stays so
 * while every tick has as many; it resumes reading when a tick has fewer (the waits ended, or the waiting threads
 * are descheduled), and at once when a waiting thread is about to park ({@link #waiterParks()}): a parked thread is
 * then woken by this thread's read, not after its park. Only this thread changes OP_READ, so the interest set
 * follows its decisions; OP_WRITE is also set by the writers, but not on
 * a routed connection while this thread stands by ({@link TcpWriter}, under its write lock, against this thread's
 * {@code watchWrites} under the same lock); connections that carry no messages (their
 * peer is reached through shared memory) are always read here, since no waiting thread reads them. Cost of a
 * change: an {@code epoll_ctl} per routed connection, and one wake-up of this thread.</li>
 * <li><b>Buffers.</b> This thread's read buffer is its own (waiting threads use the transport's); a partial
 * header is carried per connection, so memory per connection is its staging buffer. Other threads talk to this one
 * through {@link SelectionKey#interestOpsOr} plus {@link #wakeup()} (a send left bytes over), through the
 * {@code cleanUps} queue (a thread saw a connection fail), and through {@code parkSignal}.</li>
 * <li><b>Busy reader.</b> A readable connection whose read token another thread holds is skipped (that thread reads
 * it); the socket then stays readable, so a select right after would return at once, again and again, while the
 * holder (perhaps descheduled) finishes: this thread pauses {@value #READER_BUSY_PAUSE_NS} ns after such a select
 * instead, a {@code parkNanos} that a {@link #wakeup()} does not cut short but the next select then sees.</li>
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
     * Busy polls (net of the parking ones) that show a thread waiting on the sockets, since this thread last looked,
     * and in every standby tick: a spinning or yielding waiter polls hundreds of times a millisecond, a thread that
     * tests a request now and then between computations a few times.
     */
    static final long MIN_BUSY_POLLS = 16;
    /**
     * How long this thread pauses after a select that found a readable connection being read by another thread:
     * about the kernel's timer slack, long enough for the holder to finish its read and parse, short against the
     * standby tick.
     */
    static final long READER_BUSY_PAUSE_NS = 20_000;
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
    /** Set by a polling thread once the busy polls reach {@code signalAt} while this thread reads; cleared by it. */
    private volatile boolean pollSignal;
    /** The busy polls at which a polling thread wakes this one (written by this thread as it counts). */
    private volatile long signalAt = MIN_BUSY_POLLS;
    /** A readable connection was being read by another thread in this select (this thread only). */
    private boolean readerBusy;
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

    /**
     * A waiting thread polled (it keeps waiting): if this thread reads and the busy polls since it last counted
     * show a waiter, it is woken to stand by now rather than at the next arrival, which the waiter may read first.
     *
     * @param busyPolls the transport's busy polls, this poll included
     */
    void waiterPolls(final long busyPolls) {
        if (busyPolls >= signalAt && !standby && !pollSignal) {
            pollSignal = true;
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
                if (readerBusy) {
                    // A waiting thread held a readable connection's read token: the socket stays readable until it
                    // is done, so selecting again at once would spin, on a core the token's holder may need.
                    readerBusy = false;
                    LockSupport.parkNanos(READER_BUSY_PAUSE_NS);
                }
            }
        } catch (final IOException | RuntimeException e) {
            transport.loopFailed(e);
        } catch (final Error e) {
            transport.loopFailed(e);
            throw e;
        }
    }

    /**
     * Stands by once waiting threads poll, for as long as every tick has {@value #MIN_BUSY_POLLS} busy polls;
     * resumes when a tick has fewer or a waiting thread parks. The change of OP_READ takes effect at the next select,
     * which this thread makes.
     */
    private void decideStandby() {
        final long now = System.nanoTime();
        final boolean parking = parkSignal;
        final boolean tickOver = now - countedAtNs >= TICK_NS;
        final long polls = transport.busyPolls();
        final boolean busy;
        if (parking) {
            busy = false;
        } else if (standby) {
            if (!tickOver) {
                return; // woken early (a write, a clean-up): the tick decides
            }
            busy = polls - pollsSeen >= MIN_BUSY_POLLS;
        } else {
            busy = !tickOver && polls - pollsSeen >= MIN_BUSY_POLLS; // polls spread over more than a tick: no waiter
            if (!busy && !tickOver) {
                return; // too few to tell yet: an arrival, a write or a clean-up woke this thread
            }
        }
        parkSignal = false;
        pollSignal = false;
        pollsSeen = polls;
        signalAt = polls + MIN_BUSY_POLLS;
        countedAtNs = now;
        if (busy != standby) {
            standby = busy;
            transport.watch(!busy);
        }
    }

    private void onKey(final SelectionKey key) {
        final TcpConnection c = (TcpConnection) key.attachment();
        try {
            if (key.isReadable() && !c.onReadable(in, inSeg)) {
                readerBusy = true;
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
