package dev.tutti;

/**
 * Tagged two-phase collectives ({@code ...Begin(..., tag)} then {@link CollectiveHandle#end()}), on both
 * communicator kinds: matched by (kind, tag) instead of call order, so several may be in flight and threads of a
 * rank may begin them in any order on one communicator. The arguments are those of the blocking forms
 * ({@link BlockingCollectives}); the tag is 0..{@link #collectiveTagUpperBound()}, never a wildcard. A begin whose
 * partners never begin the same (kind, tag) fails after the setting {@code tutti.coll.tagged.timeout.ms}.
 */
public interface TaggedCollectives {
    /** @return the largest tag of a tagged two-phase collective ({@code ...Begin(..., tag)}); the smallest is 0 */
    int collectiveTagUpperBound();

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#barrier}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle barrierBegin(int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#bcast}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param buf as for {@link BlockingCollectives#bcast}
     * @param root as for {@link BlockingCollectives#bcast}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle bcastBegin(Buf buf, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#gather}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#gather}
     * @param recv as for {@link BlockingCollectives#gather}
     * @param root as for {@link BlockingCollectives#gather}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle gatherBegin(Buf send, Buf recv, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#gatherv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#gatherv}
     * @param recv as for {@link BlockingCollectives#gatherv}
     * @param recvCounts as for {@link BlockingCollectives#gatherv}
     * @param displs as for {@link BlockingCollectives#gatherv}
     * @param root as for {@link BlockingCollectives#gatherv}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle gathervBegin(Buf send, Buf recv, int[] recvCounts, int[] displs, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#scatter}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#scatter}
     * @param recv as for {@link BlockingCollectives#scatter}
     * @param root as for {@link BlockingCollectives#scatter}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle scatterBegin(Buf send, Buf recv, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#scatterv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#scatterv}
     * @param sendCounts as for {@link BlockingCollectives#scatterv}
     * @param displs as for {@link BlockingCollectives#scatterv}
     * @param recv as for {@link BlockingCollectives#scatterv}
     * @param root as for {@link BlockingCollectives#scatterv}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle scattervBegin(Buf send, int[] sendCounts, int[] displs, Buf recv, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#allgather}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#allgather}
     * @param recv as for {@link BlockingCollectives#allgather}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle allgatherBegin(Buf send, Buf recv, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#allgatherv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#allgatherv}
     * @param recv as for {@link BlockingCollectives#allgatherv}
     * @param recvCounts as for {@link BlockingCollectives#allgatherv}
     * @param displs as for {@link BlockingCollectives#allgatherv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle allgathervBegin(Buf send, Buf recv, int[] recvCounts, int[] displs, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#alltoall}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#alltoall}
     * @param recv as for {@link BlockingCollectives#alltoall}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle alltoallBegin(Buf send, Buf recv, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#alltoallv}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#alltoallv}
     * @param sendCounts as for {@link BlockingCollectives#alltoallv}
     * @param sendDispls as for {@link BlockingCollectives#alltoallv}
     * @param recv as for {@link BlockingCollectives#alltoallv}
     * @param recvCounts as for {@link BlockingCollectives#alltoallv}
     * @param recvDispls as for {@link BlockingCollectives#alltoallv}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle alltoallvBegin(Buf send, int[] sendCounts, int[] sendDispls, Buf recv, int[] recvCounts, int[] recvDispls, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#alltoallw}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#alltoallw}
     * @param recv as for {@link BlockingCollectives#alltoallw}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle alltoallwBegin(Buf[] send, Buf[] recv, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#reduce}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#reduce}
     * @param recv as for {@link BlockingCollectives#reduce}
     * @param op as for {@link BlockingCollectives#reduce}
     * @param root as for {@link BlockingCollectives#reduce}
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle reduceBegin(Buf send, Buf recv, Op op, int root, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#allreduce}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#allreduce}
     * @param recv as for {@link BlockingCollectives#allreduce}
     * @param op as for {@link BlockingCollectives#allreduce}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle allreduceBegin(Buf send, Buf recv, Op op, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#reduceScatter}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#reduceScatter}
     * @param recv as for {@link BlockingCollectives#reduceScatter}
     * @param recvCounts as for {@link BlockingCollectives#reduceScatter}
     * @param op as for {@link BlockingCollectives#reduceScatter}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle reduceScatterBegin(Buf send, Buf recv, int[] recvCounts, Op op, int tag);

    /**
     * Begins a tagged two-phase {@link BlockingCollectives#reduceScatterBlock}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link BlockingCollectives#reduceScatterBlock}
     * @param recv as for {@link BlockingCollectives#reduceScatterBlock}
     * @param op as for {@link BlockingCollectives#reduceScatterBlock}
     * @param tag the tag, 0..{@link #collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle reduceScatterBlockBegin(Buf send, Buf recv, Op op, int tag);

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
    CollectiveHandle bcastBegin(Buf send, Buf recv, int root, int remoteRoot, int tag);

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
    CollectiveHandle scatterBegin(Buf send, Buf recv, int root, int remoteRoot, int tag);

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
    CollectiveHandle gatherBegin(Buf send, Buf recv, int root, int remoteRoot, int tag);

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
    CollectiveHandle reduceBegin(Buf send, Buf recv, Op op, int root, int remoteRoot, int tag);
}
