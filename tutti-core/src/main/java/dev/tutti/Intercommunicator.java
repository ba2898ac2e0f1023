package dev.tutti;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollDoor;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleRun;
import dev.tutti.coll.SelectionTable;
import dev.tutti.coll.algo.Algorithms;
import dev.tutti.coll.inter.InterArgs;
import dev.tutti.coll.inter.InterComm;
import dev.tutti.comm.Agreement;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.type.kernel.Reductions;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static dev.tutti.type.BooleanStaging.recvMemory;
import static dev.tutti.type.BooleanStaging.sendMemory;

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
public final class Intercommunicator extends Comm {
    /** The root argument of the rank that is the root of a one-way rooted collective (MPI_ROOT). */
    public static final int ROOT = -3;

    private static final Buf NONE = Buf.of(new byte[0]);

    private final InterComm ic;
    private final SelectionTable selection;

    Intercommunicator(final P2pEngine engine, final String name, final int p2pContext, final int[] local,
        final int[] remote, final ObjectSerializer serializer, final SelectionTable selection,
        final ContextIdAllocator contexts) {
        super(engine, name, p2pContext, local, remote, serializer, contexts);
        this.selection = selection;
        this.ic = new InterComm(engine, p2pContext + ContextIdAllocator.COLL, local, remote, new UnionView(
            InterComm.localFirst(local, remote), local.length, remote.length), selection);
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
        final int[] mine = local.localWorldRanks();
        final int myTag = local.collComm().reserveTag();
        // Phase 0: the leaders swap their group and key; each leader shares the remote side with its group.
        final long[] head = {mine.length, ContextIdAllocator.key(local.contextBase() + ContextIdAllocator.COLL,
            myTag)};
        final long[] remoteHead = new long[2];
        if (leader) {
            exchange(peer, remoteLeader, tag, head, remoteHead, op);
        }
        local.bcast(Buf.of(remoteHead), localLeader);
        if (remoteHead[0] < 1) {
            throw Errors.invalid(ErrorClass.INTERN, op, local.describe(), "remote group size=" + remoteHead[0]);
        }
        final long[] remote = new long[(int) remoteHead[0]];
        if (leader) {
            exchange(peer, remoteLeader, tag, Arrays.stream(mine).asLongStream().toArray(), remote, op);
        }
        local.bcast(Buf.of(remote), localLeader);
        final int[] others = Arrays.stream(remote).mapToInt(x -> (int) x).toArray();
        for (final int w : others) {
            for (final int m : mine) {
                if (w == m) {
                    throw Errors.invalid(ErrorClass.ARG, op, local.describe(), "world rank=" + w + " is in both "
                        + "groups, expected disjoint groups");
                }
            }
        }
        // Phase 1: agree on a block free at every member of both groups (retry under contention).
        final long key = Math.min(head[1], remoteHead[1]);
        final ContextIdAllocator ids = local.contexts();
        while (true) {
            final long[] proposal = new long[ContextIdAllocator.PROPOSAL_WORDS];
            final long[] common = new long[ContextIdAllocator.PROPOSAL_WORDS];
            ids.propose(key, proposal, true);
            final int b;
            try {
                local.allreduce(Buf.of(proposal), Buf.of(common), Op.BAND);
                if (leader) {
                    final long[] theirs = new long[common.length];
                    exchange(peer, remoteLeader, tag, common.clone(), theirs, op);
                    for (int i = 0; i < common.length; i++) {
                        common[i] &= theirs[i];
                    }
                }
                local.bcast(Buf.of(common), localLeader);
            } catch (final TuttiException e) {
                ids.abandon(key);
                throw e;
            }
            b = ids.claim(key, common, op + " (" + local.describe() + ")", true);
            if (ContextIdAllocator.RETRY != b) {
                return new Intercommunicator(local.engine(), local.name() + "/inter#" + b, ContextIdAllocator.base(b),
                    mine, others, local.serializer(), local.selection(), ids);
            }
        }
    }

    /** Swaps two arrays with the peer's leader over the peer communicator's management context. */
    private static void exchange(final Comm peer, final int remoteLeader, final int tag, final long[] out,
        final long[] in, final String op) {
        final P2pEngine engine = peer.engine();
        final int context = peer.contextBase() + ContextIdAllocator.MANAGE;
        final int world = peer.toWorld(remoteLeader);
        final AbstractRequest r = engine.irecv(context, world, tag, Datatype.LONG, MemorySegment.ofArray(in),
            peer.view());
        final AbstractRequest s = engine.isend(context, world, tag, Datatype.LONG, MemorySegment.ofArray(out));
        final Status st = Request.waitAll(r, s)[0];
        if (st.bytes() != (long) in.length * Long.BYTES) {
            throw Errors.invalid(ErrorClass.ARG, op, peer.describe(), "the remote leader (rank=" + remoteLeader
                + ") sent bytes=" + st.bytes() + ", expected " + (long) in.length * Long.BYTES + ": the two groups "
                + "disagree on the call (tag=" + tag + ")");
        }
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
        final int[] highs = new int[remoteSize()];
        allgather(Buf.of(new int[] {high ? 1 : 0}), Buf.of(highs));
        final boolean remoteHigh = 0 != highs[0];
        final boolean localFirst = high == remoteHigh ? ic.isLocalFirst() : !high;
        final int block = Agreement.run(contexts(), ic.union(), ic.union().reserveTag(), "merge", true);
        final int[] local = localWorldRanks();
        final int[] remote = peerWorldRanks();
        final int[] all = new int[local.length + remote.length];
        System.arraycopy(localFirst ? local : remote, 0, all, 0, localFirst ? local.length : remote.length);
        System.arraycopy(localFirst ? remote : local, 0, all, localFirst ? local.length : remote.length,
            localFirst ? remote.length : local.length);
        return new Communicator(engine(), name() + "/merge#" + block, ContextIdAllocator.base(block), all,
            serializer(), selection, contexts());
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
        final int n = size() + remoteSize();
        final int[] all = new int[2 * n];
        final Schedule s = Algorithms.build(AlgorithmId.ALLGATHER_LINEAR, ic.union(), CollArgs.of("split",
            MemorySegment.ofArray(new int[] {color, key}), MemorySegment.ofArray(all), Datatype.INT, 2, -1, null));
        ScheduleRun.start(s, ic.union(), false).waitFor();
        final int[] local = pick(all, color, true);
        final int[] remote = pick(all, color, false);
        final boolean member = UNDEFINED != color && remote.length > 0;
        final int block = Agreement.run(contexts(), ic.union(), ic.union().reserveTag(), "split", member);
        return member ? child("split:" + color, block, local, remote) : null;
    }

