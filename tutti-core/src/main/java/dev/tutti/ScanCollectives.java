package dev.tutti;

/**
 * The prefix reductions of an intracommunicator (MPI defines none on intercommunicators): {@code scan} and
 * {@code exscan}, blocking, nonblocking and tagged.
 */
public interface ScanCollectives {
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
    void scan(Buf send, Buf recv, Op op);

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
    Request iscan(Buf send, Buf recv, Op op);

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
    void exscan(Buf send, Buf recv, Op op);

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
    Request iexscan(Buf send, Buf recv, Op op);

    /**
     * Begins a tagged two-phase {@link #scan}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #scan}
     * @param recv as for {@link #scan}
     * @param op as for {@link #scan}
     * @param tag the tag, 0..{@link TaggedCollectives#collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle scanBegin(Buf send, Buf recv, Op op, int tag);

    /**
     * Begins a tagged two-phase {@link #exscan}: matched by kind and tag instead of call order (see
     * {@link CollectiveHandle}); complete it with {@link CollectiveHandle#end()}.
     *
     * @param send as for {@link #exscan}
     * @param recv as for {@link #exscan}
     * @param op as for {@link #exscan}
     * @param tag the tag, 0..{@link TaggedCollectives#collectiveTagUpperBound()}
     * @return the handle
     * @throws TuttiException for a bad argument or tag (before anything is sent)
     */
    CollectiveHandle exscanBegin(Buf send, Buf recv, Op op, int tag);

    /**
     * Builds a persistent {@link ScanCollectives#scan(Buf, Buf, Op)} (MPI-4 {@code MPI_Scan_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest scanInit(Buf send, Buf recv, Op op);

    /**
     * Builds a persistent {@link ScanCollectives#exscan(Buf, Buf, Op)} (MPI-4 {@code MPI_Exscan_init}): the same arguments, checked now; the schedule
     * is built once, and each {@link PersistentRequest#start()} runs it on the buffers' current contents.
     *
     * @param send as for the blocking form
     * @param recv as for the blocking form
     * @param op as for the blocking form
     * @return the request, inactive
     * @throws TuttiException for a bad argument (nothing is sent), or boolean buffers
     */
    PersistentRequest exscanInit(Buf send, Buf recv, Op op);
}
