package mpi;

import dev.tutti.Communicator;
import dev.tutti.ObjectRequest;

import java.nio.Buffer;

/**
 * An intracommunicator: the type of {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}. Adds split and create,
 * scan and exScan, topologies, ports between groups of one job. Spawning and name publishing are not
 * supported: those methods throw an {@link MPIException} of class {@link MPI#ERR_UNSUPPORTED_OPERATION}.
 */
public class Intracomm extends Comm {

    Intracomm(final int predefined) {
        super(predefined);
    }

    Intracomm(final dev.tutti.Comm handle, final CommState state) {
        super(handle, state);
    }

    Intracomm(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        super(pending, state);
    }

    private Communicator intra() {
        return (Communicator) tc();
    }

    private Intracomm wrapIntra(final Communicator c, final String name) {
        return new Intracomm(c, state().derive(name));
    }

    private static MPIException unsupported(final String what) throws MPIException {
        MPI.check();
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, MpiErrors.string(MPI.ERR_UNSUPPORTED_OPERATION),
            MpiErrors.unsupported(what));
    }

    /** @return a duplicate; failures are wrapped in a RuntimeException */
    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /** @return a duplicate (MPI_Comm_dup) */
    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    /** @return a duplicate made in the background (MPI_Comm_idup) */
    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    /** @return a duplicate (MPI_Comm_dup_with_info) */
    @Override
    public Intracomm dupWithInfo(final Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
    }

    /**
     * Splits by colour (MPI_Comm_split), ordered by key then rank.
     *
     * @param colour the colour, or {@code MPI.UNDEFINED} to get a null communicator
     * @param key    the order key
     * @return the new communicator (null handle for {@code UNDEFINED})
     */
    public final Intracomm split(final int colour, final int key) throws MPIException {
        return get("MPI_Comm_split", () -> wrapIntra(intra().split(colour, key), state().name() + "/split"));
    }

    /**
     * Splits by kind (MPI_Comm_split_type): {@link Comm#TYPE_SHARED} groups the processes of one host.
     *
     * @param splitType the kind, or {@code MPI.UNDEFINED}
     * @param key       the order key
     * @param info      hints (ignored)
     * @return the new communicator
     */
    public final Intracomm splitType(final int splitType, final int key, final Info info) throws MPIException {
        return get("MPI_Comm_split_type", () -> {
            if (MPI.UNDEFINED == splitType) {
                return wrapIntra(intra().split(MPI.UNDEFINED, key), "split_type");
            }
            if (TYPE_SHARED != splitType) {
                throw MpiErrors.error(MPI.ERR_ARG, "splitType: splitType=" + splitType + ", expected Comm.TYPE_SHARED "
                    + "or MPI.UNDEFINED");
            }
            return wrapIntra(intra().splitType(Communicator.SplitType.SHARED, key), state().name() + "/shared");
        });
    }

    /** @param group a subgroup @return the communicator of the group; a null one where not a member */
    public final Intracomm create(final Group group) throws MPIException {
        return get("MPI_Comm_create", () -> wrapIntra(intra().create(group.tutti("create")), "create"));
    }

    /** @param group a subgroup (only its members call) @param tag a tag @return its communicator */
    public final Intracomm createGroup(final Group group, final int tag) throws MPIException {
        return get("MPI_Comm_create_group", () -> wrapIntra(intra().createGroup(group.tutti("createGroup"), tag),
            "create_group"));
    }

    /**
     * Builds a Cartesian topology (MPI_Cart_create) over the first {@code prod(dims)} processes.
     *
     * @param dims    processes per dimension
     * @param periods whether each dimension wraps around
     * @param reorder a hint (ranks are kept)
     * @return the Cartesian communicator; a null one in processes beyond the grid
     */
    public final CartComm createCart(final int[] dims, final boolean[] periods, final boolean reorder)
        throws MPIException {
        return get("MPI_Cart_create", () -> {
            final int n = CartComm.checkGrid("createCart", dims, periods);
            if (n > intra().size()) {
                throw MpiErrors.error(MPI.ERR_ARG, "createCart: the grid needs " + n + " processes, "
                    + state().name() + " has " + intra().size());
            }
            return CartComm.create(intra(), state().derive(state().name() + "/cart"),
                intra().rank() < n ? 0 : MPI.UNDEFINED, dims, periods);
        });
    }

    /**
     * Builds a graph topology (MPI_Graph_create) over the first {@code index.length} processes.
     *
     * @param index   per node, the number of edges of nodes 0 to it
     * @param edges   the edges' end nodes, node by node
     * @param reorder a hint (ranks are kept)
     * @return the graph communicator; a null one in processes that are not nodes
     */
    public final GraphComm createGraph(final int[] index, final int[] edges, final boolean reorder)
        throws MPIException {
        return get("MPI_Graph_create", () -> GraphComm.graph(intra(), state().derive(state().name() + "/graph"),
            index, edges));
    }

    /**
     * Builds a distributed graph topology (MPI_Dist_graph_create) from edges each process names.
     *
     * @param sources      source nodes this process names edges of
     * @param degrees      per source, how many edges
     * @param destinations the edges' destinations, source by source
     * @param weights      the edges' weights
     * @param info         hints (ignored)
     * @param reorder      a hint (ranks are kept)
     * @return the communicator
     */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
        final int[] weights, final Info info, final boolean reorder) throws MPIException {
        return get("MPI_Dist_graph_create", () -> GraphComm.distributed(intra(), state().derive(state().name()
            + "/dist_graph"), sources, degrees, destinations, weights));
    }

    /** As {@link #createDistGraph(int[], int[], int[], int[], Info, boolean)}, unweighted. */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
        final Info info, final boolean reorder) throws MPIException {
        return get("MPI_Dist_graph_create", () -> GraphComm.distributed(intra(), state().derive(state().name()
            + "/dist_graph"), sources, degrees, destinations, null));
    }

    /**
     * Builds a distributed graph topology from each process's own sources and destinations
     * (MPI_Dist_graph_create_adjacent).
     *
     * @param sources       the ranks this process receives from
     * @param sourceWeights their weights
     * @param destinations  the ranks this process sends to
     * @param destWeights   their weights
     * @param info          hints (ignored)
     * @param reorder       a hint (ranks are kept)
     * @return the communicator
     */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] sourceWeights,
        final int[] destinations, final int[] destWeights, final Info info, final boolean reorder)
        throws MPIException {
        return get("MPI_Dist_graph_create_adjacent", () -> GraphComm.adjacent(intra(), state().derive(state().name()
            + "/dist_graph"), sources, sourceWeights, destinations, destWeights));
    }

    /** As {@link #createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)}, unweighted. */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] destinations, final Info info,
        final boolean reorder) throws MPIException {
        return get("MPI_Dist_graph_create_adjacent", () -> GraphComm.adjacent(intra(), state().derive(state().name()
            + "/dist_graph"), sources, null, destinations, null));
    }

    /** Inclusive prefix reduction (MPI_Scan). */
    public final void scan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        run("MPI_Scan", () -> Coll.scan(tc(), false, false, sendbuf, recvbuf, false, count, type, op));
    }

    /** In-place inclusive prefix reduction. */
    public final void scan(final Object recvbuf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Scan", () -> Coll.scan(tc(), false, false, null, recvbuf, true, count, type, op));
    }

    /** @return the request of a nonblocking scan (MPI_Iscan) */
    public final Request iScan(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        Bufs.requireDirect(sendbuf, "The send buffer must be direct.");
        Bufs.requireDirect(recvbuf, "The recv. buffer must be direct.");
        return start("MPI_Iscan", () -> Coll.scan(tc(), true, false, sendbuf, recvbuf, false, count, type, op),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place scan */
    public final Request iScan(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        Bufs.requireDirect(buf, "The buffer must be direct.");
        return start("MPI_Iscan", () -> Coll.scan(tc(), true, false, null, buf, true, count, type, op), buf);
    }

    /** Exclusive prefix reduction (MPI_Exscan); rank 0's result is left unchanged. */
    public final void exScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        run("MPI_Exscan", () -> Coll.scan(tc(), false, true, sendbuf, recvbuf, false, count, type, op));
    }

    /** In-place exclusive prefix reduction. */
    public final void exScan(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Exscan", () -> Coll.scan(tc(), false, true, null, buf, true, count, type, op));
    }

    /** @return the request of a nonblocking exclusive scan (MPI_Iexscan) */
    public final Request iExScan(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        Bufs.requireDirect(sendbuf, "The send buffer must be direct.");
        Bufs.requireDirect(recvbuf, "The recv. buffer must be direct.");
        return start("MPI_Iexscan", () -> Coll.scan(tc(), true, true, sendbuf, recvbuf, false, count, type, op),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place exclusive scan */
    public final Request iExScan(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        Bufs.requireDirect(buf, "The buffer must be direct.");
        return start("MPI_Iexscan", () -> Coll.scan(tc(), true, true, null, buf, true, count, type, op), buf);
    }

    /** @return a new port name (MPI_Open_port) that groups of this job can {@link #connect} to */
    public static String openPort() throws MPIException {
        return Ports.open(Env.check());
    }

    /** @param info hints (ignored) @return a new port name, as {@link #openPort()} */
    public static String openPort(final Info info) throws MPIException {
        return openPort();
    }

    /** @param name a port this process opened, to close (MPI_Close_port) */
    public static void closePort(final String name) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Close_port", () -> Ports.close(name));
    }

    /**
     * Waits for a group of this job to connect to a port (MPI_Comm_accept); collective over this communicator.
     *
     * @param port the port name, significant at the root, which opened it
     * @param root the rank that opened the port
     * @return the intercommunicator to the connecting group
     */
    public final Intercomm accept(final String port, final int root) throws MPIException {
        return get("MPI_Comm_accept", () -> Ports.accept(this, port, root));
    }

    /** As {@link #accept(String, int)}; {@code info} is ignored. */
    public final Intercomm accept(final String port, final Info info, final int root) throws MPIException {
        return accept(port, root);
    }

    /**
     * Connects to a group of this job that accepts on a port (MPI_Comm_connect); collective over this
     * communicator. A port of another job fails with {@code MPI.ERR_PORT}: Tutti connects groups of one job.
     *
     * @param port the port name, significant at the root
     * @param root the rank that connects
     * @return the intercommunicator to the accepting group
     */
    public final Intercomm connect(final String port, final int root) throws MPIException {
        return get("MPI_Comm_connect", () -> Ports.connect(this, port, root));
    }

    /** As {@link #connect(String, int)}; {@code info} is ignored. */
    public final Intercomm connect(final String port, final Info info, final int root) throws MPIException {
        return connect(port, root);
    }

    /**
     * Publishes a port under a service name for the processes of this job (MPI_Publish_name); a name published
     * twice is an ERR_SERVICE error.
     *
     * @param service the service name
     * @param port    the port name
     */
    public static void publishName(final String service, final String port) throws MPIException {
        final Env e = Env.check();
        MPI.COMM_WORLD.run("MPI_Publish_name", () -> Names.publish(e, service, port));
    }

    /** As {@link #publishName(String, String)}; the info is not used. */
    public static void publishName(final String service, final Info info, final String port) throws MPIException {
        publishName(service, port);
    }

    /**
     * Withdraws a published service name (MPI_Unpublish_name); a name not published with that port is an
     * ERR_SERVICE error.
     *
     * @param service the service name
     * @param port    the port name it was published with
     */
    public static void unpublishName(final String service, final String port) throws MPIException {
        final Env e = Env.check();
        MPI.COMM_WORLD.run("MPI_Unpublish_name", () -> Names.unpublish(e, service, port));
    }

    /** As {@link #unpublishName(String, String)}; the info is not used. */
    public static void unpublishName(final String service, final Info info, final String port)
        throws MPIException {
        unpublishName(service, port);
    }

    /**
     * Looks up the port published under a service name by any process of this job (MPI_Lookup_name); an unknown
     * name is an ERR_NAME error.
     *
     * @param service the service name
     * @return the port name
     */
    public static String lookupName(final String service) throws MPIException {
        final Env e = Env.check();
        return MPI.COMM_WORLD.get("MPI_Lookup_name", () -> Names.lookup(e, service));
    }

    /** As {@link #lookupName(String)}; the info is not used. */
    public static String lookupName(final String service, final Info info) throws MPIException {
        return lookupName(service);
    }

    /** Not supported: Tutti does not spawn processes into a running job. */
    public final Intercomm spawn(final String command, final String[] argv, final int maxprocs, final Info info,
        final int root, final int[] errcodes) throws MPIException {
        throw unsupported("spawn");
    }

    /** Not supported: Tutti does not spawn processes into a running job. */
    public final Intercomm spawnMultiple(final String[] commands, final String[][] argv, final int[] maxprocs,
        final Info[] info, final int root, final int[] errcodes) throws MPIException {
        throw unsupported("spawnMultiple");
    }
}
