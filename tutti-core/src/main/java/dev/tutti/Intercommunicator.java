package dev.tutti;

import dev.tutti.calls.CollBridge;
import dev.tutti.calls.InterBridge;
import dev.tutti.coll.SelectionTable;
import dev.tutti.coll.InterComm;
import dev.tutti.comm.Agreement;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.comm.Creation;
import dev.tutti.comm.Intercomms;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;

/**
 * An intercommunicator: two disjoint groups, the local one (this rank's) and the remote one. Point-to-point
 * operations address ranks of the <em>remote</em> group ({@code send(buf, 2, tag)} goes to remote rank 2;
 * {@link #rank()} and {@link #size()} are the local group's, {@link #remoteSize()} the remote's). Created by
 * {@link Communicator#createIntercomm}; {@link #merge} turns it into an intracommunicator.
 *
 * <p><b>Collectives, MPI's standard forms</b> (MPI-4.1 §6.2.2). Rooted ones are one-way: the group that holds
 * the root passes {@link #ROOT} at the root and {@link #PROC_NULL} at its other ranks; the other group passes the
 * root's rank (in the remote group). Non-rooted ones are two-way: {@link #allgather} gives each rank the remote
 * group's blocks, {@link #allreduce} the reduction of the remote group's vectors, {@link #alltoall} exchanges a
 * block with every remote rank, and so on. Buffers are never {@link Buf#IN_PLACE} on an intercommunicator.
 *
 * <p><b>Symmetric collectives</b> (Tutti's extension, DESIGN.md §1.3): each group is sender and receiver at
 * once. In the rooted ones every rank names its own group's root and the remote group's root, and data flows
 * both ways in one call: {@link #bcast(Buf, Buf, int, int)} takes the local root's {@code send} to every remote
 * rank and brings the remote root's data to every local rank's {@code recv}; {@link #scatter(Buf, Buf, int,
 * int)}, {@link #gather(Buf, Buf, int, int)} and {@link #reduce(Buf, Buf, Op, int, int)} likewise. Each
 * direction has its own count and type (a null buffer is an empty direction); the non-rooted collectives above
 * are already symmetric in this sense. MPI's one-way forms are exactly the symmetric forms with one direction
 * empty, and are implemented that way; on an intracommunicator the same calls ({@link Comm#bcast(Buf, Buf, int,
 * int)}, ...) are the ordinary collectives, so code written against {@link Comm} serves both.
 *
 * <pre>{@code
 * // Producers (group A) and consumers (group B) of a pipeline swap their headers and sizes in one call:
 * int[] theirs = new int[4];
 * inter.bcast(Buf.of(myHeader), Buf.of(theirs), 0, 0);      // A's rank 0 -> all of B, B's rank 0 -> all of A
 * }</pre>
 *
 * <p>Ordering: as for intracommunicators, both groups must call the collectives of an intercommunicator in the
 * same order. Cost: see {@code dev.tutti.coll.inter.InterAlgorithms}; a symmetric call costs about one one-way
 * call, because the two directions proceed in parallel.
 */
public final class Intercommunicator extends CollectiveCalls {
    /** The root argument of the rank that is the root of a one-way rooted collective (MPI_ROOT). */
    public static final int ROOT = -3;

    private final InterComm ic;
    private final SelectionTable selection;
    private volatile InterBridge bridge;

    Intercommunicator(final P2pEngine engine, final String name, final int p2pContext, final int[] local,
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
            return Intercommunicator.this.describe() + "; " + numbering;
        }

        @Override
        public boolean isFreed() {
            return Intercommunicator.this.isFreed();
        }
    }

    /** @return true */
    @Override
    public boolean isInter() {
        return true;
    }

    // ------------------------------------------------------------------------------------------------ creation

    /** See {@link Communicator#createIntercomm}. */
    static Intercommunicator create(final Communicator local, final int localLeader, final Comm peer,
        final int remoteLeader, final int tag) {
        final String op = "createIntercomm";
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
        return new Intercommunicator(local.engine(), local.name() + "/inter#" + c.block(), ContextIdAllocator.base(
            c.block()), c.local(), c.remote(), local.serializer(), local.selection(), local.contexts());
    }

    /**
     * Merges the two groups into an intracommunicator (MPI_Intercomm_merge). The group whose ranks pass
     * {@code high = false} comes first; if both groups pass the same value, the group whose rank 0 has the lower
     * world rank comes first. Collective over both groups; every rank of a group passes the same value.
     *
     * @param high whether this group goes last
     * @return the merged communicator
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free, or a failed peer
     */
    public Communicator merge(final boolean high) {
        checkLive("merge");
        final Creation.Child c = Creation.merge(contexts(), ic, high, localWorldRanks(), peerWorldRanks());
        return new Communicator(engine(), name() + "/merge#" + c.block(), ContextIdAllocator.base(c.block()),
            c.local(), serializer(), selection, contexts());
    }

    /**
     * Duplicates the intercommunicator: the same two groups, new context ids. Collective over both groups.
     *
     * @return the duplicate
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free, or a failed peer
     */
    public Intercommunicator dup() {
        checkLive("dup");
        final int block = Agreement.run(contexts(), ic.union(), ic.union().reserveTag(), "dup", true);
        return child("dup", block, localWorldRanks(), peerWorldRanks());
    }

    /**
     * Starts a duplication and returns at once (MPI_Comm_idup); ordered among the collectives where it starts.
     *
     * @return a request whose {@link ObjectRequest#get()} returns the duplicate
     * @throws TuttiException of class {@link ErrorClass#COMM} if this intercommunicator is freed
     */
    public ObjectRequest<Intercommunicator> idup() {
        checkLive("idup");
        final int[] local = localWorldRanks();
        final int[] remote = peerWorldRanks();
        final Agreement a = Agreement.start(contexts(), ic.union(), ic.union().reserveTag(), "idup", true);
        return new Communicator.Created<>(a, block -> child("dup", block, local, remote));
    }

    /**
     * Splits the intercommunicator (MPI_Comm_split): the ranks of each group that pass the same color form the
     * two groups of a new intercommunicator, each ordered by key then rank. Collective over both groups.
     *
     * @param color a non-negative color, or {@link #UNDEFINED}
     * @param key   the ordering key within the group
     * @return the new intercommunicator, or null for {@code UNDEFINED} or a color that no remote rank chose
     * @throws TuttiException of class {@link ErrorClass#ARG} for a negative color other than {@code UNDEFINED}
     */
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
        return new Intercommunicator(engine(), name() + "/" + what + "#" + block, ContextIdAllocator.base(block),
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
