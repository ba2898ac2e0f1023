package mpi;

import dev.tutti.Communicator;

/** A communicator with a graph topology: node {@code i} is rank {@code i}, its neighbours listed in the edges. */
public class Graphcomm extends Intracomm {
    private final int[] index;
    private final int[] edges;

    Graphcomm(final dev.tutti.Comm c, final int[] index, final int[] edges) {
        super(Kind.FIXED, c);
        this.index = index;
        this.edges = edges;
    }

    static Graphcomm create(final Intracomm parent, final int[] index, final int[] edges) {
        final String call = "Intracomm.Create_graph";
        final Communicator c = parent.intra(call);
        if (null == index || null == edges) {
            throw Fail.error(call + ": index and edges must not be null");
        }
        if (index.length > c.size()) {
            throw Fail.error(call + ": the graph has " + index.length + " nodes but the communicator " + c.size()
                + " processes (expected at most as many nodes as processes)");
        }
        for (int i = 0; i < index.length; i++) {
            if (index[i] < (0 == i ? 0 : index[i - 1]) || index[i] > edges.length) {
                throw Fail.error(call + ": index[" + i + "]=" + index[i] + " (expected cumulative counts, "
                    + "non-decreasing, at most edges.length=" + edges.length + ")");
            }
        }
        for (int i = 0; i < edges.length; i++) {
            if (edges[i] < 0 || edges[i] >= index.length) {
                throw Fail.error(call + ": edges[" + i + "]=" + edges[i] + " (expected a node 0.."
                    + (index.length - 1) + ")");
            }
        }
        try {
            final boolean in = c.rank() < index.length;
            final Communicator g = c.split(in ? 0 : dev.tutti.Comm.UNDEFINED, c.rank());
            return in ? new Graphcomm(g, index.clone(), edges.clone()) : null;
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * @return a new communicator with the same graph and a new context
     * @throws MPIException for a failed peer
     */
    @Override
    public Object clone() throws MPIException {
        return new Graphcomm(dup("Graphcomm.clone"), index.clone(), edges.clone());
    }

    /**
     * @return the graph as given to {@code Create_graph}
     * @throws MPIException if MPI is not initialized
     */
    public GraphParms Get() throws MPIException {
        tc("Graphcomm.Get");
        final GraphParms p = new GraphParms();
        p.index = index.clone();
        p.edges = edges.clone();
        return p;
    }

    /**
     * @param rank a node
     * @return its neighbours
     * @throws MPIException for a rank outside the graph
     */
    public int[] Neighbours(final int rank) throws MPIException {
        tc("Graphcomm.Neighbours");
        if (rank < 0 || rank >= index.length) {
            throw Fail.error("Graphcomm.Neighbours: rank=" + rank + " (expected 0.." + (index.length - 1) + ")");
        }
        final int from = 0 == rank ? 0 : index[rank - 1];
        return java.util.Arrays.copyOfRange(edges, from, index[rank]);
    }

    /**
     * @param index a graph's cumulative neighbour counts
     * @param edges its neighbours
     * @return the caller's rank on such a graph: its rank if below the number of nodes, else -1
     * @throws MPIException for a null array
     */
    public int Map(final int[] index, final int[] edges) throws MPIException {
        final int me = tc("Graphcomm.Map").rank();
        if (null == index) {
            throw Fail.error("Graphcomm.Map: index=null (expected cumulative neighbour counts)");
        }
        return me < index.length ? me : MPI.UNDEFINED;
    }

    /** @return {@code MPI.GRAPH} */
    @Override
    public int Topo_test() throws MPIException {
        return MPI.GRAPH;
    }
}
