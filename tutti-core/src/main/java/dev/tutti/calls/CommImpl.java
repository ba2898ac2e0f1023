package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Group;
import dev.tutti.ObjectRequest;
import dev.tutti.ObjectSerializer;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.Tutti;
import dev.tutti.calls.P2pChecks;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.internal.Errors;
import dev.tutti.internal.GroupAccess;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.trace.P2pEvent;
import dev.tutti.trace.Trace;

import java.lang.foreign.MemorySegment;

/**
 * What every communicator of the library is behind {@link Comm}: its rank's engine, its context block, its groups as
 * world ranks, its name and whether it is freed; point-to-point calls go to the rank's
 * {@link dev.tutti.p2p.P2pEngine} after {@link P2pChecks}, and the collective families are implemented once for both
 * kinds by {@link CollectiveCalls}. The engine-facing accessors ({@link #engine()}, {@link #contexts()},
 * {@link #view()}, ...) are public for the other implementation packages; the api never sees this class.
 *
 * <p>Implementation note. Immutable after construction except the name and the freed flag (both volatile), so every
 * method may be called from several threads of a rank at once. Every communicator owns a block of context ids agreed
 * by its members when it was created; {@link #free()} returns it.
 */
public abstract class CommImpl implements Comm {
    private final P2pEngine engine;
    private final int p2pContext;
    private final int block;
    private final int rank;
    private final int size;
    private volatile String name;
    private volatile boolean freed;
    private final int[] worldRanks;
    private final int[] peerRanks;
    private final int peerSize;
    private final ObjectSerializer serializer;
    private final ContextIdAllocator contexts;
    private final View view = new View();
    private final P2pChecks p2pChecks = new P2pChecks(this);

    /**
     * @param engine     the rank's engine
     * @param name       the name shown in messages
     * @param p2pContext the point-to-point context: the first id of the communicator's context block
     * @param worldRanks the local group as world ranks, or null for the world in order
     * @param peerRanks  the group that point-to-point addresses (the local group, or the remote group of an
     *                   intercommunicator) as world ranks, or null for the world in order
     * @param serializer object serializer
     * @param contexts   this rank's context ids, which children draw from and {@link #free()} returns to
     */
    CommImpl(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final int[] peerRanks, final ObjectSerializer serializer, final ContextIdAllocator contexts) {
        this.engine = engine;
        this.name = name;
        this.p2pContext = p2pContext;
        this.block = p2pContext / ContextIdAllocator.IDS_PER_BLOCK;
        this.worldRanks = worldRanks;
        this.peerRanks = peerRanks;
        this.size = null == worldRanks ? engine.worldSize() : worldRanks.length;
        this.peerSize = null == peerRanks ? engine.worldSize() : peerRanks.length;
        this.rank = null == worldRanks ? engine.worldRank() : indexOf(worldRanks, engine.worldRank());
        this.serializer = serializer;
        this.contexts = contexts;
        if (0 != block && null != engine.hook()) { // the checker is on: it lists a communicator never freed
            final dev.tutti.coll.CollHook h = dev.tutti.coll.CollHooks.installed(engine);
            if (null != h) {
                h.opened("communicator never freed", this, () -> "'" + name() + "'", this::isFreed);
            }
        }
    }

