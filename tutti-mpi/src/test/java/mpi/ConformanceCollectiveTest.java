package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Intracommunicator collectives as the MPI standard (chapter 5) defines them, on 4 ranks with root 2: count 0 in
 * every collective (blocking and nonblocking; buffers untouched, null buffers allowed), vector forms with zero
 * counts and displacements out of order with gaps, and the in-place overload of every collective that has one.
 */
@Timeout(60)
class ConformanceCollectiveTest {
    private static final int ROOT = 2;
    private static final int N = 4;

    @Test
    void shouldMoveNothingWithCountZeroInEveryCollective() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int[] s = {-1, -1, -1, -1};
            final int[] r = {-2, -2, -2, -2};
            final int[] zeros = new int[N];
            final int[] displs = {3, 2, 1, 0};
            w.barrier();
            w.bcast(r, 0, MPI.INT, ROOT);
            w.gather(s, 0, MPI.INT, r, 0, MPI.INT, ROOT);
            w.gatherv(s, 0, MPI.INT, r, zeros, displs, MPI.INT, ROOT);
            w.scatter(s, 0, MPI.INT, r, 0, MPI.INT, ROOT);
            w.scatterv(s, zeros, displs, MPI.INT, r, 0, MPI.INT, ROOT);
            w.allGather(s, 0, MPI.INT, r, 0, MPI.INT);
            w.allGatherv(s, 0, MPI.INT, r, zeros, displs, MPI.INT);
            w.allToAll(s, 0, MPI.INT, r, 0, MPI.INT);
            w.allToAllv(s, zeros, displs, MPI.INT, r, zeros, displs, MPI.INT);
            w.reduce(s, r, 0, MPI.INT, MPI.SUM, ROOT);
            w.allReduce(s, r, 0, MPI.INT, MPI.SUM);
            w.reduceScatter(s, r, zeros, MPI.INT, MPI.SUM);
            w.reduceScatterBlock(s, r, 0, MPI.INT, MPI.SUM);
            w.scan(s, r, 0, MPI.INT, MPI.SUM);
            w.exScan(s, r, 0, MPI.INT, MPI.SUM);
            // the in-place forms with count 0
            w.allReduce(r, 0, MPI.INT, MPI.MAX);
            w.reduce(r, 0, MPI.INT, MPI.MAX, ROOT);
            w.allGather(r, 0, MPI.INT);
            w.gather(r, 0, MPI.INT, ROOT);
            w.scatter(r, 0, MPI.INT, ROOT);
            w.scan(r, 0, MPI.INT, MPI.SUM);
            w.exScan(r, 0, MPI.INT, MPI.SUM);
            w.reduceScatterBlock(r, 0, MPI.INT, MPI.SUM);
            w.reduceScatter(r, zeros, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {-2, -2, -2, -2}, r);
            assertArrayEquals(new int[] {-1, -1, -1, -1}, s);
            // null buffers where nothing moves
            w.bcast(null, 0, MPI.INT, ROOT);
            w.allReduce(null, null, 0, MPI.INT, MPI.SUM);
            w.gather(null, 0, MPI.INT, null, 0, MPI.INT, ROOT);
            w.allToAll(null, 0, MPI.INT, null, 0, MPI.INT);
            // nonblocking, with direct buffers
            final IntBuffer ds = MPI.newIntBuffer(N);
            final IntBuffer dr = MPI.newIntBuffer(N);
            for (int i = 0; i < N; i++) {
                ds.put(i, -1);
                dr.put(i, -2);
            }
            final Request[] rs = {
                w.iBcast(dr, 0, MPI.INT, ROOT),
                w.iGather(ds, 0, MPI.INT, dr, 0, MPI.INT, ROOT),
                w.iGatherv(ds, 0, MPI.INT, dr, zeros, displs, MPI.INT, ROOT),
                w.iScatter(ds, 0, MPI.INT, dr, 0, MPI.INT, ROOT),
                w.iScatterv(ds, zeros, displs, MPI.INT, dr, 0, MPI.INT, ROOT),
                w.iAllGather(ds, 0, MPI.INT, dr, 0, MPI.INT),
                w.iAllGatherv(ds, 0, MPI.INT, dr, zeros, displs, MPI.INT),
                w.iAllToAll(ds, 0, MPI.INT, dr, 0, MPI.INT),
                w.iAllToAllv(ds, zeros, displs, MPI.INT, dr, zeros, displs, MPI.INT),
                w.iReduce(ds, dr, 0, MPI.INT, MPI.SUM, ROOT),
                w.iAllReduce(ds, dr, 0, MPI.INT, MPI.SUM),
                w.iReduceScatter(ds, dr, zeros, MPI.INT, MPI.SUM),
                w.iReduceScatterBlock(ds, dr, 0, MPI.INT, MPI.SUM),
                w.iScan(ds, dr, 0, MPI.INT, MPI.SUM),
                w.iExScan(ds, dr, 0, MPI.INT, MPI.SUM),
                w.iBarrier(),
            };
            Request.waitAll(rs);
            for (int i = 0; i < N; i++) {
                assertEquals(-2, dr.get(i));
                assertEquals(-1, ds.get(i));
            }
            MPI.Finalize();
        });
    }

    /** Rank i contributes {@code COUNTS[i]} items; rank 1 none; blocks lie in reverse rank order with gaps. */
    private static final int[] COUNTS = {2, 0, 1, 3};
    private static final int[] DISPLS = {8, 0, 5, 1};
    private static final int SPAN = 10;

    /** The vector-collective buffer holding every rank's block at its displacement, -9 in the gaps. */
    private static int[] spread() {
        final int[] all = new int[SPAN];
        Arrays.fill(all, -9);
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < COUNTS[i]; k++) {
                all[DISPLS[i] + k] = 10 * i + k;
            }
        }
        return all;
    }

    private static int[] mine(final int rank) {
        final int[] b = new int[COUNTS[rank]];
        for (int k = 0; k < b.length; k++) {
            b[k] = 10 * rank + k;
        }
        return b;
    }

    @Test
    void shouldPlaceVectorBlocksAtTheirDisplacementsWithZeroCounts() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] gathered = new int[SPAN];
            Arrays.fill(gathered, -9);
            w.gatherv(mine(rank), COUNTS[rank], MPI.INT, gathered, COUNTS, DISPLS, MPI.INT, ROOT);
            if (ROOT == rank) {
                assertArrayEquals(spread(), gathered);
            }
            final int[] back = new int[4];
            Arrays.fill(back, -5);
            w.scatterv(ROOT == rank ? spread() : null, COUNTS, DISPLS, MPI.INT, back, COUNTS[rank], MPI.INT, ROOT);
            for (int k = 0; k < 4; k++) {
                assertEquals(k < COUNTS[rank] ? 10 * rank + k : -5, back[k]);
            }
            final int[] everyone = new int[SPAN];
            Arrays.fill(everyone, -9);
            w.allGatherv(mine(rank), COUNTS[rank], MPI.INT, everyone, COUNTS, DISPLS, MPI.INT);
            assertArrayEquals(spread(), everyone);
            // allToAllv: rank i sends (i + j) % 3 items to rank j (zero when i + j is a multiple of 3), blocks
            // in reverse order of destination; received blocks in reverse order of source, one gap each
            final int[] sc = new int[N];
            final int[] sd = new int[N];
            final int[] rc = new int[N];
            final int[] rd = new int[N];
            int at = 0;
            for (int j = N - 1; j >= 0; j--) {
                sc[j] = (rank + j) % 3;
                sd[j] = at;
                at += sc[j];
            }
            final int[] send = new int[at];
            for (int j = 0; j < N; j++) {
                for (int k = 0; k < sc[j]; k++) {
                    send[sd[j] + k] = 100 * rank + 10 * j + k;
                }
            }
            at = 0;
            for (int i = N - 1; i >= 0; i--) {
                rc[i] = (i + rank) % 3;
                rd[i] = at;
                at += rc[i] + 1;
            }
            final int[] recv = new int[at];
            Arrays.fill(recv, -7);
            w.allToAllv(send, sc, sd, MPI.INT, recv, rc, rd, MPI.INT);
            for (int i = 0; i < N; i++) {
                for (int k = 0; k < rc[i]; k++) {
                    assertEquals(100 * i + 10 * rank + k, recv[rd[i] + k]);
                }
                assertEquals(-7, recv[rd[i] + rc[i]]); // the gap after each block
            }
            // reduceScatter with a zero count: rank 1 gets nothing
            final int[] v = new int[6];
            for (int k = 0; k < 6; k++) {
                v[k] = k + rank;
            }
            final int[] part = {-4, -4, -4, -4};
            w.reduceScatter(v, part, COUNTS, MPI.INT, MPI.SUM);
            final int start = new int[] {0, 2, 2, 3}[rank];
            for (int k = 0; k < 4; k++) {
                assertEquals(k < COUNTS[rank] ? 4 * (start + k) + 6 : -4, part[k]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldRunTheInPlaceFormOfEveryCollective() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final boolean root = ROOT == rank;
            // gather: at the root the receive buffer with its own block in place; elsewhere the send buffer
            final int[] g = root ? new int[] {-1, -1, -1, -1, 20, 21, -1, -1} : new int[] {10 * rank, 10 * rank + 1};
            w.gather(g, 2, MPI.INT, ROOT);
            if (root) {
                assertArrayEquals(new int[] {0, 1, 10, 11, 20, 21, 30, 31}, g);
            }
            // scatter: at the root the send buffer (its block stays); elsewhere the receive buffer
            final int[] sc = root ? new int[] {0, 1, 10, 11, 20, 21, 30, 31} : new int[] {-1, -1};
            w.scatter(sc, 2, MPI.INT, ROOT);
            assertArrayEquals(root ? new int[] {0, 1, 10, 11, 20, 21, 30, 31} : new int[] {10 * rank, 10 * rank + 1},
                sc);
            // gatherv / scatterv: the root's in-place forms and the others' short forms
            if (root) {
                final int[] all = new int[SPAN];
                Arrays.fill(all, -9);
                System.arraycopy(mine(ROOT), 0, all, DISPLS[ROOT], COUNTS[ROOT]);
                w.gatherv(all, COUNTS, DISPLS, MPI.INT, ROOT);
                assertArrayEquals(spread(), all);
                final int[] out = spread();
                w.scatterv(out, COUNTS, DISPLS, MPI.INT, ROOT);
                assertArrayEquals(spread(), out);
            } else {
                w.gatherv(mine(rank), COUNTS[rank], MPI.INT, ROOT);
                final int[] in = new int[Math.max(1, COUNTS[rank])];
                w.scatterv(in, COUNTS[rank], MPI.INT, ROOT);
                assertArrayEquals(Arrays.copyOf(mine(rank), in.length), in);
            }
            // allGather / allGatherv: each rank's own block in place
            final long[] ag = new long[N];
            ag[rank] = 5L * rank;
            w.allGather(ag, 1, MPI.LONG);
            assertArrayEquals(new long[] {0, 5, 10, 15}, ag);
            final int[] agv = new int[SPAN];
            Arrays.fill(agv, -9);
            System.arraycopy(mine(rank), 0, agv, DISPLS[rank], COUNTS[rank]);
            w.allGatherv(agv, COUNTS, DISPLS, MPI.INT);
            assertArrayEquals(spread(), agv);
            // reduce: at the root input and output; elsewhere input only
            final int[] red = {rank, 1};
            w.reduce(red, 2, MPI.INT, MPI.SUM, ROOT);
            assertArrayEquals(root ? new int[] {6, 4} : new int[] {rank, 1}, red);
            final double[] ar = {rank, -rank};
            w.allReduce(ar, 2, MPI.DOUBLE, MPI.MAX);
            assertArrayEquals(new double[] {3, 0}, ar);
            // reduceScatter(Block): input from the buffer, this rank's block of the result at its start
            final int[] rsb = new int[2 * N];
            for (int k = 0; k < rsb.length; k++) {
                rsb[k] = k + rank;
            }
            w.reduceScatterBlock(rsb, 2, MPI.INT, MPI.SUM);
            assertEquals(4 * (2 * rank) + 6, rsb[0]);
            assertEquals(4 * (2 * rank + 1) + 6, rsb[1]);
            final int[] rs = new int[6];
            for (int k = 0; k < 6; k++) {
                rs[k] = k + rank;
            }
            w.reduceScatter(rs, COUNTS, MPI.INT, MPI.SUM);
            final int start = new int[] {0, 2, 2, 3}[rank];
            for (int k = 0; k < COUNTS[rank]; k++) {
                assertEquals(4 * (start + k) + 6, rs[k]);
            }
            // scan / exScan (exScan's result at rank 0 is undefined)
            final int[] scan = {rank + 1};
            w.scan(scan, 1, MPI.INT, MPI.SUM);
            assertEquals((rank + 1) * (rank + 2) / 2, scan[0]);
            final int[] ex = {rank + 1};
            w.exScan(ex, 1, MPI.INT, MPI.SUM);
            if (0 != rank) {
                assertEquals(rank * (rank + 1) / 2, ex[0]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldRunTheNonblockingInPlaceForms() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final boolean root = ROOT == rank;
            final IntBuffer g = MPI.newIntBuffer(root ? N : 1);
            g.put(root ? ROOT : 0, 10 * rank);
            w.iGather(g, 1, MPI.INT, ROOT).waitFor();
            if (root) {
                assertArrayEquals(new int[] {0, 10, 20, 30}, get(g));
            }
            final IntBuffer sc = MPI.newIntBuffer(root ? N : 1);
            if (root) {
                sc.put(0, 5).put(1, 6).put(2, 7).put(3, 8);
            }
            w.iScatter(sc, 1, MPI.INT, ROOT).waitFor();
            assertEquals(5 + rank, sc.get(root ? ROOT : 0));
            final IntBuffer gv = MPI.newIntBuffer(root ? SPAN : Math.max(1, COUNTS[rank]));
            if (root) {
                for (int k = 0; k < SPAN; k++) {
                    gv.put(k, -9);
                }
                for (int k = 0; k < COUNTS[ROOT]; k++) {
                    gv.put(DISPLS[ROOT] + k, 10 * ROOT + k);
                }
                w.iGatherv(gv, COUNTS, DISPLS, MPI.INT, ROOT).waitFor();
                assertArrayEquals(spread(), get(gv));
                w.iScatterv(gv, COUNTS, DISPLS, MPI.INT, ROOT).waitFor();
                assertArrayEquals(spread(), get(gv));
            } else {
                gv.put(mine(rank));
                w.iGatherv(gv, COUNTS[rank], MPI.INT, ROOT).waitFor();
                final IntBuffer in = MPI.newIntBuffer(Math.max(1, COUNTS[rank]));
                w.iScatterv(in, COUNTS[rank], MPI.INT, ROOT).waitFor();
                assertArrayEquals(Arrays.copyOf(mine(rank), in.capacity()), get(in));
            }
            final IntBuffer ag = MPI.newIntBuffer(N).put(rank, rank + 1);
            final IntBuffer agv = MPI.newIntBuffer(SPAN);
            for (int k = 0; k < SPAN; k++) {
                agv.put(k, -9);
            }
            for (int k = 0; k < COUNTS[rank]; k++) {
                agv.put(DISPLS[rank] + k, 10 * rank + k);
            }
            final IntBuffer red = MPI.newIntBuffer(1).put(0, rank);
            final IntBuffer ar = MPI.newIntBuffer(1).put(0, rank);
            final IntBuffer rsb = MPI.newIntBuffer(N);
            final IntBuffer rs = MPI.newIntBuffer(6);
            for (int k = 0; k < 6; k++) {
                rs.put(k, k + rank);
                if (k < N) {
                    rsb.put(k, k + rank);
                }
            }
            final IntBuffer scan = MPI.newIntBuffer(1).put(0, rank + 1);
            final IntBuffer ex = MPI.newIntBuffer(1).put(0, rank + 1);
            Request.waitAll(new Request[] {
                w.iAllGather(ag, 1, MPI.INT),
                w.iAllGatherv(agv, COUNTS, DISPLS, MPI.INT),
                w.iReduce(red, 1, MPI.INT, MPI.SUM, ROOT),
                w.iAllReduce(ar, 1, MPI.INT, MPI.MAX),
                w.iReduceScatterBlock(rsb, 1, MPI.INT, MPI.SUM),
                w.iReduceScatter(rs, COUNTS, MPI.INT, MPI.SUM),
                w.iScan(scan, 1, MPI.INT, MPI.SUM),
                w.iExScan(ex, 1, MPI.INT, MPI.SUM),
            });
            assertArrayEquals(new int[] {1, 2, 3, 4}, get(ag));
            assertArrayEquals(spread(), get(agv));
            assertEquals(root ? 6 : rank, red.get(0));
            assertEquals(3, ar.get(0));
            assertEquals(4 * rank + 6, rsb.get(0));
            final int start = new int[] {0, 2, 2, 3}[rank];
            for (int k = 0; k < COUNTS[rank]; k++) {
                assertEquals(4 * (start + k) + 6, rs.get(k));
            }
            assertEquals((rank + 1) * (rank + 2) / 2, scan.get(0));
            if (0 != rank) {
                assertEquals(rank * (rank + 1) / 2, ex.get(0));
            }
            MPI.Finalize();
        });
    }

    /** The root reduces in place while the others pass the full form, with one array as both buffers. */
    @Test
    void shouldMixTheInPlaceRootWithFullFormsElsewhere() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] errs = {rank};
            if (0 == rank || 1 == rank) {
                w.reduce(errs, 1, MPI.INT, MPI.SUM, 0);
            } else {
                w.reduce(errs, errs, 1, MPI.INT, MPI.SUM, 0); // a non-root's receive buffer is ignored
            }
            assertEquals(0 == rank ? 6 : rank, errs[0]);
            final int[] g = new int[N];
            g[rank] = rank * 3;
            if (ROOT == rank) {
                w.gather(g, 1, MPI.INT, ROOT);
                assertArrayEquals(new int[] {0, 3, 6, 9}, g);
            } else {
                w.gather(new int[] {rank * 3}, 1, MPI.INT, null, 0, MPI.INT, ROOT);
            }
            MPI.Finalize();
        });
    }

    /** Blocks over 64 KiB (where Open MPI's Java bindings returned wrong data for scatter and scatterv). */
    @Test
    void shouldScatterAndGatherBlocksOverSixtyFourKilobytes() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int n = 20_000; // 80 000 bytes a block
            final int[] all = new int[3 * n];
            if (1 == rank) {
                Arrays.setAll(all, i -> i * 7 + 1);
            }
            final int[] mine = new int[n];
            w.scatter(all, n, MPI.INT, mine, n, MPI.INT, 1);
            for (int k = 0; k < n; k += 997) {
                assertEquals((rank * n + k) * 7 + 1, mine[k]);
            }
            assertEquals((rank * n + n - 1) * 7 + 1, mine[n - 1]);
            final int[] counts = {n, n + 3, n - 5};
            final int[] displs = {2 * n + 10, 0, n + 3};
            final int[] src = new int[3 * n + 10];
            if (1 == rank) {
                Arrays.setAll(src, i -> -i);
            }
            final int[] part = new int[n + 3];
            w.scatterv(src, counts, displs, MPI.INT, part, counts[rank], MPI.INT, 1);
            assertEquals(-displs[rank], part[0]);
            assertEquals(-(displs[rank] + counts[rank] - 1), part[counts[rank] - 1]);
            final long[] big = new long[3 * n];
            final long[] own = new long[n];
            Arrays.fill(own, rank + 1L);
            w.gather(own, n, MPI.LONG, big, n, MPI.LONG, 0);
            if (0 == rank) {
                assertEquals(1L, big[n - 1]);
                assertEquals(2L, big[n]);
                assertEquals(3L, big[3 * n - 1]);
            }
            MPI.Finalize();
        });
    }

    private static int[] get(final IntBuffer b) {
        final int[] a = new int[b.capacity()];
        for (int i = 0; i < a.length; i++) {
            a[i] = b.get(i);
        }
        return a;
    }
}
