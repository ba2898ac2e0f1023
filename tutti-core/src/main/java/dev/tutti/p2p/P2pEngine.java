package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.runtime.Agent;
import dev.tutti.type.BooleanStaging;
import dev.tutti.type.TypeCode;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Transport;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The point-to-point engine of one rank: routes sends to transports, matches arrivals against receives, and
 * records failures that make waits fail instead of hang.
 *
 * <p>Implementation notes. Thread-safe: any number of application threads may send and receive at once; matching
 * is serialized by the {@link Matcher}'s lock, transports are thread-safe by contract. Ranks are world ranks here;
 * communicators translate. Failures: {@code abortCause} (the whole job is going down) and {@code peerFailures}
 * (one peer's connection is lost) are write-once volatiles that every wait loop reads, so a wait on a failed peer
 * ends within one idle backoff period without any queue scan.
 */
public final class P2pEngine implements InboundSink {
    /** Wildcard for source and tag inside the engine (world-rank space). */
    public static final int ANY = -1;

    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(P2pEngine.class);

    private final int worldRank;
    private final int worldSize;
    private final IdleStrategy idle;
    private final Matcher matcher = new Matcher();
    private final AtomicReferenceArray<TuttiException> peerFailures;
    private volatile TuttiException abortCause;
    /** Where each world rank runs and how it is reached (see {@link #layout(RankLayout)}). */
    private volatile RankLayout layout = RankLayout.ONE_HOST;
    private volatile TuttiException anyPeerFailure;
    /** Whether a peer left the job (see {@link #peerLeft}); set once. */
    private volatile boolean anyPeerLeft;
    private Transport[] routes;
    private Transport[] polled = new Transport[0];
    /** Transports this engine closes with the others but routes no message through (see {@link #connect}). */
    private Transport[] kept = new Transport[0];
    private volatile Agent[] agents = new Agent[0];
    private Object collectiveState;
    /** The correctness checker's additions, or null (checker off): set once before traffic. */
    private P2pHook hook;
    /** Each thread's reusable blocking receive (see {@link #recv}). */
    private final ThreadLocal<RecvRequest> blockingRecvs = new ThreadLocal<>();
    /** Orders the synchronous sends' posting of their acknowledgements' receives with their sends (see startSync). */
    private final Object syncOrder = new Object();

    /**
     * Creates the engine; {@link #connect} must follow before traffic.
     *
     * @param worldRank this rank
     * @param worldSize number of ranks in the job
     * @param idle      how waiting threads idle
     */
    public P2pEngine(final int worldRank, final int worldSize, final IdleStrategy idle) {
        this.worldRank = worldRank;
        this.worldSize = worldSize;
        this.idle = idle;
        this.peerFailures = new AtomicReferenceArray<>(worldSize);
    }

    /**
     * Sets the transport for each destination (index = world rank). Transports listed more than once are polled
     * once. A transport given as {@code alsoOwned} and routing no destination is not polled, but closed and aborted
     * with the others: a tcp transport whose every peer is reached through shared memory stays open for what its
     * connections tell (a peer's process ending), and ends with the job, its I/O thread too (a JVM's exit waits
     * for a thread blocked in a system call).
     *
     * @param routesByRank a transport per world rank
     * @param alsoOwned    transports owned by this engine though perhaps routing nothing (null elements skipped)
     */
    public void connect(final Transport[] routesByRank, final Transport... alsoOwned) {
        if (routesByRank.length != worldSize) {
            throw Errors.refused("routes=" + routesByRank.length, Integer.toString(worldSize));
        }
        this.routes = routesByRank.clone();
        final Map<Transport, Boolean> distinct = new IdentityHashMap<>();
        for (final Transport t : routes) {
            distinct.put(t, Boolean.TRUE);
        }
        this.polled = distinct.keySet().toArray(new Transport[0]);
        this.kept = Arrays.stream(alsoOwned).filter(t -> null != t && !distinct.containsKey(t))
            .distinct().toArray(Transport[]::new);
    }

    /** @return the distinct transports this engine routes to (a copy) */
    public Transport[] transports() {
        return polled.clone();
    }

    /**
     * Returns the transport that carries this rank's messages to a world rank.
     *
     * @param worldRank the peer's world rank
     * @return its transport, or null before {@link #connect} or for a rank out of range
     */
    public Transport route(final int worldRank) {
        final Transport[] r = routes;
        return null == r || worldRank < 0 || worldRank >= r.length ? null : r[worldRank];
    }

    /** @return this rank in the world */
    public int worldRank() {
        return worldRank;
    }

    /** @return the number of ranks in the world */
    public int worldSize() {
        return worldSize;
    }

    /**
     * Records where each world rank runs and how it is reached; set once, before any communicator of the job is made
     * (the world's is told by its maker). The layout's arrays are not copied: its maker hands them over.
     *
     * @param layout the layout
     */
    public void layout(final RankLayout layout) {
        this.layout = layout;
    }

    /** @return where each world rank runs and how it is reached (do not modify its arrays) */
    public RankLayout layout() {
        return layout;
    }

    /** @return the idle strategy of waits on this engine */
    public IdleStrategy idleStrategy() {
        return idle;
    }

    Matcher matcher() {
        return matcher;
    }

    /**
     * Installs the correctness checker's point-to-point part; before any traffic (the rank's start publishes it).
     *
     * @param checkerHook the hook
     */
    public void hook(final P2pHook checkerHook) {
        this.hook = checkerHook;
    }

    /** @return the checker's hook, or null if the checker is off */
    public P2pHook hook() {
        return hook;
    }

    /**
     * Starts a send of a typed buffer. Arguments must already be validated by the caller.
     *
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag, non-negative
     * @param buf       the data
     * @return the request
     */
    public dev.tutti.Request isend(final int context, final int destWorld, final int tag, final Buf buf) {
        final P2pHook h = hook;
        if (null != h) {
            final MemorySegment payload = BooleanStaging.sendMemory(buf);
            final SendRequest r = start(new SendRequest(this, context, destWorld, tag, h.sendCode(destWorld,
                buf.datatype(), false), payload), destWorld);
            h.created(r);
            return BooleanStaging.staged(buf) ? r : h.started(r, payload);
        }
        return isend(context, destWorld, tag, buf.datatype(), BooleanStaging.sendMemory(buf));
    }

    /**
     * Starts a synchronous-mode send of a typed buffer ({@link SyncSend}): the request completes once a receive at
     * the destination has matched the message and the buffer may be reused. Arguments must already be validated by
     * the caller (the destination a real rank: {@code PROC_NULL} is the caller's).
     *
     * @param context   context id: a communicator's point-to-point context (its acknowledgement travels on
     *                  {@code context + }{@link SyncSend#ACK_CONTEXT_OFFSET})
     * @param destWorld destination world rank
     * @param tag       tag, non-negative
     * @param buf       the data
     * @param view      the communicator, for failures and reports
     * @return the request
     */
    public AbstractRequest issend(final int context, final int destWorld, final int tag, final Buf buf,
        final CommView view) {
        final P2pHook h = hook;
        final int code = null == h ? buf.datatype().ordinal() : h.sendCode(destWorld, buf.datatype(), false);
        final SyncSend s = startSync(context, destWorld, tag, SyncSend.sync(code), BooleanStaging.sendMemory(buf),
            view, false);
        if (null != h) {
            h.created(s);
        }
        return s;
    }

    /**
     * Sends a typed buffer in synchronous mode and returns once a receive at the destination has matched it: the
     * blocking form of {@link #issend}. Its wait is no trace event of its own: the program's call spans it.
     *
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag, non-negative
     * @param buf       the data
     * @param view      the communicator, for failures and reports
     */
    public void ssend(final int context, final int destWorld, final int tag, final Buf buf, final CommView view) {
        final P2pHook h = hook;
        final int code = null == h ? buf.datatype().ordinal() : h.sendCode(destWorld, buf.datatype(), false);
        startSync(context, destWorld, tag, SyncSend.sync(code), BooleanStaging.sendMemory(buf), view, false)
            .waitForInCall();
    }

    /**
     * Posts the acknowledgement's receive, then sends the message, under one lock: so that the acknowledgements'
     * receives of one (destination, context, tag) are posted in the order their messages go out (see
     * {@link SyncSend}). Only synchronous sends take the lock.
     */
    private SyncSend startSync(final int context, final int destWorld, final int tag, final int code,
        final MemorySegment payload, final CommView view, final boolean strict) {
        final CommView v = null == view ? SyncSend.WORLD : view;
        synchronized (syncOrder) {
            final RecvRequest ack = post(new RecvRequest(this, context + SyncSend.ACK_CONTEXT_OFFSET, destWorld, tag,
                SyncSend.NOTHING, null, Datatype.BYTE, v));
            final SendRequest data = start(new SendRequest(this, context, destWorld, tag, code, payload), destWorld);
            return new SyncSend(this, data, ack, destWorld, tag, v, strict);
        }
    }

    /**
     * A receive of this rank matched a synchronous-mode message ({@link SyncSend}): tells its sender, with an empty
     * message on the acknowledgement context under the message's tag. Called on the thread that matched (a
     * receiving thread, a transport's thread, or in-process the sender's), outside the matcher's lock: the send is
     * a transport's ordinary send, which never blocks. A sender that is gone is not told.
     *
     * @param context     the message's context
     * @param sourceWorld its sender
     * @param tag         its tag
     */
    void acknowledge(final int context, final int sourceWorld, final int tag) {
        if (null != failureAffecting(sourceWorld)) {
            return; // no one waits for it any more
        }
        final int ackContext = context + SyncSend.ACK_CONTEXT_OFFSET;
        final Transport route = routes[sourceWorld];
        if (!route.trySendNow(sourceWorld, ackContext, tag, Datatype.BYTE.ordinal(), SyncSend.NOTHING)) {
            route.send(sourceWorld, new SendRequest(this, ackContext, sourceWorld, tag, Datatype.BYTE.ordinal(),
                SyncSend.NOTHING));
        }
    }

    /**
     * Starts a send of raw bytes labelled with a datatype.
     *
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag
     * @param type      the datatype label carried for signature checks
     * @param payload   the bytes
     * @return the request
     */
    public SendRequest isend(final int context, final int destWorld, final int tag, final Datatype type,
        final MemorySegment payload) {
        return start(new SendRequest(this, context, destWorld, tag, type.ordinal(), payload), destWorld);
    }

    /**
     * Starts a send of raw bytes with a send request the caller reuses (see {@link #reusableSend()}): the same as
     * {@link #isend(int, int, int, Datatype, MemorySegment)} without allocating.
     *
     * @param reuse     an idle reusable send: fresh, or completed successfully and referenced by nothing else
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag
     * @param type      the datatype label carried for signature checks
     * @param payload   the bytes
     * @return {@code reuse}, started
     */
    public SendRequest isend(final SendRequest reuse, final int context, final int destWorld, final int tag,
        final Datatype type, final MemorySegment payload) {
        reuse.prepare(context, destWorld, tag, type.ordinal(), payload);
        return start(reuse, destWorld);
    }

    /** @return a send request for {@link #isend(SendRequest, int, int, int, Datatype, MemorySegment)} */
    public SendRequest reusableSend() {
        return SendRequest.reusable(this);
    }

    /** @return a receive request for {@link #irecv(RecvRequest, int, int, int, Datatype, MemorySegment, CommView)} */
    public RecvRequest reusableRecv() {
        return RecvRequest.reusable(this);
    }

    private SendRequest start(final SendRequest r, final int destWorld) {
        final TuttiException failed = failureAffecting(destWorld);
        if (null != failed) {
            r.sent(failed);
            return r;
        }
        routes[destWorld].send(destWorld, r);
        return r;
    }

    /**
     * Sends a typed buffer and returns when it may be reused: the blocking send. When the route can copy the
     * message out at once ({@link Transport#trySendNow}) no request is made; otherwise, and for boolean buffers
     * and layouts (which need staging), it is {@link #isend} and a wait, which is no trace event of its own (the
     * program's call spans it). Arguments must already be validated by the caller.
     *
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag, non-negative
     * @param buf       the data
     */
    public void send(final int context, final int destWorld, final int tag, final Buf buf) {
        final P2pHook h = hook;
        if (null != h) {
            final int code = h.sendCode(destWorld, buf.datatype(), true);
            final MemorySegment payload = BooleanStaging.sendMemory(buf);
            if (SyncSend.isSync(code)) { // --check=strict: every blocking send is unbuffered
                startSync(context, destWorld, tag, code, payload, null, true).waitForInCall();
            } else {
                start(new SendRequest(this, context, destWorld, tag, code, payload), destWorld).waitForInCall();
            }
            return;
        }
        if (BooleanStaging.staged(buf) || null != failureAffecting(destWorld)
            || !routes[destWorld].trySendNow(destWorld, context, tag, buf.datatype().ordinal(), buf.segment())) {
            isend(context, destWorld, tag, buf.datatype(), BooleanStaging.sendMemory(buf)).waitForInCall();
        }
    }

    /**
     * Posts a receive into a typed buffer.
     *
     * @param context     context id
     * @param sourceWorld source world rank or {@link #ANY}
     * @param tag         tag or {@link #ANY}
     * @param buf         where the data goes (its count is the capacity)
     * @param view        the communicator, for statuses and messages
     * @return the request
     */
    public RecvRequest irecv(final int context, final int sourceWorld, final int tag, final Buf buf,
        final CommView view) {
        final RecvRequest r = newRecv(context, sourceWorld, tag, buf, view);
        final P2pHook h = hook;
        if (null != h) {
            r.site = h.receiveSite();
            h.created(r);
        }
        return post(r);
    }

    private RecvRequest newRecv(final int context, final int sourceWorld, final int tag, final Buf buf,
        final CommView view) {
        return BooleanStaging.staged(buf)
            ? new RecvRequest(this, context, sourceWorld, tag, null, buf, buf.datatype(), view)
            : new RecvRequest(this, context, sourceWorld, tag, buf.segment(), null, buf.datatype(), view);
    }

    /**
     * Receives into a typed buffer and returns when the message is there: the blocking receive. It posts this
     * thread's reusable receive ({@link RecvRequest#reusable}) rather than a new one, so that it allocates nothing
     * (boolean and layout buffers, which need staging, take the ordinary path). Its wait is no trace event of its
     * own: the program's call spans it.
     *
     * @param context     context id
     * @param sourceWorld source world rank or {@link #ANY}
     * @param tag         tag or {@link #ANY}
     * @param buf         where the data goes (its count is the capacity)
     * @param view        the communicator, for statuses and messages
     * @return the status
     */
    public Status recv(final int context, final int sourceWorld, final int tag, final Buf buf,
        final CommView view) {
        final P2pHook h = hook;
        if (null != h) {
            final RecvRequest checked = newRecv(context, sourceWorld, tag, buf, view);
            checked.site = h.receiveSite();
            return post(checked).waitForInCall();
        }
        if (BooleanStaging.staged(buf)) {
            return irecv(context, sourceWorld, tag, buf, view).waitForInCall();
        }
        RecvRequest r = blockingRecvs.get();
        if (null == r) {
            r = RecvRequest.blocking(this);
            blockingRecvs.set(r);
        }
        r.prepare(context, sourceWorld, tag, buf.segment(), buf.datatype(), view);
        post(r);
        try {
            r.waitForInCall();
        } catch (final RuntimeException e) {
            blockingRecvs.remove(); // failed or interrupted: it may still be referenced, never reuse it
            throw e;
        }
        return r.receivedStatus();
    }

    /**
     * Posts a receive into raw memory labelled with a datatype (collective schedules use this; a
     * {@link Datatype#BOOLEAN} label means bytes 0/1).
     *
     * @param context     context id
     * @param sourceWorld source world rank (no wildcard)
     * @param tag         tag
     * @param type        the datatype the message must carry
     * @param target      where the data goes; its size is the capacity
     * @param view        the communicator
     * @return the request
     */
    public RecvRequest irecv(final int context, final int sourceWorld, final int tag, final Datatype type,
        final MemorySegment target, final CommView view) {
        return post(new RecvRequest(this, context, sourceWorld, tag, target, null, type, view));
    }

    /**
     * Posts a receive into raw memory with a receive request the caller reuses (see {@link #reusableRecv()}): the
     * same as {@link #irecv(int, int, int, Datatype, MemorySegment, CommView)} without allocating. It completes
     * with {@link Status#EMPTY}; {@link RecvRequest#matchedLength()} gives the received length.
     *
     * @param reuse       an idle reusable receive: fresh, or completed successfully and referenced by nothing else
     * @param context     context id
     * @param sourceWorld source world rank (no wildcard)
     * @param tag         tag
     * @param type        the datatype the message must carry
     * @param target      where the data goes; its size is the capacity
     * @param view        the communicator
     * @return {@code reuse}, posted
     */
    public RecvRequest irecv(final RecvRequest reuse, final int context, final int sourceWorld, final int tag,
        final Datatype type, final MemorySegment target, final CommView view) {
        reuse.prepare(context, sourceWorld, tag, target, type, view);
        return post(reuse);
    }

    /**
     * Posts a receive whose buffer is allocated at match time with the message's exact size (object messages).
     *
     * @param context     context id
     * @param sourceWorld source world rank or {@link #ANY}
     * @param tag         tag or {@link #ANY}
     * @param expected    the datatype the message must carry
     * @param view        the communicator
     * @return the request; {@link RecvRequest#receivedBytes()} holds the data once complete
     */
    public RecvRequest irecvAllocating(final int context, final int sourceWorld, final int tag,
        final Datatype expected, final CommView view) {
        return post(new RecvRequest(this, context, sourceWorld, tag, null, null, expected, view));
    }

    /**
     * Starts a send of raw bytes with a whole type code ({@link TypeCode}): a collective schedule's message, whose
     * code carries the header of its call besides the datatype. Otherwise as
     * {@link #isend(SendRequest, int, int, int, Datatype, MemorySegment)}.
     *
     * @param reuse     an idle reusable send, or null for a new one
     * @param context   context id
     * @param destWorld destination world rank
     * @param tag       tag
     * @param typeCode  the datatype and header
     * @param payload   the bytes
     * @return the request, started
     */
    public SendRequest isendCoded(final SendRequest reuse, final int context, final int destWorld, final int tag,
        final int typeCode, final MemorySegment payload) {
        if (null == reuse) {
            return start(new SendRequest(this, context, destWorld, tag, typeCode, payload), destWorld);
        }
        reuse.prepare(context, destWorld, tag, typeCode, payload);
        return start(reuse, destWorld);
    }

    /**
     * Posts a receive into raw memory that expects a whole type code ({@link TypeCode}): a collective schedule's
     * receive, which refuses a message whose header disagrees (see {@link RecvRequest}). Otherwise as
     * {@link #irecv(RecvRequest, int, int, int, Datatype, MemorySegment, CommView)}.
     *
     * @param reuse       an idle reusable receive, or null for a new one
     * @param context     context id
     * @param sourceWorld source world rank (no wildcard)
     * @param tag         tag
     * @param typeCode    the datatype and header the message must carry
     * @param target      where the data goes; its size is the capacity
     * @param view        the communicator
     * @return the request, posted
     */
    public RecvRequest irecvCoded(final RecvRequest reuse, final int context, final int sourceWorld, final int tag,
        final int typeCode, final MemorySegment target, final CommView view) {
        if (null == reuse) {
            return post(new RecvRequest(this, context, sourceWorld, tag, typeCode, target, view));
        }
        reuse.prepare(context, sourceWorld, tag, target, TypeCode.datatype(typeCode), TypeCode.header(typeCode),
            view);
        return post(reuse);
    }

    private RecvRequest post(final RecvRequest r) {
        final Inbound m = matcher.post(r);
        if (null != m) {
            r.onMatch(m);
        }
        return r;
    }

    /**
     * Looks for a matching message that has arrived but not been received.
     *
     * @param context     context id
     * @param sourceWorld source world rank or {@link #ANY}
     * @param tag         tag or {@link #ANY}
     * @param view        the communicator
     * @return its status, or null if none has arrived
     */
    public Status iprobe(final int context, final int sourceWorld, final int tag, final CommView view) {
        final RecvRequest probe = new RecvRequest(this, context, sourceWorld, tag, null, null, Datatype.BYTE, view);
        Status found = matcher.peek(probe, view);
        if (null == found) {
            progress();
            found = matcher.peek(probe, view);
        }
        if (null == found) {
            final TuttiException failed = failureAffecting(sourceWorld);
            if (null != failed) {
                throw Failures.rethrown(failed);
            }
        }
        return found;
    }

    /**
     * Tells whether a message from {@code sourceWorld} on {@code context} and {@code tag} has arrived and waits for
     * its receive, after a pass of progress if none has: {@link #iprobe} without wildcards, status or failure check,
     * allocating nothing (the on-host region asks it on idle passes of its waits, which are many on a loaded host).
     *
     * @param context     the context id
     * @param sourceWorld the sender's world rank
     * @param tag         the tag
     * @return true if such a message waits
     */
    public boolean hasArrived(final int context, final int sourceWorld, final int tag) {
        if (matcher.holds(context, sourceWorld, tag)) {
            return true;
        }
        progress();
        return matcher.holds(context, sourceWorld, tag);
    }

    /**
     * Polls the transports that need polling.
     *
     * @return the work done, 0 if none
     */
    public int progress() {
        return progress(false);
    }

    /**
     * As {@link #progress()}, for a waiting thread that is about to park ({@link Transport#pollBeforePark()}).
     *
     * @return the work done, 0 if none
     */
    public int progressBeforePark() {
        return progress(true);
    }

    private int progress(final boolean beforePark) {
        int work = 0;
        for (final Transport t : polled) {
            work += beforePark ? t.pollBeforePark() : t.poll();
        }
        for (final Agent a : agents) {
            work += a.doWork();
        }
        return work;
    }

    /**
     * Adds an agent that every wait on this engine runs (the collective layer's active schedules).
     *
     * @param agent the agent
     */
    public synchronized void addAgent(final Agent agent) {
        final Agent[] next = Arrays.copyOf(agents, agents.length + 1);
        next[next.length - 1] = agent;
        agents = next; // volatile store: publishes the new array to progress()
    }

    @Override
    public void arrive(final Inbound message) {
        final RecvRequest r = matcher.arrive(message);
        if (null != r) {
            r.onMatch(message);
        }
    }

    @Override
    public boolean arriveNow(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment bytes, final long offset, final long length) {
        final RecvRequest r = matcher.takePosted(context, source, tag);
        if (null == r) {
            return false;
        }
        r.receiveNow(source, tag, typeCode, bytes, offset, length);
        return true;
    }

    @Override
    public void peerFailed(final int peer, final Throwable cause) {
        final TuttiException e = cause instanceof TuttiException te && ErrorClass.PROC_FAILED == te.errorClass()
            ? te : Failures.peerFailed(peer, String.valueOf(cause), cause);
        if (peerFailures.compareAndSet(peer, null, e) && null == anyPeerFailure) {
            anyPeerFailure = e;
        }
    }

    @Override
    public void peerLeft(final int peer) {
        peerFailures.compareAndSet(peer, null, Failures.peerLeft(peer));
        if (!anyPeerLeft) {
            anyPeerLeft = true;
        }
    }

    /**
     * Tells whether some peer left the job or failed, or the job is aborting: when not, no wait need look for a
     * departed peer (two volatile reads).
     *
     * @return true if {@link #failureAffecting} may return a failure for some peer
     */
    public boolean anyPeerGone() {
        return anyPeerLeft || null != anyPeerFailure || null != abortCause;
    }

    /**
     * Fails every current and future wait on this engine: the job is going down.
     *
     * @param cause what happened, naming the rank that failed
     */
    public void abort(final TuttiException cause) {
        if (null == abortCause) {
            abortCause = cause;
        }
    }

    /**
     * Returns the failure that prevents progress with the given peer, or null.
     *
     * @param peerWorld a world rank, or {@link #ANY} for any peer
     * @return the abort cause, or the peer's (any peer's) failure, or null
     */
    public TuttiException failureAffecting(final int peerWorld) {
        final TuttiException aborted = abortCause;
        if (null != aborted) {
            return aborted;
        }
        if (ANY == peerWorld) {
            return anyPeerFailure;
        }
        return peerWorld >= 0 && peerWorld < worldSize ? peerFailures.get(peerWorld) : null;
    }

    /**
     * Returns the collective layer's per-rank state, creating it on first use (the p2p layer does not know its
     * type).
     *
     * @param init creates the state
     * @param <T>  its type
     * @return the state
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> T collectiveState(final java.util.function.Supplier<T> init) {
        if (null == collectiveState) {
            collectiveState = init.get();
        }
        return (T) collectiveState;
    }

    /**
     * Retires the contexts {@code [from, to)} of a freed communicator once no receive on them is posted: drops
     * every message on them that arrived and was never received (each is discarded, so that its sender completes),
     * and returns how many. Retiring again is harmless; the caller ensures that nothing more arrives on them.
     *
     * @param from    the first context
     * @param to      one past the last context
     * @param inspect sees each message before it is dropped (the collective layer looks for mismatches)
     * @return the number of messages dropped, or -1 (nothing done) while a receive on one of the contexts is posted
     */
    public int retireContexts(final int from, final int to, final java.util.function.Consumer<Inbound> inspect) {
        final List<Inbound> dropped = matcher.retire(from, to);
        if (null == dropped) {
            return -1;
        }
        for (final Inbound m : dropped) {
            inspect.accept(m);
            final String what = "context=" + m.context + " from rank=" + m.source; // read before discard recycles m
            m.discard(failure -> {
                if (null != failure) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "discarding a message of retired " + what + " failed: "
                        + failure);
                }
            });
        }
        return dropped.size();
    }

    /** @return the messages that have arrived and not been received, oldest first (the checker's leak report) */
    public List<Inbound> unreceived() {
        return matcher.unexpected();
    }

    /**
     * The rank is done with the job (its close, or its body's return in an embedded job): with the checker on, the
     * checker reports what the rank leaves behind ({@link P2pHook#closing()}); else nothing.
     *
     * @return the failure the checker ends the rank with (it reported a finding and does not only warn), or null
     */
    public TuttiException closing() {
        final P2pHook h = hook;
        if (null != h) {
            progress();
            return h.closing();
        }
        return null;
    }

    /** @return receives posted plus messages unmatched, for leak checks */
    public int pendingCount() {
        return matcher.pendingCount();
    }

    /**
     * This rank failed: fails its own current and future waits with {@code cause} and leaves every transport at
     * once, without goodbye ({@link Transport#abort()}), so that its peers fail it rather than wait for it.
     *
     * @param cause what happened
     */
    public void abortRank(final TuttiException cause) {
        abort(cause);
        for (final Transport t : polled) {
            t.abort();
        }
        for (final Transport t : kept) {
            t.abort();
        }
    }

    /** Closes every transport once: those that route messages, then those only kept open. */
    public void close() {
        for (final Transport t : polled) {
            t.close();
        }
        for (final Transport t : kept) {
            t.close();
        }
    }

    @Override
    public String toString() {
        return "P2pEngine(rank=" + worldRank + ", size=" + worldSize + ", transports=" + Arrays.toString(polled)
            + ")";
    }
}
