package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Group;
import dev.tutti.Intercommunicator;
import dev.tutti.ObjectRequest;
import dev.tutti.ObjectSerializer;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.SelectionTable;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.comm.Agreement;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.comm.Creation;
import dev.tutti.internal.Errors;
import dev.tutti.internal.GroupAccess;
import dev.tutti.p2p.P2pEngine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BinaryOperator;
import java.util.function.IntFunction;

/**
 * An intracommunicator ({@link Communicator}): the collective state of its group ({@link CollComm}, with the
 * schedule cache and the hosts), its selection table and its bridge to the door ({@link IntraBridge}), plus
 * communicator management ({@code dup}, {@code split}, {@code create}, ...), which agrees context ids through
 * {@code comm.Creation} and {@code comm.Agreement}.
 *
 * <p>Implementation note. The bridge is created lazily and published through a volatile field (a benign race: two
 * threads may each build one, and either serves); everything else is final.
 */
public final class CommunicatorImpl extends CollectiveCalls implements Communicator {
    private final CollComm collComm;
    private final SelectionTable selection;
    private volatile IntraBridge coll;
    private final ObjectBridge objects;

    public CommunicatorImpl(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer) {
        this(engine, name, p2pContext, worldRanks, serializer, SelectionTable.fromConfiguration());
    }

    public CommunicatorImpl(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer, final SelectionTable selection) {
        this(engine, name, p2pContext, worldRanks, serializer, selection, new ContextIdAllocator(engine));
    }

    public CommunicatorImpl(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
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

    @Override
    public boolean isInter() {
        return false;
    }

    @Override
    void releaseCollectiveMemory() {
        collComm.freed();
    }

    public CollComm collComm() {
        return collComm;
    }

    public SelectionTable selection() {
        return selection;
    }

    // ---------------------------------------------------------------------------------- communicator management

    @Override
    public Communicator dup() {
        checkLive("dup");
        final int block = Agreement.run(contexts(), collComm, collComm.reserveTag(), "dup", true);
        return created(child("dup", block, localWorldRanks()));
    }

    @Override
    public ObjectRequest<Communicator> idup() {
        checkLive("idup");
        final int[] members = localWorldRanks();
        final Agreement a = Agreement.start(contexts(), collComm, collComm.reserveTag(), "idup", true);
        return new Created<>(a, block -> child("dup", block, members));
    }

    @Override
    public Communicator split(final int color, final int key) {
        checkLive("split");
        if (color < 0 && UNDEFINED != color) {
            throw Errors.invalid(ErrorClass.ARG, "split", describe(), "color=" + color
                + ", expected a color >= 0 or UNDEFINED");
        }
        final Creation.Child c = Creation.split(contexts(), collComm, color, key, UNDEFINED, this::toWorld);
        return null == c ? null : created(child("split:" + color, c.block(), c.local()));
    }

    @Override
    public Communicator splitType(final SplitType type, final int key) {
        checkLive("splitType");
        if (null == type) {
            throw Errors.invalid(ErrorClass.ARG, "splitType", describe(), "type=null, expected SHARED");
        }
        final int[] hostOfWorldRank = engine().layout().hosts();
        return split(null == hostOfWorldRank ? 0 : hostOfWorldRank[engine().worldRank()], key);
    }

    @Override
    public Communicator create(final Group group) {
        checkLive("create");
        checkSubgroup("create", group);
        final boolean member = GroupAccess.get().indexOf(group, engine().worldRank()) >= 0;
        final int block = Agreement.run(contexts(), collComm, collComm.reserveTag(), "create", member);
        return member ? created(child("create", block, GroupAccess.get().members(group).clone())) : null;
    }

    @Override
    public Communicator createGroup(final Group group, final int tag) {
        checkLive("createGroup");
        checkSubgroup("createGroup", group);
        if (tag < 0) {
            throw Errors.tag("createGroup", describe(), tag, TAG_UB, "");
        }
        final int me = GroupAccess.get().indexOf(group, engine().worldRank());
        if (me < 0) {
            throw Errors.invalid(ErrorClass.RANK, "createGroup", describe(), "this rank is not in group=" + group
                + ", expected only the group's members to call");
        }
        final CollComm among = new CollComm(engine(), contextBase() + ContextIdAllocator.MANAGE, me,
            GroupAccess.get().members(group).clone(), view(), selection);
        final int block = Agreement.run(contexts(), among, tag, "createGroup", true);
        return created(child("createGroup", block, GroupAccess.get().members(group).clone()));
    }

    @Override
    public Intercommunicator createIntercomm(final int localLeader, final Comm peerComm, final int remoteLeader,
        final int tag) {
        return IntercommunicatorImpl.create(this, localLeader, peerComm, remoteLeader, tag);
    }

    private void checkSubgroup(final String op, final Group group) {
        if (null == group) {
            throw Errors.invalid(ErrorClass.ARG, op, describe(), "group=null, expected a group");
        }
        final Group mine = group();
        for (final int w : GroupAccess.get().members(group)) {
            if (GroupAccess.get().indexOf(mine, w) < 0) {
                throw Errors.invalid(ErrorClass.RANK, op, describe(), "group has world rank=" + w + ", which is "
                    + "not a member of this communicator; expected a subgroup of " + mine);
            }
        }
    }

    /**
     * Ends a blocking creation on this member: the new communicator agrees its on-host region with the others before
     * any call on it ({@link CollDoor#created}). A creation that completes later (idup) does not: its communicator
     * agrees one at its first call that can.
     */
    static CommunicatorImpl created(final CommunicatorImpl child) {
        child.agreeRegion();
        return child;
    }

    /**
     * Agrees this new communicator's on-host region ({@link CollDoor#created}), its messages on the communicator's
     * management context, which its calls never use (a creation by group, the one user of that context, runs only
     * after this returns on every member, and a sender's messages on one context and tag do not overtake each other).
     */
    public void agreeRegion() {
        CollDoor.created(collComm, new CollComm(engine(), contextBase() + ContextIdAllocator.MANAGE, rank(),
            localWorldRanks(), view(), selection));
    }

    CommunicatorImpl child(final String what, final int block, final int[] members) {
        return new CommunicatorImpl(engine(), name() + "/" + what + "#" + block, ContextIdAllocator.base(block),
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
        CollDoor.run(intra("scan").scan(CollStart.BLOCKING, send, recv, op));
    }

    @Override
    public Request iscan(final Buf send, final Buf recv, final Op op) {
        return CollDoor.enter(intra("iscan").scan(CollStart.NONBLOCKING, send, recv, op));
    }

    @Override
    public void exscan(final Buf send, final Buf recv, final Op op) {
        CollDoor.run(intra("exscan").exscan(CollStart.BLOCKING, send, recv, op));
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
