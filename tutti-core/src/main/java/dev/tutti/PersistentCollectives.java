package dev.tutti;

/**
 * MPI-4's persistent collectives ({@code allreduceInit}, ...), on both communicator kinds: each builds a
 * {@link PersistentRequest} once, whose {@link PersistentRequest#start()} runs the collective again and again
 * without setting it up again (no allocation on the small-message path). The arguments and their meaning, on
 * either kind, are those of the blocking forms ({@link BlockingCollectives}); starts are matched in call order
 * with the communicator's other collectives, so every rank must start its persistent requests in the same order.
 * Boolean buffers are refused (they are staged through bytes per call).
 */
public interface PersistentCollectives {
    /**
     * Builds a persistent {@link BlockingCollectives#barrier()} (MPI-4 {@code MPI_Barrier_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest barrierInit();

    /**
     * Builds a persistent {@link BlockingCollectives#bcast(Buf, int)} (MPI-4 {@code MPI_Bcast_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param buf as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest bcastInit(Buf buf, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#gather(Buf, Buf, int)} (MPI-4 {@code MPI_Gather_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest gatherInit(Buf send, Buf recv, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#gatherv(Buf, Buf, int[], int[], int)} (MPI-4 {@code MPI_Gatherv_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param displs as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest gathervInit(Buf send, Buf recv, int[] recvCounts, int[] displs, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#scatter(Buf, Buf, int)} (MPI-4 {@code MPI_Scatter_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest scatterInit(Buf send, Buf recv, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#scatterv(Buf, int[], int[], Buf, int)} (MPI-4 {@code MPI_Scatterv_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param sendCounts as for the blocking form
     * @param displs as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest scattervInit(Buf send, int[] sendCounts, int[] displs, Buf recv, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#allgather(Buf, Buf)} (MPI-4 {@code MPI_Allgather_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest allgatherInit(Buf send, Buf recv);

    /**
     * Builds a persistent {@link BlockingCollectives#allgatherv(Buf, Buf, int[], int[])} (MPI-4 {@code MPI_Allgatherv_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param displs as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest allgathervInit(Buf send, Buf recv, int[] recvCounts, int[] displs);

    /**
     * Builds a persistent {@link BlockingCollectives#alltoall(Buf, Buf)} (MPI-4 {@code MPI_Alltoall_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest alltoallInit(Buf send, Buf recv);

    /**
     * Builds a persistent {@link BlockingCollectives#alltoallv(Buf, int[], int[], Buf, int[], int[])} (MPI-4 {@code MPI_Alltoallv_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param sendCounts as for the blocking form
     * @param sendDispls as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param recvDispls as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest alltoallvInit(Buf send, int[] sendCounts, int[] sendDispls, Buf recv, int[] recvCounts,
        int[] recvDispls);

    /**
     * Builds a persistent {@link BlockingCollectives#alltoallw(Buf[], Buf[])} (MPI-4 {@code MPI_Alltoallw_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest alltoallwInit(Buf[] send, Buf[] recv);

    /**
     * Builds a persistent {@link BlockingCollectives#reduce(Buf, Buf, Op, int)} (MPI-4 {@code MPI_Reduce_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param root as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest reduceInit(Buf send, Buf recv, Op op, int root);

    /**
     * Builds a persistent {@link BlockingCollectives#allreduce(Buf, Buf, Op)} (MPI-4 {@code MPI_Allreduce_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest allreduceInit(Buf send, Buf recv, Op op);

    /**
     * Builds a persistent {@link BlockingCollectives#reduceScatter(Buf, Buf, int[], Op)} (MPI-4 {@code MPI_ReduceScatter_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param recvCounts as for the blocking form
     * @param op as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest reduceScatterInit(Buf send, Buf recv, int[] recvCounts, Op op);

    /**
     * Builds a persistent {@link BlockingCollectives#reduceScatterBlock(Buf, Buf, Op)} (MPI-4 {@code MPI_ReduceScatterBlock_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest reduceScatterBlockInit(Buf send, Buf recv, Op op);

    /**
     * Builds a persistent {@link BlockingCollectives#bcast(Buf, Buf, int, int)} (MPI-4 {@code MPI_Bcast_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest bcastInit(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Builds a persistent {@link BlockingCollectives#scatter(Buf, Buf, int, int)} (MPI-4 {@code MPI_Scatter_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest scatterInit(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Builds a persistent {@link BlockingCollectives#gather(Buf, Buf, int, int)} (MPI-4 {@code MPI_Gather_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest gatherInit(Buf send, Buf recv, int root, int remoteRoot);

    /**
     * Builds a persistent {@link BlockingCollectives#reduce(Buf, Buf, Op, int, int)} (MPI-4 {@code MPI_Reduce_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @param root as for the blocking form
     * @param remoteRoot as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest reduceInit(Buf send, Buf recv, Op op, int root, int remoteRoot);
}
