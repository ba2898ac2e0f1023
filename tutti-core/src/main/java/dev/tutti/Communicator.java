package dev.tutti;

import dev.tutti.coll.CollComm;
import dev.tutti.coll.SelectionTable;
import dev.tutti.p2p.P2pEngine;

import java.util.List;
import java.util.function.BinaryOperator;

/**
 * An intracommunicator: a group of ranks with point-to-point messaging (see {@link Comm}) and every MPI
 * collective, blocking and nonblocking ({@code i...}, returning a {@link Request}), over {@link Buf} buffers, plus
 * object collectives in mpi4py's lowercase style ({@code bcastObject}, {@code allreduceObject}, ...).
 *
 * <p>Ordering rule (MPI): ordinary collectives are matched by call order, so every rank of the group must call
 * the collectives of a communicator in the same order (nonblocking ones by their start). Several nonblocking
 * collectives may be outstanding at once, and point-to-point traffic may be interleaved freely; it never matches
 * collective traffic. When several threads of a rank start collectives on one communicator, the program must order
 * them itself.
 *
 * <p>The algorithm of each call is chosen by group size and message size (see
 * {@code dev.tutti.coll.SelectionTable}); it can be forced with the setting {@code tutti.coll.<operation>}, e.g.
 * {@code -Dtutti.coll.allreduce=ring}, or {@link Tutti.Options#algorithm}.
 */
public final class Communicator extends Comm {
    private final Collectives coll;
    private final ObjectCollectives objects;

    Communicator(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer) {
        this(engine, name, p2pContext, worldRanks, serializer, SelectionTable.fromConfiguration());
    }

    Communicator(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer, final SelectionTable selection) {
        super(engine, name, p2pContext, worldRanks, serializer);
        final CollComm c = new CollComm(engine, p2pContext + 1, rank(), worldRanks, view(), selection);
        this.coll = new Collectives(c, describe());
        this.objects = new ObjectCollectives(this, serializer);
    }

