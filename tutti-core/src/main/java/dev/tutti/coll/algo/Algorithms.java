package dev.tutti.coll.algo;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.Schedule;

/** Builds the schedule of an algorithm: the one place that maps {@link AlgorithmId} to code. */
public final class Algorithms {
    private Algorithms() {
    }

    /**
     * Builds the schedule of one call, with the call's header (kind and root: see {@link CollHeader}).
     *
     * @param id the algorithm
     * @param c  the communicator
     * @param a  the validated arguments
     * @return the schedule for this rank
     */
    public static Schedule build(final AlgorithmId id, final CollComm c, final CollArgs a) {
        return algorithm(id, c, a).withHeader(CollHeader.of(id.kind(), a.root(), a.count()));
    }

    private static Schedule algorithm(final AlgorithmId id, final CollComm c, final CollArgs a) {
        return switch (id) {
            case BARRIER_LINEAR -> Linear.barrier(c, a);
            case BARRIER_DISSEMINATION -> Dissemination.barrier(c, a);
            case BARRIER_HIERARCHICAL -> Hierarchical.barrier(c, a);
            case BCAST_LINEAR -> Linear.bcast(c, a);
            case BCAST_BINOMIAL -> Binomial.bcast(c, a);
            case BCAST_SCATTER_ALLGATHER -> ScatterAllgather.bcast(c, a);
            case BCAST_HIERARCHICAL -> Hierarchical.bcast(c, a);
            case GATHER_LINEAR -> Linear.gather(c, a);
            case GATHER_BINOMIAL -> Binomial.gather(c, a);
            case GATHERV_LINEAR -> Linear.gatherv(c, a);
            case SCATTER_LINEAR -> Linear.scatter(c, a);
            case SCATTER_BINOMIAL -> Binomial.scatter(c, a);
            case SCATTERV_LINEAR -> Linear.scatterv(c, a);
            case ALLGATHER_LINEAR -> Linear.allgather(c, a);
            case ALLGATHER_RECURSIVE_DOUBLING -> RecursiveDoubling.allgather(c, a);
            case ALLGATHER_BRUCK -> Bruck.allgather(c, a);
            case ALLGATHER_RING -> Ring.allgather(c, a);
            case ALLGATHER_HIERARCHICAL -> Hierarchical.allgather(c, a);
            case ALLGATHERV_LINEAR -> Linear.allgatherv(c, a);
            case ALLGATHERV_RING -> Ring.allgatherv(c, a);
            case ALLTOALL_LINEAR -> Linear.alltoall(c, a);
            case ALLTOALL_PAIRWISE -> Pairwise.alltoall(c, a);
            case ALLTOALL_BRUCK -> Bruck.alltoall(c, a);
            case ALLTOALLV_LINEAR -> Linear.alltoallv(c, a);
            case ALLTOALLV_PAIRWISE -> Pairwise.alltoallv(c, a);
            case ALLTOALLW_LINEAR -> Linear.alltoallw(c, a);
            case REDUCE_LINEAR -> Linear.reduce(c, a);
            case REDUCE_BINOMIAL -> Binomial.reduce(c, a);
            case REDUCE_RABENSEIFNER -> Rabenseifner.reduce(c, a);
            case REDUCE_HIERARCHICAL -> Hierarchical.reduce(c, a);
            case ALLREDUCE_LINEAR -> Linear.allreduce(c, a);
            case ALLREDUCE_RECURSIVE_DOUBLING -> RecursiveDoubling.allreduce(c, a);
            case ALLREDUCE_ALLGATHER_REDUCE -> Linear.allreduceAllgather(c, a);
            case ALLREDUCE_RABENSEIFNER -> Rabenseifner.allreduce(c, a);
            case ALLREDUCE_RING -> Ring.allreduce(c, a);
            case ALLREDUCE_HIERARCHICAL -> Hierarchical.allreduce(c, a);
            case REDUCE_SCATTER_BLOCK_LINEAR -> Linear.reduceScatterBlock(c, a);
            case REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING -> RecursiveHalving.reduceScatterBlock(c, a);
            case REDUCE_SCATTER_BLOCK_PAIRWISE -> Pairwise.reduceScatterBlock(c, a);
            case REDUCE_SCATTER_LINEAR -> Linear.reduceScatter(c, a);
            case REDUCE_SCATTER_PAIRWISE -> Pairwise.reduceScatter(c, a);
            case SCAN_LINEAR -> Linear.scan(c, a);
            case SCAN_RECURSIVE_DOUBLING -> RecursiveDoubling.scan(c, a);
            case EXSCAN_LINEAR -> Linear.exscan(c, a);
            case EXSCAN_RECURSIVE_DOUBLING -> RecursiveDoubling.exscan(c, a);
        };
    }
}
