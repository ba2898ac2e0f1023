package mpi;

/** What {@link GraphComm#getDims()} returns (MPI_Graph_get): the graph's index and edges arrays. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(final int[] index, final int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /** @return the number of nodes */
    public int getIndexCount() {
        return index.length;
    }

    /** @param i a node @return the number of edges of nodes 0..i */
    public int getIndex(final int i) {
        return index[i];
    }

    /** @return the number of edges */
    public int getEdgeCount() {
        return edges.length;
    }

    /** @param i an edge @return its end node */
    public int getEdge(final int i) {
        return edges[i];
    }
}