    /**
     * Blocks until every rank of the group has entered the barrier.
     *
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void barrier() {
        coll.barrier(false).waitFor();
    }

    /**
     * Blocks until every rank of the group has entered the barrier.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ibarrier() {
        return coll.barrier(true);
    }

    /**
     * Broadcasts {@code buf} from {@code root} to every rank; on the others it is overwritten.
     *
     * @param buf the data at the root, where it arrives elsewhere; its count is the element count
     * @param root the rank that sends
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void bcast(final Buf buf, final int root) {
        coll.bcast(false, buf, root).waitFor();
    }

    /**
     * Broadcasts {@code buf} from {@code root} to every rank; on the others it is overwritten.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param buf the data at the root, where it arrives elsewhere; its count is the element count
     * @param root the rank that sends
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ibcast(final Buf buf, final int root) {
        return coll.bcast(true, buf, root);
    }

    /**
     * Gathers each rank's {@code send} into block {@code i} of {@code recv} at {@code root} (block size = send count).
     * At the root, {@code send} may be {@link Buf#IN_PLACE}: its block is already in place (block size = recv count /
     * size).
     *
     * @param send this rank's block
     * @param recv the result, significant only at the root (may be null elsewhere)
     * @param root the rank that receives
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void gather(final Buf send, final Buf recv, final int root) {
        coll.gather(false, send, recv, root).waitFor();
    }

    /**
     * Gathers each rank's {@code send} into block {@code i} of {@code recv} at {@code root} (block size = send count).
     * At the root, {@code send} may be {@link Buf#IN_PLACE}: its block is already in place (block size = recv count /
     * size).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's block
     * @param recv the result, significant only at the root (may be null elsewhere)
     * @param root the rank that receives
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request igather(final Buf send, final Buf recv, final int root) {
        return coll.gather(true, send, recv, root);
    }

    /**
     * Gathers blocks of different sizes: rank {@code i}'s {@code send} lands at {@code displs[i]} of {@code recv} at
     * the root, {@code recvCounts[i]} elements. At the root {@code send} may be {@link Buf#IN_PLACE}.
     *
     * @param send this rank's block
     * @param recv the result at the root
     * @param recvCounts elements from each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param root the rank that receives
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void gatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int root) {
        coll.gatherv(false, send, recv, recvCounts, displs, root).waitFor();
    }

    /**
     * Gathers blocks of different sizes: rank {@code i}'s {@code send} lands at {@code displs[i]} of {@code recv} at
     * the root, {@code recvCounts[i]} elements. At the root {@code send} may be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's block
     * @param recv the result at the root
     * @param recvCounts elements from each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param root the rank that receives
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request igatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int root) {
        return coll.gatherv(true, send, recv, recvCounts, displs, root);
    }

    /**
     * Scatters block {@code i} of {@code send} at the root to rank {@code i}'s {@code recv} (block size = recv count).
     * At the root {@code recv} may be {@link Buf#IN_PLACE} (block size = send count / size).
     *
     * @param send the blocks, significant only at the root
     * @param recv this rank's block
     * @param root the rank that sends
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void scatter(final Buf send, final Buf recv, final int root) {
        coll.scatter(false, send, recv, root).waitFor();
    }

    /**
     * Scatters block {@code i} of {@code send} at the root to rank {@code i}'s {@code recv} (block size = recv count).
     * At the root {@code recv} may be {@link Buf#IN_PLACE} (block size = send count / size).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send the blocks, significant only at the root
     * @param recv this rank's block
     * @param root the rank that sends
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iscatter(final Buf send, final Buf recv, final int root) {
        return coll.scatter(true, send, recv, root);
    }

    /**
     * Scatters blocks of different sizes from the root. At the root {@code recv} may be {@link Buf#IN_PLACE}.
     *
     * @param send the blocks at the root
     * @param sendCounts elements for each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param recv this rank's block
     * @param root the rank that sends
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void scatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv, final int root) {
        coll.scatterv(false, send, sendCounts, displs, recv, root).waitFor();
    }

    /**
     * Scatters blocks of different sizes from the root. At the root {@code recv} may be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send the blocks at the root
     * @param sendCounts elements for each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param recv this rank's block
     * @param root the rank that sends
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iscatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv, final int root) {
        return coll.scatterv(true, send, sendCounts, displs, recv, root);
    }

    /**
     * Gathers every rank's {@code send} into block {@code i} of every rank's {@code recv}. {@code send} may be {@link
     * Buf#IN_PLACE}: this rank's block is already in {@code recv}.
     *
     * @param send this rank's block
     * @param recv size blocks
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void allgather(final Buf send, final Buf recv) {
        coll.allgather(false, send, recv).waitFor();
    }

    /**
     * Gathers every rank's {@code send} into block {@code i} of every rank's {@code recv}. {@code send} may be {@link
     * Buf#IN_PLACE}: this rank's block is already in {@code recv}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's block
     * @param recv size blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iallgather(final Buf send, final Buf recv) {
        return coll.allgather(true, send, recv);
    }

    /**
     * Allgather with blocks of different sizes. {@code send} may be {@link Buf#IN_PLACE}.
     *
     * @param send this rank's block
     * @param recv the result
     * @param recvCounts elements from each rank
     * @param displs element offset of each rank's block
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void allgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        coll.allgatherv(false, send, recv, recvCounts, displs).waitFor();
    }

    /**
     * Allgather with blocks of different sizes. {@code send} may be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's block
     * @param recv the result
     * @param recvCounts elements from each rank
     * @param displs element offset of each rank's block
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iallgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        return coll.allgatherv(true, send, recv, recvCounts, displs);
    }

    /**
     * Sends block {@code i} of {@code send} to rank {@code i}, which stores it as block {@code j} (this rank) of its
     * {@code recv}. The send count must be a multiple of size. {@code send} may be {@link Buf#IN_PLACE} (the blocks
     * are in {@code recv}).
     *
     * @param send size blocks
     * @param recv size blocks
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void alltoall(final Buf send, final Buf recv) {
        coll.alltoall(false, send, recv).waitFor();
    }

    /**
     * Sends block {@code i} of {@code send} to rank {@code i}, which stores it as block {@code j} (this rank) of its
     * {@code recv}. The send count must be a multiple of size. {@code send} may be {@link Buf#IN_PLACE} (the blocks
     * are in {@code recv}).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send size blocks
     * @param recv size blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ialltoall(final Buf send, final Buf recv) {
        return coll.alltoall(true, send, recv);
    }

    /**
     * Alltoall with blocks of different sizes. {@code send} may be {@link Buf#IN_PLACE} (the send layout is then the
     * receive layout).
     *
     * @param send the outgoing blocks
     * @param sendCounts elements to each rank
     * @param sendDispls offset of each outgoing block
     * @param recv the incoming blocks
     * @param recvCounts elements from each rank
     * @param recvDispls offset of each incoming block
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void alltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        coll.alltoallv(false, send, sendCounts, sendDispls, recv, recvCounts, recvDispls).waitFor();
    }

    /**
     * Alltoall with blocks of different sizes. {@code send} may be {@link Buf#IN_PLACE} (the send layout is then the
     * receive layout).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send the outgoing blocks
     * @param sendCounts elements to each rank
     * @param sendDispls offset of each outgoing block
     * @param recv the incoming blocks
     * @param recvCounts elements from each rank
     * @param recvDispls offset of each incoming block
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ialltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        return coll.alltoallv(true, send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    /**
     * Alltoall with a buffer, type and count per peer: {@code send[i]} goes to rank {@code i}, {@code recv[i]} comes
     * from it.
     *
     * @param send one buffer per rank
     * @param recv one buffer per rank
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void alltoallw(final Buf[] send, final Buf[] recv) {
        coll.alltoallw(false, send, recv).waitFor();
    }

    /**
     * Alltoall with a buffer, type and count per peer: {@code send[i]} goes to rank {@code i}, {@code recv[i]} comes
     * from it.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send one buffer per rank
     * @param recv one buffer per rank
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ialltoallw(final Buf[] send, final Buf[] recv) {
        return coll.alltoallw(true, send, recv);
    }

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into {@code recv} at the root, in rank order
     * ({@code x0 op x1 op ...}). At the root {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     *
     * @param send this rank's input
     * @param recv the result, significant only at the root
     * @param op the reduction
     * @param root the rank that receives
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void reduce(final Buf send, final Buf recv, final Op op, final int root) {
        coll.reduce(false, send, recv, op, root).waitFor();
    }

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into {@code recv} at the root, in rank order
     * ({@code x0 op x1 op ...}). At the root {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv the result, significant only at the root
     * @param op the reduction
     * @param root the rank that receives
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ireduce(final Buf send, final Buf recv, final Op op, final int root) {
        return coll.reduce(true, send, recv, op, root);
    }

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into every rank's {@code recv}. {@code send} may
     * be {@link Buf#IN_PLACE}.
     *
     * @param send this rank's input
     * @param recv the result
     * @param op the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void allreduce(final Buf send, final Buf recv, final Op op) {
        coll.allreduce(false, send, recv, op).waitFor();
    }

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into every rank's {@code recv}. {@code send} may
     * be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv the result
     * @param op the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iallreduce(final Buf send, final Buf recv, final Op op) {
        return coll.allreduce(true, send, recv, op);
    }

    /**
     * Reduces vectors of sum(recvCounts) elements and scatters the result: rank {@code i} gets {@code recvCounts[i]}
     * elements. {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     *
     * @param send this rank's input
     * @param recv this rank's part of the result
     * @param recvCounts elements for each rank
     * @param op the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void reduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        coll.reduceScatter(false, send, recv, recvCounts, op).waitFor();
    }

    /**
     * Reduces vectors of sum(recvCounts) elements and scatters the result: rank {@code i} gets {@code recvCounts[i]}
     * elements. {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv this rank's part of the result
     * @param recvCounts elements for each rank
     * @param op the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ireduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        return coll.reduceScatter(true, send, recv, recvCounts, op);
    }

    /**
     * Reduces vectors of size x n elements (n = recv count) and gives rank {@code i} block {@code i} of the result.
     * {@code send} may be {@link Buf#IN_PLACE} (input in {@code recv}, result in its first block).
     *
     * @param send this rank's input
     * @param recv this rank's block
     * @param op the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void reduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        coll.reduceScatterBlock(false, send, recv, op).waitFor();
    }

    /**
     * Reduces vectors of size x n elements (n = recv count) and gives rank {@code i} block {@code i} of the result.
     * {@code send} may be {@link Buf#IN_PLACE} (input in {@code recv}, result in its first block).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv this rank's block
     * @param op the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request ireduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        return coll.reduceScatterBlock(true, send, recv, op);
    }

    /**
     * Inclusive prefix reduction: rank {@code i} gets {@code x0 op ... op xi}. {@code send} may be {@link
     * Buf#IN_PLACE}.
     *
     * @param send this rank's input
     * @param recv the prefix
     * @param op the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void scan(final Buf send, final Buf recv, final Op op) {
        coll.scan(false, send, recv, op).waitFor();
    }

    /**
     * Inclusive prefix reduction: rank {@code i} gets {@code x0 op ... op xi}. {@code send} may be {@link
     * Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv the prefix
     * @param op the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iscan(final Buf send, final Buf recv, final Op op) {
        return coll.scan(true, send, recv, op);
    }

    /**
     * Exclusive prefix reduction: rank {@code i > 0} gets {@code x0 op ... op x(i-1)}; rank 0's {@code recv} is left
     * unchanged. {@code send} may be {@link Buf#IN_PLACE}.
     *
     * @param send this rank's input
     * @param recv the prefix
     * @param op the reduction
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public void exscan(final Buf send, final Buf recv, final Op op) {
        coll.exscan(false, send, recv, op).waitFor();
    }

    /**
     * Exclusive prefix reduction: rank {@code i > 0} gets {@code x0 op ... op x(i-1)}; rank 0's {@code recv} is left
     * unchanged. {@code send} may be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv the prefix
     * @param op the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    public Request iexscan(final Buf send, final Buf recv, final Op op) {
        return coll.exscan(true, send, recv, op);
    }

    // ------------------------------------------------------------------------- tagged two-phase collectives

    /** @return the largest tag of a tagged two-phase collective ({@code ...Begin(..., tag)}); the smallest is 0 */
    public int collectiveTagUpperBound() {
        return Collectives.TAG_UB;
    }

