package dev.tutti;

import dev.tutti.calls.CollBridge;
import dev.tutti.calls.CollChecks;
import dev.tutti.calls.IntraBridge;
import dev.tutti.calls.ObjectBridge;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.SelectionTable;
import dev.tutti.comm.Agreement;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.comm.Creation;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BinaryOperator;
import java.util.function.IntFunction;

/**
 * An intracommunicator: a group of ranks with point-to-point messaging ({@link PointToPoint}) and every MPI
 * collective over {@link Buf} buffers, blocking ({@link BlockingCollectives}), nonblocking
 * ({@link NonblockingCollectives}, {@code i...}, returning a {@link Request}) and tagged two-phase
 * ({@link TaggedCollectives}), the prefix reductions ({@link ScanCollectives}), plus object collectives in
 * mpi4py's lowercase style ({@link ObjectCollectives}: {@code bcastObject}, {@code allreduceObject}, ...).
 *
 * <p>Ordering rule (MPI): ordinary collectives are matched by call order, so every rank of the group must call
 * the collectives of a communicator in the same order (nonblocking ones by their start). Several nonblocking
 * collectives may be outstanding at once, and point-to-point traffic may be interleaved freely; it never matches
 * collective traffic. When several threads of a rank start collectives on one communicator, the program must order
 * them itself, or use the tagged two-phase forms ({@code allreduceBegin(..., tag)} ...
 * {@link CollectiveHandle#end()}), which are matched by (kind, tag) instead of call order and may be begun in any
 * order from any thread.
 *
 * <p>The algorithm of each call is chosen by group size and message size (see
 * {@code dev.tutti.coll.SelectionTable}); it can be forced with the setting {@code tutti.coll.<operation>}, e.g.
 * {@code -Dtutti.coll.allreduce=ring}, or {@link Tutti.Options#algorithm}.
 *
 * <p>Communicator management (MPI-4.1 §7.4), this class's own part: {@link #dup()}, {@link #idup()},
 * {@link #split}, {@link #splitType}, {@link #create} and {@link #createGroup} build new communicators with their
 * own context ids, agreed by their members (see {@code dev.tutti.comm.ContextIdAllocator}); {@link #createIntercomm}
 * joins two groups; {@link #free()} returns the ids. Every creation except {@link #createGroup} is a collective call
 * on this communicator and takes its place in the collective call order.
 */
public final class Communicator extends CollectiveCalls implements ScanCollectives, ObjectCollectives {
    /** Process kinds for {@link #splitType}. */
    public enum SplitType {
        /** Ranks that can share memory: the same host (every rank of an embedded, in-JVM job is on one host). */
        SHARED
    }

    /** Setting that gives the host id of a rank that shares memory with no other, for {@link #splitType} and the
     *  node-aware collectives (default: the host name). */
    public static final String HOST_ID_PROP_NAME = dev.tutti.internal.Settings.HOST_ID.name();

    private final CollComm collComm;
    private final SelectionTable selection;
    private volatile IntraBridge coll;
    private final ObjectBridge objects;

    Communicator(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer) {
        this(engine, name, p2pContext, worldRanks, serializer, SelectionTable.fromConfiguration());
    }

    Communicator(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer, final SelectionTable selection) {
        this(engine, name, p2pContext, worldRanks, serializer, selection, new ContextIdAllocator(engine));
    }

    Communicator(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer, final SelectionTable selection, final ContextIdAllocator contexts) {
        super(engine, name, p2pContext, worldRanks, worldRanks, serializer, contexts);
        this.selection = selection;
        this.collComm = new CollComm(engine, p2pContext + ContextIdAllocator.COLL, rank(), worldRanks, view(),
            selection);
        collComm.register();
        this.coll = new IntraBridge(collComm, describe());
        this.objects = new ObjectBridge(this, serializer);
    }

    @Override
    void renamed() {
        coll = new IntraBridge(collComm, describe());
    }

    /** @return false: this is an intracommunicator */
    @Override
    public boolean isInter() {
        return false;
    }

    @Override
    void releaseCollectiveMemory() {
        collComm.freed();
    }

    CollComm collComm() {
        return collComm;
    }

