package dev.tutti;

import dev.tutti.calls.ApiAccess;
import dev.tutti.calls.CompletedRequest;
import dev.tutti.calls.ObjectReceive;
import dev.tutti.calls.P2pChecks;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;

/**
 * Every communicator (intra- and inter-): a group of ranks that communicate, with its own message space: messages
 * sent on one communicator are never received on another, and collective traffic never mixes with point-to-point
 * traffic. Its operations come in families, each its own type: {@link PointToPoint}, {@link BlockingCollectives},
 * {@link NonblockingCollectives}, {@link TaggedCollectives} and {@link PersistentCollectives}; this class adds the
 * communicator's identity (rank, size, name, groups) and {@link #free()}. {@link Communicator} adds the prefix
 * reductions ({@link ScanCollectives}), the object collectives ({@link ObjectCollectives}) and the creation of new
 * communicators.
 *
 * <p>Thread-safety: every method may be called from several threads of a rank at once (MPI_THREAD_MULTIPLE).
 * Arguments are checked before anything is sent; a bad argument throws {@link TuttiException} naming the
 * operation, the argument, its value and the allowed range, and the communicator stays usable.
 *
 * <p>Two kinds: an intracommunicator ({@link Communicator}) is one group whose ranks talk to each other; an
 * intercommunicator ({@link Intercommunicator}) joins two disjoint groups, and its point-to-point operations
 * address ranks of the <em>remote</em> group. Following Tutti's symmetric view, an intracommunicator is the case
 * where the two groups are the same group: {@link #remoteGroup()} is then {@link #group()}, and the symmetric
 * collectives ({@link #bcast(Buf, Buf, int, int)}, ...) mean on it exactly the ordinary collectives, so code
 * written against {@code Comm} runs on both kinds.
 *
 * <p>Implementation note. Point-to-point calls go to the rank's {@link dev.tutti.p2p.P2pEngine} after
 * {@link P2pChecks}; the collective families are implemented once for both kinds by {@link CollectiveCalls}.
 *
 * <p>Every communicator owns a block of context ids agreed by its members when it was created (see
 * {@link #free()}); traffic on one communicator never matches on another.
 */
