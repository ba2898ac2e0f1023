package mpi;

import dev.tutti.Communicator;

/**
 * An intracommunicator: communicator creation ({@link #Split}, {@link #Create}, {@link #clone()}), the collectives,
 * and the topology constructors. The collectives' buffers are arrays with offsets in elements, as in
 * point-to-point; a "v" form's displacements count array elements from the offset. The calls themselves are in
 * {@link Coll}, {@link ObjColl} and {@link Reductions}.
 */
public class Intracomm extends Comm {
    Intracomm(final Kind kind, final dev.tutti.Comm fixed) {
        super(kind, fixed);
    }

    /** @return the calling rank's Tutti intracommunicator */
    final Communicator intra(final String call) {
        return (Communicator) tc(call);
    }

    /**
     * @param comm1 a communicator
     * @param comm2 another
     * @return as {@link Comm#Compare}
     * @throws MPIException for a null communicator
     */
    public static int Compare(final Comm comm1, final Comm comm2) throws MPIException {
        return Comm.Compare(comm1, comm2);
    }

    /**
     * Splits the communicator: the processes of each colour form a new one, ordered by key, then by rank. Every
     * colour, {@code MPI.UNDEFINED} (-1) included, forms a communicator (as in MPJ Express).
     *
     * @param color the caller's colour, {@code >= -1}
     * @param key   its order within the colour
     * @return the caller's new communicator
     * @throws MPIException for a colour below -1 or a failed peer
     */
    public Intracomm Split(final int color, final int key) throws MPIException {
        final String call = "Intracomm.Split";
        final Communicator c = intra(call);
        if (color < MPI.UNDEFINED) {
            throw Fail.error(call + ": color=" + color + " (expected >= " + MPI.UNDEFINED + ")");
        }
        try {
            return new Intracomm(Kind.FIXED, c.split(color - MPI.UNDEFINED, key));
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * @return a congruent communicator with a new context (an {@link Intracomm})
     * @throws MPIException for a failed peer
     */
    @Override
    public Object clone() throws MPIException {
        return new Intracomm(Kind.FIXED, dup("Intracomm.clone"));
    }

    final Communicator dup(final String call) {
        final Communicator c = intra(call);
        try {
            return c.dup();
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * Makes a communicator of a subgroup; collective over this communicator.
     *
     * @param group a subgroup of this communicator's group
     * @return the new communicator; for a process outside {@code group} one whose {@code Rank()} is -1
     * @throws MPIException if {@code group} is null or not a subgroup
     */
    public Intracomm Create(final Group group) throws MPIException {
        final String call = "Intracomm.Create";
        final Communicator c = intra(call);
        if (null == group) {
            throw Fail.error(call + ": group=null (expected a subgroup of the communicator's group)");
        }
        try {
            final Communicator made = c.create(group.group);
            if (null != made) {
                return new Intracomm(Kind.FIXED, made);
            }
            final Intracomm none = new Intracomm(Kind.NONMEMBER, null);
            none.group = group;
            return none;
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * Waits until every process has entered the barrier.
     *
     * @throws MPIException for a failed peer
     */
    public void Barrier() throws MPIException {
        final Communicator c = intra("Intracomm.Barrier");
        try {
            c.barrier();
        } catch (final RuntimeException e) {
            throw Fail.wrap("Intracomm.Barrier", e);
        }
    }

    /**
     * Broadcasts the root's items to every process.
     *
     * @param buf    the data at the root, where it goes elsewhere
     * @param offset the first element used
     * @param count  items of {@code type}
     * @param type   the datatype
     * @param root   the root's rank
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
        throws MPIException {
        Coll.bcast(this, buf, offset, count, type, root);
    }

    /**
     * Gathers every process's items at the root, block {@code i} at {@code recvoffset + i * recvcount * extent}.
     *
     * @param sendbuf    the caller's data
     * @param sendoffset its first element
     * @param sendcount  items of {@code sendtype}
     * @param sendtype   its datatype
     * @param recvbuf    at the root, where the blocks go
     * @param recvoffset its first element
     * @param recvcount  items per block
     * @param recvtype   its datatype
     * @param root       the root's rank
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Gather(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        final int[][] b = Blocks.equal(Size(), recvcount, null == recvtype ? MPI.BYTE : recvtype);
        Coll.gatherv(this, "Intracomm.Gather", sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, b[0],
            b[1], recvtype, root);
    }

    /**
     * Gathers blocks of different sizes at the root.
     *
     * @param sendbuf    the caller's data
     * @param sendoffset its first element
     * @param sendcount  items of {@code sendtype}
     * @param sendtype   its datatype
     * @param recvbuf    at the root, where the blocks go
     * @param recvoffset its first element
     * @param recvcount  items of each process's block
     * @param displs     where each block starts, in array elements from {@code recvoffset}
     * @param recvtype   its datatype
     * @param root       the root's rank
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Gatherv(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException {
        Coll.gatherv(this, "Intracomm.Gatherv", sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            recvcount, displs, recvtype, root);
    }

    /**
     * Scatters the root's blocks, block {@code i} from {@code sendoffset + i * sendcount * extent} to process i.
     *
     * @param sendbuf    at the root, the blocks
     * @param sendoffset its first element
     * @param sendcount  items per block
     * @param sendtype   its datatype
     * @param recvbuf    where the caller's block goes
     * @param recvoffset its first element
     * @param recvcount  items of {@code recvtype}
     * @param recvtype   its datatype
     * @param root       the root's rank
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Scatter(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        final int[][] b = Blocks.equal(Size(), sendcount, null == sendtype ? MPI.BYTE : sendtype);
        Coll.scatterv(this, "Intracomm.Scatter", sendbuf, sendoffset, b[0], b[1], sendtype, recvbuf, recvoffset,
            recvcount, recvtype, root);
    }

    /**
     * Scatters blocks of different sizes from the root.
     *
     * @param sendbuf    at the root, the blocks
     * @param sendoffset its first element
     * @param sendcount  items of each process's block
     * @param displs     where each block starts, in array elements from {@code sendoffset}
     * @param sendtype   its datatype
     * @param recvbuf    where the caller's block goes
     * @param recvoffset its first element
     * @param recvcount  items of {@code recvtype}
     * @param recvtype   its datatype
     * @param root       the root's rank
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Scatterv(final Object sendbuf, final int sendoffset, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Object recvbuf, final int recvoffset, final int recvcount,
        final Datatype recvtype, final int root) throws MPIException {
        Coll.scatterv(this, "Intracomm.Scatterv", sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf,
            recvoffset, recvcount, recvtype, root);
    }

    /**
     * Gathers every process's items at every process.
     *
     * @param sendbuf    the caller's data
     * @param sendoffset its first element
     * @param sendcount  items of {@code sendtype}
     * @param sendtype   its datatype
     * @param recvbuf    where the blocks go, in rank order
     * @param recvoffset its first element
     * @param recvcount  items per block
     * @param recvtype   its datatype
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Allgather(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final int[][] b = Blocks.equal(Size(), recvcount, null == recvtype ? MPI.BYTE : recvtype);
        Coll.allgatherv(this, "Intracomm.Allgather", sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
            b[0], b[1], recvtype);
    }

    /**
     * Gathers blocks of different sizes at every process.
     *
     * @param sendbuf    the caller's data
     * @param sendoffset its first element
     * @param sendcount  items of {@code sendtype}
     * @param sendtype   its datatype
     * @param recvbuf    where the blocks go
     * @param recvoffset its first element
     * @param recvcount  items of each process's block
     * @param displs     where each block starts, in array elements from {@code recvoffset}
     * @param recvtype   its datatype
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Allgatherv(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int[] recvcount, final int[] displs,
        final Datatype recvtype) throws MPIException {
        Coll.allgatherv(this, "Intracomm.Allgatherv", sendbuf, sendoffset, sendcount, sendtype, recvbuf,
            recvoffset, recvcount, displs, recvtype);
    }

    /**
     * Sends block {@code i} to process {@code i} and receives block {@code j} from process {@code j}.
     *
     * @param sendbuf    the blocks to send
     * @param sendoffset its first element
     * @param sendcount  items per block sent
     * @param sendtype   its datatype
     * @param recvbuf    where the received blocks go
     * @param recvoffset its first element
     * @param recvcount  items per block received
     * @param recvtype   its datatype
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Alltoall(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype)
        throws MPIException {
        final int n = Size();
        final int[][] s = Blocks.equal(n, sendcount, null == sendtype ? MPI.BYTE : sendtype);
        final int[][] r = Blocks.equal(n, recvcount, null == recvtype ? MPI.BYTE : recvtype);
        Coll.alltoallv(this, "Intracomm.Alltoall", sendbuf, sendoffset, s[0], s[1], sendtype, recvbuf, recvoffset,
            r[0], r[1], recvtype);
    }

    /**
     * All-to-all with blocks of different sizes.
     *
     * @param sendbuf    the blocks to send
     * @param sendoffset its first element
     * @param sendcount  items of the block for each process
     * @param sdispls    where each sent block starts, in array elements from {@code sendoffset}
     * @param sendtype   its datatype
     * @param recvbuf    where the received blocks go
     * @param recvoffset its first element
     * @param recvcount  items of the block from each process
     * @param rdispls    where each received block starts, in array elements from {@code recvoffset}
     * @param recvtype   its datatype
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Alltoallv(final Object sendbuf, final int sendoffset, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int recvoffset, final int[] recvcount,
        final int[] rdispls, final Datatype recvtype) throws MPIException {
        Coll.alltoallv(this, "Intracomm.Alltoallv", sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf,
            recvoffset, recvcount, rdispls, recvtype);
    }

    /**
     * Reduces every process's items with {@code op} at the root (MPI's rank order).
     *
     * @param sendbuf    the caller's operand
     * @param sendoffset its first element
     * @param recvbuf    at the root, where the result goes (ignored elsewhere, may be null)
     * @param recvoffset its first element
     * @param count      items of {@code datatype}
     * @param datatype   the datatype
     * @param op         the operator
     * @param root       the root's rank
     * @throws MPIException for a bad argument, an operator not defined for the type, or a failed peer
     */
    public void Reduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype datatype, final Op op, final int root) throws MPIException {
        Reductions.reduce(this, "Intracomm.Reduce", Reductions.Kind.REDUCE, sendbuf, sendoffset, recvbuf, recvoffset,
            count, datatype, op, root);
    }

    /**
     * Reduces every process's items with {@code op}; every process gets the result.
     *
     * @param sendbuf    the caller's operand
     * @param sendoffset its first element
     * @param recvbuf    where the result goes
     * @param recvoffset its first element
     * @param count      items of {@code datatype}
     * @param datatype   the datatype
     * @param op         the operator
     * @throws MPIException for a bad argument, an operator not defined for the type, or a failed peer
     */
    public void Allreduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype datatype, final Op op) throws MPIException {
        Reductions.reduce(this, "Intracomm.Allreduce", Reductions.Kind.ALLREDUCE, sendbuf, sendoffset, recvbuf,
            recvoffset, count, datatype, op, 0);
    }

    /**
     * Reduces, then scatters the result: process {@code i} gets {@code recvcounts[i]} items.
     *
     * @param sendbuf    the caller's operand (the sum of {@code recvcounts} items)
     * @param sendoffset its first element
     * @param recvbuf    where the caller's block of the result goes
     * @param recvoffset its first element
     * @param recvcounts items of each process's block
     * @param datatype   the datatype
     * @param op         the operator
     * @throws MPIException for a bad argument, an operator not defined for the type, or a failed peer
     */
    public void Reduce_scatter(final Object sendbuf, final int sendoffset, final Object recvbuf,
        final int recvoffset, final int[] recvcounts, final Datatype datatype, final Op op) throws MPIException {
        Reductions.reduceScatter(this, "Intracomm.Reduce_scatter", sendbuf, sendoffset, recvbuf, recvoffset,
            recvcounts, datatype, op);
    }

    /**
     * Inclusive prefix reduction: process {@code i} gets the reduction of processes {@code 0..i}.
     *
     * @param sendbuf    the caller's operand
     * @param sendoffset its first element
     * @param recvbuf    where the result goes
     * @param recvoffset its first element
     * @param count      items of {@code datatype}
     * @param datatype   the datatype
     * @param op         the operator
     * @throws MPIException for a bad argument, an operator not defined for the type, or a failed peer
     */
    public void Scan(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype datatype, final Op op) throws MPIException {
        Reductions.reduce(this, "Intracomm.Scan", Reductions.Kind.SCAN, sendbuf, sendoffset, recvbuf, recvoffset,
            count, datatype, op, 0);
    }

    /**
     * Makes a Cartesian communicator of the first {@code dims[0] * dims[1] * ...} processes, laid out row-major
     * (last dimension fastest); {@code reorder} is ignored.
     *
     * @param dims    the grid's extent in each dimension
     * @param periods whether each dimension wraps around
     * @param reorder ignored
     * @return the communicator, or null for a process beyond the grid
     * @throws MPIException if the grid has more points than processes, or for bad arrays
     */
    public Cartcomm Create_cart(final int[] dims, final boolean[] periods, final boolean reorder)
        throws MPIException {
        return Cartcomm.create(this, dims, periods);
    }

    /**
     * Makes a graph communicator of the first {@code index.length} processes.
     *
     * @param index   cumulative neighbour counts: node {@code i}'s neighbours are
     *                {@code edges[index[i-1] .. index[i]-1]}
     * @param edges   the neighbours
     * @param reorder ignored
     * @return the communicator, or null for a process beyond the graph
     */
    public Graphcomm Create_graph(final int[] index, final int[] edges, final boolean reorder) {
        return Graphcomm.create(this, index, edges);
    }
}