    /**
     * Begins a tagged two-phase {@link #barrier}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle barrierBegin(final int tag) {
        return (CollectiveHandle) coll.tagged("barrierBegin", tag).barrier(true);
    }

    /**
     * Begins a tagged two-phase {@link #bcast}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param buf as for {@link #bcast}
     * @param root as for {@link #bcast}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle bcastBegin(final Buf buf, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("bcastBegin", tag).bcast(true, buf, root);
    }

    /**
     * Begins a tagged two-phase {@link #gather}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #gather}
     * @param recv as for {@link #gather}
     * @param root as for {@link #gather}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle gatherBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("gatherBegin", tag).gather(true, send, recv, root);
    }

    /**
     * Begins a tagged two-phase {@link #gatherv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #gatherv}
     * @param recv as for {@link #gatherv}
     * @param recvCounts as for {@link #gatherv}
     * @param displs as for {@link #gatherv}
     * @param root as for {@link #gatherv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle gathervBegin(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("gathervBegin", tag).gatherv(true, send, recv, recvCounts, displs, root);
    }

    /**
     * Begins a tagged two-phase {@link #scatter}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #scatter}
     * @param recv as for {@link #scatter}
     * @param root as for {@link #scatter}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scatterBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("scatterBegin", tag).scatter(true, send, recv, root);
    }

    /**
     * Begins a tagged two-phase {@link #scatterv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #scatterv}
     * @param sendCounts as for {@link #scatterv}
     * @param displs as for {@link #scatterv}
     * @param recv as for {@link #scatterv}
     * @param root as for {@link #scatterv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scattervBegin(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("scattervBegin", tag).scatterv(true, send, sendCounts, displs, recv, root);
    }

    /**
     * Begins a tagged two-phase {@link #allgather}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #allgather}
     * @param recv as for {@link #allgather}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allgatherBegin(final Buf send, final Buf recv, final int tag) {
        return (CollectiveHandle) coll.tagged("allgatherBegin", tag).allgather(true, send, recv);
    }

    /**
     * Begins a tagged two-phase {@link #allgatherv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #allgatherv}
     * @param recv as for {@link #allgatherv}
     * @param recvCounts as for {@link #allgatherv}
     * @param displs as for {@link #allgatherv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allgathervBegin(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int tag) {
        return (CollectiveHandle) coll.tagged("allgathervBegin", tag).allgatherv(true, send, recv, recvCounts, displs);
    }

    /**
     * Begins a tagged two-phase {@link #alltoall}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #alltoall}
     * @param recv as for {@link #alltoall}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallBegin(final Buf send, final Buf recv, final int tag) {
        return (CollectiveHandle) coll.tagged("alltoallBegin", tag).alltoall(true, send, recv);
    }

    /**
     * Begins a tagged two-phase {@link #alltoallv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #alltoallv}
     * @param sendCounts as for {@link #alltoallv}
     * @param sendDispls as for {@link #alltoallv}
     * @param recv as for {@link #alltoallv}
     * @param recvCounts as for {@link #alltoallv}
     * @param recvDispls as for {@link #alltoallv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallvBegin(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv, final int[] recvCounts, final int[] recvDispls, final int tag) {
        return (CollectiveHandle) coll.tagged("alltoallvBegin", tag).alltoallv(true, send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    /**
     * Begins a tagged two-phase {@link #alltoallw}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #alltoallw}
     * @param recv as for {@link #alltoallw}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle alltoallwBegin(final Buf[] send, final Buf[] recv, final int tag) {
        return (CollectiveHandle) coll.tagged("alltoallwBegin", tag).alltoallw(true, send, recv);
    }

    /**
     * Begins a tagged two-phase {@link #reduce}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #reduce}
     * @param recv as for {@link #reduce}
     * @param op as for {@link #reduce}
     * @param root as for {@link #reduce}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceBegin(final Buf send, final Buf recv, final Op op, final int root, final int tag) {
        return (CollectiveHandle) coll.tagged("reduceBegin", tag).reduce(true, send, recv, op, root);
    }

    /**
     * Begins a tagged two-phase {@link #allreduce}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #allreduce}
     * @param recv as for {@link #allreduce}
     * @param op as for {@link #allreduce}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle allreduceBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) coll.tagged("allreduceBegin", tag).allreduce(true, send, recv, op);
    }

    /**
     * Begins a tagged two-phase {@link #reduceScatter}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #reduceScatter}
     * @param recv as for {@link #reduceScatter}
     * @param recvCounts as for {@link #reduceScatter}
     * @param op as for {@link #reduceScatter}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceScatterBegin(final Buf send, final Buf recv, final int[] recvCounts, final Op op, final int tag) {
        return (CollectiveHandle) coll.tagged("reduceScatterBegin", tag).reduceScatter(true, send, recv, recvCounts, op);
    }

    /**
     * Begins a tagged two-phase {@link #reduceScatterBlock}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #reduceScatterBlock}
     * @param recv as for {@link #reduceScatterBlock}
     * @param op as for {@link #reduceScatterBlock}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle reduceScatterBlockBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) coll.tagged("reduceScatterBlockBegin", tag).reduceScatterBlock(true, send, recv, op);
    }

    /**
     * Begins a tagged two-phase {@link #scan}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #scan}
     * @param recv as for {@link #scan}
     * @param op as for {@link #scan}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle scanBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) coll.tagged("scanBegin", tag).scan(true, send, recv, op);
    }

    /**
     * Begins a tagged two-phase {@link #exscan}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #exscan}
     * @param recv as for {@link #exscan}
     * @param op as for {@link #exscan}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    public CollectiveHandle exscanBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return (CollectiveHandle) coll.tagged("exscanBegin", tag).exscan(true, send, recv, op);
    }

    // ------------------------------------------------------------------------------------- object collectives

    /**
     * Broadcasts a value from the root; every rank returns it (the root returns its own argument).
     *
     * @param value the value at the root (ignored elsewhere)
     * @param root  the rank that sends
     * @param <T>   the type
     * @return the root's value
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    public <T> T bcastObject(final T value, final int root) {
        return objects.bcast(value, root);
    }

    /**
     * Gathers one value from every rank at the root.
     *
     * @param value this rank's value
     * @param root  the rank that receives
     * @param <T>   the type
     * @return at the root, the values in rank order; elsewhere null
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    public <T> List<T> gatherObject(final T value, final int root) {
        return objects.gather(value, root);
    }

    /**
     * Scatters one value to every rank from a list at the root.
     *
     * @param values at the root, exactly size values (ignored elsewhere)
     * @param root   the rank that sends
     * @param <T>    the type
     * @return this rank's value
     * @throws TuttiException if the root's list does not have size elements, or a peer fails
     */
    public <T> T scatterObject(final List<? extends T> values, final int root) {
        return objects.scatter(values, root);
    }

