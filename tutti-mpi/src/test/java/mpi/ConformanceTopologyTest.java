package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Neighbourhood collectives (MPI 7.6) at their corners: PROC_NULL neighbours at the edges of a non-periodic grid
 * (their blocks neither sent nor received), zero counts with displacements that point nowhere, count 0, and a
 * distributed graph with an isolated process (no neighbours at all).
 */
@Timeout(60)
class ConformanceTopologyTest {

    @Test
    void shouldSkipProcNullNeighboursAtTheEdges() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final CartComm line = MPI.COMM_WORLD.createCart(new int[] {3}, new boolean[] {false}, false);
            final int rank = line.getRank();
            final ShiftParms sp = line.shift(0, 1);
            assertEquals(0 == rank ? MPI.PROC_NULL : rank - 1, sp.getRankSource());
            assertEquals(2 == rank ? MPI.PROC_NULL : rank + 1, sp.getRankDest());
            // block 0 goes to the -1 neighbour, block 1 to the +1 neighbour; slot 0 comes from -1, slot 1 from +1
            final int[] recv = {-1, -1};
            line.neighborAllToAll(new int[] {10 * rank, 10 * rank + 1}, 1, MPI.INT, recv, 1, MPI.INT);
            assertArrayEquals(new int[] {0 == rank ? -1 : 10 * (rank - 1) + 1, 2 == rank ? -1 : 10 * (rank + 1)},
                recv);
            // v form: nothing to the +1 neighbour, a displacement past the buffer for it
            final int[] rv = {-1, -1, -1};
            line.neighborAllToAllv(new int[] {rank}, new int[] {1, 0}, new int[] {0, 50}, MPI.INT, rv,
                new int[] {0, 1}, new int[] {70, 2}, MPI.INT);
            assertArrayEquals(new int[] {-1, -1, 2 == rank ? -1 : rank + 1}, rv);
            // count 0 moves nothing
            final int[] untouched = {-3, -3};
            line.neighborAllGather(new int[] {rank}, 0, MPI.INT, untouched, 0, MPI.INT);
            line.neighborAllToAll(new int[2], 0, MPI.INT, untouched, 0, MPI.INT);
            assertArrayEquals(new int[] {-3, -3}, untouched);
            // nonblocking v form with direct buffers
            final IntBuffer send = MPI.newIntBuffer(2).put(0, 5 * rank).put(1, 5 * rank + 1);
            final IntBuffer got = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
            line.iNeighborAllToAllv(send, new int[] {1, 1}, new int[] {0, 1}, MPI.INT, got, new int[] {1, 1},
                new int[] {1, 0}, MPI.INT).waitFor();
            assertEquals(0 == rank ? -1 : 5 * (rank - 1) + 1, got.get(1));
            assertEquals(2 == rank ? -1 : 5 * (rank + 1), got.get(0));
            final IntBuffer gv = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
            line.iNeighborAllGatherv(MPI.newIntBuffer(1).put(0, rank), 1, MPI.INT, gv, new int[] {1, 1},
                new int[] {1, 0}, MPI.INT).waitFor();
            assertEquals(0 == rank ? -1 : rank - 1, gv.get(1));
            line.free();
            MPI.Finalize();
        });
    }

    @Test
    void shouldRunNeighbourCollectivesOnAnIsolatedProcess() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            // 0 <-> 1; 2 has no neighbours
            final int[] peers = 2 == rank ? new int[0] : new int[] {1 - rank};
            final GraphComm g = MPI.COMM_WORLD.createDistGraphAdjacent(peers, peers, MPI.INFO_NULL, false);
            final DistGraphNeighbors nb = g.getDistGraphNeighbors();
            assertEquals(peers.length, nb.getInDegree());
            assertEquals(peers.length, nb.getOutDegree());
            final int[] got = new int[peers.length];
            g.neighborAllGather(new int[] {rank + 40}, 1, MPI.INT, got, 1, MPI.INT);
            if (2 != rank) {
                assertEquals(1 - rank + 40, got[0]);
            }
            final int[] a2a = new int[peers.length];
            g.neighborAllToAll(new int[] {rank, rank}, 1, MPI.INT, a2a, 1, MPI.INT);
            assertTrue(2 == rank || 1 - rank == a2a[0]);
            g.free();
            MPI.Finalize();
        });
    }
}
