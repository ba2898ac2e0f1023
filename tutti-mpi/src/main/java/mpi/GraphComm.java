package mpi;

import dev.tutti.Communicator;
import dev.tutti.ObjectRequest;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A communicator with a graph topology (MPI_Graph_create) or a distributed graph topology
 * (MPI_Dist_graph_create, MPI_Dist_graph_create_adjacent). Ranks are kept ({@code reorder} is a hint Tutti does
 * not use); processes beyond a graph's nodes get a null communicator. The neighbour collectives of {@link Comm}
 * receive from the sources and send to the destinations in the order this class reports them: for a graph, both
 * are the node's edges in order.
 */
public final class GraphComm extends Intracomm {
    /** The shape: a graph's index and edges, or a distributed graph's weights (null if unweighted). */
    private record Shape(int[] index, int[] edges, int[] sourceWeights, int[] destWeights) {
    }

    private final Shape shape;
    private final Topology topology;

    private GraphComm(final dev.tutti.Comm handle, final CommState state, final Shape shape,
        final Topology topology) {
        super(handle, state);
        this.shape = shape;
        this.topology = topology;
    }

    private GraphComm(final ObjectRequest<Communicator> pending, final CommState state, final Shape shape,
        final Topology topology) {
        super(pending, state);
        this.shape = shape;
        this.topology = topology;
    }

    /** The body of {@link Intracomm#createGraph}. */
    static GraphComm graph(final Communicator parent, final CommState state, final int[] index, final int[] edges) {
        final int nodes = null == index ? -1 : index.length;
        if (nodes < 0 || null == edges || nodes > parent.size()) {
            throw MpiErrors.error(MPI.ERR_ARG, "createGraph: index and edges must be arrays, index no longer than the "
                + "communicator's size " + parent.size());
        }
        for (int i = 0; i < nodes; i++) {
            if (index[i] < (0 == i ? 0 : index[i - 1]) || index[i] > edges.length) {
                throw MpiErrors.error(MPI.ERR_ARG, "createGraph: index[" + i + "]=" + index[i] + ", expected a "
                    + "non-decreasing edge count <= " + edges.length);
            }
        }
        for (int i = 0; i < (0 == nodes ? 0 : index[nodes - 1]); i++) {
            checkRank("createGraph: edges[" + i + "]", edges[i], nodes);
        }
        final Communicator c = parent.split(parent.rank() < nodes ? 0 : MPI.UNDEFINED, parent.rank());
        if (null == c) {
            return new GraphComm((dev.tutti.Comm) null, new CommState("MPI_COMM_NULL"), null, null);
        }
        final int[] neighbours = neighbours(index, edges, c.rank());
        return new GraphComm(c, state, new Shape(index.clone(), edges.clone(), null, null),
            new Topology(MPI.GRAPH, neighbours, neighbours, c.dup()));
    }

    /** The body of {@link Intracomm#createDistGraphAdjacent}: weights null for an unweighted graph. */
    static GraphComm adjacent(final Communicator parent, final CommState state, final int[] sources,
        final int[] sourceWeights, final int[] destinations, final int[] destWeights) {
        if (null == sources || null == destinations || null != sourceWeights && sourceWeights.length
            < sources.length || null != destWeights && destWeights.length < destinations.length) {
            throw MpiErrors.error(MPI.ERR_ARG, "createDistGraphAdjacent: sources and destinations must be arrays, "
                + "their weights at least as long (the degrees are the lengths of sources and destinations)");
        }
        for (final int s : sources) {
            checkRank("createDistGraphAdjacent: a source", s, parent.size());
        }
        for (final int d : destinations) {
            checkRank("createDistGraphAdjacent: a destination", d, parent.size());
        }
        final Communicator c = parent.dup();
        return new GraphComm(c, state, new Shape(null, null, null == sourceWeights ? null
            : Arrays.copyOf(sourceWeights, sources.length), null == destWeights ? null
            : Arrays.copyOf(destWeights, destinations.length)), new Topology(MPI.DIST_GRAPH, sources.clone(),
            destinations.clone(), c.dup()));
    }

