package dev.tutti;

import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The point-to-point part of every communicator (intra- and inter-): a group of ranks that communicate, with its
 * own message space: messages sent on one communicator are never
 * received on another, and collective traffic never mixes with point-to-point traffic.
 *
 * <p>Thread-safety: every method may be called from several threads of a rank at once (MPI_THREAD_MULTIPLE).
 * Point-to-point messages from one sender to one receiver on one communicator are received in the order they were
 * sent (MPI's non-overtaking rule) when they match the same receive.
 *
 * <p>Arguments are checked before anything is sent; a bad argument throws {@link TuttiException} naming the
 * operation, the argument, its value and the allowed range, and the communicator stays usable.
 *
 * <p>Two kinds: an intracommunicator ({@link Communicator}) is one group whose ranks talk to each other; an
 * intercommunicator ({@link Intercommunicator}) joins two disjoint groups, and its point-to-point operations
 * address ranks of the <em>remote</em> group. Following Tutti's symmetric view, an intracommunicator is the case
 * where the two groups are the same group: {@link #remoteGroup()} is then {@link #group()}, and the symmetric
 * collectives declared here ({@link #bcast(Buf, Buf, int, int)}, ...) mean on it exactly the ordinary
 * collectives, so code written against {@code Comm} runs on both kinds.
 *
 * <p>Every communicator owns a block of context ids agreed by its members when it was created (see
 * {@link #free()}); traffic on one communicator never matches on another.
 */
public abstract class Comm {
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
    }

    private static int indexOf(final int[] ranks, final int r) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == r) {
                return i;
            }
        }
        throw new IllegalArgumentException("world rank " + r + " is not a member");
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
     * messages left unreceived on it are dropped and never reach a later one. Point-to-point operations started
     * before complete normally; nonblocking collectives must be complete first. The world cannot be freed.
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
        contexts.retire(block, localWorldRanks(), peerWorldRanks(), view);
    }

    /** @return whether {@link #free()} was called on this rank */
    public boolean isFreed() {
        return freed;
    }

    // ------------------------------------------------------------------------------------ symmetric collectives

    /**
     * Symmetric broadcast: the root of this rank's group sends {@code send} to every rank of the remote group, and
     * every rank of this group receives into {@code recv} what the remote group's root sends. On an
     * intercommunicator both directions move in one call; a direction may be empty (count 0), which gives MPI's
     * one-way broadcast. On an intracommunicator the two groups coincide: {@code root} must equal
     * {@code remoteRoot} and this is {@link Communicator#bcast(Buf, int)} from {@code send} at the root into
     * {@code recv} at every rank (the root's included).
     *
     * <pre>{@code
     * // A (producers) and B (consumers) swap a header: A's rank 0 to all of B, B's rank 2 to all of A
     * inter.bcast(Buf.of(mine), Buf.of(theirs), inA ? 0 : 2, inA ? 2 : 0);
     * }</pre>
     *
     * @param send       at this group's root, the data for every remote rank (its count is the element count);
     *                   ignored elsewhere (may be null)
     * @param recv       where the remote root's data arrives, at every rank of this group
     * @param root       this group's root, a rank of this group
     * @param remoteRoot the remote group's root, a rank of the remote group
     * @throws TuttiException of class {@link ErrorClass#ROOT} if a root is outside its group (or, on an
     *                        intracommunicator, the roots differ); of class {@link ErrorClass#COUNT} if the sizes
     *                        the two sides of a direction passed differ (where detected); or a failed peer
     */
    public abstract void bcast(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link #bcast(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, the data for every remote rank
     * @param recv       where the remote root's data arrives
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    public abstract Request ibcast(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Symmetric scatter: this group's root sends block {@code j} of {@code send} (remoteSize equal blocks) to
     * remote rank {@code j}, and every rank of this group receives its block of the remote root's data into
     * {@code recv}. On an intracommunicator ({@code root == remoteRoot}) this is
     * {@link Communicator#scatter(Buf, Buf, int)}.
     *
     * <pre>{@code
     * inter.scatter(Buf.of(blocksForB), Buf.of(myBlockFromB), 0, 0);
     * }</pre>
     *
     * @param send       at this group's root, remoteSize blocks; ignored elsewhere
     * @param recv       this rank's block from the remote root
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}, and of class {@link ErrorClass#COUNT} if the
     *                        root's send count is not a multiple of the remote size
     */
    public abstract void scatter(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link #scatter(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, remoteSize blocks
     * @param recv       this rank's block
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    public abstract Request iscatter(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Symmetric gather: every rank of this group sends {@code send} to the remote group's root, and this group's
     * root receives one block from each remote rank, in remote rank order, into {@code recv}. On an
     * intracommunicator ({@code root == remoteRoot}) this is {@link Communicator#gather(Buf, Buf, int)}.
     *
     * <pre>{@code
     * inter.gather(Buf.of(mine), Buf.of(allOfB), 0, 0);   // recv significant at this group's root only
     * }</pre>
     *
     * @param send       this rank's block
     * @param recv       at this group's root, remoteSize blocks; ignored elsewhere
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}
     */
    public abstract void gather(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link #gather(Buf, Buf, int, int)}.
     *
     * @param send       this rank's block
     * @param recv       at this group's root, remoteSize blocks
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    public abstract Request igather(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Symmetric reduce: the {@code send} vectors of this group are combined with {@code op} (in rank order) at the
     * remote group's root, and this group's root receives the combination of the remote group's vectors into
     * {@code recv}. On an intracommunicator ({@code root == remoteRoot}) this is
     * {@link Communicator#reduce(Buf, Buf, Op, int)}.
     *
     * <pre>{@code
     * inter.reduce(Buf.of(partial), Buf.of(sumOfB), Op.SUM, 0, 0);
     * }</pre>
     *
     * @param send       this rank's vector
     * @param recv       at this group's root, the remote group's result; ignored elsewhere
     * @param op         the reduction, the same at every rank of both groups
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}, and of class {@link ErrorClass#OP} if the
     *                        operation is not defined for the type
     */
    public abstract void reduce(Buf send, Buf recv, Op op, int root, int remoteRoot);

    /**
     * Nonblocking {@link #reduce(Buf, Buf, Op, int, int)}.
     *
     * @param send       this rank's vector
     * @param recv       at this group's root, the remote group's result
     * @param op         the reduction
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    public abstract Request ireduce(Buf send, Buf recv, Op op, int root, int remoteRoot);

    /**
     * Allgather: every rank's {@code send} reaches every rank of the remote group, which stores the blocks in
     * rank order in {@code recv} (remoteSize blocks). On an intercommunicator this is symmetric (both groups send
     * and receive, counts may differ per direction); on an intracommunicator it is the ordinary allgather.
     *
     * @param send this rank's block
     * @param recv remoteSize blocks
     * @throws TuttiException for a bad argument (before anything is sent), a count that differs between the
     *                        sides of a direction where detected, or a failed peer
     */
    public abstract void allgather(Buf send, Buf recv);

    /**
     * Nonblocking {@link #allgather(Buf, Buf)}.
     *
     * @param send this rank's block
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    public abstract Request iallgather(Buf send, Buf recv);

    /**
     * Alltoall: block {@code j} of {@code send} goes to rank {@code j} of the remote group, block {@code j} of
     * {@code recv} comes from it. On an intercommunicator this is the bipartite (symmetric) alltoall; on an
     * intracommunicator the ordinary one.
     *
     * @param send remoteSize blocks
     * @param recv remoteSize blocks
     * @throws TuttiException for a bad argument (before anything is sent), a count that differs between the
     *                        sides of a direction where detected, or a failed peer
     */
    public abstract void alltoall(Buf send, Buf recv);

    /**
     * Nonblocking {@link #alltoall(Buf, Buf)}.
     *
     * @param send remoteSize blocks
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    public abstract Request ialltoall(Buf send, Buf recv);

    /**
     * Allreduce: every rank of this group receives in {@code recv} the element-wise combination with {@code op}
     * of the remote group's {@code send} vectors (in rank order). On an intercommunicator both groups do so at
     * once and the counts of the two directions may differ; on an intracommunicator it is the ordinary allreduce.
     *
     * @param send this rank's vector
     * @param recv the remote group's result
     * @param op   the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count that differs between the
     *                        sides of a direction where detected, or a failed peer
     */
    public abstract void allreduce(Buf send, Buf recv, Op op);

    /**
     * Nonblocking {@link #allreduce(Buf, Buf, Op)}.
     *
     * @param send this rank's vector
     * @param recv the remote group's result
     * @param op   the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    public abstract Request iallreduce(Buf send, Buf recv, Op op);

    // ------------------------------------------------------------------------------------------ point-to-point

    /**
     * Sends a message and returns when the buffer may be reused. Small messages return at once (eager); large
     * ones may wait until the receiver has posted a matching receive.
     *
     * @param buf  the data
     * @param dest the destination rank, or {@link #PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @throws TuttiException for a bad argument, or if the destination failed
     */
    public void send(final Buf buf, final int dest, final int tag) {
        checkSend("send", buf, dest, tag);
        if (PROC_NULL != dest) {
            engine.send(p2pContext, toWorld(dest), tag, buf);
        }
    }

    /**
     * Starts a send.
     *
     * @param buf  the data; not to be modified until the request completes
     * @param dest the destination rank, or {@link #PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @return the request
     * @throws TuttiException for a bad argument
     */
    public Request isend(final Buf buf, final int dest, final int tag) {
        checkSend("isend", buf, dest, tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.isend(p2pContext, toWorld(dest), tag, buf);
    }

    /**
     * Receives a message into {@code buf}, whose count is the capacity.
     *
     * @param buf    where the data goes
     * @param source the source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status: actual source, tag and size
     * @throws TuttiException for a bad argument; of class {@link ErrorClass#TRUNCATE} if the message is longer
     *                        than the buffer; of class {@link ErrorClass#TYPE} if its datatype differs
     */
    public Status recv(final Buf buf, final int source, final int tag) {
        checkRecv("recv", buf, source, tag);
        if (PROC_NULL == source) {
            return CompletedRequest.NULL_PEER.waitFor();
        }
        return engine.recv(p2pContext, toWorldOrAny(source), tag, buf, view);
    }

    /**
     * Starts a receive.
     *
     * @param buf    where the data goes; not to be read until the request completes
     * @param source the source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the request; its status names the actual source and tag
     * @throws TuttiException for a bad argument
     */
    public Request irecv(final Buf buf, final int source, final int tag) {
        checkRecv("irecv", buf, source, tag);
        if (PROC_NULL == source) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.irecv(p2pContext, toWorldOrAny(source), tag, buf, view);
    }

    /**
     * Sends one message and receives another, without deadlock however the peers pair up.
     *
     * @param sendBuf the data to send
     * @param dest    destination rank or {@link #PROC_NULL}
     * @param sendTag tag of the sent message
     * @param recvBuf where the received data goes
     * @param source  source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param recvTag tag to receive or {@link #ANY_TAG}
     * @return the status of the receive
     * @throws TuttiException for a bad argument or a failed transfer
     */
    public Status sendrecv(final Buf sendBuf, final int dest, final int sendTag, final Buf recvBuf,
        final int source, final int recvTag) {
        checkLive("sendrecv");
        checkBuf("sendrecv", "sendBuf", sendBuf);
        checkBuf("sendrecv", "recvBuf", recvBuf);
        checkDest("sendrecv", dest);
        checkSendTag("sendrecv", sendTag);
        checkSource("sendrecv", source);
        checkRecvTag("sendrecv", recvTag);
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

    /**
     * Waits until a matching message has arrived and returns its envelope without receiving it.
     *
     * @param source the source rank or {@link #ANY_SOURCE}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status of the message
     * @throws TuttiException for a bad argument, or if the peer fails while waiting
     */
    public Status probe(final int source, final int tag) {
        checkLive("probe");
        checkSource("probe", source);
        checkRecvTag("probe", tag);
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

    /**
     * Returns the envelope of a matching message that has arrived, or null.
     *
     * @param source the source rank or {@link #ANY_SOURCE}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status, or null if no matching message has arrived yet
     * @throws TuttiException for a bad argument
     */
    public Status iprobe(final int source, final int tag) {
        checkLive("iprobe");
        checkSource("iprobe", source);
        checkRecvTag("iprobe", tag);
        if (PROC_NULL == source) {
            return new Status(PROC_NULL, ANY_TAG, 0, Datatype.BYTE, false);
        }
        return engine.iprobe(p2pContext, toWorldOrAny(source), tag, view);
    }

    // ----------------------------------------------------------------------------------------- object messages

    /**
     * Sends any serializable value. The receiver needs no size: {@link #recvObject} allocates exactly what
     * arrives.
     *
     * @param value the value (may be null)
     * @param dest  destination rank or {@link #PROC_NULL}
     * @param tag   the tag
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    public void sendObject(final Object value, final int dest, final int tag) {
        isendObject(value, dest, tag).waitFor();
    }

    /**
     * Starts sending a value; the value is serialized before this returns, so it may then be changed.
     *
     * @param value the value
     * @param dest  destination rank or {@link #PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    public Request isendObject(final Object value, final int dest, final int tag) {
        checkLive("isendObject");
        checkDest("isendObject", dest);
        checkSendTag("isendObject", tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        final byte[] bytes = serializer.serialize(value);
        return engine.isend(p2pContext, toWorld(dest), tag, Datatype.OBJECT, MemorySegment.ofArray(bytes));
    }

    /**
     * Receives a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link #ANY_SOURCE}
     * @param tag    tag or {@link #ANY_TAG}
     * @param <T>    the expected type
     * @return the value
     * @throws TuttiException for a bad argument, a failed transfer, or a class the allow-list rejects
     */
    public <T> T recvObject(final int source, final int tag) {
        return this.<T>irecvObject(source, tag).get();
    }

    /**
     * Starts receiving a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link #ANY_SOURCE}
     * @param tag    tag or {@link #ANY_TAG}
     * @param <T>    the expected type
     * @return the request; {@link ObjectRequest#get()} returns the value
     * @throws TuttiException for a bad argument
     */
    public <T> ObjectRequest<T> irecvObject(final int source, final int tag) {
        checkLive("irecvObject");
        checkSource("irecvObject", source);
        checkRecvTag("irecvObject", tag);
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
    private void checkSend(final String op, final Buf buf, final int dest, final int tag) {
        checkLive(op);
        checkBuf(op, buf);
        checkDest(op, dest);
        checkSendTag(op, tag);
    }

    /** The argument checks of a receive: live communicator, buffer, source, tag. */
    private void checkRecv(final String op, final Buf buf, final int source, final int tag) {
        checkLive(op);
        checkBuf(op, buf);
        checkSource(op, source);
        checkRecvTag(op, tag);
    }

    private void checkBuf(final String op, final Buf buf) {
        checkBuf(op, "buf", buf);
    }

    /** A point-to-point buffer: neither null nor {@link Buf#IN_PLACE}, which only collectives understand. */
    private void checkBuf(final String op, final String arg, final Buf buf) {
        if (null == buf) {
            throw Errors.nullArg(op, describe(), arg);
        }
        if (Buf.IN_PLACE == buf) {
            throw Errors.inPlace(op, describe(), arg, "only for collectives, where it names data already in place");
        }
    }

    private void checkDest(final String op, final int dest) {
        if ((dest < 0 || dest >= peerSize) && PROC_NULL != dest) {
            throw Errors.rank(op, describe(), "dest", dest, peerSize, " or PROC_NULL");
        }
    }

    private void checkSource(final String op, final int source) {
        if ((source < 0 || source >= peerSize) && PROC_NULL != source && ANY_SOURCE != source) {
            throw Errors.rank(op, describe(), "source", source, peerSize, " or ANY_SOURCE or PROC_NULL");
        }
    }

    private void checkSendTag(final String op, final int tag) {
        if (tag < 0) {
            throw Errors.tag(op, describe(), tag, TAG_UB, "");
        }
    }

    private void checkRecvTag(final String op, final int tag) {
        if (tag < 0 && ANY_TAG != tag) {
            throw Errors.tag(op, describe(), tag, TAG_UB, " or ANY_TAG");
        }
    }

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
    }

    /** An object receive: deserializes on first {@link #get()}. */
    private static final class ObjectReceive<T> implements ObjectRequest<T> {
        private final RecvRequest recv;
        private final ObjectSerializer serializer;

        ObjectReceive(final RecvRequest recv, final ObjectSerializer serializer) {
            this.recv = recv;
            this.serializer = serializer;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get() {
            if (null == recv) {
                return null;
            }
            recv.waitFor();
            return (T) serializer.deserialize(recv.receivedBytes());
        }

        @Override
        public boolean test() {
            return null == recv || recv.test();
        }

        @Override
        public Status waitFor() {
            return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor();
        }

        @Override
        public Status waitFor(final long timeout, final TimeUnit unit) {
            return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor(timeout, unit);
        }

        @Override
        public void cancel() {
            if (null != recv) {
                recv.cancel();
            }
        }
    }
}