    /**
     * Gathers one value from every rank at every rank.
     *
     * @param value this rank's value
     * @param <T>   the type
     * @return the values in rank order
     * @throws TuttiException for a serialization failure or a failed peer
     */
    public <T> List<T> allgatherObject(final T value) {
        return objects.allgather(value);
    }

    /**
     * Sends {@code values.get(i)} to rank {@code i} and returns what every rank sent to this one.
     *
     * @param values exactly size values
     * @param <T>    the type
     * @return the received values, by source rank
     * @throws TuttiException if the list does not have size elements, or a peer fails
     */
    public <T> List<T> alltoallObject(final List<? extends T> values) {
        return objects.alltoall(values);
    }

    /**
     * Reduces one value per rank with {@code op} at the root, in rank order.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param root  the rank that receives
     * @param <T>   the type
     * @return at the root, {@code v0 op v1 op ...}; elsewhere null
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    public <T> T reduceObject(final T value, final BinaryOperator<T> op, final int root) {
        return objects.reduce(value, op, root);
    }

    /**
     * Reduces one value per rank with {@code op}, in rank order, at every rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op v1 op ...}
     * @throws TuttiException for a serialization failure or a failed peer
     */
    public <T> T allreduceObject(final T value, final BinaryOperator<T> op) {
        return objects.allreduce(value, op);
    }

    /**
     * Inclusive prefix reduction of one value per rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op ... op v(rank)}
     * @throws TuttiException for a serialization failure or a failed peer
     */
    public <T> T scanObject(final T value, final BinaryOperator<T> op) {
        return objects.scan(value, op, true);
    }

    /**
     * Exclusive prefix reduction of one value per rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op ... op v(rank-1)}, or null at rank 0
     * @throws TuttiException for a serialization failure or a failed peer
     */
    public <T> T exscanObject(final T value, final BinaryOperator<T> op) {
        return objects.scan(value, op, false);
    }
}