    private static int indexOf(final int[] ranks, final int r) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == r) {
                return i;
            }
        }
        throw Errors.refused("world rank " + r + " is not a member");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void setName(final String newName) {
        if (null == newName || newName.isBlank()) {
            throw Errors.invalid(ErrorClass.ARG, "setName", describe(), "name=" + (null == newName ? "null"
                : "'" + newName + "'") + ", expected a non-blank name");
        }
        this.name = newName;
        renamed();
    }

    /** Called after {@link #setName}; subclasses refresh what caches the description. */
    void renamed() {
    }

    @Override
    public Group group() {
        return GroupAccess.get().of(engine.worldRank(), localWorldRanks());
    }

    @Override
    public Group remoteGroup() {
        return GroupAccess.get().of(engine.worldRank(), peerWorldRanks());
    }

    @Override
    public int remoteSize() {
        return peerSize;
    }

    @Override
    public abstract boolean isInter();

    @Override
    public Group.Comparison compare(final Comm other) {
        if (this == other) {
            return Group.Comparison.IDENT;
        }
        if (null == other || isInter() != other.isInter()) {
            return Group.Comparison.UNEQUAL;
        }
        final Group.Comparison local = group().compare(other.group());
        final Group.Comparison remote = isInter() ? remoteGroup().compare(other.remoteGroup())
            : Group.Comparison.IDENT;
        if (Group.Comparison.UNEQUAL == local || Group.Comparison.UNEQUAL == remote) {
            return Group.Comparison.UNEQUAL;
        }
        return Group.Comparison.IDENT == local && Group.Comparison.IDENT == remote ? Group.Comparison.CONGRUENT
            : Group.Comparison.SIMILAR;
    }

    @Override
    public void free() {
        if (0 == block) {
            throw Errors.invalid(ErrorClass.COMM, "free", describe(), "the world communicator cannot be freed");
        }
        synchronized (this) {
            checkLive("free");
            freed = true;
        }
        releaseCollectiveMemory();
        contexts.retire(block, localWorldRanks(), peerWorldRanks(), view);
    }

    /** Called once by {@link #free()}: gives the collectives' shared-memory slots of this communicator back. */
    abstract void releaseCollectiveMemory();

    @Override
    public boolean isFreed() {
        return freed;
    }

    // ------------------------------------------------------------------------------------------ point-to-point

    @Override
    public void send(final Buf buf, final int dest, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("send");
        p2pChecks.send("send", buf, dest, tag);
        if (PROC_NULL != dest) {
            engine.send(p2pContext, toWorld(dest), tag, buf);
        }
        if (null != ev) {
            traced(ev, "send", dest, tag, buf.byteSize(), null);
        }
    }

    @Override
    public Request isend(final Buf buf, final int dest, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("isend");
        p2pChecks.send("isend", buf, dest, tag);
        final Request r = startSend(buf, dest, tag);
        if (null != ev) {
            traced(ev, "isend", dest, tag, buf.byteSize(), r);
        }
        return r;
    }

    @Override
    public void ssend(final Buf buf, final int dest, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("ssend");
        p2pChecks.send("ssend", buf, dest, tag);
        if (PROC_NULL != dest) {
            engine.ssend(p2pContext, toWorld(dest), tag, buf, view);
        }
        if (null != ev) {
            traced(ev, "ssend", dest, tag, buf.byteSize(), null);
        }
    }

    @Override
    public Request issend(final Buf buf, final int dest, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("issend");
        p2pChecks.send("issend", buf, dest, tag);
        final Request r = PROC_NULL == dest ? CompletedRequest.NULL_PEER
            : engine.issend(p2pContext, toWorld(dest), tag, buf, view);
        if (null != ev) {
            traced(ev, "issend", dest, tag, buf.byteSize(), r);
        }
        return r;
    }

    @Override
    public Status recv(final Buf buf, final int source, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("recv");
        p2pChecks.recv("recv", buf, source, tag);
        final Status s = PROC_NULL == source ? CompletedRequest.NULL_PEER.waitFor()
            : engine.recv(p2pContext, toWorldOrAny(source), tag, buf, view);
        if (null != ev) {
            traced(ev, "recv", source, tag, s.bytes(), null);
        }
        return s;
    }

    @Override
    public Request irecv(final Buf buf, final int source, final int tag) {
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        checkLive("irecv");
        p2pChecks.recv("irecv", buf, source, tag);
        final Request r = postRecv(buf, source, tag);
        if (null != ev) {
            traced(ev, "irecv", source, tag, buf.byteSize(), r);
        }
        return r;
    }

    @Override
    public Status sendrecv(final Buf sendBuf, final int dest, final int sendTag, final Buf recvBuf,
        final int source, final int recvTag) {
        checkLive("sendrecv");
        p2pChecks.buf("sendrecv", "sendBuf", sendBuf);
        p2pChecks.buf("sendrecv", "recvBuf", recvBuf);
        p2pChecks.dest("sendrecv", dest);
        p2pChecks.sendTag("sendrecv", sendTag);
        p2pChecks.source("sendrecv", source);
        p2pChecks.recvTag("sendrecv", recvTag);
        final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
        final Request r = postRecv(recvBuf, source, recvTag);
        try {
            waitInCall(startSend(sendBuf, dest, sendTag));
        } catch (final RuntimeException e) {
            // The receive must not outlive the call: left posted, it would swallow the next matching message.
            r.cancel();
            throw e;
        }
        final Status s = waitInCall(r);
        if (null != ev) {
            traced(ev, "sendrecv", dest, sendTag, sendBuf.byteSize() + s.bytes(), null);
        }
        return s;
    }

    /** Starts a validated nonblocking send: its request, complete at once for {@code PROC_NULL}. */
    private Request startSend(final Buf buf, final int dest, final int tag) {
        return PROC_NULL == dest ? CompletedRequest.NULL_PEER : engine.isend(p2pContext, toWorld(dest), tag, buf);
    }

    /** Posts a validated nonblocking receive: its request, complete at once for {@code PROC_NULL}. */
    private Request postRecv(final Buf buf, final int source, final int tag) {
        return PROC_NULL == source ? CompletedRequest.NULL_PEER
            : engine.irecv(p2pContext, toWorldOrAny(source), tag, buf, view);
    }

    /**
     * Waits for a request inside a blocking call ({@code sendrecv}), whose own trace event spans the wait: without a
     * wait event of its own when Tutti records.
     */
    private static Status waitInCall(final Request r) {
        return Trace.ON && r instanceof AbstractRequest a ? a.waitForInCall() : r.waitFor();
    }

    /** Commits a point-to-point call's trace event (only with {@link Trace#ON}). */
    private void traced(final P2pEvent ev, final String op, final int peer, final int tag, final long bytes,
        final Request request) {
        Trace.p2p(ev, op, engine.worldRank(), name, peer, tag, bytes, request);
    }

    @Override
    public Status probe(final int source, final int tag) {
        checkLive("probe");
        p2pChecks.source("probe", source);
        p2pChecks.recvTag("probe", tag);
        if (PROC_NULL == source) {
            return new Status(PROC_NULL, ANY_TAG, 0, Datatype.BYTE, false);
        }
        final dev.tutti.runtime.IdleStrategy idle = engine.idleStrategy();
        for (int i = 0;; i++) {
            final Status s = engine.iprobe(p2pContext, toWorldOrAny(source), tag, view);
            if (null != s) {
                return s;
            }
            idle.idle(i);
        }
    }

    @Override
    public Status iprobe(final int source, final int tag) {
        checkLive("iprobe");
        p2pChecks.source("iprobe", source);
        p2pChecks.recvTag("iprobe", tag);
        if (PROC_NULL == source) {
            return new Status(PROC_NULL, ANY_TAG, 0, Datatype.BYTE, false);
        }
        return engine.iprobe(p2pContext, toWorldOrAny(source), tag, view);
    }

    // ----------------------------------------------------------------------------------------- object messages

    @Override
    public void sendObject(final Object value, final int dest, final int tag) {
        isendObject(value, dest, tag).waitFor();
    }

    @Override
    public Request isendObject(final Object value, final int dest, final int tag) {
        checkLive("isendObject");
        p2pChecks.dest("isendObject", dest);
        p2pChecks.sendTag("isendObject", tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        final byte[] bytes = serializer.serialize(value);
        return engine.isend(p2pContext, toWorld(dest), tag, Datatype.OBJECT, MemorySegment.ofArray(bytes));
    }

    @Override
    public <T> T recvObject(final int source, final int tag) {
        return this.<T>irecvObject(source, tag).get();
    }

    @Override
    public <T> ObjectRequest<T> irecvObject(final int source, final int tag) {
        checkLive("irecvObject");
        p2pChecks.source("irecvObject", source);
        p2pChecks.recvTag("irecvObject", tag);
        if (PROC_NULL == source) {
            return new ObjectReceive<>(null, serializer);
        }
        final RecvRequest r = engine.irecvAllocating(p2pContext, toWorldOrAny(source), tag, Datatype.OBJECT, view);
        return new ObjectReceive<>(r, serializer);
    }

    // ------------------------------------------------------------------------------------------------ internals

    public P2pEngine engine() {
        return engine;
    }

    int p2pContext() {
        return p2pContext;
    }

    int[] worldRanks() {
        return worldRanks;
    }

    /** @return the local group as world ranks (never null) */
    int[] localWorldRanks() {
        return null == worldRanks ? identity(engine.worldSize()) : worldRanks.clone();
    }

    /** @return the addressed (remote) group as world ranks (never null) */
    int[] peerWorldRanks() {
        return null == peerRanks ? identity(engine.worldSize()) : peerRanks.clone();
    }

    private static int[] identity(final int n) {
        final int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    public ContextIdAllocator contexts() {
        return contexts;
    }

    /** @return the first context id of this communicator's block */
    public int contextBase() {
        return p2pContext;
    }

    /**
     * Throws if the communicator was freed.
     *
     * @param op the operation, for the message
     */
    void checkLive(final String op) {
        if (freed) {
            throw Errors.invalid(ErrorClass.COMM, op, describe(), "the communicator has been freed, expected a "
                + "live communicator");
        }
    }

    ObjectSerializer serializer() {
        return serializer;
    }

    public CommView view() {
        return view;
    }

    int toWorld(final int commRank) {
        return null == peerRanks ? commRank : peerRanks[commRank];
    }

    private int toWorldOrAny(final int source) {
        return ANY_SOURCE == source ? P2pEngine.ANY : toWorld(source);
    }

    String describe() {
        return "comm=" + name + ", rank=" + rank;
    }

    /** The argument checks of a send: live communicator, buffer, destination, tag. */
    @Override
    public String toString() {
        return (isInter() ? "Intercommunicator(" : "Communicator(") + describe() + ", size=" + size
            + (isInter() ? ", remoteSize=" + peerSize : "") + ")";
    }

    /** The communicator as the point-to-point layer sees it. */
    private final class View implements CommView {
        @Override
        public int toLocal(final int worldRank) {
            if (null == peerRanks) {
                return worldRank;
            }
            for (int i = 0; i < peerRanks.length; i++) {
                if (peerRanks[i] == worldRank) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public String describe() {
            return CommImpl.this.describe();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean isFreed() {
            return freed;
        }
    }

    /** An object receive: deserializes on first {@link #get()}. */
}
