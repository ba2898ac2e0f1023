package mpi;

/**
 * What {@link GraphComm#getDistGraphNeighbors()} returns (MPI_Dist_graph_neighbors): the calling process's
 * sources and destinations, with their weights if the graph has them.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;

    DistGraphNeighbors(final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights) {
        this.sources = sources.clone();
        this.sourceWeights = null == sourceWeights ? null : sourceWeights.clone();
        this.destinations = destinations.clone();
        this.destWeights = null == destWeights ? null : destWeights.clone();
    }

    /** @return the number of sources */
    public int getInDegree() {
        return sources.length;
    }

    /** @return the number of destinations */
    public int getOutDegree() {
        return destinations.length;
    }

    /** @return whether the graph was created with weights */
    public boolean isWeighted() {
        return null != sourceWeights;
    }

    /** @param i a source index @return the source's rank */
    public int getSource(final int i) {
        return sources[i];
    }

    /** @param i a source index @return the edge's weight */
    public int getSourceWeight(final int i) {
        return sourceWeights[i];
    }

    /** @param i a destination index @return the destination's rank */
    public int getDestination(final int i) {
        return destinations[i];
    }

    /** @param i a destination index @return the edge's weight */
    public int getDestinationWeight(final int i) {
        return destWeights[i];
    }
}
