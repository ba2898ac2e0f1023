package dev.tutti.coll;

import dev.tutti.internal.Errors;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every collective algorithm, named op + algorithm (Open MPI / Gloo style). Used by the selection table, by
 * overrides ({@code -Dtutti.coll.allreduce=ring}), by benchmarks ({@code --algorithm}) and by test names.
 */
public enum AlgorithmId {
    /** Everyone tells rank 0, rank 0 releases everyone. */
    BARRIER_LINEAR(CollKind.BARRIER, "linear", false),
    /** Hensgen-Finkel-Manber dissemination, ceil(lg p) rounds. */
    BARRIER_DISSEMINATION(CollKind.BARRIER, "dissemination", false),
    /** Node-aware: fan-in to each host's leader, a barrier of the leaders, fan-out from each leader. */
    BARRIER_HIERARCHICAL(CollKind.BARRIER, "hierarchical", false),

    /** Root sends to each rank. */
    BCAST_LINEAR(CollKind.BCAST, "linear", false),
    /** Binomial tree. */
    BCAST_BINOMIAL(CollKind.BCAST, "binomial", false),
    /** Van de Geijn: binomial scatter then ring allgather. */
    BCAST_SCATTER_ALLGATHER(CollKind.BCAST, "scatter_allgather", false),
    /** Node-aware: within the root's host, then among the hosts' leaders, then within every other host. */
    BCAST_HIERARCHICAL(CollKind.BCAST, "hierarchical", false),

    /** Root receives from each rank. */
    GATHER_LINEAR(CollKind.GATHER, "linear", false),
    /** Binomial tree; inner nodes forward their subtrees. */
    GATHER_BINOMIAL(CollKind.GATHER, "binomial", false),
    /** Root receives from each rank. */
    GATHERV_LINEAR(CollKind.GATHERV, "linear", false),

    /** Root sends to each rank. */
    SCATTER_LINEAR(CollKind.SCATTER, "linear", false),
    /** Binomial tree. */
    SCATTER_BINOMIAL(CollKind.SCATTER, "binomial", false),
    /** Root sends to each rank. */
    SCATTERV_LINEAR(CollKind.SCATTERV, "linear", false),

    /** Gather to rank 0, then broadcast. */
    ALLGATHER_LINEAR(CollKind.ALLGATHER, "linear", false),
    /** Recursive doubling; non-powers of two fold (the first 2r ranks pair up), floor(lg p) + 2 rounds. */
    ALLGATHER_RECURSIVE_DOUBLING(CollKind.ALLGATHER, "recursive_doubling", false),
    /** Bruck et al.: ceil(lg p) rounds, any p. */
    ALLGATHER_BRUCK(CollKind.ALLGATHER, "bruck", false),
    /** Ring: p-1 neighbour steps. */
    ALLGATHER_RING(CollKind.ALLGATHER, "ring", false),
    /** Node-aware: gather to each host's leader, allgather(v) of the hosts' blocks among leaders, bcast within. */
    ALLGATHER_HIERARCHICAL(CollKind.ALLGATHER, "hierarchical", false),
    /** Gatherv to rank 0, then broadcast. */
    ALLGATHERV_LINEAR(CollKind.ALLGATHERV, "linear", false),
    /** Ring: p-1 neighbour steps. */
    ALLGATHERV_RING(CollKind.ALLGATHERV, "ring", false),

    /** Every rank posts all sends and receives at once. */
    ALLTOALL_LINEAR(CollKind.ALLTOALL, "linear", false),
    /** Pairwise exchange: p-1 steps, one peer per step. */
    ALLTOALL_PAIRWISE(CollKind.ALLTOALL, "pairwise", false),
    /** Bruck et al.: ceil(lg p) rounds of packed blocks; small blocks. */
    ALLTOALL_BRUCK(CollKind.ALLTOALL, "bruck", false),
    /** Every rank posts all sends and receives at once. */
    ALLTOALLV_LINEAR(CollKind.ALLTOALLV, "linear", false),
    /** Pairwise exchange. */
    ALLTOALLV_PAIRWISE(CollKind.ALLTOALLV, "pairwise", false),
    /** Every rank posts all sends and receives at once. */
    ALLTOALLW_LINEAR(CollKind.ALLTOALLW, "linear", false),

    /** Root receives from each rank and reduces in rank order. */
    REDUCE_LINEAR(CollKind.REDUCE, "linear", false),
    /** Binomial tree, rank-ordered (order-preserving). */
    REDUCE_BINOMIAL(CollKind.REDUCE, "binomial", false),
    /** Rabenseifner: reduce-scatter by recursive halving, then binomial gather. Commutative ops only. */
    REDUCE_RABENSEIFNER(CollKind.REDUCE, "rabenseifner", true),
    /**
     * Node-aware: reduce to each host's leader, reduce among the leaders to the root's host, then to the root.
     * Rank-ordered when each host's ranks are consecutive; else a non-commutative op runs the flat binomial tree.
     */
    REDUCE_HIERARCHICAL(CollKind.REDUCE, "hierarchical", false),

