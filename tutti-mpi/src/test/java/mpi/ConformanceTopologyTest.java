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

    /** An asymmetric graph with self loops and a repeated edge keeps its arrays; a graph of no nodes is null. */
    @Test
    void shouldKeepAnAsymmetricGraphAsGiven() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final int world = MPI.COMM_WORLD.getRank();
            final int[] index = {3, 6, 7, 9};
            final int[] edges = {1, 2, 2, 1, 2, 3, 2, 1, 2};
            final GraphComm g = MPI.COMM_WORLD.createGraph(index, edges, false);
            assertEquals(4 == world, g.isNull());
            if (!g.isNull()) {
                final int me = g.getRank();
                final GraphParms p = g.getDims();
                assertEquals(4, p.getIndexCount());
                assertEquals(9, p.getEdgeCount());
                for (int i = 0; i < 9; i++) {
                    assertEquals(edges[i], p.getEdge(i));
                }
                final int start = 0 == me ? 0 : index[me - 1];
                assertArrayEquals(java.util.Arrays.copyOfRange(edges, start, index[me]), g.getNeighbors(me));
                g.barrier();
                g.free();
            }
            assertTrue(MPI.COMM_WORLD.createGraph(new int[0], new int[0], false).isNull());
            MPI.Finalize();
        });
    }

    /** An edge matrix: weight of edge i -> j, 0 for none; self edges included. */
    private static int[][] layout(final int n) {
        final int[][] w = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                w[i][j] = (i + j) % 3 == 1 ? 0 : 10 * i + j + 1;
            }
        }
        return w;
    }

    /**
     * The four ways to give a distributed graph (adjacent; outgoing edges; incoming edges; rank 0 gives all), with
     * arrays longer than the degrees say, self edges, and no graph at all: each gives the same neighbours and
     * weights, also in a duplicate.
     */
    @Test
    void shouldBuildTheSameDistributedGraphEveryWay() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final int[][] w = layout(n);
            final int[] src = new int[n * n];
            final int[] srcW = new int[n * n];
            final int[] dst = new int[n * n];
            final int[] dstW = new int[n * n];
            final int[] degrees = new int[n * n];
            int in = 0;
            int out = 0;
            for (int j = 0; j < n; j++) {
                if (0 != w[j][rank]) {
                    src[in] = j;
                    srcW[in++] = w[j][rank];
                }
                if (0 != w[rank][j]) {
                    dst[out] = j;
                    dstW[out++] = w[rank][j];
                }
            }
            final GraphComm adjacent = MPI.COMM_WORLD.createDistGraphAdjacent(java.util.Arrays.copyOf(src, in),
                srcW, java.util.Arrays.copyOf(dst, out), dstW, MPI.INFO_NULL, false);
            check(adjacent, w, rank);
            // outgoing: this rank and its destinations
            degrees[0] = out;
            final GraphComm outgoing = MPI.COMM_WORLD.createDistGraph(new int[] {rank}, degrees, dst, dstW,
                MPI.INFO_NULL, true);
            check(outgoing, w, rank);
            // incoming: one edge per source, to this rank
            final int[] self = new int[n * n];
            for (int k = 0; k < in; k++) {
                degrees[k] = 1;
                self[k] = rank;
            }
            final GraphComm incoming = MPI.COMM_WORLD.createDistGraph(java.util.Arrays.copyOf(src, in), degrees,
                self, srcW, MPI.INFO_NULL, false);
            check(incoming, w, rank);
            // rank 0 gives every edge
            int e = 0;
            final int[] allSrc = new int[n * n];
            final int[] allDst = new int[n * n];
            final int[] allW = new int[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (0 != w[i][j]) {
                        allSrc[e] = i;
                        allDst[e] = j;
                        allW[e] = w[i][j];
                        degrees[e++] = 1;
                    }
                }
            }
            final GraphComm fromZero = MPI.COMM_WORLD.createDistGraph(java.util.Arrays.copyOf(allSrc,
                0 == rank ? e : 0), degrees, allDst, allW, MPI.INFO_NULL, false);
            check(fromZero, w, rank);
            check(fromZero.clone(), w, rank);
            // no graph
            final GraphComm none = MPI.COMM_WORLD.createDistGraph(new int[0], degrees, allDst, allW, MPI.INFO_NULL,
                false);
            assertEquals(0, none.getDistGraphNeighbors().getInDegree());
            assertEquals(0, none.getDistGraphNeighbors().getOutDegree());
            none.free();
            MPI.Finalize();
        });
    }

    /** The neighbours and weights a rank must see, in any order. */
    private static void check(final GraphComm g, final int[][] w, final int rank) throws MPIException {
        assertEquals(MPI.DIST_GRAPH, g.getTopology());
        final DistGraphNeighbors nb = g.getDistGraphNeighbors();
        assertTrue(nb.isWeighted());
        final java.util.Map<Integer, Integer> in = new java.util.HashMap<>();
        final java.util.Map<Integer, Integer> out = new java.util.HashMap<>();
        for (int i = 0; i < w.length; i++) {
            if (0 != w[i][rank]) {
                in.put(i, w[i][rank]);
            }
            if (0 != w[rank][i]) {
                out.put(i, w[rank][i]);
            }
        }
        assertEquals(in.size(), nb.getInDegree());
        assertEquals(out.size(), nb.getOutDegree());
        for (int k = 0; k < nb.getInDegree(); k++) {
            assertEquals(in.get(nb.getSource(k)), nb.getSourceWeight(k));
        }
        for (int k = 0; k < nb.getOutDegree(); k++) {
            assertEquals(out.get(nb.getDestination(k)), nb.getDestinationWeight(k));
        }
        g.barrier();
    }
}