    SelectionTable selection() {
        return selection;
    }

    // ---------------------------------------------------------------------------------- communicator management

    /**
     * Duplicates the communicator (MPI_Comm_dup): the same group in the same order, with its own context ids, so
     * that a library can talk on it without ever matching the caller's messages. Collective.
     *
     * @return the new communicator, named {@code <name>/dup#<block>}
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free at every member, or if a
     *                        peer failed
     */
    public Communicator dup() {
        checkLive("dup");
        final int block = Agreement.run(contexts(), collComm, collComm.reserveTag(), "dup", true);
        return child("dup", block, localWorldRanks());
    }

    /**
     * Starts a duplication (MPI_Comm_idup) and returns at once. The call takes its place in the collective order
     * when it starts; other collectives may follow before it completes.
     *
     * <pre>{@code
     * ObjectRequest<Communicator> r = world.idup();
     * world.allreduce(...);                 // overlaps with the duplication
     * Communicator lib = r.get();
     * }</pre>
     *
     * @return a request whose {@link ObjectRequest#get()} waits and returns the new communicator
     * @throws TuttiException of class {@link ErrorClass#COMM} if this communicator is freed
     */
    public ObjectRequest<Communicator> idup() {
        checkLive("idup");
        final int[] members = localWorldRanks();
        final Agreement a = Agreement.start(contexts(), collComm, collComm.reserveTag(), "idup", true);
        return new Created<>(a, block -> child("dup", block, members));
    }

    /**
     * Splits the communicator (MPI_Comm_split): ranks that pass the same {@code color} form a new communicator,
     * ordered by {@code key} and then by their rank here. Collective.
     *
     * @param color a non-negative color, or {@link #UNDEFINED} to join no new communicator
     * @param key   the ordering key
     * @return the new communicator of this rank's color, or null for {@code UNDEFINED}
     * @throws TuttiException of class {@link ErrorClass#ARG} for a negative color other than {@code UNDEFINED};
     *                        of class {@link ErrorClass#COMM} if no context ids are free
     */
    public Communicator split(final int color, final int key) {
        checkLive("split");
        if (color < 0 && UNDEFINED != color) {
            throw Errors.invalid(ErrorClass.ARG, "split", describe(), "color=" + color
                + ", expected a color >= 0 or UNDEFINED");
        }
        final Creation.Child c = Creation.split(contexts(), collComm, color, key, UNDEFINED, this::toWorld);
        return null == c ? null : child("split:" + color, c.block(), c.local());
    }

    /**
     * Splits by kind of process (MPI_Comm_split_type): with {@link SplitType#SHARED}, ranks on the same host form
     * one communicator, ordered by {@code key} then rank. The hosts are those the job learnt at {@code init}, which
     * the node-aware collectives use too: the ranks that share memory are one host; a rank that shares memory with
     * no other (a host of one rank, or {@code tutti.transport=tcp}) is on the host of the ranks with its host id
     * (the setting {@code tutti.host.id}, else the host name); a fake layout ({@code tutti.host.layout},
     * {@link Tutti.Options#hosts}) places the ranks as it says. So ranks on different machines that share a host
     * name (containers, network namespaces) are different hosts. Every rank of an embedded (in-JVM) job without a
     * fake layout is on one host. Collective.
     *
     * @param type the kind
     * @param key  the ordering key
     * @return the communicator of this rank's host
     * @throws TuttiException of class {@link ErrorClass#ARG} for a null type
     */
    public Communicator splitType(final SplitType type, final int key) {
        checkLive("splitType");
        if (null == type) {
            throw Errors.invalid(ErrorClass.ARG, "splitType", describe(), "type=null, expected SHARED");
        }
        final int[] hostOfWorldRank = engine().hostLayout();
        return split(null == hostOfWorldRank ? 0 : hostOfWorldRank[engine().worldRank()], key);
    }

