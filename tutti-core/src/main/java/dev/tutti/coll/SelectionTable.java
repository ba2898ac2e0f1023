package dev.tutti.coll;

import dev.tutti.internal.Settings;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Chooses the algorithm of each collective call from (operation, group size, bytes, commutativity, whether the
 * communicator spans hosts, and whether its ranks reach each other over a network), so every rank of a call makes the
 * same choice. Overrides, for tests and
 * benchmarks: the setting {@code tutti.coll.<operation>} (system property, or environment
 * {@code TUTTI_COLL_<OPERATION>}), e.g. {@code -Dtutti.coll.allreduce=ring} or {@code =hierarchical}, or
 * {@code =flat} for the default choice without the node-aware algorithms; or {@link #withOverride}. A blocking call
 * that goes through its communicator's on-host region ({@link Road#onHost}) runs no algorithm of this table; an
 * operation with a forced algorithm never goes there, so every message-based algorithm stays reachable.
 *
 * <p>Implementation notes. Defaults follow MPICH's published thresholds (REFERENCE.md §1.3): small messages
 * minimise rounds (trees, recursive doubling, Bruck, dissemination), large ones minimise bytes per rank
 * (scatter+allgather, Rabenseifner, ring, pairwise). Immutable; thread-safe. Settings are read once, when the table
 * is made ({@link #fromConfiguration()}, once per communicator), never per call. A communicator on one host
 * passes null hosts: its selection costs one more comparison than without the node-aware algorithms.
 */
public final class SelectionTable {
    /** The default table, without overrides. */
    private static final SelectionTable DEFAULTS = new SelectionTable(new EnumMap<>(CollKind.class),
        EnumSet.noneOf(CollKind.class));

    /** Bytes gathered (a rank's block times the ranks) above which allgather across hosts is flat. */
    static final long HIERARCHICAL_ALLGATHER_MAX_BYTES = 1 << 20;

    /** The override value that keeps the default choice but never the node-aware one. */
    public static final String FLAT = "flat";

    private final Map<CollKind, AlgorithmId> overrides;
    /** The overrides by {@link CollKind#ordinal()} (null: none), read on every call. */
    private final AlgorithmId[] forced = new AlgorithmId[CollKind.values().length];
    /** The operations overridden with {@link #FLAT}. */
    private final Set<CollKind> flat;

    private SelectionTable(final Map<CollKind, AlgorithmId> overrides, final Set<CollKind> flat) {
        this.overrides = overrides;
        this.flat = flat;
        overrides.forEach((k, a) -> forced[k.ordinal()] = a);
    }

    /**
     * Returns the default table with the overrides found in system properties and the environment.
     *
     * @return the table
     * @throws IllegalArgumentException if an override names an unknown algorithm
     */
    public static SelectionTable fromConfiguration() {
        final Map<CollKind, AlgorithmId> o = new EnumMap<>(CollKind.class);
        final Set<CollKind> f = EnumSet.noneOf(CollKind.class);
        for (final CollKind k : CollKind.values()) {
            final String v = Settings.COLL_ALGORITHM.member(k.mpiName()).raw();
            if (null != v && FLAT.equalsIgnoreCase(v.trim())) {
                f.add(k);
            } else if (null != v && !v.isBlank() && !"auto".equalsIgnoreCase(v.trim())) {
                o.put(k, AlgorithmId.parse(k, v));
            }
        }
        return new SelectionTable(o, f);
    }

    /**
     * Returns a copy that always uses {@code algorithm} for its operation.
     *
     * @param algorithm the algorithm
     * @return the new table
     */
    public SelectionTable withOverride(final AlgorithmId algorithm) {
        final Map<CollKind, AlgorithmId> o = new EnumMap<>(CollKind.class);
        o.putAll(overrides);
        o.put(algorithm.kind(), algorithm);
        final Set<CollKind> f = EnumSet.noneOf(CollKind.class);
        f.addAll(flat);
        f.remove(algorithm.kind());
        return new SelectionTable(o, f);
    }

    /**
     * Returns a copy that chooses as the default table for one operation but never its node-aware algorithm (the
     * override value {@link #FLAT}), replacing an algorithm forced for it.
     *
     * @param kind the operation
     * @return the new table
     */
    public SelectionTable withFlat(final CollKind kind) {
        final Map<CollKind, AlgorithmId> o = new EnumMap<>(CollKind.class);
        o.putAll(overrides);
        o.remove(kind);
        final Set<CollKind> f = EnumSet.noneOf(CollKind.class);
        f.addAll(flat);
        f.add(kind);
        return new SelectionTable(o, f);
    }

    /**
     * Returns the forced algorithm of an operation, or null.
     *
     * @param kind the operation
     * @return the override or null
     */
    public AlgorithmId override(final CollKind kind) {
        return forced[kind.ordinal()];
    }

    /**
     * Chooses an algorithm for a communicator: the forced one if any; else, when the communicator spans hosts
     * ({@code hosts} not null) and the operation is not overridden with {@link #FLAT}, the hierarchical one of the
     * operations that have one (allgather up to {@link #HIERARCHICAL_ALLGATHER_MAX_BYTES} gathered); else as
     * {@link #select(CollKind, int, long, long, boolean, boolean)}.
     *
     * @param kind        the operation
     * @param p           the group size
     * @param bytes       as for {@link #select(CollKind, int, long, long, boolean)}
     * @param count       elements of the same
     * @param commutative whether the reduction is commutative (true for non-reductions)
     * @param hosts       the communicator's hosts, or null (one host, or one rank per host)
     * @param network     whether some of its ranks reach each other over a network ({@code CollComm#network})
     * @return the algorithm
     */
    public AlgorithmId select(final CollKind kind, final int p, final long bytes, final long count,
        final boolean commutative, final HostMap hosts, final boolean network) {
        if (null == hosts || null != forced[kind.ordinal()] || flat.contains(kind)) {
            return select(kind, p, bytes, count, commutative, network);
        }
        return switch (kind) {
            case BARRIER -> AlgorithmId.BARRIER_HIERARCHICAL;
            case BCAST -> AlgorithmId.BCAST_HIERARCHICAL;
            // Gathering to a leader, exchanging among leaders and spreading the whole result within each host are
            // three steps in a row, each moving the host's share: with 1 and 4 MiB a rank the flat ring, whose steps
            // across and within hosts overlap, took 0.56-0.99 of its time (2 namespace hosts x 2 ranks, two runs).
            case ALLGATHER -> bytes * p <= HIERARCHICAL_ALLGATHER_MAX_BYTES ? AlgorithmId.ALLGATHER_HIERARCHICAL
                : select(kind, p, bytes, count, commutative, network);
            case REDUCE -> AlgorithmId.REDUCE_HIERARCHICAL;
            case ALLREDUCE -> AlgorithmId.ALLREDUCE_HIERARCHICAL;
            default -> select(kind, p, bytes, count, commutative, network);
        };
    }

    /**
     * Chooses a flat algorithm by the default table, ignoring overrides: the phases of a hierarchical algorithm.
     *
     * @param kind        the operation
     * @param p           the (sub)group size
     * @param bytes       as for {@link #select(CollKind, int, long, long, boolean)}
     * @param count       elements of the same
     * @param commutative whether the reduction is commutative
     * @param network     whether the (sub)group's ranks reach each other over a network
     * @return the algorithm
     */
    public static AlgorithmId flat(final CollKind kind, final int p, final long bytes, final long count,
        final boolean commutative, final boolean network) {
        return DEFAULTS.select(kind, p, bytes, count, commutative, network);
    }

    /**
     * Chooses an algorithm for ranks that reach each other through direct memory.
     *
     * @param kind        the operation
     * @param p           the group size
     * @param bytes       bytes of the per-rank vector (reductions, bcast) or per-rank block (gather family)
     * @param count       elements of the same
     * @param commutative whether the reduction is commutative (true for non-reductions)
     * @return the algorithm
     */
    public AlgorithmId select(final CollKind kind, final int p, final long bytes, final long count,
        final boolean commutative) {
        return select(kind, p, bytes, count, commutative, false);
    }

    /**
     * Chooses an algorithm: the forced one if any; else, over a network, the network's choice where it differs
     * ({@link #overNetwork}); else the table below.
     *
     * @param kind        the operation
     * @param p           the group size
     * @param bytes       bytes of the per-rank vector (reductions, bcast) or per-rank block (gather family)
     * @param count       elements of the same
     * @param commutative whether the reduction is commutative (true for non-reductions)
     * @param network     whether some of the ranks reach each other over a network
     * @return the algorithm
     */
    public AlgorithmId select(final CollKind kind, final int p, final long bytes, final long count,
        final boolean commutative, final boolean network) {
        final AlgorithmId f = forced[kind.ordinal()];
        if (null != f) {
            return f;
        }
        final AlgorithmId n = network ? overNetwork(kind, p, bytes, count, commutative) : null;
        if (null != n) {
            return n;
        }
        final boolean pow2 = 0 == (p & (p - 1));
        return switch (kind) {
            // Open MPI's tuned decision: fan-in/fan-out through rank 0 for 4-8 ranks (2(p-1) messages on two
            // hops, against dissemination's p log p), faster than dissemination with 4 ranks on 2 cores.
            case BARRIER -> p >= 4 && p <= 8 ? AlgorithmId.BARRIER_LINEAR : AlgorithmId.BARRIER_DISSEMINATION;
            // Up to 4 ranks the root sends to each (Open MPI's libnbc does so for p <= 4): every rank then waits on
            // the root alone, not on a forwarder that may not have been scheduled yet. With 4 ranks on 2 cores it
            // is several times faster than binomial for small messages, and no slower up to 128 KiB.
            case BCAST -> p <= 4 && bytes <= 128 * 1024 ? AlgorithmId.BCAST_LINEAR
                : p < 8 || bytes <= 12_288 || count < p ? AlgorithmId.BCAST_BINOMIAL
                : AlgorithmId.BCAST_SCATTER_ALLGATHER;
            case GATHER -> bytes * p <= 512 * 1024 ? AlgorithmId.GATHER_BINOMIAL : AlgorithmId.GATHER_LINEAR;
            case SCATTER -> bytes * p <= 512 * 1024 ? AlgorithmId.SCATTER_BINOMIAL : AlgorithmId.SCATTER_LINEAR;
            case GATHERV -> AlgorithmId.GATHERV_LINEAR;
            case SCATTERV -> AlgorithmId.SCATTERV_LINEAR;
            case ALLGATHER -> bytes * p < (pow2 ? 512 * 1024 : 80 * 1024)
                ? (pow2 ? AlgorithmId.ALLGATHER_RECURSIVE_DOUBLING : AlgorithmId.ALLGATHER_BRUCK)
                : AlgorithmId.ALLGATHER_RING;
            case ALLGATHERV -> AlgorithmId.ALLGATHERV_RING;
            // Every message posted at once on up to 4 ranks: the transport moves them all while the ranks wait,
            // where the pairwise exchange's p - 1 rounds each wait for the slowest pair. With 4 ranks linear took
            // 0.76 of pairwise's time (geomean, 32 KiB-4 MiB a pair) over shared memory and 0.85 over tcp.
            case ALLTOALL -> bytes <= 256 && p >= 8 ? AlgorithmId.ALLTOALL_BRUCK
                : p <= 4 || bytes <= 32 * 1024 ? AlgorithmId.ALLTOALL_LINEAR : AlgorithmId.ALLTOALL_PAIRWISE;
            case ALLTOALLV -> AlgorithmId.ALLTOALLV_LINEAR;
            case ALLTOALLW -> AlgorithmId.ALLTOALLW_LINEAR;
            // Rabenseifner's 2 lg p rounds pay off only once bytes dominate: with 4 ranks on 2 cores binomial was
            // faster up to 8 KiB over shared memory (over a network, see overNetwork).
            case REDUCE -> !commutative || p < 4 || bytes <= 8192 || count < Integer.highestOneBit(p)
                ? AlgorithmId.REDUCE_BINOMIAL : AlgorithmId.REDUCE_RABENSEIFNER;
            // Short vectors on 3-8 ranks: every rank sends its vector to every other at once, one round instead
            // of lg p (plus a fold for non-powers of two). With 4 ranks on 2 cores, 8 B-1 KiB, it is faster in
            // the persistent form, and per call within the noise.
            case ALLREDUCE -> p >= 3 && p <= 8 && bytes <= 1024 ? AlgorithmId.ALLREDUCE_ALLGATHER_REDUCE
                : !commutative || bytes <= 8192 || count < Integer.highestOneBit(p)
                ? AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING : AlgorithmId.ALLREDUCE_RABENSEIFNER;
            case REDUCE_SCATTER_BLOCK -> !commutative ? AlgorithmId.REDUCE_SCATTER_BLOCK_LINEAR
                : bytes * p < 512 * 1024 ? AlgorithmId.REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING
                : AlgorithmId.REDUCE_SCATTER_BLOCK_PAIRWISE;
            case REDUCE_SCATTER -> commutative ? AlgorithmId.REDUCE_SCATTER_PAIRWISE
                : AlgorithmId.REDUCE_SCATTER_LINEAR;
            case SCAN -> AlgorithmId.SCAN_RECURSIVE_DOUBLING;
            case EXSCAN -> AlgorithmId.EXSCAN_RECURSIVE_DOUBLING;
        };
    }

    /**
     * The choices that differ when messages cross a network (tcp), where each round costs a system call and a
     * network's latency on each side, so fewer rounds pay off up to larger sizes than through shared memory; null
     * where the shared-memory table holds. Measured with 4 ranks over tcp on one host (bench/RESULTS.md, tcp), so it
     * holds for up to 4 ranks.
     */
    private static AlgorithmId overNetwork(final CollKind kind, final int p, final long bytes, final long count,
        final boolean commutative) {
        if (p > 4) {
            return null;
        }
        return switch (kind) {
            // Binomial took 0.4-0.8 of Rabenseifner's time from 16 KiB to 4 MiB but at one or two sizes per run.
            case REDUCE -> AlgorithmId.REDUCE_BINOMIAL;
            // Recursive doubling's lg p rounds against Rabenseifner's 2 lg p: 0.55-0.67 of its time at 16-64 KiB.
            case ALLREDUCE -> bytes > 8192 && bytes <= 64 * 1024 ? AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING : null;
            default -> null;
        };
    }
}
