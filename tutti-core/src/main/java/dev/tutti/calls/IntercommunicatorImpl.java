package dev.tutti.calls;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.ObjectRequest;
import dev.tutti.ObjectSerializer;
import dev.tutti.coll.InterComm;
import dev.tutti.coll.SelectionTable;
import dev.tutti.comm.Agreement;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.comm.Creation;
import dev.tutti.comm.Intercomms;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;

/**
 * An intercommunicator ({@link Intercommunicator}): two disjoint groups whose collectives run over the union of the
 * groups ({@code coll.InterComm}, with schedules built by {@code coll.inter.InterAlgorithms}); point-to-point
 * addresses the remote group. Created by {@link CommunicatorImpl#createIntercomm} through {@link #create}.
 *
 * <p>Implementation note. As for {@link CommunicatorImpl}: final state, the bridge rebuilt and published through a
 * volatile field when the name changes.
 */
public final class IntercommunicatorImpl extends CollectiveCalls implements Intercommunicator {
    /** The root argument of the rank that is the root of a one-way rooted collective (MPI_ROOT). */
    public static final int ROOT = -3;

    private final InterComm ic;
    private final SelectionTable selection;
    private volatile InterBridge bridge;

    IntercommunicatorImpl(final P2pEngine engine, final String name, final int p2pContext, final int[] local,
        final int[] remote, final ObjectSerializer serializer, final SelectionTable selection,
        final ContextIdAllocator contexts) {
        super(engine, name, p2pContext, local, remote, serializer, contexts);
        this.selection = selection;
        this.ic = new InterComm(engine, p2pContext + ContextIdAllocator.COLL, local, remote, new UnionView(
            InterComm.localFirst(local, remote), local.length, remote.length), selection);
        this.bridge = new InterBridge(ic, describe(), rank(), size(), remoteSize());
    }

    /**
     * How collective schedules (which run over the union of the groups) describe this intercommunicator in
     * their messages: the peer ranks they name are union ranks, so the description says how to read them.
     */
    private final class UnionView implements dev.tutti.p2p.CommView {
        private final String numbering;

        UnionView(final boolean localFirst, final int localSize, final int remoteSize) {
            this.numbering = localFirst ? "peer ranks: local 0.." + (localSize - 1) + ", remote j at " + localSize
                + "+j" : "peer ranks: remote 0.." + (remoteSize - 1) + ", local i at " + remoteSize + "+i";
        }

        @Override
        public int toLocal(final int worldRank) {
            return view().toLocal(worldRank);
        }

        @Override
        public String describe() {
            return IntercommunicatorImpl.this.describe() + "; " + numbering;
        }

        @Override
        public boolean isFreed() {
            return IntercommunicatorImpl.this.isFreed();
        }
    }

    @Override
    public boolean isInter() {
        return true;
    }

    // ------------------------------------------------------------------------------------------------ creation

    /** See {@link Communicator#createIntercomm}. */
    static Intercommunicator create(final CommunicatorImpl local, final int localLeader, final Comm peerComm,
        final int remoteLeader, final int tag) {
        final String op = "createIntercomm";
        final CommImpl peer = (CommImpl) peerComm;
        local.checkLive(op);
        if (localLeader < 0 || localLeader >= local.size()) {
            throw Errors.rank(op, local.describe(), "localLeader", localLeader, local.size(), "");
        }
        if (tag < 0) {
            throw Errors.tag(op, local.describe(), tag, TAG_UB, "");
        }
        final boolean leader = local.rank() == localLeader;
        if (leader) {
            if (null == peer) {
                throw Errors.invalid(ErrorClass.COMM, op, local.describe(), "peerComm=null at the local leader, "
                    + "expected a communicator that holds both leaders");
            }
            peer.checkLive(op);
            if (remoteLeader < 0 || remoteLeader >= peer.remoteSize()) {
                throw Errors.rank(op, peer.describe(), "remoteLeader", remoteLeader, peer.remoteSize(), "");
            }
            if (peer.toWorld(remoteLeader) == local.engine().worldRank()) {
                throw Errors.invalid(ErrorClass.RANK, op, peer.describe(), "remoteLeader=" + remoteLeader
                    + " is this rank, expected the leader of the other group");
            }
        }
        final Intercomms.Peer side = leader ? new Intercomms.Peer(local.engine(), peer.contextBase()
            + ContextIdAllocator.MANAGE, peer.toWorld(remoteLeader), remoteLeader, peer.view(), peer.describe())
            : null;
        final Creation.Child c = Intercomms.create(local.contexts(), local.collComm(), local.localWorldRanks(),
            localLeader, side, tag, op, local.describe());
        return new IntercommunicatorImpl(local.engine(), local.name() + "/inter#" + c.block(), ContextIdAllocator.base(
            c.block()), c.local(), c.remote(), local.serializer(), local.selection(), local.contexts());
    }

    @Override
    public Communicator merge(final boolean high) {
        checkLive("merge");
        final Creation.Child c = Creation.merge(contexts(), ic, high, localWorldRanks(), peerWorldRanks());
        return CommunicatorImpl.created(new CommunicatorImpl(engine(), name() + "/merge#" + c.block(),
            ContextIdAllocator.base(c.block()), c.local(), serializer(), selection, contexts()));
    }

    @Override
    public Intercommunicator dup() {
        checkLive("dup");
        final int block = Agreement.run(contexts(), ic.union(), ic.union().reserveTag(), "dup", true);
        return child("dup", block, localWorldRanks(), peerWorldRanks());
    }

    @Override
    public ObjectRequest<Intercommunicator> idup() {
        checkLive("idup");
        final int[] local = localWorldRanks();
        final int[] remote = peerWorldRanks();
        final Agreement a = Agreement.start(contexts(), ic.union(), ic.union().reserveTag(), "idup", true);
        return new CommunicatorImpl.Created<>(a, block -> child("dup", block, local, remote));
    }

    @Override
    public Intercommunicator split(final int color, final int key) {
        checkLive("split");
        if (color < 0 && UNDEFINED != color) {
            throw Errors.invalid(ErrorClass.ARG, "split", describe(), "color=" + color + ", expected a color >= 0 "
                + "or UNDEFINED");
        }
        final Creation.Child c = Creation.split(contexts(), ic, color, key, UNDEFINED, localWorldRanks(),
            peerWorldRanks());
        return null == c ? null : child("split:" + color, c.block(), c.local(), c.remote());
    }

    private Intercommunicator child(final String what, final int block, final int[] local, final int[] remote) {
        return new IntercommunicatorImpl(engine(), name() + "/" + what + "#" + block, ContextIdAllocator.base(block),
            local, remote, serializer(), selection, contexts());
    }

    // ----------------------------------------------------------------------------------------------- machinery

    @Override
    CollBridge bridge(final String op) {
        if (isFreed()) {
            checkLive(op);
        }
        return bridge;
    }

    @Override
    void renamed() {
        bridge = new InterBridge(ic, describe(), rank(), size(), remoteSize());
    }

    @Override
    void releaseCollectiveMemory() {
        ic.union().freed();
        ic.local().freed();
    }
}
