package mpi;

/** What {@link Graphcomm#Get()} returns: the graph as given to {@code Create_graph}. */
public class GraphParms {
    /** Cumulative neighbour counts. */
    public int[] index;
    /** The neighbours. */
    public int[] edges;

    /** Empty parameters. */
    public GraphParms() {
    }
}