    /** The world ranks of one group's members of a color, by (key, rank). */
    private int[] pick(final int[] all, final int color, final boolean localGroup) {
        final int p = localGroup ? size() : remoteSize();
        final List<Integer> same = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            final int u = localGroup ? ic.localToUnion(r) : ic.remoteToUnion(r);
            if (UNDEFINED != color && all[2 * u] == color) {
                same.add(r);
            }
        }
        same.sort(Comparator.<Integer>comparingInt(r -> all[2 * (localGroup ? ic.localToUnion(r)
            : ic.remoteToUnion(r)) + 1]).thenComparingInt(r -> r));
        final int[] group = localGroup ? localWorldRanks() : peerWorldRanks();
        return same.stream().mapToInt(r -> group[r]).toArray();
    }

    private Intercommunicator child(final String what, final int block, final int[] local, final int[] remote) {
        return new Intercommunicator(engine(), name() + "/" + what + "#" + block, ContextIdAllocator.base(block),
            local, remote, serializer(), selection, contexts());
    }

    // --------------------------------------------------------------------------------- MPI's standard forms

    /**
     * Returns when every rank of both groups has entered the barrier.
     *
     * @throws TuttiException if a peer failed
     */
    public void barrier() {
        startBarrier(CollStart.BLOCKING).waitFor();
    }

    /**
     * Nonblocking {@link #barrier()}.
     *
     * @return the request
     * @throws TuttiException if the intercommunicator is freed
     */
    public Request ibarrier() {
        return startBarrier(CollStart.NONBLOCKING);
    }

    private Request startBarrier(final CollStart nb) {
        checkLive("barrier");
        return enter(nb, CollKind.BARRIER, null, NO_FINISH);
    }

    /**
     * One-way broadcast (MPI_Bcast on an intercommunicator): the root's {@code buf} reaches every rank of the
     * other group.
     *
     * @param buf  at the root the data; in the other group where it arrives; ignored at the root's peers
     * @param root {@link #ROOT} at the root, {@link #PROC_NULL} at its group's other ranks, the root's rank (in
     *             the remote group) in the other group
     * @throws TuttiException of class {@link ErrorClass#ROOT} if {@code root} is none of these; as
     *                        {@link #bcast(Buf, Buf, int, int)} otherwise
     */
    public void bcast(final Buf buf, final int root) {
        startBcast(CollStart.BLOCKING, buf, root).waitFor();
    }

    /**
     * Nonblocking {@link #bcast(Buf, int)}.
     *
     * @param buf  the data (see the blocking form)
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ibcast(final Buf buf, final int root) {
        return startBcast(CollStart.NONBLOCKING, buf, root);
    }

    private Request startBcast(final CollStart nb, final Buf buf, final int root) {
        final String op = "bcast";
        checkOneWayRoot(op, root);
        if (ROOT == root) {
            need(op, "buf", buf);
            return bcastSymmetric(nb, op, buf, NONE, rank(), 0);
        }
        if (PROC_NULL == root) {
            return bcastSymmetric(nb, op, NONE, NONE, -1, 0);
        }
        need(op, "buf", buf);
        return bcastSymmetric(nb, op, NONE, buf, 0, root);
    }

    /**
     * One-way gather: every rank of the other group sends {@code send}; the root receives remoteSize blocks in
     * {@code recv}.
     *
     * @param send in the other group, this rank's block; ignored in the root's group
     * @param recv at the root, remoteSize blocks; ignored elsewhere
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void gather(final Buf send, final Buf recv, final int root) {
        startGather(CollStart.BLOCKING, send, recv, root).waitFor();
    }

    /**
     * Nonblocking {@link #gather(Buf, Buf, int)}.
     *
     * @param send this rank's block (other group)
     * @param recv at the root, remoteSize blocks
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request igather(final Buf send, final Buf recv, final int root) {
        return startGather(CollStart.NONBLOCKING, send, recv, root);
    }

    private Request startGather(final CollStart nb, final Buf send, final Buf recv, final int root) {
        final String op = "gather";
        checkOneWayRoot(op, root);
        if (ROOT == root) {
            need(op, "recv", recv);
            return gatherSymmetric(nb, op, NONE, recv, rank(), 0);
        }
        if (PROC_NULL == root) {
            return gatherSymmetric(nb, op, NONE, NONE, -1, 0);
        }
        need(op, "send", send);
        return gatherSymmetric(nb, op, send, NONE, 0, root);
    }

    /**
     * One-way gatherv: the root receives {@code recvCounts[j]} elements from remote rank {@code j} at
     * {@code displs[j]} of {@code recv}.
     *
     * @param send       in the other group, this rank's data; ignored in the root's group
     * @param recv       at the root, the receive buffer
     * @param recvCounts at the root, one count per remote rank
     * @param displs     at the root, one displacement per remote rank
     * @param root       {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void gatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int root) {
        startGatherv(CollStart.BLOCKING, send, recv, recvCounts, displs, root).waitFor();
    }

    /**
     * Nonblocking {@link #gatherv(Buf, Buf, int[], int[], int)}.
     *
     * @param send       this rank's data (other group)
     * @param recv       at the root, the receive buffer
     * @param recvCounts at the root, counts per remote rank
     * @param displs     at the root, displacements per remote rank
     * @param root       {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request igatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int root) {
        return startGatherv(CollStart.NONBLOCKING, send, recv, recvCounts, displs, root);
    }

    private Request startGatherv(final CollStart nb, final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs, final int root) {
        final String op = "gatherv";
        checkOneWayRoot(op, root);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a;
        if (ROOT == root) {
            need(op, "recv", recv);
            checkVector(op, "recvCounts", "displs", recvCounts, displs, recv, remoteSize());
            a = new InterArgs(op, Datatype.BYTE, recv.datatype(), null, null, 0, recvMemory(recv, fin), 0, rank(),
                -1, null, null, recvCounts, displs, null, null, null, null);
        } else if (PROC_NULL == root) {
            a = InterArgs.of(op, Datatype.BYTE, Datatype.BYTE, null, null, 0, null, 0, -1, -1);
        } else {
            need(op, "send", send);
            a = InterArgs.of(op, send.datatype(), Datatype.BYTE, null, sendMemory(send), send.count(), null, 0, -1,
                root);
        }
        return enter(nb, CollKind.GATHERV, a, fin);
    }

    /**
     * One-way scatter: the root's {@code send} holds remoteSize blocks; remote rank {@code j} receives block
     * {@code j} in {@code recv}.
     *
     * @param send at the root, remoteSize blocks; ignored elsewhere
     * @param recv in the other group, this rank's block; ignored in the root's group
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void scatter(final Buf send, final Buf recv, final int root) {
        startScatter(CollStart.BLOCKING, send, recv, root).waitFor();
    }

    /**
     * Nonblocking {@link #scatter(Buf, Buf, int)}.
     *
     * @param send at the root, remoteSize blocks
     * @param recv this rank's block (other group)
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request iscatter(final Buf send, final Buf recv, final int root) {
        return startScatter(CollStart.NONBLOCKING, send, recv, root);
    }

    private Request startScatter(final CollStart nb, final Buf send, final Buf recv, final int root) {
        final String op = "scatter";
        checkOneWayRoot(op, root);
        if (ROOT == root) {
            need(op, "send", send);
            return scatterSymmetric(nb, op, send, NONE, rank(), 0);
        }
        if (PROC_NULL == root) {
            return scatterSymmetric(nb, op, NONE, NONE, -1, 0);
        }
        need(op, "recv", recv);
        return scatterSymmetric(nb, op, NONE, recv, 0, root);
    }

    /**
     * One-way scatterv: the root sends {@code sendCounts[j]} elements at {@code displs[j]} of {@code send} to
     * remote rank {@code j}.
     *
     * @param send       at the root, the data
     * @param sendCounts at the root, one count per remote rank
     * @param displs     at the root, one displacement per remote rank
     * @param recv       in the other group, where this rank's part arrives
     * @param root       {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void scatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root) {
        startScatterv(CollStart.BLOCKING, send, sendCounts, displs, recv, root).waitFor();
    }

    /**
     * Nonblocking {@link #scatterv(Buf, int[], int[], Buf, int)}.
     *
     * @param send       at the root, the data
     * @param sendCounts at the root, counts per remote rank
     * @param displs     at the root, displacements per remote rank
     * @param recv       this rank's part (other group)
     * @param root       {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request iscatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root) {
        return startScatterv(CollStart.NONBLOCKING, send, sendCounts, displs, recv, root);
    }

    private Request startScatterv(final CollStart nb, final Buf send, final int[] sendCounts, final int[] displs,
        final Buf recv, final int root) {
        final String op = "scatterv";
        checkOneWayRoot(op, root);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a;
        if (ROOT == root) {
            need(op, "send", send);
            checkVector(op, "sendCounts", "displs", sendCounts, displs, send, remoteSize());
            a = new InterArgs(op, send.datatype(), Datatype.BYTE, null, sendMemory(send), 0, null, 0, rank(), -1,
                sendCounts, displs, null, null, null, null, null, null);
        } else if (PROC_NULL == root) {
            a = InterArgs.of(op, Datatype.BYTE, Datatype.BYTE, null, null, 0, null, 0, -1, -1);
        } else {
            need(op, "recv", recv);
            a = InterArgs.of(op, Datatype.BYTE, recv.datatype(), null, null, 0, recvMemory(recv, fin), recv.count(),
                -1, root);
        }
        return enter(nb, CollKind.SCATTERV, a, fin);
    }

    /**
     * One-way reduce: the other group's {@code send} vectors are combined with {@code op} in rank order into the
     * root's {@code recv}.
     *
     * @param send in the other group, this rank's vector; ignored in the root's group
     * @param recv at the root, the result; ignored elsewhere
     * @param op   the reduction
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void reduce(final Buf send, final Buf recv, final Op op, final int root) {
        startReduce(CollStart.BLOCKING, send, recv, op, root).waitFor();
    }

    /**
     * Nonblocking {@link #reduce(Buf, Buf, Op, int)}.
     *
     * @param send this rank's vector (other group)
     * @param recv at the root, the result
     * @param op   the reduction
     * @param root {@link #ROOT}, {@link #PROC_NULL} or the remote root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ireduce(final Buf send, final Buf recv, final Op op, final int root) {
        return startReduce(CollStart.NONBLOCKING, send, recv, op, root);
    }

    private Request startReduce(final CollStart nb, final Buf send, final Buf recv, final Op op, final int root) {
        final String name = "reduce";
        checkOneWayRoot(name, root);
        needOp(name, op);
        if (ROOT == root) {
            need(name, "recv", recv);
            return reduceSymmetric(nb, name, NONE, recv, op, rank(), 0);
        }
        if (PROC_NULL == root) {
            return reduceSymmetric(nb, name, NONE, NONE, op, -1, 0);
        }
        need(name, "send", send);
        return reduceSymmetric(nb, name, send, NONE, op, 0, root);
    }

    /**
     * Allgather (two-way): {@code send} reaches every remote rank; {@code recv} receives the remote group's
     * blocks in rank order. The two directions may have different counts and types.
     *
     * @param send this rank's block
     * @param recv remoteSize blocks
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    @Override
    public void allgather(final Buf send, final Buf recv) {
        startAllgather(CollStart.BLOCKING, send, recv).waitFor();
    }

    /**
     * Nonblocking {@link #allgather(Buf, Buf)}.
     *
     * @param send this rank's block
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request iallgather(final Buf send, final Buf recv) {
        return startAllgather(CollStart.NONBLOCKING, send, recv);
    }

    private Request startAllgather(final CollStart nb, final Buf send, final Buf recv) {
        final String op = "allgather";
        checkLive(op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(op, send, recv);
        multiple(op, "recv", r, remoteSize());
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(op, s.datatype(), r.datatype(), null, sendMemory(s), s.count(),
            recvMemory(r, fin), r.count() / remoteSize(), -1, -1);
        return enter(nb, CollKind.ALLGATHER, a, fin);
    }

    /**
     * Allgatherv (two-way): {@code send} reaches every remote rank; remote rank {@code j}'s block arrives at
     * {@code displs[j]} of {@code recv}, {@code recvCounts[j]} elements.
     *
     * @param send       this rank's block
     * @param recv       the receive buffer
     * @param recvCounts per remote rank
     * @param displs     per remote rank
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void allgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        startAllgatherv(CollStart.BLOCKING, send, recv, recvCounts, displs).waitFor();
    }

    /**
     * Nonblocking {@link #allgatherv(Buf, Buf, int[], int[])}.
     *
     * @param send       this rank's block
     * @param recv       the receive buffer
     * @param recvCounts per remote rank
     * @param displs     per remote rank
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request iallgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        return startAllgatherv(CollStart.NONBLOCKING, send, recv, recvCounts, displs);
    }

    private Request startAllgatherv(final CollStart nb, final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs) {
        final String op = "allgatherv";
        checkLive(op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(op, send, recv);
        checkVector(op, "recvCounts", "displs", recvCounts, displs, r, remoteSize());
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = new InterArgs(op, s.datatype(), r.datatype(), null, sendMemory(s), s.count(),
            recvMemory(r, fin), 0, -1, -1, null, null, recvCounts, displs, null, null, null, null);
        return enter(nb, CollKind.ALLGATHERV, a, fin);
    }

    /**
     * Bipartite alltoall (two-way): block {@code j} of {@code send} goes to remote rank {@code j}, block
     * {@code j} of {@code recv} comes from it. Each direction has its own block count and type.
     *
     * @param send remoteSize blocks
     * @param recv remoteSize blocks
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    @Override
    public void alltoall(final Buf send, final Buf recv) {
        startAlltoall(CollStart.BLOCKING, send, recv).waitFor();
    }

    /**
     * Nonblocking {@link #alltoall(Buf, Buf)}.
     *
     * @param send remoteSize blocks
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request ialltoall(final Buf send, final Buf recv) {
        return startAlltoall(CollStart.NONBLOCKING, send, recv);
    }

    private Request startAlltoall(final CollStart nb, final Buf send, final Buf recv) {
        final String op = "alltoall";
        checkLive(op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(op, send, recv);
        multiple(op, "send", s, remoteSize());
        multiple(op, "recv", r, remoteSize());
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(op, s.datatype(), r.datatype(), null, sendMemory(s),
            s.count() / remoteSize(), recvMemory(r, fin), r.count() / remoteSize(), -1, -1);
        return enter(nb, CollKind.ALLTOALL, a, fin);
    }

    /**
     * Bipartite alltoallv: {@code sendCounts[j]} elements at {@code sendDispls[j]} go to remote rank {@code j};
     * {@code recvCounts[j]} arrive from it at {@code recvDispls[j]}.
     *
     * @param send       the outgoing data
     * @param sendCounts per remote rank
     * @param sendDispls per remote rank
     * @param recv       the incoming data
     * @param recvCounts per remote rank
     * @param recvDispls per remote rank
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void alltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv,
        final int[] recvCounts, final int[] recvDispls) {
        startAlltoallv(CollStart.BLOCKING, send, sendCounts, sendDispls, recv, recvCounts, recvDispls).waitFor();
    }

    /**
     * Nonblocking {@link #alltoallv(Buf, int[], int[], Buf, int[], int[])}.
     *
     * @param send       the outgoing data
     * @param sendCounts per remote rank
     * @param sendDispls per remote rank
     * @param recv       the incoming data
     * @param recvCounts per remote rank
     * @param recvDispls per remote rank
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ialltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv,
        final int[] recvCounts, final int[] recvDispls) {
        return startAlltoallv(CollStart.NONBLOCKING, send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    private Request startAlltoallv(final CollStart nb, final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        final String op = "alltoallv";
        checkLive(op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(op, send, recv);
        checkVector(op, "sendCounts", "sendDispls", sendCounts, sendDispls, s, remoteSize());
        checkVector(op, "recvCounts", "recvDispls", recvCounts, recvDispls, r, remoteSize());
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = new InterArgs(op, s.datatype(), r.datatype(), null, sendMemory(s), 0,
            recvMemory(r, fin), 0, -1, -1, sendCounts, sendDispls, recvCounts, recvDispls, null, null, null, null);
        return enter(nb, CollKind.ALLTOALLV, a, fin);
    }

    /**
     * Bipartite alltoallw: {@code send[j]} goes to remote rank {@code j}, {@code recv[j]} comes from it, each
     * with its own type and count.
     *
     * @param send one buffer per remote rank
     * @param recv one buffer per remote rank
     * @throws TuttiException for a bad argument, a count or type mismatch where detected, or a failed peer
     */
    public void alltoallw(final Buf[] send, final Buf[] recv) {
        startAlltoallw(CollStart.BLOCKING, send, recv).waitFor();
    }

    /**
     * Nonblocking {@link #alltoallw(Buf[], Buf[])}.
     *
     * @param send one buffer per remote rank
     * @param recv one buffer per remote rank
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ialltoallw(final Buf[] send, final Buf[] recv) {
        return startAlltoallw(CollStart.NONBLOCKING, send, recv);
    }

    private Request startAlltoallw(final CollStart nb, final Buf[] send, final Buf[] recv) {
        final String op = "alltoallw";
        checkLive(op);
        final int b = remoteSize();
        if (null == send || null == recv || send.length != b || recv.length != b) {
            throw Errors.invalid(ErrorClass.ARG, op, describe(), "send.length=" + (null == send ? "null"
                : send.length) + " recv.length=" + (null == recv ? "null" : recv.length) + ", expected remoteSize="
                + b + " buffers each");
        }
        final List<Runnable> fin = new ArrayList<>();
        final MemorySegment[] sb = new MemorySegment[b];
        final MemorySegment[] rb = new MemorySegment[b];
        final Datatype[] st = new Datatype[b];
        final Datatype[] rt = new Datatype[b];
        for (int j = 0; j < b; j++) {
            need(op, "send[" + j + "]", send[j]);
            need(op, "recv[" + j + "]", recv[j]);
            sb[j] = sendMemory(send[j]);
            st[j] = send[j].datatype();
            rb[j] = recvMemory(recv[j], fin);
            rt[j] = recv[j].datatype();
        }
        final InterArgs a = new InterArgs(op, Datatype.BYTE, Datatype.BYTE, null, null, 0, null, 0, -1, -1, null,
            null, null, null, sb, st, rb, rt);
        return enter(nb, CollKind.ALLTOALLW, a, fin);
    }

    /**
     * Allreduce (two-way): every rank of this group receives in {@code recv} the combination (rank order) of the
     * remote group's {@code send} vectors. The directions may have different counts.
     *
     * @param send this rank's vector
     * @param recv the remote group's result
     * @param op   the reduction
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    @Override
    public void allreduce(final Buf send, final Buf recv, final Op op) {
        startAllreduce(CollStart.BLOCKING, send, recv, op).waitFor();
    }

    /**
     * Nonblocking {@link #allreduce(Buf, Buf, Op)}.
     *
     * @param send this rank's vector
     * @param recv the remote group's result
     * @param op   the reduction
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request iallreduce(final Buf send, final Buf recv, final Op op) {
        return startAllreduce(CollStart.NONBLOCKING, send, recv, op);
    }

    private Request startAllreduce(final CollStart nb, final Buf send, final Buf recv, final Op op) {
        final String name = "allreduce";
        checkLive(name);
        needOp(name, op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(name, send, recv);
        checkOp(name, op, s, r);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(name, s.datatype(), r.datatype(), op, sendMemory(s), s.count(),
            recvMemory(r, fin), r.count(), -1, -1);
        return enter(nb, CollKind.ALLREDUCE, a, fin);
    }

    /**
     * Reduce-scatter (two-way): the remote group's {@code send} vectors are combined and scattered over this
     * group, rank {@code i} receiving {@code recvCounts[i]} elements. This group's {@code send} is the vector
     * for the remote group (the sum of the remote ranks' counts).
     *
     * @param send       this rank's vector for the remote group
     * @param recv       this rank's part of the remote result
     * @param recvCounts one count per rank of this group
     * @param op         the reduction
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void reduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        startReduceScatter(CollStart.BLOCKING, send, recv, recvCounts, op).waitFor();
    }

    /**
     * Nonblocking {@link #reduceScatter(Buf, Buf, int[], Op)}.
     *
     * @param send       this rank's vector for the remote group
     * @param recv       this rank's part of the remote result
     * @param recvCounts one count per rank of this group
     * @param op         the reduction
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ireduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        return startReduceScatter(CollStart.NONBLOCKING, send, recv, recvCounts, op);
    }

    private Request startReduceScatter(final CollStart nb, final Buf send, final Buf recv, final int[] recvCounts,
        final Op op) {
        final String name = "reduce_scatter";
        checkLive(name);
        needOp(name, op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(name, send, recv);
        if (null == recvCounts || recvCounts.length != size()) {
            throw Errors.invalid(ErrorClass.ARG, name, describe(), "recvCounts.length=" + (null == recvCounts
                ? "null" : recvCounts.length) + ", expected size=" + size() + " (one count per local rank)");
        }
        for (int i = 0; i < recvCounts.length; i++) {
            if (recvCounts[i] < 0) {
                throw Errors.invalid(ErrorClass.COUNT, name, describe(), "recvCounts[" + i + "]=" + recvCounts[i]
                    + ", expected >= 0");
            }
        }
        capacity(name, "recv", r, recvCounts[rank()]);
        checkOp(name, op, s, r);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = new InterArgs(name, s.datatype(), r.datatype(), op, sendMemory(s), s.count(),
            recvMemory(r, fin), recvCounts[rank()], -1, -1, null, null, recvCounts.clone(), null, null, null, null,
            null);
        return enter(nb, CollKind.REDUCE_SCATTER, a, fin);
    }

    /**
     * Reduce-scatter-block (two-way): the remote group's {@code send} vectors are combined and this group's rank
     * {@code i} receives block {@code i} ({@code recv}'s count elements). This group's {@code send} is the vector
     * for the remote group (remoteSize times the remote ranks' block).
     *
     * @param send this rank's vector for the remote group
     * @param recv this rank's block of the remote result
     * @param op   the reduction
     * @throws TuttiException for a bad argument, a count mismatch where detected, or a failed peer
     */
    public void reduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        startReduceScatterBlock(CollStart.BLOCKING, send, recv, op).waitFor();
    }

    /**
     * Nonblocking {@link #reduceScatterBlock(Buf, Buf, Op)}.
     *
     * @param send this rank's vector for the remote group
     * @param recv this rank's block
     * @param op   the reduction
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    public Request ireduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        return startReduceScatterBlock(CollStart.NONBLOCKING, send, recv, op);
    }

    private Request startReduceScatterBlock(final CollStart nb, final Buf send, final Buf recv, final Op op) {
        final String name = "reduce_scatter_block";
        checkLive(name);
        needOp(name, op);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        noInPlace(name, send, recv);
        checkOp(name, op, s, r);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(name, s.datatype(), r.datatype(), op, sendMemory(s), s.count(),
            recvMemory(r, fin), r.count(), -1, -1);
        return enter(nb, CollKind.REDUCE_SCATTER_BLOCK, a, fin);
    }

    // ----------------------------------------------------------------------------------- symmetric collectives

    /**
     * Symmetric broadcast: this group's root sends {@code send} to every remote rank while the remote root's data
     * arrives in {@code recv} at every rank of this group (see {@link Comm#bcast(Buf, Buf, int, int)}).
     *
     * <pre>{@code
     * inter.bcast(Buf.of(mine), Buf.of(theirs), 0, 0);
     * }</pre>
     *
     * @param send       at this group's root, the data for the remote group (null: send nothing)
     * @param recv       where the remote root's data arrives (null: receive nothing)
     * @param root       this group's root, {@code 0..size-1}
     * @param remoteRoot the remote group's root, {@code 0..remoteSize-1}
     * @throws TuttiException of class {@link ErrorClass#ROOT} if a root is outside its group; of class
     *                        {@link ErrorClass#COUNT} if a direction's two sides passed different sizes
     */
    @Override
    public void bcast(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        startBcast(CollStart.BLOCKING, send, recv, root, remoteRoot).waitFor();
    }

    /**
     * Nonblocking {@link #bcast(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, the data for the remote group
     * @param recv       where the remote root's data arrives
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request ibcast(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return startBcast(CollStart.NONBLOCKING, send, recv, root, remoteRoot);
    }

    private Request startBcast(final CollStart nb, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        checkSymmetricRoots("bcast", root, remoteRoot);
        noInPlace("bcast", send, recv);
        return bcastSymmetric(nb, "bcast", orNone(send), orNone(recv), root, remoteRoot);
    }

    /**
     * Symmetric scatter: this group's root sends block {@code j} of {@code send} (remoteSize equal blocks) to
     * remote rank {@code j}, while every rank of this group receives its block of the remote root's data.
     *
     * <pre>{@code
     * inter.scatter(Buf.of(blocksForThem), Buf.of(myBlock), 0, 0);
     * }</pre>
     *
     * @param send       at this group's root, remoteSize blocks (null: send nothing)
     * @param recv       this rank's block from the remote root (null: receive nothing)
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}, and of class {@link ErrorClass#COUNT} if
     *                        the root's send count is not a multiple of remoteSize
     */
    @Override
    public void scatter(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        startScatter(CollStart.BLOCKING, send, recv, root, remoteRoot).waitFor();
    }

    /**
     * Nonblocking {@link #scatter(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, remoteSize blocks
     * @param recv       this rank's block
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request iscatter(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return startScatter(CollStart.NONBLOCKING, send, recv, root, remoteRoot);
    }

    private Request startScatter(final CollStart nb, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        checkSymmetricRoots("scatter", root, remoteRoot);
        noInPlace("scatter", send, recv);
        return scatterSymmetric(nb, "scatter", orNone(send), orNone(recv), root, remoteRoot);
    }

    /**
     * Symmetric gather: every rank's {@code send} goes to the remote root, while this group's root receives one
     * block from every remote rank into {@code recv}.
     *
     * <pre>{@code
     * inter.gather(Buf.of(mine), Buf.of(allOfThem), 0, 0);
     * }</pre>
     *
     * @param send       this rank's block (null: send nothing)
     * @param recv       at this group's root, remoteSize blocks (null: receive nothing)
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}, and of class {@link ErrorClass#COUNT} if
     *                        the root's recv count is not a multiple of remoteSize
     */
    @Override
    public void gather(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        startGather(CollStart.BLOCKING, send, recv, root, remoteRoot).waitFor();
    }

    /**
     * Nonblocking {@link #gather(Buf, Buf, int, int)}.
     *
     * @param send       this rank's block
     * @param recv       at this group's root, remoteSize blocks
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request igather(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return startGather(CollStart.NONBLOCKING, send, recv, root, remoteRoot);
    }

    private Request startGather(final CollStart nb, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        checkSymmetricRoots("gather", root, remoteRoot);
        noInPlace("gather", send, recv);
        return gatherSymmetric(nb, "gather", orNone(send), orNone(recv), root, remoteRoot);
    }

    /**
     * Symmetric reduce: this group's vectors are combined (rank order) at the remote root, while this group's
     * root receives the combination of the remote group's vectors into {@code recv}.
     *
     * <pre>{@code
     * inter.reduce(Buf.of(partial), Buf.of(theirTotal), Op.SUM, 0, 0);
     * }</pre>
     *
     * @param send       this rank's vector (null: send nothing)
     * @param recv       at this group's root, the remote result (null: receive nothing)
     * @param op         the reduction, the same everywhere
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @throws TuttiException as {@link #bcast(Buf, Buf, int, int)}, and of class {@link ErrorClass#OP} if the
     *                        operation is not defined for a type
     */
    @Override
    public void reduce(final Buf send, final Buf recv, final Op op, final int root, final int remoteRoot) {
        startReduce(CollStart.BLOCKING, send, recv, op, root, remoteRoot).waitFor();
    }

    /**
     * Nonblocking {@link #reduce(Buf, Buf, Op, int, int)}.
     *
     * @param send       this rank's vector
     * @param recv       at this group's root, the remote result
     * @param op         the reduction
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException for a bad argument, before anything is sent
     */
    @Override
    public Request ireduce(final Buf send, final Buf recv, final Op op, final int root, final int remoteRoot) {
        return startReduce(CollStart.NONBLOCKING, send, recv, op, root, remoteRoot);
    }

    private Request startReduce(final CollStart nb, final Buf send, final Buf recv, final Op op, final int root,
        final int remoteRoot) {
        checkSymmetricRoots("reduce", root, remoteRoot);
        needOp("reduce", op);
        noInPlace("reduce", send, recv);
        return reduceSymmetric(nb, "reduce", orNone(send), orNone(recv), op, root, remoteRoot);
    }

    // ------------------------------------------------------------------------- tagged two-phase collectives

    /** @return the largest tag of a tagged two-phase collective ({@code ...Begin(..., tag)}); the smallest is 0 */
    public int collectiveTagUpperBound() {
        return CollComm.TAGGED_TAG_UB;
    }

    private CollStart tagged(final String op, final CollKind kind, final int tag) {
        if (tag < 0 || tag > CollComm.TAGGED_TAG_UB) {
            throw Errors.tag(op, describe(), tag, CollComm.TAGGED_TAG_UB,
                " (wildcards are not allowed for collectives)");
        }
        return CollStart.tagged(kind, tag);
    }

    /**
     * Begins a tagged two-phase {@code barrier} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle barrierBegin(final int tag) {
        return (CollectiveHandle) startBarrier(tagged("barrierBegin", CollKind.BARRIER, tag));
    }

    /**
     * Begins a tagged two-phase {@code bcast} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param buf as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle bcastBegin(final Buf buf, final int root, final int tag) {
        return (CollectiveHandle) startBcast(tagged("bcastBegin", CollKind.BCAST, tag), buf, root);
    }

    /**
     * Begins a tagged two-phase {@code gather} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle gatherBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return (CollectiveHandle) startGather(tagged("gatherBegin", CollKind.GATHER, tag), send, recv, root);
    }

    /**
     * Begins a tagged two-phase {@code gatherv} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param displs as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle gathervBegin(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int root, final int tag) {
        return (CollectiveHandle) startGatherv(tagged("gathervBegin", CollKind.GATHERV, tag), send, recv, recvCounts,
            displs, root);
    }

    /**
     * Begins a tagged two-phase {@code scatter} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scatterBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return (CollectiveHandle) startScatter(tagged("scatterBegin", CollKind.SCATTER, tag), send, recv, root);
    }

    /**
     * Begins a tagged two-phase {@code scatterv} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param sendCounts as for the blocking form
     * @param displs as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scattervBegin(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root, final int tag) {
        return (CollectiveHandle) startScatterv(tagged("scattervBegin", CollKind.SCATTERV, tag), send, sendCounts,
            displs, recv, root);
    }

    /**
     * Begins a tagged two-phase {@code reduce} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param root as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceBegin(final Buf send, final Buf recv, final Op op, final int root, final int tag) {
        return (CollectiveHandle) startReduce(tagged("reduceBegin", CollKind.REDUCE, tag), send, recv, op, root);
    }

    /**
     * Begins a tagged two-phase {@code allgather} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allgatherBegin(final Buf send, final Buf recv, final int tag) {
        return (CollectiveHandle) startAllgather(tagged("allgatherBegin", CollKind.ALLGATHER, tag), send, recv);
    }

    /**
     * Begins a tagged two-phase {@code allgatherv} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param displs as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allgathervBegin(final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs, final int tag) {
        return (CollectiveHandle) startAllgatherv(tagged("allgathervBegin", CollKind.ALLGATHERV, tag), send, recv,
            recvCounts, displs);
    }

    /**
     * Begins a tagged two-phase {@code alltoall} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallBegin(final Buf send, final Buf recv, final int tag) {
        return (CollectiveHandle) startAlltoall(tagged("alltoallBegin", CollKind.ALLTOALL, tag), send, recv);
    }

    /**
     * Begins a tagged two-phase {@code alltoallv} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param sendCounts as for the blocking form
     * @param sendDispls as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param recvDispls as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallvBegin(final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv,
        final int[] recvCounts, final int[] recvDispls, final int tag) {
        return (CollectiveHandle) startAlltoallv(tagged("alltoallvBegin", CollKind.ALLTOALLV, tag), send, sendCounts,
            sendDispls, recv, recvCounts, recvDispls);
    }

    /**
     * Begins a tagged two-phase {@code alltoallw} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallwBegin(final Buf[] send, final Buf[] recv, final int tag) {
        return (CollectiveHandle) startAlltoallw(tagged("alltoallwBegin", CollKind.ALLTOALLW, tag), send, recv);
    }

    /**
     * Begins a tagged two-phase {@code allreduce} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allreduceBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) startAllreduce(tagged("allreduceBegin", CollKind.ALLREDUCE, tag), send, recv, op);
    }

    /**
     * Begins a tagged two-phase {@code reduceScatter} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param op as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceScatterBegin(final Buf send, final Buf recv, final int[] recvCounts, final Op op,
        final int tag) {
        return (CollectiveHandle) startReduceScatter(tagged("reduceScatterBegin", CollKind.REDUCE_SCATTER, tag),
            send, recv, recvCounts, op);
    }

    /**
     * Begins a tagged two-phase {@code reduceScatterBlock} on this intercommunicator: matched by kind and tag
     * instead of call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceScatterBlockBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) startReduceScatterBlock(tagged("reduceScatterBlockBegin",
            CollKind.REDUCE_SCATTER_BLOCK, tag), send, recv, op);
    }

    /**
     * Begins a tagged two-phase {@code bcast} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle bcastBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return (CollectiveHandle) startBcast(tagged("bcastBegin", CollKind.BCAST, tag), send, recv, root, remoteRoot);
    }

    /**
     * Begins a tagged two-phase {@code scatter} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scatterBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return (CollectiveHandle) startScatter(tagged("scatterBegin", CollKind.SCATTER, tag), send, recv, root,
            remoteRoot);
    }

    /**
     * Begins a tagged two-phase {@code gather} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle gatherBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return (CollectiveHandle) startGather(tagged("gatherBegin", CollKind.GATHER, tag), send, recv, root,
            remoteRoot);
    }

    /**
     * Begins a tagged two-phase {@code reduce} on this intercommunicator: matched by kind and tag instead of
     * call order (see {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceBegin(final Buf send, final Buf recv, final Op op, final int root,
        final int remoteRoot, final int tag) {
        return (CollectiveHandle) startReduce(tagged("reduceBegin", CollKind.REDUCE, tag), send, recv, op, root,
            remoteRoot);
    }

    // --------------------------------------------------------------------------------------------- machinery

    /** The finish steps of a call without staging. */
    private static final List<Runnable> NO_FINISH = List.of();

    /** Hands a validated call to the engine's one door ({@link CollDoor}). */
    private Request enter(final CollStart nb, final CollKind kind, final InterArgs a, final List<Runnable> fin) {
        return CollDoor.enter(new CollCall().inter(ic, describe(), kind, nb, a, fin));
    }

    private Request bcastSymmetric(final CollStart nb, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        checkLive(op);
        final boolean isRoot = rank() == root;
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(op, isRoot ? send.datatype() : Datatype.BYTE, recv.datatype(), null,
            isRoot ? sendMemory(send) : null, isRoot ? send.count() : 0, recvMemory(recv, fin), recv.count(), root,
            remoteRoot);
        return enter(nb, CollKind.BCAST, a, fin);
    }

    private Request scatterSymmetric(final CollStart nb, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        checkLive(op);
        final boolean isRoot = rank() == root;
        if (isRoot) {
            multiple(op, "send", send, remoteSize());
        }
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(op, isRoot ? send.datatype() : Datatype.BYTE, recv.datatype(), null,
            isRoot ? sendMemory(send) : null, isRoot ? send.count() / remoteSize() : 0, recvMemory(recv, fin),
            recv.count(), root, remoteRoot);
        return enter(nb, CollKind.SCATTER, a, fin);
    }

    private Request gatherSymmetric(final CollStart nb, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        checkLive(op);
        final boolean isRoot = rank() == root;
        if (isRoot) {
            multiple(op, "recv", recv, remoteSize());
        }
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(op, send.datatype(), isRoot ? recv.datatype() : Datatype.BYTE, null,
            sendMemory(send), send.count(), isRoot ? recvMemory(recv, fin) : null,
            isRoot ? recv.count() / remoteSize() : 0, root, remoteRoot);
        return enter(nb, CollKind.GATHER, a, fin);
    }

    private Request reduceSymmetric(final CollStart nb, final String name, final Buf send, final Buf recv,
        final Op op, final int root, final int remoteRoot) {
        checkLive(name);
        final boolean isRoot = rank() == root;
        checkOp(name, op, send, isRoot ? recv : NONE);
        final List<Runnable> fin = new ArrayList<>();
        final InterArgs a = InterArgs.of(name, send.datatype(), isRoot ? recv.datatype() : Datatype.BYTE, op,
            sendMemory(send), send.count(), isRoot ? recvMemory(recv, fin) : null, isRoot ? recv.count() : 0, root,
            remoteRoot);
        return enter(nb, CollKind.REDUCE, a, fin);
    }

    private void checkOneWayRoot(final String op, final int root) {
        checkLive(op);
        if (ROOT != root && PROC_NULL != root && (root < 0 || root >= remoteSize())) {
            throw Errors.invalid(ErrorClass.ROOT, op, describe(), "root=" + root + " is not ROOT, PROC_NULL or a "
                + "rank of the remote group, expected ROOT (-3) at the root, PROC_NULL (-2) at its group's other "
                + "ranks, 0.." + (remoteSize() - 1) + " in the other group");
        }
    }

    private void checkSymmetricRoots(final String op, final int root, final int remoteRoot) {
        checkLive(op);
        if (root < 0 || root >= size()) {
            throw Errors.invalid(ErrorClass.ROOT, op, describe(), "root=" + root + " is outside the local group, "
                + "expected 0.." + (size() - 1));
        }
        if (remoteRoot < 0 || remoteRoot >= remoteSize()) {
            throw Errors.invalid(ErrorClass.ROOT, op, describe(), "remoteRoot=" + remoteRoot + " is outside the "
                + "remote group, expected 0.." + (remoteSize() - 1));
        }
    }

    private static Buf orNone(final Buf b) {
        return null == b ? NONE : b;
    }

    private void noInPlace(final String op, final Buf send, final Buf recv) {
        if (Buf.IN_PLACE == send || Buf.IN_PLACE == recv) {
            throw Errors.invalid(ErrorClass.BUFFER, op, describe(), (Buf.IN_PLACE == send ? "send" : "recv")
                + "=IN_PLACE, expected a buffer: an intercommunicator has no in-place collectives");
        }
    }

    private void need(final String op, final String arg, final Buf b) {
        if (null == b || Buf.IN_PLACE == b) {
            throw Errors.invalid(ErrorClass.BUFFER, op, describe(), arg + "=" + (null == b ? "null" : "IN_PLACE")
                + ", expected a buffer");
        }
    }

    private void needOp(final String op, final Op o) {
        if (null == o) {
            throw Errors.invalid(ErrorClass.OP, op, describe(), "op=null, expected a reduction operation");
        }
    }

    private void checkOp(final String name, final Op op, final Buf send, final Buf recv) {
        if (send.count() > 0) {
            Reductions.check(name, op, send.datatype());
        }
        if (recv.count() > 0) {
            Reductions.check(name, op, recv.datatype());
        }
    }

    private void multiple(final String op, final String arg, final Buf b, final int n) {
        if (0 != b.count() % n) {
            throw Errors.invalid(ErrorClass.COUNT, op, describe(), arg + " count=" + b.count() + " is not a "
                + "multiple of remoteSize=" + n + ", expected remoteSize equal blocks");
        }
    }

    private void capacity(final String op, final String arg, final Buf b, final long needed) {
        if (b.count() < needed) {
            throw Errors.invalid(ErrorClass.COUNT, op, describe(), arg + " count=" + b.count() + " is too small, "
                + "expected at least " + needed + " elements");
        }
    }

    private void checkVector(final String op, final String countsName, final String displsName, final int[] counts,
        final int[] displs, final Buf b, final int n) {
        Collectives.checkVector(op, describe(), "remoteSize", n, countsName, displsName, counts, displs, b);
    }

}
