package dev.tutti.coll;

import dev.tutti.internal.Errors;

import java.util.Locale;

/** The kinds of collective operation, named as in MPI. */
public enum CollKind {
    /** MPI_Barrier. */
    BARRIER,
    /** MPI_Bcast. */
    BCAST,
    /** MPI_Gather. */
    GATHER,
    /** MPI_Gatherv. */
    GATHERV,
    /** MPI_Scatter. */
    SCATTER,
    /** MPI_Scatterv. */
    SCATTERV,
    /** MPI_Allgather. */
    ALLGATHER,
    /** MPI_Allgatherv. */
    ALLGATHERV,
    /** MPI_Alltoall. */
    ALLTOALL,
    /** MPI_Alltoallv. */
    ALLTOALLV,
    /** MPI_Alltoallw. */
    ALLTOALLW,
    /** MPI_Reduce. */
    REDUCE,
    /** MPI_Allreduce. */
    ALLREDUCE,
    /** MPI_Reduce_scatter. */
    REDUCE_SCATTER,
    /** MPI_Reduce_scatter_block. */
    REDUCE_SCATTER_BLOCK,
    /** MPI_Scan. */
    SCAN,
    /** MPI_Exscan. */
    EXSCAN;

    private final String mpiName = name().toLowerCase(Locale.ROOT);

    /** @return the MPI name in lower case, e.g. {@code reduce_scatter_block} (computed once) */
    public String mpiName() {
        return mpiName;
    }

    /**
     * Parses an MPI name in any case.
     *
     * @param name e.g. {@code allreduce}
     * @return the kind
     * @throws IllegalArgumentException naming the accepted names
     */
    public static CollKind fromMpiName(final String name) {
        for (final CollKind k : values()) {
            if (k.mpiName().equalsIgnoreCase(name.trim())) {
                return k;
            }
        }
        throw Errors.refused("unknown collective '" + name + "'",
            "one of " + java.util.Arrays.stream(values()).map(CollKind::mpiName).toList());
    }
}
