package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Inbound;
import dev.tutti.type.BooleanStaging;
import dev.tutti.type.TypeCode;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A receive in progress: posted to the matcher, matched to an {@link Inbound}, then filled by the transport.
 *
 * <p>Implementation notes. The envelope fields are immutable. The matched message's envelope ({@code msgSource},
 * {@code msgTag}, {@code msgType}, {@code msgLength}) is written once by the thread that matched (under the matcher
 * lock, or right after it) and read by {@link #delivered} on the thread that completes the transfer; the
 * transport's hand-off between the two is the happens-before edge. A receive posted with
 * {@link P2pEngine#ANY} source or tag matches any value of that field within its context. A message may also be
 * received without any {@link Inbound} object ({@link #receiveNow}): the transport offers bytes it holds for the
 * duration of the call, and they are copied at once.
 *
 * <p>A receive of a collective schedule also expects a header in the message's type code (see {@link TypeCode}):
 * the kind and root(s) of the call. It fails, without taking the bytes, when the message it matched carries a
 * header that disagrees, and when another message of the same call (same context and tag, another source) does
 * ({@link #refuses}, checked by the {@link Matcher}): every message of one collective call on one rank carries
 * the same header, so either one proves that the ranks called different collectives or roots. The offending
 * message's source and code are kept ({@link #conflictSource()}, {@link #conflictCode()}) for the collective
 * layer, which names both calls.
 */
public final class RecvRequest extends AbstractRequest implements Inbound.Delivery {
    private static final VarHandle MSG_LENGTH;

    static {
        try {
            MSG_LENGTH = MethodHandles.lookup().findVarHandle(RecvRequest.class, "msgLength", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /* Set at construction, or by prepare() on a reusable request before it is posted (the matcher lock
       publishes them). */
    int context;
    int sourceWorld;
    int tag;
    private MemorySegment target;
    private final boolean allocate;
    private final Buf booleans;
    private Datatype expected;
    /** The header the message must carry ({@link TypeCode}): 0 for point-to-point receives. */
    private int expectedHeader;
    private CommView view;
    private final boolean reusable;
    /**
     * The thread whose blocking receives this request serves ({@link #blocking}), else null: the one thread that
     * waits on it, and so the one that could fail it while another fills it.
     */
    private final Thread owner;
    /** -1 until matched; stored with release after the other msg fields, read with acquire (blockingFailure). */
    private long msgLength = -1;
    private int msgSource;
    private int msgTag;
    private int msgType;
    private byte[] staging;
    private TuttiException mismatch;
    /**
     * The status this reusable receive last returned ({@link #receivedStatus}): a record, so a receive whose message
     * has the same source, tag, length and type returns it again instead of a new one, and a loop of like blocking
     * receives allocates nothing (and makes no young collection pause its rank).
     */
    private Status lastStatus;
    /** The world rank whose message's header disagreed, or -1; written before the failing completion. */
    private int conflictSource = -1;
    private int conflictCode;
    /** The call site of a user's receive, with the checker on ({@link P2pHook#receiveSite()}); else null. */
    Object site;

    RecvRequest(final P2pEngine engine, final int context, final int sourceWorld, final int tag,
        final MemorySegment target, final Buf booleans, final Datatype expected, final CommView view) {
        this(engine, context, sourceWorld, tag, target, booleans, expected, view, false, null);
    }

    /** A receive of a collective schedule: {@code code} holds the datatype and the header the message must carry. */
    RecvRequest(final P2pEngine engine, final int context, final int sourceWorld, final int tag, final int code,
        final MemorySegment target, final CommView view) {
        this(engine, context, sourceWorld, tag, target, null, TypeCode.datatype(code), view, false, null);
        this.expectedHeader = TypeCode.header(code);
    }

    private RecvRequest(final P2pEngine engine, final int context, final int sourceWorld, final int tag,
        final MemorySegment target, final Buf booleans, final Datatype expected, final CommView view,
        final boolean reusable, final Thread owner) {
        super(engine);
        this.context = context;
        this.sourceWorld = sourceWorld;
        this.tag = tag;
        this.target = target;
        this.allocate = null == target && null == booleans;
        this.booleans = booleans;
        this.expected = expected;
        this.view = view;
        this.reusable = reusable;
        this.owner = owner;
    }

    /**
     * Creates a receive that one thread reuses for its blocking receives into plain buffers
     * ({@link P2pEngine#recv}): {@link #prepare} before each use; it completes with {@link Status#EMPTY} and
     * {@link #receivedStatus} gives the real status, a new one only when it differs from the last it gave, so that a
     * loop of like blocking receives allocates nothing.
     *
     * <p>Reuse is safe only after a successful completion: every transport delivers a message exactly once and
     * touches the receive no more after its {@code delivered} call, and the matcher removed it when it matched.
     * A receive that failed may still be referenced (posted, or mid-transfer) and must be dropped.
     */
    static RecvRequest reusable(final P2pEngine engine) {
        return new RecvRequest(engine, 0, P2pEngine.ANY, P2pEngine.ANY, MemorySegment.NULL, null, Datatype.BYTE,
            null, true, null);
    }

    /**
     * Creates the reusable receive of the calling thread's blocking receives ({@link P2pEngine#recv}): as
     * {@link #reusable}, and when this thread itself matches it to bytes it holds ({@link #receiveNow}), it completes
     * it with a release store instead of a CAS. No other thread can complete it then: the matcher gave it to this
     * thread alone, no transport holds it, and the one other completer, a wait that fails it
     * ({@link AbstractRequest}), runs on this thread.
     */
    static RecvRequest blocking(final P2pEngine engine) {
        return new RecvRequest(engine, 0, P2pEngine.ANY, P2pEngine.ANY, MemorySegment.NULL, null, Datatype.BYTE,
            null, true, Thread.currentThread());
    }

    /** Arms a reusable receive (fresh, or completed successfully) for its next use; the owner thread only. */
    void prepare(final int newContext, final int newSourceWorld, final int newTag, final MemorySegment newTarget,
        final Datatype newExpected, final CommView newView) {
        prepare(newContext, newSourceWorld, newTag, newTarget, newExpected, 0, newView);
    }

    /** Arms a reusable receive with the header the message must carry (0: none); the owner thread only. */
    void prepare(final int newContext, final int newSourceWorld, final int newTag, final MemorySegment newTarget,
        final Datatype newExpected, final int newHeader, final CommView newView) {
        context = newContext;
        sourceWorld = newSourceWorld;
        tag = newTag;
        target = newTarget;
        expected = newExpected;
        expectedHeader = newHeader;
        view = newView;
        MSG_LENGTH.set(this, -1L);
        staging = null;
        mismatch = null;
        conflictSource = -1;
        rearm();
    }

    /**
     * Returns the status of the message a reusable receive completed with, and lets go of the caller's buffer and
     * communicator (the receive stays cached with its thread and must not keep them reachable).
     *
     * @return the status
     */
    Status receivedStatus() {
        final int source = view.toLocal(msgSource);
        final Datatype type = TypeCode.datatype(msgType);
        Status s = lastStatus;
        if (null == s || s.source() != source || s.tag() != msgTag || s.bytes() != msgLength || s.datatype() != type) {
            s = new Status(source, msgTag, msgLength, type, false);
            lastStatus = s;
        }
        target = MemorySegment.NULL;
        view = null;
        return s;
    }

    /** @return the capacity of the receive buffer in bytes */
    private long capacity() {
        return null != booleans ? booleans.byteSize() : target.byteSize();
    }

    boolean matches(final Inbound m) {
        return matches(m.context, m.source, m.tag);
    }

    boolean matches(final int msgContext, final int source, final int msgTag) {
        return context == msgContext && (P2pEngine.ANY == sourceWorld || sourceWorld == source)
            && (P2pEngine.ANY == tag || tag == msgTag);
    }

    /**
     * Returns whether a message this receive does not match proves that its call went wrong: the receive expects
     * a header, and the message, a collective one too, belongs to the same call (context and tag) but carries a
     * header that disagrees. (A point-to-point message that shares the context, such as an intercommunicator
     * leaders' exchange on the management context, proves nothing.) Called under the matcher lock; reads only
     * fields fixed while the receive is posted.
     */
    boolean refuses(final Inbound m) {
        return 0 != expectedHeader && context == m.context && tag == m.tag && 0 != TypeCode.kind(m.typeCode)
            && !TypeCode.headersAgree(m.typeCode, expectedHeader);
    }

    /**
     * Fails this receive because of a message of its call from another source ({@link #refuses}); the message
     * stays queued. Called once, outside the matcher lock, by the thread that found it, after removing this
     * receive from the posted queue.
     */
    void refuse(final Inbound m) {
        complete(null, conflict(m.source, m.tag, m.typeCode));
    }

    private TuttiException conflict(final int source, final int theTag, final int typeCode) {
        conflictSource = source;
        conflictCode = typeCode;
        return Errors.received(ErrorClass.ARG, "recv", view.describe(), view.toLocal(source), theTag,
            TypeCode.describe(typeCode), "the receive expects " + TypeCode.describe(expectedHeader
                | expected.ordinal()) + ": the message belongs to another collective call");
    }

    /** @return the world rank whose message's collective header disagreed with this receive's, or -1 */
    public int conflictSource() {
        return conflictSource;
    }

    /** @return the type code of that message; valid if {@link #conflictSource()} is not -1 */
    public int conflictCode() {
        return conflictCode;
    }

    /** Called once, outside the matcher lock, by whichever thread matched this receive to {@code m}. */
    void onMatch(final Inbound m) {
        final MemorySegment destination = accept(m.source, m.tag, m.typeCode, m.lengthBytes);
        if (null == destination) {
            m.discard(ignored -> complete(null, mismatch));
            return;
        }
        m.deliver(destination, this);
    }

    /**
     * Receives a matched message whose bytes the caller holds: copies them now and completes. Called once, outside
     * the matcher lock, by the thread that matched this receive.
     *
     * @param source   the sender's world rank
     * @param theTag   the message's tag
     * @param typeCode the message's type code ({@link TypeCode})
     * @param bytes    memory holding the payload
     * @param offset   where the payload starts in {@code bytes}
     * @param length   the payload's length
     */
    void receiveNow(final int source, final int theTag, final int typeCode, final MemorySegment bytes,
        final long offset, final long length) {
        final MemorySegment destination = accept(source, theTag, typeCode, length);
        if (null == destination) {
            complete(null, mismatch);
            return;
        }
        final long n = Math.min(length, destination.byteSize());
        if (n > 0) {
            SegmentCopy.copy(bytes, offset, destination, 0, n);
        }
        if (null != owner && length <= n && Thread.currentThread() == owner) {
            completeByHolder(Status.EMPTY); // see blocking(): a plain buffer that holds it all, nothing to unpack
            return;
        }
        delivered(null);
    }

    /**
     * Records the matched envelope and returns where its bytes go, or null if the message cannot be received
     * here ({@code mismatch} says why). A synchronous-mode message is acknowledged here, matched whether or not its
     * bytes fit ({@link SyncSend}).
     */
    private MemorySegment accept(final int source, final int theTag, final int typeCode, final long length) {
        msgSource = source;
        msgTag = theTag;
        msgType = typeCode;
        MSG_LENGTH.setRelease(this, length); // pairs with the acquire in blockingFailure(): msgSource is set
        int bare = typeCode;
        if (bare < 0 && SyncSend.isSync(bare)) { // its sender waits for this match (a synchronous-mode send)
            engine.acknowledge(context, source, theTag);
            bare = SyncSend.plain(bare);
        }
        final P2pHook hook = engine.hook();
        final int code = null == hook ? bare : SiteCode.plain(bare);
        if (!TypeCode.headersAgree(code, expectedHeader)) {
            mismatch = conflict(source, theTag, code);
            return null;
        }
        if (null != hook && 0 == expectedHeader) {
            final TuttiException bad = hook.signature(this, source, theTag, typeCode, length, expected,
                allocate ? -1 : capacity(), site);
            if (null != bad) {
                mismatch = bad;
                return null;
            }
        }
        final Datatype sent = TypeCode.datatype(code);
        if (sent != expected && Datatype.BYTE != expected && Datatype.BYTE != sent) {
            mismatch = Errors.received(ErrorClass.TYPE, "recv", view.describe(), view.toLocal(source), theTag,
                "type=" + sent, "the receive expects type=" + expected);
            return null;
        }
        if (allocate) {
            if (length > Integer.MAX_VALUE - 16) {
                mismatch = Errors.received(ErrorClass.COUNT, "recvObject", view.describe(), view.toLocal(source),
                    theTag, "bytes=" + length, "more than an array holds");
                return null;
            }
            staging = new byte[(int) length];
            return MemorySegment.ofArray(staging);
        }
        if (null != booleans) {
            staging = new byte[(int) Math.min(length, booleans.byteSize())];
            return MemorySegment.ofArray(staging);
        }
        return target;
    }

    @Override
    public void delivered(final Throwable failure) {
        if (null != failure) {
            complete(null, failure instanceof TuttiException te ? te : Failures.failed(ErrorClass.PROC_FAILED,
                "recv", view.describe(), "the message from rank=" + view.toLocal(msgSource) + " tag=" + msgTag
                    + " failed", failure));
            return;
        }
        if (null != booleans) {
            BooleanStaging.unpack(MemorySegment.ofArray(staging), booleans);
        }
        if (!allocate && msgLength > capacity()) {
            complete(null, Errors.received(ErrorClass.TRUNCATE, "recv", view.describe(), view.toLocal(msgSource),
                msgTag, "bytes=" + msgLength, "buffer holds bytes=" + capacity() + " (truncated)"));
            return;
        }
        complete(reusable ? Status.EMPTY : new Status(view.toLocal(msgSource), msgTag, msgLength,
            TypeCode.datatype(msgType), false), null);
    }

    /** @return the length of the matched message in bytes, or -1 if not matched yet */
    public long matchedLength() {
        return msgLength;
    }

    /**
     * Returns the bytes of an object receive (a receive posted without a buffer), once complete.
     *
     * @return the received bytes
     */
    public byte[] receivedBytes() {
        return staging;
    }

    @Override
    public void cancel() {
        if (engine.matcher().cancel(this)) {
            complete(new Status(P2pEngine.ANY, P2pEngine.ANY, 0, expected, true), null);
        }
    }

    @Override
    protected TuttiException blockingFailure() {
        return engine.failureAffecting((long) MSG_LENGTH.getAcquire(this) >= 0 ? msgSource : sourceWorld);
    }

    @Override
    protected void onBlockingFailure() {
        engine.matcher().cancel(this);
    }

    @Override
    public int[] waitsOn() {
        if ((long) MSG_LENGTH.getAcquire(this) >= 0) {
            return new int[] {msgSource};
        }
        return P2pEngine.ANY == sourceWorld ? null : new int[] {sourceWorld};
    }

    @Override
    public String describeWait() {
        final CommView v = view;
        if (null == v) {
            return toString();
        }
        return "recv from " + (P2pEngine.ANY == sourceWorld ? "any source" : "rank " + v.toLocal(sourceWorld))
            + ", tag " + (P2pEngine.ANY == tag ? "any" : String.valueOf(tag)) + " (" + v.describe() + ")";
    }

    /** @return the communicator of this receive, or null while idle */
    public CommView view() {
        return view;
    }

    @Override
    protected String traceName() {
        return "recv";
    }

    @Override
    protected int tracePeer() {
        return sourceWorld;
    }

    @Override
    protected int traceTag() {
        return tag;
    }

    @Override
    public String toString() {
        final CommView v = view;
        return "recv(source=" + sourceWorld + ", tag=" + tag + ", context=" + context + ", "
            + (null == v ? "idle" : v.describe()) + ")";
    }
}