    /**
     * Creates a communicator of the ranks of {@code group} (MPI_Comm_create), in the group's order. Collective
     * over this whole communicator: every rank passes the same group; ranks outside it get null.
     *
     * @param group a subgroup of this communicator's group
     * @return the new communicator, or null on ranks outside the group
     * @throws TuttiException of class {@link ErrorClass#RANK} if the group has a process that is not a member
     *                        here; of class {@link ErrorClass#COMM} if no context ids are free
     */
    public Communicator create(final Group group) {
        checkLive("create");
        checkSubgroup("create", group);
        final boolean member = group.contains(engine().worldRank());
        final int block = Agreement.run(contexts(), collComm, collComm.reserveTag(), "create", member);
        return member ? child("create", block, group.members().clone()) : null;
    }

    /**
     * Creates a communicator of the ranks of {@code group}, collective over the group only (MPI-3
     * MPI_Comm_create_group): only its members call, the others go on with their work. Concurrent calls on
     * overlapping groups must use different tags.
     *
     * @param group a subgroup of this communicator's group that contains the calling rank
     * @param tag   distinguishes concurrent calls, {@code 0..TAG_UB}
     * @return the new communicator
     * @throws TuttiException of class {@link ErrorClass#RANK} if the calling rank is not in the group or the
     *                        group has a process that is not a member here; of class {@link ErrorClass#TAG} for
     *                        a negative tag
     */
    public Communicator createGroup(final Group group, final int tag) {
        checkLive("createGroup");
        checkSubgroup("createGroup", group);
        if (tag < 0) {
            throw Errors.tag("createGroup", describe(), tag, TAG_UB, "");
        }
        final int me = group.indexOf(engine().worldRank());
        if (me < 0) {
            throw Errors.invalid(ErrorClass.RANK, "createGroup", describe(), "this rank is not in group=" + group
                + ", expected only the group's members to call");
        }
        final CollComm among = new CollComm(engine(), contextBase() + ContextIdAllocator.MANAGE, me,
            group.members().clone(), view(), selection);
        final int block = Agreement.run(contexts(), among, tag, "createGroup", true);
        return child("createGroup", block, group.members().clone());
    }

    /**
     * Creates an intercommunicator between this communicator's group and another, disjoint group
     * (MPI_Intercomm_create). Collective over this communicator, whose ranks all pass the same
     * {@code localLeader}; the two leaders talk through {@code peerComm}, a communicator that holds both of them
     * (often the world), using {@code tag}. The context ids are agreed by every rank of both groups.
     *
     * <pre>{@code
     * Communicator half = world.split(world.rank() % 2, 0);                  // evens and odds
     * Intercommunicator inter = half.createIntercomm(0, world, 1 - world.rank() % 2, 99);
     * }</pre>
     *
     * @param localLeader  the rank of this group's leader, here
     * @param peerComm     at the local leader, a communicator holding both leaders; ignored elsewhere (may be
     *                     null)
     * @param remoteLeader at the local leader, the rank of the other group's leader in {@code peerComm}
     * @param tag          the tag of the leaders' messages, {@code 0..TAG_UB}; distinguishes concurrent creations
     * @return the intercommunicator; its local group is this communicator's group
     * @throws TuttiException of class {@link ErrorClass#RANK} for a leader out of range; of class
     *                        {@link ErrorClass#ARG} if the groups overlap; of class {@link ErrorClass#COMM} if
     *                        no context ids are free at every rank of both groups
     */
    public Intercommunicator createIntercomm(final int localLeader, final Comm peerComm, final int remoteLeader,
        final int tag) {
        return Intercommunicator.create(this, localLeader, peerComm, remoteLeader, tag);
    }

    private void checkSubgroup(final String op, final Group group) {
        if (null == group) {
            throw Errors.invalid(ErrorClass.ARG, op, describe(), "group=null, expected a group");
        }
        final Group mine = group();
        for (final int w : group.members()) {
            if (!mine.contains(w)) {
                throw Errors.invalid(ErrorClass.RANK, op, describe(), "group has world rank=" + w + ", which is "
                    + "not a member of this communicator; expected a subgroup of " + mine);
            }
        }
    }

    Communicator child(final String what, final int block, final int[] members) {
        return new Communicator(engine(), name() + "/" + what + "#" + block, ContextIdAllocator.base(block),
            members, serializer(), selection, contexts());
    }

