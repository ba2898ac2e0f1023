package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Collective programs in the style of Open MPI's Java examples, on 4 embedded ranks, results checked. */
@Timeout(60)
class CollectivesTest {

    /** The classic pi: bcast the interval count, integrate 4/(1+x^2) in strips, reduce the sum to rank 0. */
    @Test
    void shouldComputePi() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int size = MPI.COMM_WORLD.getSize();
            final int[] n = {0 == rank ? 10_000 : 0};
            MPI.COMM_WORLD.bcast(n, 1, MPI.INT, 0);
            final double h = 1.0 / n[0];
            double sum = 0;
            for (int i = rank + 1; i <= n[0]; i += size) {
                final double x = h * (i - 0.5);
                sum += 4.0 / (1.0 + x * x);
            }
            final double[] mypi = {h * sum};
            final double[] pi = new double[1];
            MPI.COMM_WORLD.reduce(mypi, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (0 == rank) {
                assertEquals(Math.PI, pi[0], 1e-8);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldAllReduceAndScan() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] in = {rank, 1, -rank};
            final int[] out = new int[3];
            w.allReduce(in, out, 3, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {6, 4, -6}, out);
            final long[] inPlace = {rank + 1L};
            w.allReduce(inPlace, 1, MPI.LONG, MPI.PROD);
            assertEquals(24L, inPlace[0]);
            final double[] max = {rank * 1.5};
            w.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
            assertEquals(4.5, max[0]);
            final boolean[] land = {rank != 2};
            w.allReduce(land, 1, MPI.BOOLEAN, MPI.LAND);
            assertEquals(false, land[0]);
            final byte[] bmax = {(byte) (0 == rank ? 200 : rank)}; // MPI.BYTE is unsigned: 200 is the max
            w.allReduce(bmax, 1, MPI.BYTE, MPI.MAX);
            assertEquals((byte) 200, bmax[0]);
            final int[] scan = new int[1];
            w.scan(new int[] {rank + 1}, scan, 1, MPI.INT, MPI.SUM);
            assertEquals((rank + 1) * (rank + 2) / 2, scan[0]);
            final int[] ex = {-1};
            w.exScan(new int[] {rank + 1}, ex, 1, MPI.INT, MPI.SUM);
            if (rank > 0) {
                assertEquals(rank * (rank + 1) / 2, ex[0]);
            }
            final int[] scanInPlace = {1};
            w.scan(scanInPlace, 1, MPI.INT, MPI.SUM);
            assertEquals(rank + 1, scanInPlace[0]);
            // in-place reduce at the root
            final float[] r = {rank};
            w.reduce(r, 1, MPI.FLOAT, MPI.SUM, 3);
            if (3 == rank) {
                assertEquals(6f, r[0]);
            }
            // a freed user op and a wrong op are refused
            w.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_OP, assertThrows(MPIException.class,
                () -> w.allReduce(new double[1], 1, MPI.DOUBLE, MPI.MINLOC)).getErrorClass());
            MPI.Finalize();
        });
    }

    @Test
    void shouldReduceLocationsAndComplexNumbersAndUserOps() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            // MAXLOC over INT2 in a ByteBuffer: value (rank % 3), index rank; ties keep the lower index
            final ByteBuffer in2 = MPI.newByteBuffer(8);
            in2.putInt(0, rank % 3).putInt(4, rank);
            final ByteBuffer out2 = MPI.newByteBuffer(8);
            w.allReduce(in2, out2, 1, MPI.INT2, MPI.MAXLOC);
            assertEquals(2, out2.getInt(0));
            assertEquals(2, out2.getInt(4));
            // MINLOC over DOUBLE_INT (double at 0, int at 8)
            final ByteBuffer di = MPI.newByteBuffer(16);
            di.putDouble(0, 10.0 - rank).putInt(8, 100 + rank);
            final ByteBuffer dout = MPI.newByteBuffer(16);
            w.allReduce(di, dout, 1, MPI.DOUBLE_INT, MPI.MINLOC);
            assertEquals(7.0, dout.getDouble(0));
            assertEquals(103, dout.getInt(8));
            // complex product: (1+i)^4 = -4
            final double[] z = {1, 1};
            w.allReduce(z, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
            assertArrayEquals(new double[] {-4, 0}, z, 1e-12);
            // a user op over int arrays, non-commutative: keeps the left operand's sign pattern
            final Op absMax = new Op(new UserFunction() {
                @Override
                public void call(final Object inVec, final Object inOutVec, final int count, final Datatype t) {
                    final int[] a = (int[]) inVec;
                    final int[] b = (int[]) inOutVec;
                    for (int i = 0; i < count; i++) {
                        b[i] = Math.max(Math.abs(a[i]), Math.abs(b[i]));
                    }
                }
            }, true);
            final int[] v = {-rank * 3, rank};
            w.allReduce(v, 2, MPI.INT, absMax);
            assertArrayEquals(new int[] {9, 3}, v);
            absMax.free();
            w.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_OP, assertThrows(MPIException.class,
                () -> w.allReduce(new int[1], 1, MPI.INT, absMax)).getErrorClass());
            MPI.Finalize();
        });
    }

    @Test
    void shouldGatherScatterAndExchange() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int size = w.getSize();
            // gather two ints from each rank at root 1
            final int[] all = new int[2 * size];
            w.gather(new int[] {rank, rank * 10}, 2, MPI.INT, all, 2, MPI.INT, 1);
            if (1 == rank) {
                assertArrayEquals(new int[] {0, 0, 1, 10, 2, 20, 3, 30}, all);
            }
            // in-place gather at root 0
            final int[] g = new int[size];
            g[rank] = rank + 100;
            w.gather(0 == rank ? g : new int[] {rank + 100}, 1, MPI.INT, 0);
            if (0 == rank) {
                assertArrayEquals(new int[] {100, 101, 102, 103}, g);
            }
            // scatter from root 2 and in place
            final double[] blocks = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5};
            final double[] mine = new double[2];
            w.scatter(blocks, 2, MPI.DOUBLE, mine, 2, MPI.DOUBLE, 2);
            assertArrayEquals(new double[] {rank, rank + 0.5}, mine);
            final double[] sc = 3 == rank ? blocks.clone() : new double[2];
            w.scatter(sc, 2, MPI.DOUBLE, 3);
            assertEquals(rank, sc[3 == rank ? 6 : 0]); // the root's own block stays in place
            // gatherv / scatterv: rank i contributes i + 1 items
            final int[] counts = {1, 2, 3, 4};
            final int[] displs = {0, 1, 3, 6};
            final int[] mineV = new int[rank + 1];
            java.util.Arrays.fill(mineV, rank);
            final int[] gv = new int[10];
            w.gatherv(mineV, rank + 1, MPI.INT, gv, counts, displs, MPI.INT, 0);
            if (0 == rank) {
                assertArrayEquals(new int[] {0, 1, 1, 2, 2, 2, 3, 3, 3, 3}, gv);
            }
            final int[] back = new int[rank + 1];
            w.scatterv(new int[] {0, 1, 1, 2, 2, 2, 3, 3, 3, 3}, counts, displs, MPI.INT, back, rank + 1, MPI.INT, 0);
            assertArrayEquals(mineV, back);
            // allGather, in place too
            final short[] ag = new short[size];
            w.allGather(new short[] {(short) (rank * 2)}, 1, MPI.SHORT, ag, 1, MPI.SHORT);
            assertArrayEquals(new short[] {0, 2, 4, 6}, ag);
            final long[] agi = new long[size];
            agi[rank] = rank + 7L;
            w.allGather(agi, 1, MPI.LONG);
            assertArrayEquals(new long[] {7, 8, 9, 10}, agi);
            // allGatherv
            final int[] agv = new int[10];
            w.allGatherv(mineV, rank + 1, MPI.INT, agv, counts, displs, MPI.INT);
            assertArrayEquals(new int[] {0, 1, 1, 2, 2, 2, 3, 3, 3, 3}, agv);
            // allToAll: block j of rank i is 10 * i + j
            final int[] a2a = new int[size];
            for (int j = 0; j < size; j++) {
                a2a[j] = 10 * rank + j;
            }
            final int[] got = new int[size];
            w.allToAll(a2a, 1, MPI.INT, got, 1, MPI.INT);
            for (int i = 0; i < size; i++) {
                assertEquals(10 * i + rank, got[i]);
            }
            // allToAllv: rank i sends (j + 1) items to j
            final int[] sc2 = {1, 2, 3, 4};
            final int[] sd2 = {0, 1, 3, 6};
            final int[] send = new int[10];
            java.util.Arrays.fill(send, rank);
            final int[] rc2 = new int[size];
            final int[] rd2 = new int[size];
            for (int i = 0; i < size; i++) {
                rc2[i] = rank + 1;
                rd2[i] = i * (rank + 1);
            }
            final int[] recv = new int[size * (rank + 1)];
            w.allToAllv(send, sc2, sd2, MPI.INT, recv, rc2, rd2, MPI.INT);
            for (int i = 0; i < size; i++) {
                assertEquals(i, recv[i * (rank + 1)]);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldReduceScatter() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int size = w.getSize();
            final int[] v = new int[2 * size];
            for (int i = 0; i < v.length; i++) {
                v[i] = i + rank;
            }
            final int[] block = new int[2];
            w.reduceScatterBlock(v, block, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {4 * (2 * rank) + 6, 4 * (2 * rank + 1) + 6}, block);
            final int[] counts = {1, 2, 3, 2};
            final int[] part = new int[counts[rank]];
            w.reduceScatter(v, part, counts, MPI.INT, MPI.SUM);
            final int start = new int[] {0, 1, 3, 6}[rank];
            for (int i = 0; i < part.length; i++) {
                assertEquals(4 * (start + i) + 6, part[i]);
            }
            final int[] inPlace = v.clone();
            w.reduceScatterBlock(inPlace, 2, MPI.INT, MPI.SUM);
            assertEquals(4 * (2 * rank) + 6, inPlace[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldRunNonblockingCollectives() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final DoubleBuffer x = MPI.newDoubleBuffer(2);
            x.put(0, rank).put(1, 1);
            final DoubleBuffer y = MPI.newDoubleBuffer(2);
            final Request r = w.iAllReduce(x, y, 2, MPI.DOUBLE, MPI.SUM);
            final IntBuffer b = MPI.newIntBuffer(1);
            b.put(0, 0 == rank ? 77 : 0);
            final Request[] more = {r, w.iBcast(b, 1, MPI.INT, 0), w.iBarrier()};
            Request.waitAll(more);
            assertEquals(6.0, y.get(0));
            assertEquals(4.0, y.get(1));
            assertEquals(77, b.get(0));
            final IntBuffer s = MPI.newIntBuffer(1);
            s.put(0, rank + 1);
            w.iScan(s, 1, MPI.INT, MPI.SUM).waitFor();
            assertEquals((rank + 1) * (rank + 2) / 2, s.get(0));
            final IntBuffer ag = MPI.newIntBuffer(4);
            w.iAllGather(MPI.slice(MPI.newIntBuffer(1).put(0, rank * 3), 0), 1, MPI.INT, ag, 1, MPI.INT).waitFor();
            assertEquals(9, ag.get(3));
            MPI.Finalize();
        });
    }

    @Test
    void shouldSplitAndDuplicate() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final Intracomm half = MPI.COMM_WORLD.split(rank % 2, -rank);
            assertEquals(2, half.getSize());
            assertEquals(rank < 2 ? 1 : 0, half.getRank()); // key -rank reverses the order
            final int[] sum = {rank};
            half.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(rank % 2 == 0 ? 2 : 4, sum[0]);
            final Intracomm none = MPI.COMM_WORLD.split(0 == rank ? MPI.UNDEFINED : 1, 0);
            assertEquals(0 == rank, none.isNull());
            final Intracomm d = MPI.COMM_WORLD.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, d));
            final Group g = d.getGroup();
            assertEquals(4, g.getSize());
            final Group evens = g.incl(new int[] {0, 2});
            assertEquals(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.getRank());
            final Intracomm ev = d.create(evens);
            assertEquals(rank % 2 != 0, ev.isNull());
            final Intracomm late = MPI.COMM_WORLD.iDup();
            late.getRequest().waitFor();
            late.barrier();
            // leaders: half rank 0 of each half (world 2 for the evens, world 3 for the odds, as key -rank reverses)
            final Intercomm inter = MPI.COMM_WORLD.createIntercomm(half, 0, rank % 2 == 0 ? 3 : 2, 17);
            assertEquals(2, inter.getRemoteSize());
            final int[] fromOther = new int[1];
            // MPI's one-way broadcast over the intercommunicator: evens' rank 0 (world 2) reaches the odds
            final boolean evensGroup = rank % 2 == 0;
            final int root = evensGroup ? (0 == half.getRank() ? MPI.ROOT : MPI.PROC_NULL) : 0;
            fromOther[0] = evensGroup ? 55 : 0;
            inter.bcast(fromOther, 1, MPI.INT, root);
            if (!evensGroup) {
                assertEquals(55, fromOther[0]);
            }
            final Intracomm merged = inter.merge(!evensGroup);
            assertEquals(4, merged.getSize());
            d.free();
            assertEquals(true, d.isNull());
            MPI.Finalize();
        });
    }
}
