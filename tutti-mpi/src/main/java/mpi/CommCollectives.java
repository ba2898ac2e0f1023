package mpi;

import dev.tutti.ObjectRequest;

import java.nio.Buffer;

/**
 * The collectives of {@link Comm}, blocking and nonblocking, on intra- and intercommunicators, kept apart from its
 * other methods (Comm is the public class programs name; these are its inherited public methods). Counts are in
 * items of the datatype; the forms without a second buffer are MPI's in-place variants. Each forwards to
 * {@link Coll}, which turns the buffers into Tutti's and calls Tutti's collective.
 */
abstract class CommCollectives extends CommNeighbors {

    CommCollectives(final int predefined) {
        super(predefined);
    }

    CommCollectives(final dev.tutti.Comm handle, final CommState state) {
        super(handle, state);
    }

    CommCollectives(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        super(pending, state);
    }

    /** Waits until every process has called it (MPI_Barrier). */
    public final void barrier() throws MPIException {
        run("MPI_Barrier", () -> Coll.barrier(tc(), false));
    }

    /** @return the request of a nonblocking barrier (MPI_Ibarrier) */
    public final Request iBarrier() throws MPIException {
        return start("MPI_Ibarrier", () -> Coll.barrier(tc(), true), null);
    }

    /** Broadcasts from {@code root} (MPI_Bcast). */
    public final void bcast(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Bcast", () -> Coll.bcast(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking broadcast (MPI_Ibcast) */
    public final Request iBcast(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Ibcast", () -> Coll.bcast(tc(), true, buf, count, type, root), buf);
    }

    /** Gathers every process's block at {@code root} (MPI_Gather). */
    public final void gather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Gather", () -> Coll.gather(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype, root));
    }