public abstract class Comm implements PointToPoint, BlockingCollectives, NonblockingCollectives,
    TaggedCollectives, PersistentCollectives {
    /** Receive from any source. */
    public static final int ANY_SOURCE = -1;
    /** Receive with any tag. */
    public static final int ANY_TAG = -1;
    /** The null process: a send to it or a receive from it completes at once and moves nothing. */
    public static final int PROC_NULL = -2;
    /** The largest point-to-point tag. */
    public static final int TAG_UB = Integer.MAX_VALUE;
    /** A color that puts the calling rank in no new communicator ({@link Communicator#split}), MPI_UNDEFINED. */
    public static final int UNDEFINED = Group.UNDEFINED;

    static { // the implementation's way into what the api keeps package-private (see ApiAccess)
        ApiAccess.install(new ApiAccess() {
            @Override
            protected String describeComm(final Comm comm) {
                return comm.describe();
            }

            @Override
            protected void bindTuttiToThread(final Tutti tutti) {
                tutti.bindToThread();
            }
        });
    }

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
    Comm(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
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

    /** @return this process's rank in the group, 0..size-1 */
    public int rank() {
        return rank;
    }

    /** @return the number of ranks in the group */
    public int size() {
        return size;
    }

    /** @return the communicator's name, shown in error messages */
    public String name() {
        return name;
    }

    /**
     * Renames the communicator on this rank (MPI_Comm_set_name); later error messages show the new name.
     *
     * @param newName the name
     * @throws TuttiException of class {@link ErrorClass#ARG} if the name is null or blank
     */
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

    /** @return the local group: this rank's group, in rank order */
    public Group group() {
        return Group.of(engine.worldRank(), localWorldRanks());
    }

    /**
     * Returns the group that point-to-point operations address: for an intercommunicator the remote group; for an
     * intracommunicator the group itself (the two groups coincide).
     *
     * @return the remote group
     */
    public Group remoteGroup() {
        return Group.of(engine.worldRank(), peerWorldRanks());
    }

    /** @return the size of the {@link #remoteGroup()}: the range of point-to-point destinations and sources */
    public int remoteSize() {
        return peerSize;
    }

    /** @return whether this is an intercommunicator */
    public abstract boolean isInter();

    /**
     * Compares two communicators (MPI_Comm_compare).
     *
     * @param other the other communicator
     * @return {@link Group.Comparison#IDENT} for the same communicator; {@link Group.Comparison#CONGRUENT} for
     *         another communicator of the same kind whose groups (local, and remote for intercommunicators) have
     *         the same members in the same order; {@link Group.Comparison#SIMILAR} if the members are the same
     *         in another order; else {@link Group.Comparison#UNEQUAL}
     */
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

    /**
     * Frees the communicator on this rank (MPI_Comm_free, collective): later calls on it fail with {@link
     * ErrorClass#COMM}. Its context ids are reused once every member has freed it and its traffic here is drained;
     * messages left unreceived on it are dropped and never reach a later one. Operations started before the free
     * (point-to-point, nonblocking, tagged and persistent collectives) complete normally; a persistent request of
     * it cannot be started again. The world cannot be freed.
     *
     * @throws TuttiException of class {@link ErrorClass#COMM} if the communicator is the world or is already freed
     */
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

    /** @return whether {@link #free()} was called on this rank */
    public boolean isFreed() {
        return freed;
    }

    // ------------------------------------------------------------------------------------------ point-to-point

    @Override
    public void send(final Buf buf, final int dest, final int tag) {
        checkLive("send");
        p2pChecks.send("send", buf, dest, tag);
        if (PROC_NULL != dest) {
            engine.send(p2pContext, toWorld(dest), tag, buf);
        }
    }

    @Override
    public Request isend(final Buf buf, final int dest, final int tag) {
        checkLive("isend");
        p2pChecks.send("isend", buf, dest, tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.isend(p2pContext, toWorld(dest), tag, buf);
    }

    @Override
    public void ssend(final Buf buf, final int dest, final int tag) {
        checkLive("ssend");
        p2pChecks.send("ssend", buf, dest, tag);
        if (PROC_NULL != dest) {
            engine.ssend(p2pContext, toWorld(dest), tag, buf, view);
        }
    }

    @Override
    public Request issend(final Buf buf, final int dest, final int tag) {
        checkLive("issend");
        p2pChecks.send("issend", buf, dest, tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.issend(p2pContext, toWorld(dest), tag, buf, view);
    }

    @Override
    public Status recv(final Buf buf, final int source, final int tag) {
        checkLive("recv");
        p2pChecks.recv("recv", buf, source, tag);
        if (PROC_NULL == source) {
            return CompletedRequest.NULL_PEER.waitFor();
        }
        return engine.recv(p2pContext, toWorldOrAny(source), tag, buf, view);
    }

    @Override
    public Request irecv(final Buf buf, final int source, final int tag) {
        checkLive("irecv");
        p2pChecks.recv("irecv", buf, source, tag);
        if (PROC_NULL == source) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.irecv(p2pContext, toWorldOrAny(source), tag, buf, view);
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
        final Request r = irecv(recvBuf, source, recvTag);
        try {
            isend(sendBuf, dest, sendTag).waitFor();
        } catch (final RuntimeException e) {
            // The receive must not outlive the call: left posted, it would swallow the next matching message.
            r.cancel();
            throw e;
        }
        return r.waitFor();
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

    P2pEngine engine() {
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

    ContextIdAllocator contexts() {
        return contexts;
    }

    /** @return the first context id of this communicator's block */
    int contextBase() {
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

    CommView view() {
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
            return Comm.this.describe();
        }

        @Override
        public boolean isFreed() {
            return freed;
        }
    }

    /** An object receive: deserializes on first {@link #get()}. */
}
