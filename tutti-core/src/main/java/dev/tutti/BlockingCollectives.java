package dev.tutti;

/**
 * The blocking collectives, on both communicator kinds: each returns when this rank's part is done and its
 * buffers are the caller's again.
 *
 * <p>Ordering rule (MPI): collectives are matched by call order, so every rank of the group must call the
 * collectives of a communicator in the same order (nonblocking ones, {@link NonblockingCollectives}, by their
 * start). Point-to-point traffic never matches collective traffic. For collectives matched by a tag instead,
 * from any thread, see {@link TaggedCollectives}.
 *
 * <p>The descriptions are an intracommunicator's. On an intercommunicator ({@link Intercommunicator}) the rooted
 * forms are MPI's one-way ones: the group that holds the root passes {@link Intercommunicator#ROOT} at the root
 * and {@link Comm#PROC_NULL} at its other ranks, the other group passes the root's rank in the remote group; the
 * others are two-way ({@code allgather} gives each rank the remote group's blocks, {@code allreduce} the
 * reduction of the remote group's vectors, ...); no buffer may be {@link Buf#IN_PLACE}. The symmetric forms
 * ({@link #bcast(Buf, Buf, int, int)}, ...) move data both ways between the groups in one call, and on an
 * intracommunicator are the ordinary collectives.
 *
 * <p>The algorithm of each call is chosen by group size and message size; it can be forced with the setting
 * {@code tutti.coll.<operation>}, e.g. {@code -Dtutti.coll.allreduce=ring}, or {@link Tutti.Options#algorithm}.
 */
public interface BlockingCollectives {
    /**
     * Blocks until every rank of the group has entered the barrier.
     *
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void barrier();

    /**
     * Broadcasts {@code buf} from {@code root} to every rank; on the others it is overwritten.
     *
     * @param buf the data at the root, where it arrives elsewhere; its count is the element count
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void bcast(Buf buf, int root);

    /**
     * Gathers each rank's {@code send} into block {@code i} of {@code recv} at {@code root} (block size = send count).
     * At the root, {@code send} may be {@link Buf#IN_PLACE}: its block is already in place (block size = recv count /
     * size).
     *
     * @param send this rank's block
     * @param recv the result, significant only at the root (may be null elsewhere)
     * @param root the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void gather(Buf send, Buf recv, int root);

    /**
     * Gathers blocks of different sizes: rank {@code i}'s {@code send} lands at {@code displs[i]} of {@code recv} at
     * the root, {@code recvCounts[i]} elements. At the root {@code send} may be {@link Buf#IN_PLACE}.
     *
     * @param send this rank's block
     * @param recv the result at the root
     * @param recvCounts elements from each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param root the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void gatherv(Buf send, Buf recv, int[] recvCounts, int[] displs, int root);

    /**
     * Scatters block {@code i} of {@code send} at the root to rank {@code i}'s {@code recv} (block size = recv count).
     * At the root {@code recv} may be {@link Buf#IN_PLACE} (block size = send count / size).
     *
     * @param send the blocks, significant only at the root
     * @param recv this rank's block
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void scatter(Buf send, Buf recv, int root);

    /**
     * Scatters blocks of different sizes from the root. At the root {@code recv} may be {@link Buf#IN_PLACE}.
     *
     * @param send the blocks at the root
     * @param sendCounts elements for each rank (root only)
     * @param displs element offset of each rank's block (root only)
     * @param recv this rank's block
     * @param root the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void scatterv(Buf send, int[] sendCounts, int[] displs, Buf recv, int root);

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
    void allgather(Buf send, Buf recv);

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
    void allgatherv(Buf send, Buf recv, int[] recvCounts, int[] displs);

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
    void alltoall(Buf send, Buf recv);

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
    void alltoallv(Buf send, int[] sendCounts, int[] sendDispls, Buf recv, int[] recvCounts, int[] recvDispls);

    /**
     * Alltoall with a buffer, type and count per peer: {@code send[i]} goes to rank {@code i}, {@code recv[i]} comes
     * from it.
     *
     * @param send one buffer per rank
     * @param recv one buffer per rank
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void alltoallw(Buf[] send, Buf[] recv);

    /**
     * Combines every rank's {@code send} element-wise with {@code op} into {@code recv} at the root, in rank order
     * ({@code x0 op x1 op ...}). At the root {@code send} may be {@link Buf#IN_PLACE} (the input is in {@code recv}).
     *
     * @param send this rank's input
     * @param recv the result, significant only at the root
     * @param op the reduction
     * @param root the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @throws TuttiException for a bad argument (before anything is sent), a count or type that differs
     *                        between ranks where detected, or a failed peer
     */
    void reduce(Buf send, Buf recv, Op op, int root);

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
    void allreduce(Buf send, Buf recv, Op op);

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
    void reduceScatter(Buf send, Buf recv, int[] recvCounts, Op op);

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
    void reduceScatterBlock(Buf send, Buf recv, Op op);

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
    void bcast(Buf send, Buf recv, int root, int remoteRoot);

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
    void scatter(Buf send, Buf recv, int root, int remoteRoot);

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
    void gather(Buf send, Buf recv, int root, int remoteRoot);

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
    void reduce(Buf send, Buf recv, Op op, int root, int remoteRoot);
}
