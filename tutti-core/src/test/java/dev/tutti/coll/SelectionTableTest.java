package dev.tutti.coll;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The default choices that were measured against Open MPI (see the comments in {@link SelectionTable}). */
class SelectionTableTest {
    private final SelectionTable table = SelectionTable.fromConfiguration();

    private AlgorithmId bcast(final int p, final long bytes) {
        return table.select(CollKind.BCAST, p, bytes, bytes, true);
    }

    @Test
    void bcastUpToFourRanksSendsFromTheRootUpTo128KiB() {
        for (int p = 2; p <= 4; p++) {
            assertEquals(AlgorithmId.BCAST_LINEAR, bcast(p, 0));
            assertEquals(AlgorithmId.BCAST_LINEAR, bcast(p, 8));
            assertEquals(AlgorithmId.BCAST_LINEAR, bcast(p, 128 * 1024));
            assertEquals(AlgorithmId.BCAST_BINOMIAL, bcast(p, 128 * 1024 + 1));
        }
    }

    @Test
    void bcastFromFiveRanksIsATreeOrScatterAllgather() {
        assertEquals(AlgorithmId.BCAST_BINOMIAL, bcast(5, 8));
        assertEquals(AlgorithmId.BCAST_BINOMIAL, bcast(7, 1 << 20));
        assertEquals(AlgorithmId.BCAST_BINOMIAL, bcast(8, 12_288));
        assertEquals(AlgorithmId.BCAST_SCATTER_ALLGATHER, bcast(8, 12_289));
    }

    @Test
    void barrierFansInAndOutFromFourToEightRanks() {
        assertEquals(AlgorithmId.BARRIER_DISSEMINATION, table.select(CollKind.BARRIER, 3, 0, 0, true));
        assertEquals(AlgorithmId.BARRIER_LINEAR, table.select(CollKind.BARRIER, 4, 0, 0, true));
        assertEquals(AlgorithmId.BARRIER_LINEAR, table.select(CollKind.BARRIER, 8, 0, 0, true));
        assertEquals(AlgorithmId.BARRIER_DISSEMINATION, table.select(CollKind.BARRIER, 9, 0, 0, true));
    }

    @Test
    void allreduceOfShortVectorsOnThreeToEightRanksSendsToEveryRankAtOnce() {
        for (final boolean commutative : new boolean[] {true, false}) {
            assertEquals(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING, allreduce(2, 8, commutative));
            assertEquals(AlgorithmId.ALLREDUCE_ALLGATHER_REDUCE, allreduce(3, 8, commutative));
            assertEquals(AlgorithmId.ALLREDUCE_ALLGATHER_REDUCE, allreduce(8, 1024, commutative));
            assertEquals(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING, allreduce(8, 1032, commutative));
            assertEquals(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING, allreduce(9, 8, commutative));
        }
    }

    @Test
    void acrossHostsAllgatherIsHierarchicalUpToOneMiBGatheredAndTheOthersAlways() {
        final HostMap hosts = HostMap.ofHosts(new int[] {0, 0, 1, 1});
        assertEquals(AlgorithmId.ALLGATHER_HIERARCHICAL, table.select(CollKind.ALLGATHER, 4, 8, 8, true, hosts, false));
        assertEquals(AlgorithmId.ALLGATHER_HIERARCHICAL,
            table.select(CollKind.ALLGATHER, 4, 256 * 1024, 256 * 1024, true, hosts, false));
        assertEquals(AlgorithmId.ALLGATHER_RING,
            table.select(CollKind.ALLGATHER, 4, 256 * 1024 + 8, 256 * 1024 + 8, true, hosts, false));
        assertEquals(AlgorithmId.ALLGATHER_RECURSIVE_DOUBLING,
            table.select(CollKind.ALLGATHER, 4, 8, 8, true, null, false));
        for (final long bytes : new long[] {8, 1 << 20, 4 << 20}) {
            assertEquals(AlgorithmId.BCAST_HIERARCHICAL,
                table.select(CollKind.BCAST, 4, bytes, bytes, true, hosts, false));
            assertEquals(AlgorithmId.ALLREDUCE_HIERARCHICAL,
                table.select(CollKind.ALLREDUCE, 4, bytes, bytes / 8, true, hosts, false));
            assertEquals(AlgorithmId.REDUCE_HIERARCHICAL,
                table.select(CollKind.REDUCE, 4, bytes, bytes / 8, true, hosts, false));
        }
        assertEquals(AlgorithmId.BARRIER_HIERARCHICAL, table.select(CollKind.BARRIER, 4, 0, 0, true, hosts, false));
    }