    /** In-place gather: at the root {@code buf} receives and holds its own block already. */
    public final void gather(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Gather", () -> Coll.gatherInPlace(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking gather (MPI_Igather) */
    public final Request iGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Igather", () -> Coll.gather(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place gather */
    public final Request iGather(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Igather", () -> Coll.gatherInPlace(tc(), true, buf, count, type, root), buf);
    }

    /** Gathers blocks of different sizes at {@code root} (MPI_Gatherv). */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.FULL, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype, root));
    }

    /** The root's in-place gatherv: its own block is already in {@code recvbuf}. */
    public final void gatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.ROOT_IN_PLACE, null, 0, null, recvbuf,
            recvcount, displs, recvtype, root));
    }

    /** A non-root's gatherv, when the root gathers in place. */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.NON_ROOT, sendbuf, sendcount, sendtype, null,
            null, null, null, root));
    }

    /** @return the request of a nonblocking gatherv (MPI_Igatherv) */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.FULL, sendbuf, sendcount, sendtype,
            recvbuf, recvcount, displs, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of the root's nonblocking in-place gatherv */
    public final Request iGatherv(final Buffer recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException {
        direct(recvbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.ROOT_IN_PLACE, null, 0, null,
            recvbuf, recvcount, displs, recvtype, root), recvbuf);
    }

    /** @return the request of a non-root's nonblocking gatherv */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final int root) throws MPIException {
        direct(sendbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.NON_ROOT, sendbuf, sendcount,
            sendtype, null, null, null, null, root), sendbuf);
    }

    /** Scatters blocks from {@code root} (MPI_Scatter). */
    public final void scatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Scatter", () -> Coll.scatter(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype, root));
    }

    /** In-place scatter: at the root {@code buf} is the send buffer (its own block stays), elsewhere the receive one. */
    public final void scatter(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Scatter", () -> Coll.scatterInPlace(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking scatter (MPI_Iscatter) */
    public final Request iScatter(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iscatter", () -> Coll.scatter(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place scatter */
    public final Request iScatter(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Iscatter", () -> Coll.scatterInPlace(tc(), true, buf, count, type, root), buf);
    }

    /** Scatters blocks of different sizes from {@code root} (MPI_Scatterv). */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.FULL, sendbuf, sendcount, displs, sendtype,
            recvbuf, recvcount, recvtype, root));
    }

    /** The root's in-place scatterv: its own block stays in {@code sendbuf}. */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final int root) throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.ROOT_IN_PLACE, sendbuf, sendcount, displs,
            sendtype, null, 0, null, root));
    }

    /** A non-root's scatterv, when the root scatters in place. */
    public final void scatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.NON_ROOT, null, null, null, null, recvbuf,
            recvcount, recvtype, root));
    }

    /** @return the request of a nonblocking scatterv (MPI_Iscatterv) */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.FULL, sendbuf, sendcount, displs,
            sendtype, recvbuf, recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of the root's nonblocking in-place scatterv */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final int root) throws MPIException {
        direct(sendbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.ROOT_IN_PLACE, sendbuf, sendcount,
            displs, sendtype, null, 0, null, root), sendbuf);
    }

    /** @return the request of a non-root's nonblocking scatterv */
    public final Request iScatterv(final Buffer recvbuf, final int recvcount, final Datatype recvtype,
        final int root) throws MPIException {
        direct(recvbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.NON_ROOT, null, null, null, null,
            recvbuf, recvcount, recvtype, root), recvbuf);
    }

    /** Gathers every process's block at every process (MPI_Allgather). */
    public final void allGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Allgather", () -> Coll.allGather(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype));
    }

    /** In-place allgather: each process's block is already in place in {@code buf}. */
    public final void allGather(final Object buf, final int count, final Datatype type) throws MPIException {
        run("MPI_Allgather", () -> Coll.allGather(tc(), false, null, 0, null, buf, count, type));
    }

    /** @return the request of a nonblocking allgather (MPI_Iallgather) */
    public final Request iAllGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallgather", () -> Coll.allGather(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allgather */
    public final Request iAllGather(final Buffer buf, final int count, final Datatype type) throws MPIException {
        direct(buf);
        return start("MPI_Iallgather", () -> Coll.allGather(tc(), true, null, 0, null, buf, count, type), buf);
    }

    /** Allgather with blocks of different sizes (MPI_Allgatherv). */
    public final void allGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        run("MPI_Allgatherv", () -> Coll.allGatherv(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            displs, recvtype));
    }

    /** In-place allgatherv. */
    public final void allGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype) throws MPIException {
        run("MPI_Allgatherv", () -> Coll.allGatherv(tc(), false, null, 0, null, recvbuf, recvcount, displs,
            recvtype));
    }

    /** @return the request of a nonblocking allgatherv (MPI_Iallgatherv) */
    public final Request iAllGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallgatherv", () -> Coll.allGatherv(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allgatherv */
    public final Request iAllGatherv(final Buffer buf, final int[] count, final int[] displs, final Datatype type)
        throws MPIException {
        direct(buf);
        return start("MPI_Iallgatherv", () -> Coll.allGatherv(tc(), true, null, 0, null, buf, count, displs, type),
            buf);
    }

    /** Sends block i to process i and receives block j from process j (MPI_Alltoall). */
    public final void allToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Alltoall", () -> Coll.allToAll(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype));
    }

    /** @return the request of a nonblocking alltoall (MPI_Ialltoall) */
    public final Request iAllToAll(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ialltoall", () -> Coll.allToAll(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Alltoall with blocks of different sizes (MPI_Alltoallv). */
    public final void allToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        run("MPI_Alltoallv", () -> Coll.allToAllv(tc(), false, sendbuf, sendcount, sdispls, sendtype, recvbuf,
            recvcount, rdispls, recvtype));
    }

    /** @return the request of a nonblocking alltoallv (MPI_Ialltoallv) */
    public final Request iAllToAllv(final Buffer sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Buffer recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ialltoallv", () -> Coll.allToAllv(tc(), true, sendbuf, sendcount, sdispls, sendtype,
            recvbuf, recvcount, rdispls, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Alltoall with a datatype per block and displacements in bytes (MPI_Alltoallw). */
    public final void allToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException {
        direct(sendBuf, recvBuf);
        run("MPI_Alltoallw", () -> Coll.allToAllw(tc(), false, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
            recvCount, rDispls, recvTypes));
    }

    /** @return the request of a nonblocking alltoallw (MPI_Ialltoallw) */
    public final Request iAllToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException {
        direct(sendBuf, recvBuf);
        return start("MPI_Ialltoallw", () -> Coll.allToAllw(tc(), true, sendBuf, sendCount, sDispls, sendTypes,
            recvBuf, recvCount, rDispls, recvTypes), new Object[] {sendBuf, recvBuf});
    }

    /** Reduces every process's vector into {@code recvbuf} at {@code root} (MPI_Reduce). */
    public final void reduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException {
        run("MPI_Reduce", () -> Coll.reduce(tc(), false, sendbuf, recvbuf, false, count, type, op, root));
    }

    /** In-place reduce: at the root {@code buf} holds its input and receives the result; elsewhere it is the input. */
    public final void reduce(final Object buf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException {
        run("MPI_Reduce", () -> Coll.reduce(tc(), false, null, buf, true, count, type, op, root));
    }

    /** @return the request of a nonblocking reduce (MPI_Ireduce) */
    public final Request iReduce(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce", () -> Coll.reduce(tc(), true, sendbuf, recvbuf, false, count, type, op, root),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce */
    public final Request iReduce(final Buffer buf, final int count, final Datatype type, final Op op,
        final int root) throws MPIException {
        direct(buf);
        return start("MPI_Ireduce", () -> Coll.reduce(tc(), true, null, buf, true, count, type, op, root), buf);
    }

    /** Reduces every process's vector into every process's {@code recvbuf} (MPI_Allreduce). */
    public final void allReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        final Env e = Env.check(); // the hot path, without run's lambda
        try {
            Coll.allReduce(tc(e), false, sendbuf, recvbuf, false, count, type, op, e.bufCache());
        } catch (final RuntimeException x) {
            throw fail("MPI_Allreduce", x);
        }
    }

    /** In-place allreduce: {@code buf} is input and output. */
    public final void allReduce(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Allreduce", () -> Coll.allReduce(tc(), false, null, buf, true, count, type, op, null));
    }

    /** @return the request of a nonblocking allreduce (MPI_Iallreduce) */
    public final Request iAllReduce(final Buffer sendbuf, final Buffer recvbuf, final int count,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallreduce", () -> Coll.allReduce(tc(), true, sendbuf, recvbuf, false, count, type, op, null),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allreduce */
    public final Request iAllReduce(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Iallreduce", () -> Coll.allReduce(tc(), true, null, buf, true, count, type, op, null), buf);
    }

    /** Reduces and scatters blocks of {@code recvcounts[i]} items (MPI_Reduce_scatter). */
    public final void reduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException {
        run("MPI_Reduce_scatter", () -> Coll.reduceScatter(tc(), false, sendbuf, recvbuf, false, recvcounts, type,
            op));
    }

    /** In-place reduce-scatter: {@code buf} holds the input; this process's block of the result goes first. */
    public final void reduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Reduce_scatter", () -> Coll.reduceScatter(tc(), false, null, buf, true, counts, type, op));
    }

    /** @return the request of a nonblocking reduce-scatter (MPI_Ireduce_scatter) */
    public final Request iReduceScatter(final Buffer sendbuf, final Buffer recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce_scatter", () -> Coll.reduceScatter(tc(), true, sendbuf, recvbuf, false,
            recvcounts, type, op), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce-scatter */
    public final Request iReduceScatter(final Buffer buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Ireduce_scatter", () -> Coll.reduceScatter(tc(), true, null, buf, true, counts, type, op),
            buf);
    }

    /** Reduces and scatters blocks of {@code recvcount} items (MPI_Reduce_scatter_block). */
    public final void reduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException {
        run("MPI_Reduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), false, sendbuf, recvbuf, false,
            recvcount, type, op));
    }

    /** In-place reduce-scatter-block: {@code buf} holds the input; this process's block goes first. */
    public final void reduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Reduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), false, null, buf, true, count, type,
            op));
    }

    /** @return the request of a nonblocking reduce-scatter-block (MPI_Ireduce_scatter_block) */
    public final Request iReduceScatterBlock(final Buffer sendbuf, final Buffer recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), true, sendbuf, recvbuf,
            false, recvcount, type, op), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce-scatter-block */
    public final Request iReduceScatterBlock(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Ireduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), true, null, buf, true,
            count, type, op), buf);
    }
}
