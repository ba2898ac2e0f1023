package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.SharedMemory;
import dev.tutti.TuttiException;
import dev.tutti.channel.ChannelBuffer.Side;
import dev.tutti.channel.ChannelBuffer.State;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.GroupAccess;
import dev.tutti.trace.ChannelExchangeEvent;
import dev.tutti.trace.Trace;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The running part of a channel on one rank: its two buffer rings, the exchanges in flight, and its statistics
 * ({@link ChannelMeter}).
 *
 * <p>Implementation notes. Exchange <i>k</i> is the <i>k</i>-th start of the one-copy path (below), or of a
 * persistent alltoall on the channel's private communicator ({@link ExchangeStarts}: one request per pair of ring
 * buffers, built on first use; a
 * duplicate communicator made at creation, so the channel's messages have their own context and never meet the
 * parent communicator's collectives, whatever order ranks interleave them in); exchanges are started under
 * the lock in exchange order, so the collective call order on the private communicator is the exchange order
 * on every rank. Best effort: the <i>k</i>-th submit starts exchange <i>k</i> (submits are serialized:
 * {@code submitWaiting}, a submit that waits for a receive buffer holds back the later ones). Time-driven
 * ({@link ChannelClock}): a submit only queues its buffer; exchange <i>k</i> is started at its tick by whichever
 * thread sees the tick first (the channel's clock thread, or a submit or release), with the buffer the clock gives,
 * and with it the freshness allgather that tells receivers which blocks were submitted. An exchange holds one send
 * buffer and one receive
 * buffer from its start until it completes; the receive buffer then stays the channel's (FULL) until the
 * application takes it and releases it. A submit therefore needs a FREE receive buffer, and waits for a release
 * when there is none (back-pressure: nothing is received into a buffer the application holds or has not read).
 * {@code ring} is the FIFO of exchanges that hold a receive buffer not yet taken, in exchange order (at most
 * {@code depth}, one per receive buffer); receive buffers are handed out in that order even when a later exchange
 * completes first.
 *
 * <p>Progress: Tutti advances a nonblocking collective whenever a thread of the rank waits. A channel operation
 * that must wait (for a send buffer, a filled receive buffer, or a release) either becomes the one thread that
 * waits on the oldest incomplete exchange's request ({@code waiting}, so that a request has one waiter at a time),
 * with the state lock released, or, when another thread already is, waits on {@code changed}; both in slices of
 * {@link #POLL_NS}, so that close and failure are seen promptly (a confined channel's thread, which no other can
 * close, waits to the request's end when it has no deadline: {@link #awaitOldest}). Every state change signals
 * {@code changed}. A failed exchange (a peer that died, a mismatch) fails the channel: every waiting and later
 * operation throws, naming the channel and, through the cause, the rank.
 *
 * <p>One copy: a channel of blocks of a suitable size (any QoS), whose ranks all share memory, starts its exchanges
 * through {@code window} instead ({@link WindowExchanges}: senders write into
 * landing zones of a shared window; the receive buffer shows the zone of its exchange from the exchange's start,
 * and its release hands the zone to a later exchange). Ranks agree on the path at creation.
 *
 * <p>Memory: send buffers of blocks above both the shm eager limit and the slot limit
 * ({@link SharedMemory#slotLimit()}, 1 MiB by default) are blocks of the rank's shared arena ({@code arena}, when there
 * is one and it has room), which the receivers copy once; the rest Java arrays (where a persistent start takes slots,
 * they beat the arena's single copy up to the slot limit). An arena buffer whose array the application asks for
 * moves to a new array under the lock while it is held (so in no exchange), its arena block freed and its pair
 * requests forgotten, to be built again over the array at their next exchange. On the one-copy path the send
 * buffers are Java arrays and the receive buffers show zones of the window ({@code zones}).
 *
 * <p>Roads. Off the one-copy path, an exchange is a persistent alltoall start on the private communicator, which
 * takes that communicator's on-host region when its ranks share memory, as every persistent start does: through its
 * cells up to the region's limit, past it through its chunk area once the communicator has agreed one. A
 * communicator agrees its chunk area at a blocking call that waits for every peer, after a persistent request that
 * wants it was made, and the channel makes no blocking call once it runs, so creation makes the first pair's request
 * on every rank and then meets the peers once (a barrier on the private communicator, an intracommunicator's; a
 * bipartite channel's has no region): the exchanges past the cells take the chunks from the first.
 *
 * <p>Locking ({@code guard}, "the lock" above): every operation holds the lock, except a {@link #takeSend} that
 * finds a free buffer (claimed by its CAS, see {@link #takeFree()}) and a best-effort {@link #release} off the
 * window's path (TAKEN to FREE by CAS, then a signal only if a submit waits for a receive buffer:
 * {@code submitWaiting}, volatile); {@code closed} and {@code failure} are volatile for those paths. A confined
 * channel has no lock: only its owner thread gets past {@link ChannelGuard}, so the same code runs with the lock's
 * steps and signals skipped and the two CASes as plain checks and stores; {@code waiting} and
 * {@code submitWaiting} then stay false.
 *
 * <p>Allocation: buffers, their block views and the exchange records are made at creation, a pair's persistent
 * request at its first exchange; a steady exchange then allocates nothing on the small-message path (BOOLEAN
 * channels: one nonblocking alltoall's worth).
 */
final class ChannelCore {
    /** Longest a channel operation waits before it looks at close and failure again. */
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /** The deadline of an operation that waits as long as it takes ({@link #deadline}). */
    private static final long FOREVER = Long.MAX_VALUE;
    /** The deadline of an operation that does not wait ({@link #deadline}). */
    private static final long EXPIRED = Long.MIN_VALUE;

    /** One exchange holding a receive buffer. */
    private static final class Exchange {
        long number;
        ChannelBuffer send;
        ChannelBuffer recv;
        /** The data alltoall, then (time-driven) the freshness allgather; null once seen complete. */
        Request request;
        Request flags;
        long startNs;
        long releaseNs;
        /** Whether the exchange's latency is measured (startNs set). */
        boolean timed;
        boolean done;
        /** The exchange's trace event, begun at its start ({@link Trace#ON} only); null otherwise. */
        ChannelExchangeEvent trace;
    }

    private final String name;
    private final String where;
    private final Comm comm;
    private final boolean timeDriven;
    private final ExchangeStarts starts;
    /**
     * The one-copy path through shared memory (channels of blocks of 64 B to 256 KiB whose ranks all share memory),
     * or null when exchanges are persistent alltoalls ({@code starts}).
     */
    private final WindowExchanges window;
    /** The window's landing zones as receive buffers show them, made once; null off the window's path. */
    private final ChannelBuffer.Zone[] zones;
    /** The rank's shared arena, where the send buffers live if it had room; null when they are Java arrays. */
    private final SharedMemory arena;
    private final long sendBytes;
    private final long recvBytes;
    private final ChannelBuffer[] sends;
    private final ChannelBuffer[] recvs;
    private final Exchange[] ring;
    /** Time-driven: when each exchange starts, and with which send buffer; null otherwise. */
    private final ChannelClock clock;
    /** The lock and its condition {@code changed}, or a confined channel's owner ({@link ChannelGuard}). */
    private final ChannelGuard guard;
    /** Whether a thread waits on the oldest exchange's request, the channel's lock released (guarded by it). */
    private boolean waiting;
    /**
     * Whether a submit waits for a free receive buffer, the channel's lock released (written under it; volatile for
     * the lock-free release, which signals only when it is set, see {@link #release}).
     */
    private volatile boolean submitWaiting;
    /** Whether a release may skip the lock: best effort, off the window's path (its zones are guarded by it). */
    private final boolean lockFreeRelease;
    /** Exchanges, latency, misses and abandoned exchanges; which exchanges are timed. */
    private final ChannelMeter meter;
    private final Runnable onClose;
    private int head;
    private int count;
    private long next;
    /** Written under the lock; volatile for the lock-free fast path of {@link #takeSend}. */
    private volatile boolean closed;
    private volatile TuttiException failure;

    /**
     * @param comm       the channel's private communicator
     * @param sendRanks  blocks per send buffer
     * @param sendBlock  elements per send block (0: this side sends nothing)
     * @param recvRanks  blocks per receive buffer
     * @param recvBlock  elements per receive block (0: this side receives nothing)
     */
    ChannelCore(final String name, final String where, final Comm comm, final Datatype type, final int sendRanks,
        final int sendBlock, final int recvRanks, final int recvBlock, final int depth, final ChannelQos qos,
        final Thread owner, final Runnable onClose) {
        this.name = name;
        this.guard = new ChannelGuard(owner, where);
        this.where = where;
        this.comm = comm;
        this.onClose = onClose;
        this.timeDriven = ChannelQos.Kind.TIME_DRIVEN == qos.kind();
        this.meter = new ChannelMeter(qos);
        this.starts = new ExchangeStarts(comm, type, depth + (timeDriven ? 1 : 0), depth, 0 == sendBlock,
            0 == recvBlock, qos.level());
        this.sendBytes = (long) sendRanks * sendBlock * type.sizeBytes();
        this.recvBytes = (long) recvRanks * recvBlock * type.sizeBytes();
        this.sends = new ChannelBuffer[depth];
        this.recvs = new ChannelBuffer[depth];
        this.ring = new Exchange[depth];
        this.window = WindowExchanges.open(comm, where, type, sendBlock, recvBlock, depth, Datatype.BOOLEAN != type,
            qos.level());
        this.arena = null == window ? ChannelMemory.sharedArena(comm, type, sendBlock) : null;
        this.zones = null == window ? null : ChannelBuffer.zoneViews(window.zones(), type, recvRanks, recvBlock);
        this.lockFreeRelease = !timeDriven && null == window;
        for (int i = 0; i < depth; i++) {
            final MemorySegment shared = null == arena ? null : arena.tryAllocate(sendBytes);
            sends[i] = new ChannelBuffer(this, Side.SEND, type, sendRanks, sendBlock, i, false, shared);
            recvs[i] = new ChannelBuffer(this, Side.RECEIVE, type, recvRanks, recvBlock, i, timeDriven,
                null == zones ? null : zones[i].memory());
            ring[i] = new Exchange();
        }
        this.clock = timeDriven ? new ChannelClock(qos, new ChannelBuffer(this, Side.SEND, type, sendRanks,
            sendBlock, depth, false, null), depth) : null;
        if (null == window && comm instanceof Communicator c && starts.make(sends[0], recvs[0])) {
            c.barrier(); // after the first pair's init on every rank: see "Roads" in the class note
        }
    }

    /**
     * Moves a send buffer out of the shared arena (its array was asked for): frees its arena block and forgets the
     * persistent requests built over it, which the next exchanges build again over the array.
     */
    void moveToHeap(final ChannelBuffer b) {
        guard.enter("ChannelBuffer.array");
        try {
            if (closed) { // closed since the accessor checked the buffer: its block went back to the arena
                throw Errors.invalid(ErrorClass.BUFFER, "ChannelBuffer.array", where, "the channel is closed");
            }
            if (null != b.sharedBlock()) {
                starts.forget(b.slot());
                arena.free(b.moveToHeap());
            }
        } finally {
            guard.exit();
        }
    }

    /**
     * Time-driven: sets the clock's origin and starts the clock thread; called once creation has synchronized the
     * ranks.
     */
    void startClock() {
        if (!timeDriven) {
            return;
        }
        guard.enter("create");
        try {
            clock.setOrigin();
            clock.startThread(name, this::runClock);
        } finally {
            guard.exit();
        }
    }

    /**
     * The clock thread (time-driven): starts each exchange at its tick and tests the exchanges in flight every
     * {@link ChannelClock#pollNs} until the channel closes or fails.
     */
    private void runClock() {
        guard.enter("clock");
        try {
            while (!closed && null == failure) {
                startDue("clock");
                pollRest();
                final long untilTick = clock.tick(next) - System.nanoTime();
                long wait = untilTick > 0 ? untilTick : clock.pollNs(); // due but no free receive buffer: a release
                if (null != oldestPending()) {
                    wait = Math.min(wait, clock.pollNs());
                }
                guard.awaitNanos(wait);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final TuttiException e) {
            // startDue recorded the failure: every operation of the channel reports it
        } finally {
            guard.exit();
        }
    }

    /**
     * Starts every time-driven exchange whose tick has come, while a receive buffer is free (holding the lock):
     * each with the oldest queued send buffer, or the idle one if none is queued.
     */
    private void startDue(final String op) {
        while (timeDriven && !closed && null == failure && clock.due(next)) {
            final ChannelBuffer r = freeRecv();
            if (null == r) {
                return;
            }
            start(op, clock.nextSend(), r);
        }
    }

    /**
     * @return a time-driven channel's clock origin ({@link System#nanoTime()}): exchange k starts at this + (k + 1) *
     *         period
     */
    long clockOrigin() {
        guard.enter("clockOrigin");
        try {
            return clock.origin();
        } finally {
            guard.exit();
        }
    }

    String where() {
        return where;
    }

    /** @return the channel's private communicator */
    Comm comm() {
        return comm;
    }

    String name() {
        return name;
    }

    // ------------------------------------------------------------------------------------------- operations

    ChannelBuffer takeSend(final String op, final long timeoutNs) {
        guard.check(op);
        if (!closed && null == failure) { // the usual case, without the lock: a free buffer, claimed by its CAS
            final ChannelBuffer b = takeFree();
            if (null != b) {
                return b;
            }
        }
        guard.enter(op);
        try {
            final long deadline = deadline(timeoutNs);
            boolean more = true;
            while (true) {
                checkUsable(op);
                final ChannelBuffer b = takeFree();
                if (null != b) {
                    return b;
                }
                if (!more) {
                    return null;
                }
                more = progress(op, deadline);
            }
        } finally {
            guard.exit();
        }
    }

    boolean submit(final String op, final ChannelBuffer b, final boolean wait) {
        checkOwn(op, b, Side.SEND);
        guard.enter(op);
        try {
            checkUsable(op);
            while (submitWaiting) { // an earlier submit waits for a receive buffer: this one starts after it
                guard.awaitChange(op, POLL_NS, false);
                checkUsable(op);
            }
            if (State.TAKEN != b.state()) {
                throw Errors.invalid(ErrorClass.BUFFER, op, where, "the send buffer is " + b.state()
                    + ", expected one taken by takeSend and not yet submitted (submitted twice?)");
            }
            if (timeDriven) {
                clock.submit(b);
                startDue(op);
                guard.signal();
                return true;
            }
            final long deadline = deadline(wait ? -1 : 0);
            boolean more = true;
            while (true) {
                final ChannelBuffer r = freeRecv();
                if (null != r) {
                    start(op, b, r);
                    return true;
                }
                if (!more) {
                    return false;
                }
                submitWaiting = true;
                try {
                    if (null != freeRecv()) { // released before it saw the flag, and so did not signal
                        continue;
                    }
                    more = progress(op, deadline);
                } finally {
                    submitWaiting = false;
                    guard.signal();
                }
                checkUsable(op);
            }
        } finally {
            guard.exit();
        }
    }

    ChannelBuffer takeReceive(final String op, final long timeoutNs) {
        guard.enter(op);
        try {
            if (lockFreeRelease && guard.confined() && timeoutNs < 0) {
                awaitOldest();
            }
            final long deadline = deadline(timeoutNs);
            boolean more = true;
            while (true) {
                checkUsable(op);
                if (count > 0 && ring[head].done) {
                    final Exchange e = ring[head];
                    head = wrap(head + 1, ring.length);
                    count--;
                    final ChannelBuffer r = e.recv;
                    r.state(State.TAKEN);
                    e.send = null;
                    e.recv = null;
                    return r;
                }
                if (!more) {
                    return null;
                }
                more = progress(op, deadline);
            }
        } finally {
            guard.exit();
        }
    }

    void release(final String op, final ChannelBuffer b) {
        checkOwn(op, b, Side.RECEIVE);
        guard.check(op);
        if (lockFreeRelease && !closed && null == failure && b.giveBack(!guard.confined())) {
            // Without the lock: nothing else changes on a best-effort release off the window. A submit that waits
            // for this buffer set submitWaiting before it last looked for a free one (both sides' volatile accesses
            // are ordered), so either it sees the buffer or this thread sees the flag and wakes it.
            if (submitWaiting) { // never on a confined channel
                guard.enter(op);
                try {
                    guard.signal();
                } finally {
                    guard.exit();
                }
            }
            return;
        }
        guard.enter(op);
        try {
            checkUsable(op);
            if (State.TAKEN != b.state()) {
                throw Errors.invalid(ErrorClass.BUFFER, op, where, "the receive buffer is " + b.state()
                    + ", expected one taken by takeReceive and not yet released (released twice?)");
            }
            b.state(State.FREE);
            if (null != window) {
                window.released(b.zone());
            }
            startDue(op);
            guard.signal();
        } finally {
            guard.exit();
        }
    }

    ChannelStats stats() {
        guard.enter("stats");
        try {
            return meter.snapshot(name, sendBytes, recvBytes);
        } finally {
            guard.exit();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Closes: no new operation is accepted (waiting ones throw), exchanges already started are waited for up to
     * {@code drainNs} (they complete once every rank has submitted them), and what is still in flight then is
     * abandoned and counted; the private communicator is freed only when nothing is in flight.
     */
    void close(final long drainNs) {
        final Thread ticker;
        guard.enter("close");
        try {
            ticker = timeDriven ? clock.thread() : null;
            if (closed) {
                return;
            }
            closed = true;
            guard.signal();
            final long deadline = deadline(drainNs);
            while (null == failure && null != oldestPending() && progress("close", deadline)) {
                pollRest();
            }
            long left = 0;
            for (int i = 0; i < count; i++) {
                if (!ring[wrap(head + i, ring.length)].done) {
                    left++;
                }
            }
            meter.abandoned(left);
            freeShared();
            for (int i = 0; i < sends.length; i++) {
                sends[i].state(State.CLOSED);
                recvs[i].state(State.CLOSED);
            }
            starts.free();
            if (null != window) {
                window.close();
            }
            if (0 == left && null == failure) {
                comm.free();
            }
        } finally {
            guard.exit();
            onClose.run();
        }
        if (null != ticker) {
            ChannelClock.join(ticker);
        }
    }

    /**
     * Returns the arena blocks of the send buffers to the arena (closing, holding the lock), except those of
     * buffers still in flight: a receiver may still be copying out of them (they stay allocated until the job ends).
     */
    private void freeShared() {
        for (final ChannelBuffer b : sends) {
            if (null != b.sharedBlock() && State.IN_FLIGHT != b.state()) {
                arena.free(b.sharedBlock());
            }
        }
    }

    // ------------------------------------------------------------------------------------------- internals

    /**
     * Starts an exchange of {@code b} into {@code r} (checked: {@code b} taken, {@code r} free) and records it. The
     * request starts before the record is written: in a loop of take, submit and wait, what a rank does between
     * seeing one exchange complete and starting the next delays every rank (they wait for its data), so the
     * bookkeeping that can follow the start does.
     */
    private void start(final String op, final ChannelBuffer b, final ChannelBuffer r) {
        final long number = next;
        final ChannelExchangeEvent ev = Trace.ON ? Trace.exchange() : null;
        final boolean timed = meter.timed(number);
        final long startNs = timed ? System.nanoTime() : 0;
        Request request = null;
        Request flags = null;
        TuttiException failed = null;
        try {
            if (null == window) {
                request = starts.start(b, r);
            } else {
                final int zone = window.nextZone(); // >= 0: freeRecv checked it
                r.show(zones[zone], zone);
                request = window.start(number, zone, b.raw().segment());
            }
            flags = timeDriven ? starts.startFlags(!idle(b), r) : null;
        } catch (final TuttiException x) {
            failed = x;
        }
        final Exchange e = ring[wrap(head + count, ring.length)];
        count++;
        next = number + 1;
        e.number = number;
        e.send = b;
        e.recv = r;
        e.done = false;
        e.timed = timed;
        e.startNs = startNs;
        e.releaseNs = timeDriven ? clock.tick(number) : startNs;
        e.request = request;
        e.flags = flags;
        e.trace = ev;
        if (!idle(b)) { // the idle buffer is in no state of its own: see ChannelClock
            b.state(State.IN_FLIGHT);
            b.exchange(number);
        }
        r.state(State.IN_FLIGHT);
        r.exchange(number);
        if (null != failed) {
            fail(e, failed);
            checkUsable(op);
        }
        guard.signal();
    }

    /**
     * Makes progress for a waiting operation (holding the lock): waits on the oldest incomplete exchange, or
     * for a change, for at most one poll slice.
     *
     * @return false if {@code deadline} has passed (after one last non-blocking look at the exchanges, so that the
     *         caller looks once more)
     */
    private boolean progress(final String op, final long deadline) {
        if (null != window) {
            window.publish(); // zones released since the last start, before this rank looks at or waits for its peers
        }
        final long left = FOREVER == deadline ? POLL_NS : EXPIRED == deadline ? 0 : deadline - System.nanoTime();
        if (left <= 0) {
            pollRest();
            return false;
        }
        final long slice = Math.min(POLL_NS, left);
        final Exchange e = oldestPending();
        if (null != e && !waiting) {
            waiting = true;
            final long number = e.number;
            final Request request = null != e.request ? e.request : e.flags;
            guard.exit(); // other threads may use the channel while this one waits
            TuttiException failed = null;
            boolean done = false;
            try {
                // Confined and without a deadline, no other thread can close the channel meanwhile: one wait to the
                // end (a failure of the request ends it too), without the slices' clock.
                done = null != (guard.confined() && FOREVER == deadline ? request.waitFor()
                    : request.waitFor(slice, TimeUnit.NANOSECONDS));
            } catch (final TuttiException x) {
                failed = x;
            } finally {
                guard.enter(op);
                waiting = false;
            }
            if (null != failed) {
                fail(e, failed);
            } else if (done && e.number == number && !e.done) {
                seen(e, request);
            }
            pollRest();
            guard.signal();
        } else {
            guard.awaitChange(op, slice, FOREVER == deadline);
        }
        return true;
    }

    /**
     * Waits until the oldest exchange completes, or fails the channel if it fails: {@link #progress}'s work for the
     * owner of a confined channel that is neither time-driven nor on the window and waits without a limit, without
     * its slices, scans and flags (no other thread may use the channel meanwhile, and an exchange has no request but
     * its alltoall); the exchanges behind the oldest are seen when they become the oldest. With {@link #start}'s
     * order, this makes a small exchange measurably cheaper than the general wait does (bench/RESULTS.md, "Findings
     * kept in the diary": what a channel's own work costs per exchange).
     */
    private void awaitOldest() {
        if (0 == count || closed || null != failure) {
            return; // nothing to wait for, or the caller's loop reports why not
        }
        final Exchange e = ring[head];
        final Request request = e.request;
        if (e.done || null == request) {
            return;
        }
        try {
            request.waitFor();
        } catch (final TuttiException x) {
            fail(e, x);
            return;
        }
        seen(e, request);
    }

    /** Completes, without blocking, every started exchange whose requests have completed. */
    private void pollRest() {
        for (int i = 0; i < count && null == failure; i++) {
            final Exchange e = ring[wrap(head + i, ring.length)];
            try {
                if (!e.done && null != e.request && e.request.test()) {
                    seen(e, e.request);
                }
                if (!e.done && null != e.flags && e.flags.test()) {
                    seen(e, e.flags);
                }
            } catch (final TuttiException x) {
                fail(e, x);
            }
        }
    }

    /** Records that one request of {@code e} was seen complete; completes {@code e} when none is left. */
    private void seen(final Exchange e, final Request request) {
        if (request == e.request) {
            e.request = null;
        } else if (request == e.flags) {
            e.flags = null;
        }
        if (null == e.request && null == e.flags) {
            complete(e);
        }
    }

    private Exchange oldestPending() {
        for (int i = 0; i < count; i++) {
            final Exchange e = ring[wrap(head + i, ring.length)];
            if (!e.done && (null != e.request || null != e.flags)) {
                return e;
            }
        }
        return null;
    }

    private void complete(final Exchange e) {
        e.done = true;
        if (null != e.trace) {
            traced(e);
        }
        if (!idle(e.send)) {
            e.send.state(State.FREE);
        }
        e.recv.state(State.FULL);
        meter.completed(e.timed, e.startNs, e.releaseNs);
        guard.signal();
    }

    /** Commits a completed exchange's trace event. */
    private void traced(final Exchange e) {
        final ChannelExchangeEvent ev = e.trace;
        e.trace = null;
        Trace.exchange(ev, name, GroupAccess.get().members(comm.group())[comm.rank()], e.number,
            !idle(e.send) ? e.send.raw().byteSize() : 0, null == window ? "alltoall" : "window");
    }

    private void fail(final Exchange e, final TuttiException x) {
        if (null == failure) {
            failure = Failures.wrap(x, "exchange", where, "exchange " + e.number + " failed");
        }
        guard.signal();
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
            throw Errors.invalid(ErrorClass.BUFFER, op, where, "the buffer is a " + b.side().noun()
                + " buffer, expected a " + side.noun() + " buffer (from " + (Side.SEND == side ? "takeSend"
                : "takeReceive") + ")");
        }
    }

    /**
     * @return a free receive buffer for the next exchange, or null if none is free (on the window's path, also while
     *         the exchange has no zone yet: {@link WindowExchanges#nextZone()})
     */
    private ChannelBuffer freeRecv() {
        final ChannelBuffer r = find(recvs, State.FREE);
        return null == r || null == window || window.nextZone() >= 0 ? r : null;
    }

    /**
     * Takes a free send buffer, FREE to TAKEN by CAS: the one state change made without the lock (a closing channel
     * sets CLOSED after its flag, so a buffer taken meanwhile is refused by its accessors, as after any close).
     */
    private ChannelBuffer takeFree() {
        for (final ChannelBuffer b : sends) {
            if (b.take(!guard.confined())) {
                return b;
            }
        }
        return null;
    }

    /** @return whether {@code b} is a time-driven channel's idle buffer ({@link ChannelClock}) */
    private boolean idle(final ChannelBuffer b) {
        return timeDriven && clock.isIdle(b);
    }

    /**
     * @return {@code i} wrapped into a ring of {@code n} slots, for {@code 0 <= i < 2n}: a compare instead of the
     *         division of {@code i % n}, which costs tens of cycles, several times per exchange
     */
    static int wrap(final int i, final int n) {
        return i < n ? i : i - n;
    }

    private static ChannelBuffer find(final ChannelBuffer[] buffers, final State state) {
        for (final ChannelBuffer b : buffers) {
            if (state == b.state()) {
                return b;
            }
        }
        return null;
    }

    /**
     * A deadline for {@code timeoutNs} from now; negative means no limit ({@link #FOREVER}), 0 no wait
     * ({@link #EXPIRED}): neither reads the clock, which costs tens of nanoseconds on a virtual machine, several
     * times per exchange otherwise.
     */
    private static long deadline(final long timeoutNs) {
        if (timeoutNs < 0 || timeoutNs > Long.MAX_VALUE / 4) {
            return FOREVER;
        }
        return 0 == timeoutNs ? EXPIRED : System.nanoTime() + timeoutNs;
    }
}