    /**
     * The body of {@link Intracomm#createDistGraph}: every process names some edges; they are gathered, and each
     * process's sources and destinations are the edges that end and start at it, in the order of the process
     * that named them and then of its arrays (so that several edges between two processes match in order).
     */
    static GraphComm distributed(final Communicator parent, final CommState state, final int[] sources,
        final int[] degrees, final int[] destinations, final int[] weights) {
        if (null == sources || null == degrees || null == destinations || degrees.length < sources.length) {
            throw MpiErrors.error(MPI.ERR_ARG, "createDistGraph: sources, degrees and destinations must be arrays, "
                + "one degree per source");
        }
        int edges = 0;
        for (int i = 0; i < sources.length; i++) {
            checkRank("createDistGraph: sources[" + i + "]", sources[i], parent.size());
            edges += degrees[i];
        }
        if (edges > destinations.length || null != weights && edges > weights.length) {
            throw MpiErrors.error(MPI.ERR_ARG, "createDistGraph: the degrees name " + edges + " edges, more than "
                + "destinations (or weights) hold");
        }
        final int[] mine = new int[3 * edges];
        for (int i = 0, e = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                checkRank("createDistGraph: destinations[" + e + "]", destinations[e], parent.size());
                mine[3 * e] = sources[i];
                mine[3 * e + 1] = destinations[e];
                mine[3 * e + 2] = null == weights ? 1 : weights[e];
            }
        }
        final IntStream.Builder in = IntStream.builder();
        final IntStream.Builder inW = IntStream.builder();
        final IntStream.Builder out = IntStream.builder();
        final IntStream.Builder outW = IntStream.builder();
        for (final int[] named : parent.allgatherObject(mine)) {
            for (int e = 0; e < named.length; e += 3) {
                if (named[e + 1] == parent.rank()) {
                    in.add(named[e]);
                    inW.add(named[e + 2]);
                }
                if (named[e] == parent.rank()) {
                    out.add(named[e + 1]);
                    outW.add(named[e + 2]);
                }
            }
        }
        final Communicator c = parent.dup();
        return new GraphComm(c, state, new Shape(null, null, null == weights ? null : inW.build().toArray(),
            null == weights ? null : outW.build().toArray()), new Topology(MPI.DIST_GRAPH, in.build().toArray(), out.build().toArray(),
            c.dup()));
    }

    private static void checkRank(final String what, final int rank, final int size) {
        if (rank < 0 || rank >= size) {
            throw MpiErrors.error(MPI.ERR_RANK, what + "=" + rank + ", expected 0.." + (size - 1));
        }
    }

    private static int[] neighbours(final int[] index, final int[] edges, final int node) {
        final int from = 0 == node ? 0 : index[node - 1];
        final int[] n = new int[index[node] - from];
        System.arraycopy(edges, from, n, 0, n.length);
        return n;
    }

    @Override
    Topology topology() {
        return topology;
    }

    private Shape graphShape(final String what) {
        tc();
        if (MPI.GRAPH != topology.kind) {
            throw MpiErrors.error(MPI.ERR_TOPOLOGY, what + ": " + state().name() + " has a distributed graph "
                + "topology, expected a graph topology");
        }
        return shape;
    }

    /** @return a duplicate; failures are wrapped in a RuntimeException */
    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /** @return a duplicate with the same topology (MPI_Comm_dup) */
    @Override
    public GraphComm dup() throws MPIException {
        return get("MPI_Comm_dup", () -> new GraphComm(dupHandle(), state().copy(state().name() + "/dup"), shape,
            topology.dup()));
    }

    /** @return a duplicate made in the background (MPI_Comm_idup) */
    @Override
    public GraphComm iDup() throws MPIException {
        return get("MPI_Comm_idup", () -> new GraphComm(((Communicator) tc()).idup(),
            state().copy(state().name() + "/idup"), shape, topology.idup()));
    }

    /** @return a duplicate, as {@link #dup()} */
    @Override
    public GraphComm dupWithInfo(final Info info) throws MPIException {
        return dup();
    }

    /** @return the graph's index and edges (MPI_Graph_get); fails on a distributed graph (ERR_TOPOLOGY) */
    public GraphParms getDims() throws MPIException {
        return get("MPI_Graph_get", () -> {
            final Shape s = graphShape("getDims");
            return new GraphParms(s.index(), s.edges());
        });
    }

    /** @param rank a node @return its neighbours, in the order of the edges (MPI_Graph_neighbors) */
    public int[] getNeighbors(final int rank) throws MPIException {
        return get("MPI_Graph_neighbors", () -> {
            final Shape s = graphShape("getNeighbors");
            checkRank("getNeighbors: rank", rank, s.index().length);
            return neighbours(s.index(), s.edges(), rank);
        });
    }

    /** @return the calling process's sources and destinations (MPI_Dist_graph_neighbors); distributed graphs only */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        return get("MPI_Dist_graph_neighbors", () -> {
            tc();
            if (MPI.DIST_GRAPH != topology.kind) {
                throw MpiErrors.error(MPI.ERR_TOPOLOGY, "getDistGraphNeighbors: " + state().name() + " has a graph "
                    + "topology, expected a distributed graph topology");
            }
            return new DistGraphNeighbors(topology.sources, shape.sourceWeights(), topology.destinations,
                shape.destWeights());
        });
    }

    /**
     * Where a process would be placed in a graph (MPI_Graph_map): Tutti keeps ranks.
     *
     * @param index the graph's index
     * @param edges the graph's edges
     * @return the calling process's rank, or {@code MPI.UNDEFINED} if it is not a node
     */
    public int map(final int[] index, final int[] edges) throws MPIException {
        return get("MPI_Graph_map", () -> {
            if (null == index || null == edges) {
                throw MpiErrors.error(MPI.ERR_ARG, "map: index and edges must be arrays");
            }
            return tc().rank() < index.length ? tc().rank() : MPI.UNDEFINED;
        });
    }
}
