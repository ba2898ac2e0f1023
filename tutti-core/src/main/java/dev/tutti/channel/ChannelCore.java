package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.TuttiException;
import dev.tutti.channel.ChannelBuffer.Side;
import dev.tutti.channel.ChannelBuffer.State;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The running part of a channel on one rank: its two buffer rings, the exchanges in flight, and the statistics.
 *
 * <p>Implementation notes. Exchange <i>k</i> is the <i>k</i>-th nonblocking alltoall on the channel's private
 * communicator (a duplicate made at creation, so the channel's messages have their own context and never meet the
 * parent communicator's collectives, whatever order ranks interleave them in); submits are serialized
 * ({@code submitLock}), so the <i>k</i>-th submit starts the <i>k</i>-th alltoall and the collective call order on
 * the private communicator is the exchange order on every rank. An exchange holds one send buffer and one receive
 * buffer from its start until it completes; the receive buffer then stays the channel's (FULL) until the
 * application takes it and releases it. A submit therefore needs a FREE receive buffer, and waits for a release
 * when there is none (back-pressure: nothing is received into a buffer the application holds or has not read).
 * {@code ring} is the FIFO of exchanges that hold a receive buffer not yet taken, in exchange order (at most
 * {@code depth}, one per receive buffer); receive buffers are handed out in that order even when a later exchange
 * completes first.
 *
 * <p>Progress: Tutti advances a nonblocking collective whenever a thread of the rank waits. A channel operation
 * that must wait (for a send buffer, a filled receive buffer, or a release) either becomes the one thread that
 * waits on the oldest incomplete exchange's request ({@code waiter}, so that a request has one waiter at a time),
 * with the state lock released, or, when another thread already is, waits on {@code changed}; both in slices of
 * {@link #POLL_NS}, so that close and failure are seen promptly. Every state change signals {@code changed}. A
 * failed exchange (a peer that died, a mismatch) fails the channel: every waiting and later operation throws,
 * naming the channel and, through the cause, the rank.
 *
 * <p>Allocation: buffers, their block views and the exchange records are made at creation; a steady exchange
 * allocates only what one nonblocking alltoall of a cached schedule allocates.
 */
final class ChannelCore {
    /** Longest a channel operation waits before it looks at close and failure again. */
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(5);

    /** One exchange holding a receive buffer. */
    private static final class Exchange {
        long number;
        ChannelBuffer send;
        ChannelBuffer recv;
        Request request;
        long startNs;
        long releaseNs;
        boolean done;
    }

    private final String name;
    private final String where;
    private final Comm comm;
    private final ChannelQos qos;
    private final boolean sendEmpty;
    private final boolean recvEmpty;
    private final long sendBytes;
    private final long recvBytes;
    private final ChannelBuffer[] sends;
    private final ChannelBuffer[] recvs;
    private final Exchange[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ReentrantLock waiter = new ReentrantLock();
    private final ReentrantLock submitLock = new ReentrantLock();
    private final LatencyHistogram latency = new LatencyHistogram();
    private final Runnable onClose;
    private long t0;
    private int head;
    private int count;
    private long next;
    private boolean closed;
    private TuttiException failure;
    private long exchanges;
    private long misses;
    private long abandoned;

    /**
     * @param comm       the channel's private communicator
     * @param sendRanks  blocks per send buffer
     * @param sendBlock  elements per send block (0: this side sends nothing)
     * @param recvRanks  blocks per receive buffer
     * @param recvBlock  elements per receive block (0: this side receives nothing)
     */
    ChannelCore(final String name, final String where, final Comm comm, final Datatype type, final int sendRanks,
        final int sendBlock, final int recvRanks, final int recvBlock, final int depth, final ChannelQos qos,
        final Runnable onClose) {
        this.name = name;
        this.where = where;
        this.comm = comm;
        this.qos = qos;
        this.onClose = onClose;
        this.sendEmpty = 0 == sendBlock;
        this.recvEmpty = 0 == recvBlock;
        this.sendBytes = (long) sendRanks * sendBlock * type.sizeBytes();
        this.recvBytes = (long) recvRanks * recvBlock * type.sizeBytes();
        this.sends = new ChannelBuffer[depth];
        this.recvs = new ChannelBuffer[depth];
        this.ring = new Exchange[depth];
        for (int i = 0; i < depth; i++) {
            sends[i] = new ChannelBuffer(this, Side.SEND, type, sendRanks, sendBlock);
            recvs[i] = new ChannelBuffer(this, Side.RECEIVE, type, recvRanks, recvBlock);
            ring[i] = new Exchange();
        }
        this.t0 = System.nanoTime();
    }

    /** Sets the clock's origin (time-driven QoS); called once creation has synchronized the ranks. */
    void startClock() {
        lock.lock();
        try {
            t0 = System.nanoTime();
        } finally {
            lock.unlock();
        }
    }

    /** @return the clock's origin ({@link System#nanoTime()}): exchange k's release time is this + k * period */
    long clockOrigin() {
        lock.lock();
        try {
            return t0;
        } finally {
            lock.unlock();
        }
    }

    String where() {
        return where;
    }

    String name() {
        return name;
    }

    // ------------------------------------------------------------------------------------------- operations

    ChannelBuffer takeSend(final String op, final long timeoutNs) {
        lock.lock();
        try {
            final long deadline = deadline(timeoutNs);
            boolean more = true;
            while (true) {
                checkUsable(op);
                final ChannelBuffer b = find(sends, State.FREE);
                if (null != b) {
                    b.state(State.TAKEN);
                    return b;
                }
                if (!more) {
                    return null;
                }
                more = progress(op, deadline);
            }
        } finally {
            lock.unlock();
        }
    }

    boolean submit(final String op, final ChannelBuffer b, final boolean wait) {
        checkOwn(op, b, Side.SEND);
        submitLock.lock();
        lock.lock();
        try {
            checkUsable(op);
            if (State.TAKEN != b.state()) {
                throw Errors.invalid(ErrorClass.BUFFER, op, where, "the send buffer is " + b.state()
                    + ", expected one taken by takeSend and not yet submitted (submitted twice?)");
            }
            final long deadline = deadline(wait ? -1 : 0);
            if (ChannelQos.Kind.TIME_DRIVEN == qos.kind()) {
                final long release = t0 + next * qos.periodNanos();
                while (System.nanoTime() - release < 0) {
                    if (!wait) {
                        return false;
                    }
                    awaitChange(op, release - System.nanoTime());
                    checkUsable(op);
                }
            }
            boolean more = true;
            while (true) {
                final ChannelBuffer r = find(recvs, State.FREE);
                if (null != r) {
                    start(op, b, r);
                    return true;
                }
                if (!more) {
                    return false;
                }
                more = progress(op, deadline);
                checkUsable(op);
            }
        } finally {
            lock.unlock();
            submitLock.unlock();
        }
    }

    ChannelBuffer takeReceive(final String op, final long timeoutNs) {
        lock.lock();
        try {
            final long deadline = deadline(timeoutNs);
            boolean more = true;
            while (true) {
                checkUsable(op);
                if (count > 0 && ring[head].done) {
                    final Exchange e = ring[head];
                    head = (head + 1) % ring.length;
                    count--;
                    final ChannelBuffer r = e.recv;
                    r.state(State.TAKEN);
                    e.send = null;
                    e.recv = null;
                    e.request = null;
                    return r;
                }
                if (!more) {
                    return null;
                }
                more = progress(op, deadline);
            }
        } finally {
            lock.unlock();
        }
    }

    void release(final String op, final ChannelBuffer b) {
        checkOwn(op, b, Side.RECEIVE);
        lock.lock();
        try {
            checkUsable(op);
            if (State.TAKEN != b.state()) {
                throw Errors.invalid(ErrorClass.BUFFER, op, where, "the receive buffer is " + b.state()
                    + ", expected one taken by takeReceive and not yet released (released twice?)");
            }
            b.state(State.FREE);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    ChannelStats stats() {
        lock.lock();
        try {
            return new ChannelStats(name, exchanges, exchanges * sendBytes, exchanges * recvBytes, misses, abandoned,
                latency.copy());
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes: no new operation is accepted (waiting ones throw), exchanges already started are waited for up to
     * {@code drainNs} (they complete once every rank has submitted them), and what is still in flight then is
     * abandoned and counted; the private communicator is freed only when nothing is in flight.
     */
    void close(final long drainNs) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            changed.signalAll();
            final long deadline = deadline(drainNs);
            while (null == failure && null != oldestPending() && progress("close", deadline)) {
                pollRest();
            }
            long left = 0;
            for (int i = 0; i < count; i++) {
                if (!ring[(head + i) % ring.length].done) {
                    left++;
                }
            }
            abandoned = left;
            for (int i = 0; i < sends.length; i++) {
                sends[i].state(State.CLOSED);
                recvs[i].state(State.CLOSED);
            }
            if (0 == left && null == failure) {
                comm.free();
            }
        } finally {
            lock.unlock();
            onClose.run();
        }
    }

    // ------------------------------------------------------------------------------------------- internals

    private void start(final String op, final ChannelBuffer b, final ChannelBuffer r) {
        final Exchange e = ring[(head + count) % ring.length];
        count++;
        e.number = next++;
        e.send = b;
        e.recv = r;
        e.done = false;
        e.startNs = System.nanoTime();
        e.releaseNs = ChannelQos.Kind.TIME_DRIVEN == qos.kind() ? t0 + e.number * qos.periodNanos() : e.startNs;
        b.state(State.IN_FLIGHT);
        b.exchange(e.number);
        r.state(State.IN_FLIGHT);
        r.exchange(e.number);
        try {
            e.request = comm.ialltoall(sendEmpty ? null : b.raw(), recvEmpty ? null : r.raw());
        } catch (final TuttiException x) {
            fail(e, x);
            checkUsable(op);
        }
        changed.signalAll();
    }

    /**
     * Makes progress for a waiting operation (holding {@code lock}): waits on the oldest incomplete exchange, or
     * for a change, for at most one poll slice.
     *
     * @return false if {@code deadline} has passed (after one last non-blocking look at the exchanges, so that the
     *         caller looks once more)
     */
    private boolean progress(final String op, final long deadline) {
        final long left = deadline - System.nanoTime();
        if (left <= 0) {
            pollRest();
            return false;
        }
        final long slice = Math.min(POLL_NS, left);
        final Exchange e = oldestPending();
        if (null != e && waiter.tryLock()) {
            final long number = e.number;
            final Request request = e.request;
            lock.unlock();
            TuttiException failed = null;
            boolean done = false;
            try {
                done = null != request.waitFor(slice, TimeUnit.NANOSECONDS);
            } catch (final TuttiException x) {
                failed = x;
            } finally {
                waiter.unlock();
                lock.lock();
            }
            if (null != failed) {
                fail(e, failed);
            } else if (done && e.number == number && !e.done) {
                complete(e);
            }
            pollRest();
            changed.signalAll();
        } else {
            awaitChange(op, slice);
        }
        return true;
    }

    private void awaitChange(final String op, final long nanos) {
        try {
            changed.awaitNanos(nanos);
        } catch (final InterruptedException x) {
            Thread.currentThread().interrupt();
            throw Failures.interrupted(op, where, "waiting for the channel", x);
        }
    }

    /** Completes, without blocking, every started exchange whose alltoall has completed. */
    private void pollRest() {
        for (int i = 0; i < count && null == failure; i++) {
            final Exchange e = ring[(head + i) % ring.length];
            if (!e.done && null != e.request) {
                try {
                    if (e.request.test()) {
                        complete(e);
                    }
                } catch (final TuttiException x) {
                    fail(e, x);
                }
            }
        }
    }

    private Exchange oldestPending() {
        for (int i = 0; i < count; i++) {
            final Exchange e = ring[(head + i) % ring.length];
            if (!e.done && null != e.request) {
                return e;
            }
        }
        return null;
    }

    private void complete(final Exchange e) {
        final long now = System.nanoTime();
        e.done = true;
        e.send.state(State.FREE);
        e.recv.state(State.FULL);
        exchanges++;
        latency.record(now - e.startNs);
        if (ChannelQos.Kind.TIME_DRIVEN == qos.kind() && now - (e.releaseNs + qos.deadlineNanos()) > 0) {
            misses++;
        }
        changed.signalAll();
    }

    private void fail(final Exchange e, final TuttiException x) {
        if (null == failure) {
            failure = Failures.wrap(x, "exchange", where, "exchange " + e.number + " failed");
        }
        changed.signalAll();
    }

    private void checkUsable(final String op) {
        if (closed) {
            throw Errors.invalid(ErrorClass.REQUEST, op, where, "the channel is closed");
        }
        if (null != failure) {
            throw Failures.wrap(failure, op, where, "the channel failed");
        }
    }

    private void checkOwn(final String op, final ChannelBuffer b, final Side side) {
        if (null == b) {
            throw Errors.nullArg(op, where, "buffer");
        }
        if (this != b.owner()) {
            throw Errors.invalid(ErrorClass.BUFFER, op, where, "the buffer belongs to " + b.owner().where()
                + ", expected one of this channel");
        }
        if (side != b.side()) {
            throw Errors.invalid(ErrorClass.BUFFER, op, where, "the buffer is a " + sideName(b.side())
                + " buffer, expected a " + sideName(side) + " buffer (from " + (Side.SEND == side ? "takeSend"
                : "takeReceive") + ")");
        }
    }

    private static String sideName(final Side side) {
        return Side.SEND == side ? "send" : "receive";
    }

    private static ChannelBuffer find(final ChannelBuffer[] buffers, final State state) {
        for (final ChannelBuffer b : buffers) {
            if (state == b.state()) {
                return b;
            }
        }
        return null;
    }

    /** A deadline for {@code timeoutNs} from now; negative means no limit. */
    private static long deadline(final long timeoutNs) {
        final long now = System.nanoTime();
        return timeoutNs < 0 || timeoutNs > Long.MAX_VALUE / 4 ? now + Long.MAX_VALUE / 2 : now + timeoutNs;
    }
}