    /** Linear reduce to rank 0, then broadcast. */
    ALLREDUCE_LINEAR(CollKind.ALLREDUCE, "linear", false),
    /** Recursive doubling with fold for non-powers of two; order-preserving. */
    ALLREDUCE_RECURSIVE_DOUBLING(CollKind.ALLREDUCE, "recursive_doubling", false),
    /**
     * Every rank sends its vector to every other rank in one round and combines all of them in rank order:
     * one round instead of lg p, for short vectors on few ranks; order-preserving.
     */
    ALLREDUCE_ALLGATHER_REDUCE(CollKind.ALLREDUCE, "allgather_reduce", false),
    /** Rabenseifner: reduce-scatter by recursive halving + allgather by recursive doubling. Commutative only. */
    ALLREDUCE_RABENSEIFNER(CollKind.ALLREDUCE, "rabenseifner", true),
    /** Ring reduce-scatter + ring allgather (bandwidth-optimal). Commutative only. */
    ALLREDUCE_RING(CollKind.ALLREDUCE, "ring", true),
    /**
     * Node-aware: reduce to each host's leader, allreduce among the leaders, bcast within each host. Rank-ordered
     * when each host's ranks are consecutive; else a non-commutative op runs flat recursive doubling.
     */
    ALLREDUCE_HIERARCHICAL(CollKind.ALLREDUCE, "hierarchical", false),

    /** Reduce to rank 0, then scatter. */
    REDUCE_SCATTER_BLOCK_LINEAR(CollKind.REDUCE_SCATTER_BLOCK, "linear", false),
    /** Recursive halving with fold. Commutative only. */
    REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING(CollKind.REDUCE_SCATTER_BLOCK, "recursive_halving", true),
    /** Pairwise exchange. Commutative only. */
    REDUCE_SCATTER_BLOCK_PAIRWISE(CollKind.REDUCE_SCATTER_BLOCK, "pairwise", true),
    /** Reduce to rank 0, then scatterv. */
    REDUCE_SCATTER_LINEAR(CollKind.REDUCE_SCATTER, "linear", false),
    /** Pairwise exchange. Commutative only. */
    REDUCE_SCATTER_PAIRWISE(CollKind.REDUCE_SCATTER, "pairwise", true),

    /** Rank i receives the prefix from rank i-1, combines, forwards (chain). */
    SCAN_LINEAR(CollKind.SCAN, "linear", false),
    /** Recursive doubling, ceil(lg p) rounds; order-preserving. */
    SCAN_RECURSIVE_DOUBLING(CollKind.SCAN, "recursive_doubling", false),
    /** Chain. */
    EXSCAN_LINEAR(CollKind.EXSCAN, "linear", false),
    /** Recursive doubling; order-preserving. */
    EXSCAN_RECURSIVE_DOUBLING(CollKind.EXSCAN, "recursive_doubling", false);

    private final CollKind kind;
    private final String shortName;
    private final boolean commutativeOnly;

    AlgorithmId(final CollKind kind, final String shortName, final boolean commutativeOnly) {
        this.kind = kind;
        this.shortName = shortName;
        this.commutativeOnly = commutativeOnly;
    }

    /** @return the operation this algorithm implements */
    public CollKind kind() {
        return kind;
    }

    /** @return the algorithm's name within its operation, e.g. {@code ring} */
    public String shortName() {
        return shortName;
    }

    /** @return whether it is node-aware (its phases follow the communicator's hosts) */
    public boolean hierarchical() {
        return "hierarchical".equals(shortName);
    }

    /** @return whether it reorders operands, so only commutative operations may use it */
    public boolean commutativeOnly() {
        return commutativeOnly;
    }

    /**
     * Returns the algorithms of one operation.
     *
     * @param kind the operation
     * @return its algorithms, in declaration order
     */
    public static List<AlgorithmId> of(final CollKind kind) {
        final List<AlgorithmId> out = new ArrayList<>();
        for (final AlgorithmId a : values()) {
            if (a.kind == kind) {
                out.add(a);
            }
        }
        return out;
    }

    /**
     * Finds an algorithm of an operation by short name ({@code ring}) or full name ({@code ALLREDUCE_RING}).
     *
     * @param kind the operation
     * @param name the name, any case
     * @return the algorithm
     * @throws IllegalArgumentException naming the valid names
     */
    public static AlgorithmId parse(final CollKind kind, final String name) {
        final String n = name.trim().toLowerCase(Locale.ROOT);
        for (final AlgorithmId a : of(kind)) {
            if (a.shortName.equals(n) || a.name().toLowerCase(Locale.ROOT).equals(n)) {
                return a;
            }
        }
        throw Errors.refused("unknown algorithm '" + name + "' for " + kind.mpiName(),
            "one of " + of(kind).stream().map(AlgorithmId::shortName).toList());
    }
}
