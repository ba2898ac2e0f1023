package mpi;

import dev.tutti.ObjectRequest;

import java.nio.Buffer;

/**
 * The neighbour collectives of {@link Comm} (MPI-3), kept apart from its other methods: valid on a communicator
 * with a topology ({@link CartComm}, {@link GraphComm}), else they fail with {@code MPI.ERR_TOPOLOGY}. They run
 * over the topology's private communicator (see {@link Neighbors}).
 */
abstract class CommNeighbors extends CommBase {

    CommNeighbors(final int predefined) {
        super(predefined);
    }

    CommNeighbors(final dev.tutti.Comm handle, final CommState state) {
        super(handle, state);
    }

    CommNeighbors(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        super(pending, state);
    }

    /** @return the topology of this communicator, or null (overridden by the topology communicators) */
    Topology topology() {
        return null;
    }

    /** @return the kind of this communicator's topology, or {@code MPI.UNDEFINED} */
    final int topologyKind() {
        tc();
        final Topology t = topology();
        return null == t ? MPI.UNDEFINED : t.kind;
    }

    /** Frees the Tutti communicator and the topology's private one. */
    final void freeWithTopology() {
        final Topology t = topology();
        tc().free();
        if (null != t) {
            t.free();
        }
    }

    private Topology topo(final String what) {
        tc();
        final Topology t = topology();
        if (null == t) {
            throw MpiErrors.error(MPI.ERR_TOPOLOGY, what + ": " + state().name() + " has no topology, expected a "
                + "Cartesian or graph communicator");
        }
        return t;
    }

    /** Gathers one block from each source neighbour, block {@code j} from source {@code j}. */
    public final void neighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Neighbor_allgather", () -> Neighbors.allGather(topo("neighborAllGather"), sendbuf, sendcount,
            sendtype, recvbuf, recvcount, recvtype).waitFor());
    }

    /** @return the request of a nonblocking {@link #neighborAllGather} */
    public final Request iNeighborAllGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ineighbor_allgather", () -> Neighbors.allGather(topo("iNeighborAllGather"), sendbuf,
            sendcount, sendtype, recvbuf, recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Gathers blocks of varying sizes from the source neighbours, block {@code j} at item {@code displs[j]}. */
    public final void neighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        run("MPI_Neighbor_allgatherv", () -> Neighbors.allGatherv(topo("neighborAllGatherv"), sendbuf, sendcount,
            sendtype, recvbuf, recvcount, displs, recvtype).waitFor());
    }

    /** @return the request of a nonblocking {@link #neighborAllGatherv} */
    public final Request iNeighborAllGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ineighbor_allgatherv", () -> Neighbors.allGatherv(topo("iNeighborAllGatherv"), sendbuf,
            sendcount, sendtype, recvbuf, recvcount, displs, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Sends block {@code j} to destination {@code j} and receives block {@code j} from source {@code j}. */
    public final void neighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Neighbor_alltoall", () -> Neighbors.allToAll(topo("neighborAllToAll"), sendbuf, sendcount,
            sendtype, recvbuf, recvcount, recvtype).waitFor());
    }

    /** @return the request of a nonblocking {@link #neighborAllToAll} */
    public final Request iNeighborAllToAll(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ineighbor_alltoall", () -> Neighbors.allToAll(topo("iNeighborAllToAll"), sendbuf,
            sendcount, sendtype, recvbuf, recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** {@link #neighborAllToAll} with per-neighbour counts and item displacements. */
    public final void neighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        run("MPI_Neighbor_alltoallv", () -> Neighbors.allToAllv(topo("neighborAllToAllv"), sendbuf, sendcount,
            sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype).waitFor());
    }

    /** @return the request of a nonblocking {@link #neighborAllToAllv} */
    public final Request iNeighborAllToAllv(final Buffer sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Buffer recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ineighbor_alltoallv", () -> Neighbors.allToAllv(topo("iNeighborAllToAllv"), sendbuf,
            sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype), new Object[] {sendbuf, recvbuf});
    }
}