    @Test
    void reduceTurnsToRabenseifnerAbove8KiBOnFourRanksOrMore() {
        assertEquals(AlgorithmId.REDUCE_BINOMIAL, table.select(CollKind.REDUCE, 4, 8192, 1024, true));
        assertEquals(AlgorithmId.REDUCE_RABENSEIFNER, table.select(CollKind.REDUCE, 4, 8200, 1025, true));
        assertEquals(AlgorithmId.REDUCE_BINOMIAL, table.select(CollKind.REDUCE, 3, 1 << 20, 1 << 17, true));
        assertEquals(AlgorithmId.REDUCE_BINOMIAL, table.select(CollKind.REDUCE, 8, 1 << 20, 1 << 17, false));
    }

    @Test
    void overANetworkReduceStaysBinomialOnUpToFourRanks() {
        for (final long bytes : new long[] {8, 16 * 1024, 1 << 20, 4 << 20}) {
            assertEquals(AlgorithmId.REDUCE_BINOMIAL, table.select(CollKind.REDUCE, 4, bytes, bytes / 8, true, true));
        }
        assertEquals(AlgorithmId.REDUCE_RABENSEIFNER, table.select(CollKind.REDUCE, 4, 1 << 20, 1 << 17, true, false));
        assertEquals(AlgorithmId.REDUCE_RABENSEIFNER, table.select(CollKind.REDUCE, 8, 1 << 20, 1 << 17, true, true));
        assertEquals(AlgorithmId.REDUCE_RABENSEIFNER, SelectionTable.flat(CollKind.REDUCE, 8, 1 << 20, 1 << 17, true,
            true));
        assertEquals(AlgorithmId.REDUCE_BINOMIAL, SelectionTable.flat(CollKind.REDUCE, 4, 1 << 20, 1 << 17, true,
            true));
    }

    @Test
    void alltoallPostsEveryMessageOnUpToFourRanks() {
        for (final boolean network : new boolean[] {false, true}) {
            for (final long bytes : new long[] {8, 64 * 1024, 4 << 20}) {
                assertEquals(AlgorithmId.ALLTOALL_LINEAR, table.select(CollKind.ALLTOALL, 4, bytes, bytes, true,
                    network));
            }
            assertEquals(AlgorithmId.ALLTOALL_LINEAR, table.select(CollKind.ALLTOALL, 5, 32 * 1024, 32 * 1024, true,
                network));
            assertEquals(AlgorithmId.ALLTOALL_PAIRWISE, table.select(CollKind.ALLTOALL, 5, 32 * 1024 + 8,
                32 * 1024 + 8, true, network));
        }
    }

    @Test
    void overANetworkAllreduceDoublesUpTo64KiB() {
        assertEquals(AlgorithmId.ALLREDUCE_ALLGATHER_REDUCE, table.select(CollKind.ALLREDUCE, 4, 8, 1, true, true));
        assertEquals(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING,
            table.select(CollKind.ALLREDUCE, 4, 64 * 1024, 8 * 1024, true, true));
        assertEquals(AlgorithmId.ALLREDUCE_RABENSEIFNER,
            table.select(CollKind.ALLREDUCE, 4, 64 * 1024, 8 * 1024, true, false));
        assertEquals(AlgorithmId.ALLREDUCE_RABENSEIFNER,
            table.select(CollKind.ALLREDUCE, 4, 64 * 1024 + 8, 8 * 1024 + 1, true, true));
        assertEquals(AlgorithmId.ALLGATHER_RECURSIVE_DOUBLING,
            table.select(CollKind.ALLGATHER, 4, 8, 8, true, true), "as through shared memory");
    }

    private AlgorithmId allreduce(final int p, final long bytes, final boolean commutative) {
        return table.select(CollKind.ALLREDUCE, p, bytes, bytes / 8, commutative);
    }
}
