package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collectives with offsets, "v" displacements in array elements, objects, derived types and user ops. */
@Timeout(60)
class CollectivesTest {

    @Test
    void shouldMoveBlocksWithOffsetsAndDisplacements() {
        MpjJobs.mpi(3, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final int[] b = {-1, -1, me == 1 ? 5 : 0, me == 1 ? 6 : 0};
            w.Bcast(b, 2, 2, MPI.INT, 1);
            assertEquals(5, b[2]);
            assertEquals(6, b[3]);
            final int[] g = new int[7];
            w.Gather(new int[] {0, me, 10 + me}, 1, 2, MPI.INT, g, 1, 2, MPI.INT, 0);
            if (0 == me) {
                assertArrayEquals(new int[] {0, 0, 10, 1, 11, 2, 12}, g);
            }
            final int[] gv = new int[10];
            w.Gatherv(new int[] {me, me, me}, 0, me + 1, MPI.INT, gv, 1, new int[] {1, 2, 3}, new int[] {6, 0, 2},
                MPI.INT, 2);
            if (2 == me) {
                assertArrayEquals(new int[] {0, 1, 1, 2, 2, 2, 0, 0, 0, 0}, gv);
            }
            final int[] sc = new int[2];
            w.Scatter(new int[] {9, 0, 1, 2, 3, 4, 5}, 1, 2, MPI.INT, sc, 0, 2, MPI.INT, 0);
            assertArrayEquals(new int[] {2 * me, 2 * me + 1}, sc);
            final int[] ag = new int[3];
            w.Allgather(new int[] {me * me}, 0, 1, MPI.INT, ag, 0, 1, MPI.INT);
            assertArrayEquals(new int[] {0, 1, 4}, ag);
            final int[] at = new int[3];
            w.Alltoall(new int[] {10 * me, 10 * me + 1, 10 * me + 2}, 0, 1, MPI.INT, at, 0, 1, MPI.INT);
            assertArrayEquals(new int[] {me, 10 + me, 20 + me}, at);
            final int[] av = new int[4];
            w.Alltoallv(new int[] {me, me, me}, 0, new int[] {1, 1, 1}, new int[] {0, 1, 2}, MPI.INT, av, 1,
                new int[] {1, 1, 1}, new int[] {2, 1, 0}, MPI.INT);
            assertArrayEquals(new int[] {0, 2, 1, 0}, av);
            final int[] sv = new int[me + 1];
            w.Scatterv(new int[] {0, 1, 1, 2, 2, 2}, 0, new int[] {1, 2, 3}, new int[] {0, 1, 3}, MPI.INT, sv, 0,
                me + 1, MPI.INT, 0);
            for (final int v : sv) {
                assertEquals(me, v);
            }
        });
    }

    @Test
    void shouldReduceWithPredefinedLocationAndUserOperators() {
        MpjJobs.mpi(4, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final double[] sum = {-1, -1};
            w.Reduce(new double[] {7, me}, 1, sum, 1, 1, MPI.DOUBLE, MPI.SUM, 3);
            if (3 == me) {
                assertEquals(6.0, sum[1]);
            }
            w.Reduce(new double[] {me}, 0, 0 == me ? new double[1] : null, 0, 1, MPI.DOUBLE, MPI.MAX, 0); // recvbuf ignored off the root
            final boolean[] any = new boolean[1];
            w.Allreduce(new boolean[] {me == 2}, 0, any, 0, 1, MPI.BOOLEAN, MPI.LOR);
            assertTrue(any[0]);
            final int[] loc = new int[2];
            w.Allreduce(new int[] {me % 2 == 0 ? 5 : 3, me}, 0, loc, 0, 1, MPI.INT2, MPI.MAXLOC);
            assertArrayEquals(new int[] {5, 0}, loc, "ties keep the lower index");
            final short[] sloc = new short[2];
            w.Allreduce(new short[] {(short) (10 - me), (short) me}, 0, sloc, 0, 1, MPI.SHORT2, MPI.MINLOC);
            assertArrayEquals(new short[] {7, 3}, sloc);
            final int[] scan = new int[1];
            w.Scan(new int[] {me + 1}, 0, scan, 0, 1, MPI.INT, MPI.SUM);
            assertEquals((me + 1) * (me + 2) / 2, scan[0]);
            final long[] rs = new long[2];
            w.Reduce_scatter(new long[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, rs, 0, new int[] {2, 2, 2, 2}, MPI.LONG,
                MPI.SUM);
            assertArrayEquals(new long[] {4L * (2 * me + 1), 4L * (2 * me + 2)}, rs);
            // a non-commutative user operator sees MPI's order: in = lower ranks, inout = higher
            final Op concat = new Op(new User_function() {
                @Override
                public void Call(final Object in, final int io, final Object inout, final int ioo, final int count,
                    final Datatype type) {
                    final int[] a = (int[]) in;
                    final int[] b = (int[]) inout;
                    for (int i = 0; i < count; i++) {
                        b[ioo + i] = a[io + i] * 10 + b[ioo + i];
                    }
                }
            }, false);
            final int[] digits = new int[1];
            w.Allreduce(new int[] {me + 1}, 0, digits, 0, 1, MPI.INT, concat);
            assertEquals(1234, digits[0]);
            final int[] us = new int[1];
            w.Reduce_scatter(new int[] {1, 1, 1, 1}, 0, us, 0, new int[] {1, 1, 1, 1}, MPI.INT, concat);
            assertEquals(1111, us[0]);
            assertThrows(MPIException.class, () -> w.Allreduce(new Object[] {"a"}, 0, new Object[1], 0, 1,
                MPI.OBJECT, MPI.SUM));
        });
    }

    @Test
    void shouldRunEveryCollectiveOnObjects() {
        MpjJobs.mpi(3, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final Object[] b = {null, 0 == me ? "root" : null};
            w.Bcast(b, 1, 1, MPI.OBJECT, 0);
            assertEquals("root", b[1]);
            final String[] g = new String[4];
            w.Gather(new String[] {"r" + me}, 0, 1, MPI.OBJECT, g, 1, 1, MPI.OBJECT, 0);
            if (0 == me) {
                assertArrayEquals(new String[] {null, "r0", "r1", "r2"}, g);
            }
            final Object[] gv = new Object[6];
            w.Allgatherv(new Object[] {me, me}, 0, me == 1 ? 2 : 1, MPI.OBJECT, gv, 0, new int[] {1, 2, 1},
                new int[] {5, 0, 3}, MPI.OBJECT);
            assertArrayEquals(new Object[] {1, 1, null, 2, null, 0}, gv);
            final Object[] sc = new Object[1];
            w.Scatter(new Object[] {"a", "b", "c"}, 0, 1, MPI.OBJECT, sc, 0, 1, MPI.OBJECT, 2);
            assertEquals(String.valueOf((char) ('a' + me)), sc[0]);
            final Object[] sv = new Object[2];
            w.Scatterv(new Object[] {"x", "y", "z"}, 0, new int[] {1, 2, 0}, new int[] {0, 1, 0}, MPI.OBJECT, sv, 0,
                2, MPI.OBJECT, 0);
            assertEquals(me == 0 ? "x" : me == 1 ? "y" : null, sv[0]);
            final Object[] at = new Object[3];
            w.Alltoall(new Object[] {me + ">0", me + ">1", me + ">2"}, 0, 1, MPI.OBJECT, at, 0, 1, MPI.OBJECT);
            assertArrayEquals(new Object[] {"0>" + me, "1>" + me, "2>" + me}, at);
            final Object[] av = new Object[3];
            w.Alltoallv(new Object[] {me, me, me}, 0, new int[] {1, 1, 1}, new int[] {0, 1, 2}, MPI.OBJECT, av, 0,
                new int[] {1, 1, 1}, new int[] {0, 1, 2}, MPI.OBJECT);
            assertArrayEquals(new Object[] {0, 1, 2}, av);
            final Op join = new Op(new User_function() {
                @Override
                public void Call(final Object in, final int io, final Object inout, final int ioo, final int count,
                    final Datatype type) {
                    final Object[] a = (Object[]) in;
                    final Object[] o = (Object[]) inout;
                    for (int i = 0; i < count; i++) {
                        o[ioo + i] = a[io + i] + "" + o[ioo + i];
                    }
                }
            }, false);
            final Object[] r = new Object[1];
            w.Allreduce(new Object[] {"s" + me}, 0, r, 0, 1, MPI.OBJECT, join);
            assertEquals("s0s1s2", r[0]);
            final Object[] scan = new Object[1];
            w.Scan(new Object[] {"" + me}, 0, scan, 0, 1, MPI.OBJECT, join);
            assertEquals(me == 0 ? "0" : me == 1 ? "01" : "012", scan[0]);
            final Object[] red = new Object[1];
            w.Reduce(new Object[] {"" + me}, 0, 1 == me ? red : null, 0, 1, MPI.OBJECT, join, 1);
            if (1 == me) {
                assertEquals("012", red[0]);
            } else {
                assertNull(red[0]);
            }
        });
    }

    @Test
    void shouldMoveDerivedTypesInCollectives() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final Datatype column = Datatype.Vector(3, 1, 3, MPI.INT); // a column of a 3x3 row-major matrix
            final int[] m = new int[9];
            if (0 == me) {
                for (int i = 0; i < 9; i++) {
                    m[i] = i;
                }
            }
            w.Bcast(m, 1, 1, column, 0);
            if (1 == me) {
                assertArrayEquals(new int[] {0, 1, 0, 0, 4, 0, 0, 7, 0}, m);
            }
            final int[] sums = new int[9];
            w.Allreduce(new int[] {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, sums, 0, 1, column, MPI.SUM);
            assertArrayEquals(new int[] {2, 0, 0, 2, 0, 0, 2, 0, 0}, sums);
            final int[] g = new int[6];
            w.Allgather(new int[] {me, -1, me}, 0, 1, Datatype.Vector(2, 1, 2, MPI.INT), g, 0, 2, MPI.INT);
            assertArrayEquals(new int[] {0, 0, 1, 1, 0, 0}, g);
        });
    }

    @Test
    void shouldReadOneCountAndDisplacementPerProcessFromLongerArrays() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            // mpiJava's test programs size the per-process arrays for their largest run (10 entries here)
            final int[] counts = {2, 1, 7, 7, 7, 7, 7, 7, 7, 7};
            final int[] displs = {0, 4, 9, 9, 9, 9, 9, 9, 9, 9};
            final int[] ag = new int[6];
            w.Allgatherv(new int[] {me + 1, me + 1}, 0, 2 - me, MPI.INT, ag, 0, counts, displs, MPI.INT);
            assertArrayEquals(new int[] {1, 1, 0, 0, 2, 0}, ag);
            final int[] gv = new int[6];
            w.Gatherv(new int[] {5 + me, 5 + me}, 0, 2 - me, MPI.INT, gv, 0, counts, displs, MPI.INT, 1);
            if (1 == me) {
                assertArrayEquals(new int[] {5, 5, 0, 0, 6, 0}, gv);
            }
            final int[] sv = new int[2];
            w.Scatterv(new int[] {1, 2, 0, 0, 3}, 0, counts, displs, MPI.INT, sv, 0, counts[me], MPI.INT, 0);
            assertArrayEquals(0 == me ? new int[] {1, 2} : new int[] {3, 0}, sv);
            final int[] ones = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
            final int[] steps = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
            final int[] av = new int[2];
            w.Alltoallv(new int[] {10 * me, 10 * me + 1}, 0, ones, steps, MPI.INT, av, 0, ones, steps, MPI.INT);
            assertArrayEquals(new int[] {me, 10 + me}, av);
            final Object[] ov = new Object[6];
            w.Allgatherv(new Object[] {"r" + me, "r" + me}, 0, 2 - me, MPI.OBJECT, ov, 0, counts, displs, MPI.OBJECT);
            assertArrayEquals(new Object[] {"r0", "r0", null, null, "r1", null}, ov);
            final int[] rs = new int[2];
            w.Reduce_scatter(new int[] {1, 2, 3}, 0, rs, 0, new int[] {2, 1, 9, 9}, MPI.INT, MPI.SUM);
            assertArrayEquals(0 == me ? new int[] {2, 4} : new int[] {6, 0}, rs);
        });
    }
}
