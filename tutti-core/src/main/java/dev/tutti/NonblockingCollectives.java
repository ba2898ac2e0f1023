package dev.tutti;

/**
 * The nonblocking collectives ({@code i...}), on both communicator kinds: each starts the collective and returns
 * a {@link Request} at once; the buffers must not be touched until it completes. They follow the ordering rule
 * of {@link BlockingCollectives} by their start; several may be outstanding at once, and the arguments and their
 * meaning on an intercommunicator are those of the blocking forms.
 */
public interface NonblockingCollectives {
    /**
     * Blocks until every rank of the group has entered the barrier.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request ibarrier();

    /**
     * Broadcasts {@code buf} from {@code root} to every rank; on the others it is overwritten.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param buf the data at the root, where it arrives elsewhere; its count is the element count
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request ibcast(Buf buf, int root);

    /**
     * Gathers each rank's {@code send} into block {@code i} of {@code recv} at {@code root} (block size = send count).
     * At the root, {@code send} may be {@link Buf#IN_PLACE}: its block is already in place (block size = recv count /
     * size).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's block
     * @param recv the result, significant only at the root (may be null elsewhere)
     * @param root the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request igather(Buf send, Buf recv, int root);

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
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request igatherv(Buf send, Buf recv, int[] recvCounts, int[] displs, int root);

    /**
     * Scatters block {@code i} of {@code send} at the root to rank {@code i}'s {@code recv} (block size = recv count).
     * At the root {@code recv} may be {@link Buf#IN_PLACE} (block size = send count / size).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send the blocks, significant only at the root
     * @param recv this rank's block
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request iscatter(Buf send, Buf recv, int root);

    /**
     * Scatters blocks of different sizes from the root. At the root {@code recv} may be {@link Buf#IN_PLACE}.
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send the blocks at the root
     * @param sendCounts elements for each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param recv this rank's block
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request iscatterv(Buf send, int[] sendCounts, int[] displs, Buf recv, int root);

    /**
     * Nonblocking {@link BlockingCollectives#allgather(Buf, Buf)}.
     *
     * @param send this rank's block
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    Request iallgather(Buf send, Buf recv);

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
    Request iallgatherv(Buf send, Buf recv, int[] recvCounts, int[] displs);

    /**
     * Nonblocking {@link BlockingCollectives#alltoall(Buf, Buf)}.
     *
     * @param send remoteSize blocks
     * @param recv remoteSize blocks
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    Request ialltoall(Buf send, Buf recv);

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
    Request ialltoallv(Buf send, int[] sendCounts, int[] sendDispls, Buf recv, int[] recvCounts, int[] recvDispls);

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
    Request ialltoallw(Buf[] send, Buf[] recv);

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into {@code recv} at the root, in rank order
     * ({@code x0 op x1 op ...}). At the root {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     * Nonblocking: returns at once; the buffers must not be touched until the request completes.
     *
     * @param send this rank's input
     * @param recv the result, significant only at the root
     * @param op the reduction
     * @param root the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    Request ireduce(Buf send, Buf recv, Op op, int root);

    /**
     * Nonblocking {@link BlockingCollectives#allreduce(Buf, Buf, Op)}.
     *
     * @param send this rank's vector
     * @param recv the remote group's result
     * @param op   the reduction
     * @return the request
     * @throws TuttiException for a bad argument (before anything is sent)
     */
    Request iallreduce(Buf send, Buf recv, Op op);

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
    Request ireduceScatter(Buf send, Buf recv, int[] recvCounts, Op op);

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
    Request ireduceScatterBlock(Buf send, Buf recv, Op op);

    /**
     * Nonblocking {@link BlockingCollectives#bcast(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, the data for every remote rank
     * @param recv       where the remote root's data arrives
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    Request ibcast(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link BlockingCollectives#scatter(Buf, Buf, int, int)}.
     *
     * @param send       at this group's root, remoteSize blocks
     * @param recv       this rank's block
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    Request iscatter(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link BlockingCollectives#gather(Buf, Buf, int, int)}.
     *
     * @param send       this rank's block
     * @param recv       at this group's root, remoteSize blocks
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    Request igather(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Nonblocking {@link BlockingCollectives#reduce(Buf, Buf, Op, int, int)}.
     *
     * @param send       this rank's vector
     * @param recv       at this group's root, the remote group's result
     * @param op         the reduction
     * @param root       this group's root
     * @param remoteRoot the remote group's root
     * @return the request
     * @throws TuttiException as the blocking form, for arguments checked before anything is sent
     */
    Request ireduce(Buf send, Buf recv, Op op, int root, int remoteRoot);
}