    /**
     * A communicator being created: completes with the agreement, builds the communicator once.
     *
     * @param <C> the communicator type
     */
    static final class Created<C extends Comm> implements ObjectRequest<C> {
        private final Agreement agreement;
        private final IntFunction<C> build;
        private C result;

        Created(final Agreement agreement, final IntFunction<C> build) {
            this.agreement = agreement;
            this.build = build;
        }

        @Override
        public synchronized C get() {
            agreement.waitFor();
            if (null == result) {
                result = build.apply(agreement.block());
            }
            return result;
        }

        @Override
        public boolean test() {
            return agreement.test();
        }

        @Override
        public Status waitFor() {
            return agreement.waitFor();
        }

        @Override
        public Status waitFor(final long timeout, final TimeUnit unit) {
            return agreement.waitFor(timeout, unit);
        }

        @Override
        public void cancel() {
            agreement.cancel();
        }
    }

    // -------------------------------------------------------------------------------------- prefix reductions

    @Override
    public void scan(final Buf send, final Buf recv, final Op op) {
        CollDoor.enter(intra("scan").scan(CollStart.BLOCKING, send, recv, op)).waitFor();
    }

    @Override
    public Request iscan(final Buf send, final Buf recv, final Op op) {
        return CollDoor.enter(intra("iscan").scan(CollStart.NONBLOCKING, send, recv, op));
    }

    @Override
    public void exscan(final Buf send, final Buf recv, final Op op) {
        CollDoor.enter(intra("exscan").exscan(CollStart.BLOCKING, send, recv, op)).waitFor();
    }

    @Override
    public Request iexscan(final Buf send, final Buf recv, final Op op) {
        return CollDoor.enter(intra("iexscan").exscan(CollStart.NONBLOCKING, send, recv, op));
    }

    @Override
    public CollectiveHandle scanBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return CollDoor.begin(intra("scanBegin").scan(tagged("scanBegin", tag), send, recv, op));
    }

    @Override
    public CollectiveHandle exscanBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return CollDoor.begin(intra("exscanBegin").exscan(tagged("exscanBegin", tag), send, recv, op));
    }

    @Override
    public PersistentRequest scanInit(final Buf send, final Buf recv, final Op op) {
        CollChecks.persistable("scanInit", describe(), send, recv);
        return CollDoor.init(intra("scanInit").scan(CollStart.PERSISTENT, send, recv, op));
    }

    @Override
    public PersistentRequest exscanInit(final Buf send, final Buf recv, final Op op) {
        CollChecks.persistable("exscanInit", describe(), send, recv);
        return CollDoor.init(intra("exscanInit").exscan(CollStart.PERSISTENT, send, recv, op));
    }

    // ----------------------------------------------------------------------------------------------- machinery

    @Override
    CollBridge bridge(final String op) {
        return intra(op);
    }

    private IntraBridge intra(final String op) {
        if (isFreed()) {
            checkLive(op);
        }
        return coll;
    }

    // ------------------------------------------------------------------------------------- object collectives

    @Override
    public <T> T bcastObject(final T value, final int root) {
        return objects.bcast(value, root);
    }

    @Override
    public <T> List<T> gatherObject(final T value, final int root) {
        return objects.gather(value, root);
    }

    @Override
    public <T> T scatterObject(final List<? extends T> values, final int root) {
        return objects.scatter(values, root);
    }

    @Override
    public <T> List<T> allgatherObject(final T value) {
        return objects.allgather(value);
    }

    @Override
    public <T> List<T> alltoallObject(final List<? extends T> values) {
        return objects.alltoall(values);
    }

    @Override
    public <T> T reduceObject(final T value, final BinaryOperator<T> op, final int root) {
        return objects.reduce(value, op, root);
    }

    @Override
    public <T> T allreduceObject(final T value, final BinaryOperator<T> op) {
        return objects.allreduce(value, op);
    }

    @Override
    public <T> T scanObject(final T value, final BinaryOperator<T> op) {
        return objects.scan(value, op, true);
    }

    @Override
    public <T> T exscanObject(final T value, final BinaryOperator<T> op) {
        return objects.scan(value, op, false);
    }
}
