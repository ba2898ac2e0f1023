package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cartesian and graph topologies and the neighbour collectives, against MPI's semantics, on embedded ranks. */
@Timeout(60)
class TopologyTest {

    @Test
    void shouldChooseBalancedDims() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            assertArrayEquals(new int[] {3, 2}, dims(6, new int[2]));
            assertArrayEquals(new int[] {3, 2, 2}, dims(12, new int[3]));
            assertArrayEquals(new int[] {4, 4}, dims(16, new int[2]));
            assertArrayEquals(new int[] {7, 1}, dims(7, new int[2]));
            assertArrayEquals(new int[] {2, 3, 4}, dims(24, new int[] {2, 0, 4}));
            assertArrayEquals(new int[] {1}, dims(1, new int[1]));
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class, () -> CartComm.createDims(7,
                new int[] {2, 0})).getErrorClass());
            MPI.Finalize();
        });
    }

    private static int[] dims(final int n, final int[] d) throws MPIException {
        CartComm.createDims(n, d);
        return d;
    }

    /** A 2 x 3 non-periodic grid on 7 processes: rank 6 is outside; coordinates, ranks, shifts, sub-grids. */
    @Test
    void shouldBuildACartesianGrid() {
        MpiJobs.run(7, args -> {
            MPI.Init(args);
            final int world = MPI.COMM_WORLD.getRank();
            final CartComm cart = MPI.COMM_WORLD.createCart(new int[] {2, 3}, new boolean[] {false, true}, true);
            if (6 == world) {
                assertTrue(cart.isNull());
                MPI.Finalize();
                return;
            }
            assertEquals(MPI.CART, cart.getTopology());
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
            final int rank = cart.getRank();
            assertEquals(world, rank);
            final CartParms p = cart.getTopo();
            assertEquals(2, p.getDimCount());
            assertEquals(2, p.getDim(0));
            assertEquals(3, p.getDim(1));
            assertFalse(p.getPeriod(0));
            assertTrue(p.getPeriod(1));
            final int row = rank / 3;
            final int col = rank % 3;
            assertEquals(row, p.getCoord(0));
            assertEquals(col, p.getCoord(1));
            assertArrayEquals(new int[] {row, col}, cart.getCoords(rank));
            assertEquals(rank, cart.getRank(new int[] {row, col}));
            assertEquals(row * 3 + (col + 1) % 3, cart.getRank(new int[] {row, col + 4})); // periodic: modulo
            final ShiftParms down = cart.shift(0, 1);
            assertEquals(0 == row ? MPI.PROC_NULL : rank - 3, down.getRankSource());
            assertEquals(1 == row ? MPI.PROC_NULL : rank + 3, down.getRankDest());
            final ShiftParms right = cart.shift(1, -1);
            assertEquals(row * 3 + (col + 1) % 3, right.getRankSource());
            assertEquals(row * 3 + (col + 2) % 3, right.getRankDest());
            assertEquals(rank, cart.map(new int[] {2, 3}, new boolean[] {false, false}));
            assertEquals(rank < 4 ? rank : MPI.UNDEFINED, cart.map(new int[] {4}, new boolean[] {false}));
            // rows: the processes with one row coordinate; columns likewise
            final CartComm rowComm = cart.sub(new boolean[] {false, true});
            assertEquals(3, rowComm.getSize());
            assertEquals(col, rowComm.getRank());
            assertEquals(1, rowComm.getTopo().getDimCount());
            assertTrue(rowComm.getTopo().getPeriod(0));
            final int[] sum = {rank};
            rowComm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(3 * row * 3 + 3, sum[0]);
            final CartComm colComm = cart.sub(new boolean[] {true, false});
            assertEquals(2, colComm.getSize());
            assertEquals(row, colComm.getRank());
            final CartComm copy = cart.dup();
            assertEquals(MPI.CART, copy.getTopology());
            assertEquals(down.getRankDest(), copy.shift(0, 1).getRankDest());
            cart.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> cart.getRank(new int[] {2, 0}))
                .getErrorClass());
            assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> cart.getCoords(6)).getErrorClass());
            copy.free();
            rowComm.free();
            colComm.free();
            cart.free();
            assertTrue(cart.isNull());
            MPI.Finalize();
        });
    }

    /** Neighbour allgather on a non-periodic line: the edge slots stay as they were. */
    @Test
    void shouldGatherFromCartesianNeighbours() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final CartComm line = MPI.COMM_WORLD.createCart(new int[] {4}, new boolean[] {false}, false);
            final int rank = line.getRank();
            final int[] got = {-1, -1};
            line.neighborAllGather(new int[] {100 + rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertArrayEquals(new int[] {0 == rank ? -1 : 99 + rank, 3 == rank ? -1 : 101 + rank}, got);
            final IntBuffer send = MPI.newIntBuffer(1).put(0, 200 + rank);
            final IntBuffer recv = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
            line.iNeighborAllGather(send, 1, MPI.INT, recv, 1, MPI.INT).waitFor();
            assertEquals(0 == rank ? -1 : 199 + rank, recv.get(0));
            assertEquals(3 == rank ? -1 : 201 + rank, recv.get(1));
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_TOPOLOGY, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.neighborAllGather(
                new int[1], 1, MPI.INT, new int[2], 1, MPI.INT)).getErrorClass());
            line.free();
            MPI.Finalize();
        });
    }

    /**
     * Neighbour alltoall on a periodic dimension of 2: both neighbours are one process, and the block sent towards
     * +1 must land in the receiver's -1 slot. On a 2 x 2 torus each process has 4 neighbour slots.
     */
    @Test
    void shouldExchangeWithCartesianNeighboursOnASmallTorus() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final CartComm torus = MPI.COMM_WORLD.createCart(new int[] {2, 2}, new boolean[] {true, true}, false);
            final int rank = torus.getRank();
            final int[] send = new int[8];
            for (int j = 0; j < 4; j++) {
                send[2 * j] = 10 * rank + j; // block j: to slot j
                send[2 * j + 1] = -rank;
            }
            final int[] recv = new int[8];
            torus.neighborAllToAll(send, 2, MPI.INT, recv, 2, MPI.INT);
            for (int d = 0; d < 2; d++) {
                final ShiftParms s = torus.shift(d, 1);
                // slot 2d comes from the -1 neighbour, which sent it as its block 2d+1, and vice versa
                assertEquals(10 * s.getRankSource() + 2 * d + 1, recv[2 * (2 * d)]);
                assertEquals(10 * s.getRankDest() + 2 * d, recv[2 * (2 * d + 1)]);
                assertEquals(-s.getRankSource(), recv[2 * (2 * d) + 1]);
            }
            // v form: counts 1, displacements reversed
            final int[] out = new int[4];
            torus.neighborAllToAllv(new int[] {rank, rank, rank, rank}, new int[] {1, 1, 1, 1},
                new int[] {0, 1, 2, 3}, MPI.INT, out, new int[] {1, 1, 1, 1}, new int[] {3, 2, 1, 0}, MPI.INT);
            assertEquals(torus.shift(0, 1).getRankSource(), out[3]);
            assertEquals(torus.shift(1, 1).getRankDest(), out[0]);
            torus.free();
            MPI.Finalize();
        });
    }

    /** Duplicates keep the topology (iDup once its request completes, clone); derived datatypes as blocks. */
    @Test
    void shouldKeepTheTopologyInDuplicatesAndMoveDerivedBlocks() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final CartComm ring = MPI.COMM_WORLD.createCart(new int[] {3}, new boolean[] {true}, false);
            final int rank = ring.getRank();
            final CartComm later = ring.iDup();
            later.getRequest().waitFor();
            final CartComm copy = ring.clone();
            // one item of a vector type: elements 0 and 2 of each 4-int block; gaps must stay untouched
            final Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.INT);
            everyOther.commit();
            final Datatype item = Datatype.createResized(everyOther, 0, 4 * 4);
            item.commit();
            final int[] send = {rank, -9, 10 + rank, -9, rank, -9, 10 + rank, -9};
            final int[] recv = {-1, -1, -1, -1, -1, -1, -1, -1};
            later.neighborAllToAll(send, 1, item, recv, 1, item);
            final int prev = (rank + 2) % 3;
            final int next = (rank + 1) % 3;
            assertArrayEquals(new int[] {prev, -1, 10 + prev, -1, next, -1, 10 + next, -1}, recv);
            final int[] got = new int[2];
            copy.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertArrayEquals(new int[] {prev, next}, got);
            assertEquals(MPI.CART, later.getTopology());
            item.free();
            everyOther.free();
            later.free();
            copy.free();
            ring.free();
            MPI.Finalize();
        });
    }

    /**
     * A 2-D heat stencil in the classic style: a 12 x 12 grid in 2 x 2 blocks, halos exchanged with sendRecv along
     * cart.shift, fixed (zero) borders; the gathered result equals the same iterations done serially.
     */
    @Test
    void shouldRunA2dStencilOnACartesianCommunicator() {
        final int n = 12;
        final int steps = 20;
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int[] dims = new int[2];
            CartComm.createDims(MPI.COMM_WORLD.getSize(), dims);
            final CartComm cart = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, true);
            final int[] coords = cart.getCoords(cart.getRank());
            final int rows = n / dims[0];
            final int cols = n / dims[1];
            final int w = cols + 2;
            double[] u = new double[(rows + 2) * w];
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    u[i * w + j] = initial(coords[0] * rows + i - 1, coords[1] * cols + j - 1);
                }
            }
            final Datatype column = Datatype.createVector(rows, 1, w, MPI.DOUBLE);
            column.commit();
            final ShiftParms ud = cart.shift(0, 1);
            final ShiftParms lr = cart.shift(1, 1);
            for (int s = 0; s < steps; s++) {
                // rows: send my last row down, receive my top halo from above; and the reverse
                cart.sendRecv(MPI.slice(u, rows * w + 1), cols, MPI.DOUBLE, ud.getRankDest(), 0,
                    MPI.slice(u, 1), cols, MPI.DOUBLE, ud.getRankSource(), 0);
                cart.sendRecv(MPI.slice(u, w + 1), cols, MPI.DOUBLE, ud.getRankSource(), 1,
                    MPI.slice(u, (rows + 1) * w + 1), cols, MPI.DOUBLE, ud.getRankDest(), 1);
                // columns, as a vector datatype
                cart.sendRecv(MPI.slice(u, w + cols), 1, column, lr.getRankDest(), 2,
                    MPI.slice(u, w), 1, column, lr.getRankSource(), 2);
                cart.sendRecv(MPI.slice(u, w + 1), 1, column, lr.getRankSource(), 3,
                    MPI.slice(u, w + cols + 1), 1, column, lr.getRankDest(), 3);
                final double[] next = u.clone();
                for (int i = 1; i <= rows; i++) {
                    for (int j = 1; j <= cols; j++) {
                        next[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1]
                            + u[i * w + j + 1]);
                    }
                }
                u = next;
            }
            final double[] mine = new double[rows * cols];
            for (int i = 0; i < rows; i++) {
                System.arraycopy(u, (i + 1) * w + 1, mine, i * cols, cols);
            }
            final double[] all = new double[n * n];
            cart.gather(mine, rows * cols, MPI.DOUBLE, all, rows * cols, MPI.DOUBLE, 0);
            if (0 == cart.getRank()) {
                final double[] serial = serial(n, steps);
                for (int r = 0; r < cart.getSize(); r++) {
                    final int[] c = cart.getCoords(r);
                    for (int i = 0; i < rows; i++) {
                        for (int j = 0; j < cols; j++) {
                            assertEquals(serial[(c[0] * rows + i) * n + c[1] * cols + j],
                                all[r * rows * cols + i * cols + j], 1e-12, "rank " + r + " cell " + i + "," + j);
                        }
                    }
                }
            }
            column.free();
            cart.free();
            MPI.Finalize();
        });
    }

    private static double initial(final int i, final int j) {
        return (i * 31 + j * 17) % 13;
    }

    private static double[] serial(final int n, final int steps) {
        double[] u = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                u[i * n + j] = initial(i, j);
            }
        }
        for (int s = 0; s < steps; s++) {
            final double[] next = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    next[i * n + j] = 0.25 * (at(u, n, i - 1, j) + at(u, n, i + 1, j) + at(u, n, i, j - 1)
                        + at(u, n, i, j + 1));
                }
            }
            u = next;
        }
        return u;
    }

    private static double at(final double[] u, final int n, final int i, final int j) {
        return i < 0 || j < 0 || i >= n || j >= n ? 0 : u[i * n + j];
    }

    /** A graph: a star with a double edge; neighbours in edge order, neighbour collectives along the edges. */
    @Test
    void shouldExchangeAlongGraphEdges() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            // node 0: 1, 2, 3, 3 ; node 1: 0 ; node 2: 0 ; node 3: 0, 0 ; rank 4 is not a node
            final int[] index = {4, 5, 6, 8};
            final int[] edges = {1, 2, 3, 3, 0, 0, 0, 0};
            final GraphComm g = MPI.COMM_WORLD.createGraph(index, edges, false);
            if (4 == MPI.COMM_WORLD.getRank()) {
                assertTrue(g.isNull());
                MPI.Finalize();
                return;
            }
            final int rank = g.getRank();
            assertEquals(MPI.GRAPH, g.getTopology());
            final GraphParms p = g.getDims();
            assertEquals(4, p.getIndexCount());
            assertEquals(8, p.getEdgeCount());
            assertEquals(6, p.getIndex(2));
            assertArrayEquals(new int[] {1, 2, 3, 3}, g.getNeighbors(0));
            assertArrayEquals(new int[] {0, 0}, g.getNeighbors(3));
            final int[] mine = g.getNeighbors(rank);
            final int[] got = new int[mine.length];
            g.neighborAllGather(new int[] {rank * 7}, 1, MPI.INT, got, 1, MPI.INT);
            for (int j = 0; j < mine.length; j++) {
                assertEquals(mine[j] * 7, got[j]);
            }
            // alltoall: block j names (sender, j); the k-th edge between two nodes meets the k-th
            final int[] send = new int[mine.length];
            for (int j = 0; j < mine.length; j++) {
                send[j] = 100 * rank + j;
            }
            final int[] recv = new int[mine.length];
            g.neighborAllToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            if (0 == rank) {
                assertArrayEquals(new int[] {100, 200, 300, 301}, recv);
            } else if (3 == rank) {
                assertArrayEquals(new int[] {2, 3}, recv);
            } else {
                assertArrayEquals(new int[] {rank - 1}, recv);
            }
            g.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_TOPOLOGY, assertThrows(MPIException.class, g::getDistGraphNeighbors)
                .getErrorClass());
            g.free();
            MPI.Finalize();
        });
    }

    /** Distributed graphs: a directed ring named by its sources, and the same ring given adjacently, weighted. */
    @Test
    void shouldBuildDistributedGraphs() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int next = (rank + 1) % 4;
            final int prev = (rank + 3) % 4;
            final GraphComm ring = MPI.COMM_WORLD.createDistGraph(new int[] {rank}, new int[] {1},
                new int[] {next}, new int[] {rank + 10}, MPI.INFO_NULL, false);
            assertEquals(MPI.DIST_GRAPH, ring.getTopology());
            final DistGraphNeighbors nb = ring.getDistGraphNeighbors();
            assertTrue(nb.isWeighted());
            assertEquals(1, nb.getInDegree());
            assertEquals(1, nb.getOutDegree());
            assertEquals(prev, nb.getSource(0));
            assertEquals(prev + 10, nb.getSourceWeight(0));
            assertEquals(next, nb.getDestination(0));
            assertEquals(rank + 10, nb.getDestinationWeight(0));
            final int[] got = {-1};
            ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
            assertEquals(prev, got[0]);
            // adjacent: receive from both sides, send to both sides; v form with counts 1 and 2
            final GraphComm both = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {prev, next},
                new int[] {next, prev}, MPI.INFO_NULL, false);
            assertFalse(both.getDistGraphNeighbors().isWeighted());
            final int[] recv = new int[3];
            both.neighborAllGatherv(new int[] {rank}, 1, MPI.INT, recv, new int[] {1, 1}, new int[] {2, 0},
                MPI.INT);
            assertArrayEquals(new int[] {next, 0, prev}, recv);
            ring.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_TOPOLOGY, assertThrows(MPIException.class, ring::getDims).getErrorClass());
            ring.free();
            both.free();
            MPI.Finalize();
        });
    }
}
