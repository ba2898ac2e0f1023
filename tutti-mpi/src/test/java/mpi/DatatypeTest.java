package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Derived datatypes in Open MPI's Java style: extents in base elements, and vector, indexed, resized and struct
 * types in point-to-point, collectives and pack/unpack, checked element by element against hand-packed references
 * (elements in the gaps keep their poison).
 */
@Timeout(60)
class DatatypeTest {
    static final int POISON = -99;

    static int[] poisoned(final int n) {
        final int[] a = new int[n];
        Arrays.fill(a, POISON);
        return a;
    }

    @Test
    void shouldReportExtentsInBaseElements() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Datatype v = Datatype.createVector(2, 1, 3, MPI.INT);
            v.commit();
            assertEquals(4, v.getExtent());
            assertEquals(2, v.getSize());
            assertEquals(0, v.getLb());
            assertEquals(4, v.getTrueExtent());
            final Datatype r = Datatype.createResized(v, -4, 24);
            assertEquals(-1, r.getLb());
            assertEquals(6, r.getExtent());
            assertEquals(0, r.getTrueLb());
            assertEquals(4, Datatype.createHVector(2, 1, 12, MPI.INT).getExtent());
            final Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 4}, MPI.DOUBLE);
            assertEquals(3, ix.getSize());
            assertEquals(5, ix.getExtent());
            final Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
            assertEquals(12, s.getSize()); // struct types report bytes
            assertEquals(16, s.getExtent());
            assertEquals(12, MPI.COMM_WORLD.packSize(1, s));
            assertEquals(3, Datatype.createContiguous(3, MPI.INT).getSize());
            s.free();
            assertTrue(s.isNull());
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final MPIException e = assertThrows(MPIException.class, () -> Datatype.createVector(-1, 1, 1, MPI.INT));
            assertEquals(MPI.ERR_COUNT, e.getErrorClass());
            MPI.Finalize();
        });
    }

    /** A matrix column (a vector type) sent to a column of another matrix and to a contiguous array. */
    @Test
    void shouldMoveVectorAndIndexedTypesPointToPoint() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype column = Datatype.createVector(4, 1, 5, MPI.INT); // column of a 4 x 5 matrix
            column.commit();
            final Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 4}, MPI.INT);
            ix.commit();
            if (0 == w.getRank()) {
                final int[] m = new int[20];
                Arrays.setAll(m, i -> i);
                w.send(m, 1, column, 1, 0);
                w.send(m, 1, column, 1, 1);
                w.send(m, 2, ix, 1, 2); // items at 0 and 5: elements 0, 1, 4, 5, 6, 9
            } else {
                final int[] got = poisoned(20);
                w.recv(got, 1, column, 0, 0);
                final int[] want = poisoned(20);
                for (int r = 0; r < 4; r++) {
                    want[r * 5] = r * 5;
                }
                assertArrayEquals(want, got);
                final int[] plain = new int[4];
                final Status s = w.recv(plain, 4, MPI.INT, 0, 1);
                assertArrayEquals(new int[] {0, 5, 10, 15}, plain);
                assertEquals(1, s.getCount(column));
                final int[] g = poisoned(12);
                final Status t = w.recv(g, 2, ix, 0, 2);
                assertArrayEquals(new int[] {0, 1, POISON, POISON, 4, 5, 6, POISON, POISON, 9, POISON, POISON}, g);
                assertEquals(2, t.getCount(ix));
                assertEquals(6, t.getElements(ix));
            }
            MPI.Finalize();
        });
    }

    /** bcast, gather (columns resized to one int, the classic transpose), scatter and allreduce with derived types. */
    @Test
    void shouldMoveDerivedTypesInCollectives() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int p = w.getSize();
            final Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT); // elements 0, 2, 4 of 5
            every2.commit();
            final int[] b = 1 == rank ? new int[] {10, 11, 12, 13, 14} : poisoned(5);
            w.bcast(b, 1, every2, 1);
            assertArrayEquals(1 == rank ? new int[] {10, 11, 12, 13, 14}
                : new int[] {10, POISON, 12, POISON, 14}, b);
            // gather each rank's row of 2 ints into column `rank` of a 2 x p matrix
            final Datatype col = Datatype.createResized(Datatype.createVector(2, 1, p, MPI.INT), 0, 4);
            col.commit();
            final int[] row = {rank, 100 + rank};
            final int[] matrix = poisoned(2 * p);
            w.gather(row, 2, MPI.INT, matrix, 1, col, 0);
            if (0 == rank) {
                assertArrayEquals(new int[] {0, 1, 2, 100, 101, 102}, matrix);
            }
            // scatter the columns back: rank r receives column r into every other int of 3
            final int[] src = {0, 1, 2, 100, 101, 102};
            final int[] mine = poisoned(3);
            final Datatype pair = Datatype.createVector(2, 1, 2, MPI.INT);
            pair.commit();
            w.scatter(src, 1, col, mine, 1, pair, 0);
            assertArrayEquals(new int[] {rank, POISON, 100 + rank}, mine);
            // allreduce over a strided vector, in place into the same layout
            final int[] v = {rank, POISON, rank * 10, POISON, 1};
            w.allReduce(v, 1, every2, MPI.SUM);
            assertArrayEquals(new int[] {3, POISON, 30, POISON, 3}, v);
            // gatherv of columns with displacements in extents (one int): rank r's column goes to column displs[r]
            final int[] part = {10 * rank, 10 * rank + 1, 10 * rank + 2};
            final Datatype col3 = Datatype.createResized(Datatype.createVector(3, 1, p, MPI.INT), 0, 4);
            col3.commit();
            final int[] displs = {2, 0, 1};
            final int[] grid = poisoned(3 * p);
            w.gatherv(part, 3, MPI.INT, grid, new int[] {1, 1, 1}, displs, col3, 0);
            if (0 == rank) {
                final int[] want = new int[3 * p];
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < 3; i++) {
                        want[i * p + displs[r]] = 10 * r + i;
                    }
                }
                assertArrayEquals(want, grid);
            }
            // allGather with an indexed type: items of 3 elements at 0..1 and 3
            final Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 3}, MPI.INT);
            ix.commit(); // extent 4
            final int[] mineIx = {rank, rank + 1, POISON, rank + 2};
            final int[] all = poisoned(4 * p);
            w.allGather(mineIx, 1, ix, all, 1, ix);
            for (int r = 0; r < p; r++) {
                assertArrayEquals(new int[] {r, r + 1, POISON, r + 2}, Arrays.copyOfRange(all, 4 * r, 4 * r + 4));
            }
            MPI.Finalize();
        });
    }

    /** Nonblocking forms over direct buffers: the receive scatters into the vector when it completes. */
    @Test
    void shouldMoveDerivedTypesNonblocking() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype every2 = Datatype.createVector(4, 1, 2, MPI.INT);
            every2.commit();
            final IntBuffer b = MPI.newIntBuffer(8);
            if (0 == w.getRank()) {
                for (int i = 0; i < 8; i++) {
                    b.put(i, i);
                }
                w.iSend(b, 1, every2, 1, 0).waitFor();
            } else {
                for (int i = 0; i < 8; i++) {
                    b.put(i, POISON);
                }
                final Request r = w.iRecv(b, 1, every2, 0, 0);
                final Status s = r.waitStatus();
                assertEquals(4, s.getElements(MPI.INT));
                for (int i = 0; i < 8; i++) {
                    assertEquals(0 == i % 2 ? i : POISON, b.get(i), "element " + i);
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldPackAndUnpackDerivedTypesAndStructs() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype every3 = Datatype.createVector(3, 1, 3, MPI.INT);
            every3.commit();
            final int[] in = new int[9];
            Arrays.setAll(in, i -> i + 1);
            final byte[] packed = new byte[w.packSize(2, every3)];
            assertEquals(24, packed.length);
            final int end = w.pack(in, 1, every3, packed, 0);
            assertEquals(12, end);
            final int[] out = new int[3];
            w.unpack(packed, 0, out, 3, MPI.INT);
            assertArrayEquals(new int[] {1, 4, 7}, out);
            final int[] back = poisoned(9);
            w.unpack(packed, 0, back, 1, every3);
            assertArrayEquals(new int[] {1, POISON, POISON, 4, POISON, POISON, 7, POISON, POISON}, back);
            // a struct {int at 0, double at 8}: 12 bytes of data in 16
            final Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
            s.commit();
            final ByteBuffer bb = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
            if (0 == w.getRank()) {
                bb.putInt(0, 7).putDouble(8, 2.5).putInt(16, 8).putDouble(24, 3.5).putInt(4, POISON);
                w.send(bb, 2, s, 1, 0);
            } else {
                for (int i = 0; i < 32; i += 4) {
                    bb.putInt(i, POISON);
                }
                final Status st = w.recv(bb, 2, s, 0, 0);
                assertEquals(2, st.getCount(s));
                assertEquals(7, bb.getInt(0));
                assertEquals(POISON, bb.getInt(4));
                assertEquals(2.5, bb.getDouble(8));
                assertEquals(8, bb.getInt(16));
                assertEquals(POISON, bb.getInt(20));
                assertEquals(3.5, bb.getDouble(24));
            }
            MPI.Finalize();
        });
    }
}
