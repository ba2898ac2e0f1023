package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point as MPJ Express programs use it: offsets in elements, every datatype, objects, statuses. */
@Timeout(60)
class PointToPointTest {

    /** A user class sent as MPI.OBJECT (not in java.base: Tutti's own allow-list would refuse it). */
    record Point(int x, String label) implements Serializable {
    }

    @Test
    void shouldSendEveryBasicTypeFromAndToOffsets() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final Object[] sends = {new byte[] {0, 1, 2, 3}, new char[] {'a', 'b', 'c', 'd'},
                new short[] {0, 1, 2, 3}, new boolean[] {false, true, false, true}, new int[] {0, 1, 2, 3},
                new long[] {0, 1, 2, 3}, new float[] {0, 1, 2, 3}, new double[] {0, 1, 2, 3}};
            final Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT,
                MPI.DOUBLE};
            for (int t = 0; t < types.length; t++) {
                if (0 == w.Rank()) {
                    w.Send(sends[t], 1, 2, types[t], 1, t);
                } else {
                    final Object into = java.lang.reflect.Array.newInstance(sends[t].getClass().getComponentType(), 5);
                    final Status s = w.Recv(into, 3, 2, types[t], 0, t);
                    assertEquals(0, s.source);
                    assertEquals(t, s.tag);
                    assertEquals(2, s.Get_count(types[t]));
                    assertEquals(java.lang.reflect.Array.get(sends[t], 1), java.lang.reflect.Array.get(into, 3));
                    assertEquals(java.lang.reflect.Array.get(sends[t], 2), java.lang.reflect.Array.get(into, 4));
                }
            }
        });
    }

    @Test
    void shouldSendObjectsOfUserClassesWithNullsAndCountThem() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.Rank()) {
                final Object[] out = {"skip", new Point(1, "one"), null, List.of(1, 2), new int[][] {{7}}};
                w.Send(out, 1, 4, MPI.OBJECT, 1, 5);
                w.Isend(new Point[] {new Point(9, "nine")}, 0, 1, MPI.OBJECT, 1, 6).Wait();
            } else {
                final Object[] in = new Object[7];
                final Status s = w.Recv(in, 2, 5, MPI.OBJECT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(4, s.Get_count(MPI.OBJECT));
                assertEquals(5, s.tag);
                assertEquals(new Point(1, "one"), in[2]);
                assertNull(in[3]);
                assertEquals(List.of(1, 2), in[4]);
                assertEquals(7, ((int[][]) in[5])[0][0]);
                final Point[] p = new Point[1];
                final Request r = w.Irecv(p, 0, 1, MPI.OBJECT, 0, 6);
                assertEquals(1, r.Wait().Get_count(MPI.OBJECT));
                assertEquals("nine", p[0].label());
                assertTrue(r.Is_null());
            }
        });
    }

    @Test
    void shouldRefuseNonSerializableObjectsAndOverlongMessages() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.Rank()) {
                final MPIException e = assertThrows(MPIException.class,
                    () -> w.Send(new Object[] {new Object()}, 0, 1, MPI.OBJECT, 1, 0));
                assertTrue(e.getMessage().contains("not Serializable"), e.getMessage());
                w.Send(new int[] {1, 2, 3}, 0, 3, MPI.INT, 1, 1);
                w.Send(new String[] {"a", "b"}, 0, 2, MPI.OBJECT, 1, 2);
            } else {
                assertThrows(MPIException.class, () -> w.Recv(new int[2], 0, 2, MPI.INT, 0, 1));
                final MPIException e = assertThrows(MPIException.class,
                    () -> w.Recv(new Object[2], 0, 1, MPI.OBJECT, 0, 2));
                assertTrue(e.getMessage().contains("count 1 is less than length 2"), e.getMessage());
            }
        });
    }

    @Test
    void shouldRefuseBadArgumentsNamingThem() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final MPIException type = assertThrows(MPIException.class,
                () -> w.Send(new int[2], 0, 2, MPI.DOUBLE, 1, 0));
            assertTrue(type.getCause() instanceof ClassCastException, type.toString());
            final MPIException bounds = assertThrows(MPIException.class,
                () -> w.Send(new int[2], 1, 2, MPI.INT, 1, 0));
            assertTrue(bounds.getMessage().contains("offset=1"), bounds.getMessage());
            assertThrows(MPIException.class, () -> w.Send(new int[2], 0, 2, MPI.INT, 9, 0));
            assertThrows(MPIException.class, () -> w.Send(new int[2], 0, 2, MPI.INT, -1, 0));
            assertThrows(MPIException.class, () -> w.Send(new int[2], 0, 2, MPI.INT, 1, -5));
            w.Barrier();
        });
    }

    @Test
    void shouldTreatProcNullAsTheNullProcess() {
        MpjJobs.mpi(2, args -> {
            MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
            final Status s = MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, s.source);
            assertEquals(0, s.Get_count(MPI.INT));
        });
    }

    @Test
    void shouldCompleteNonblockingPersistentAndCombinedCalls() {
        MpjJobs.mpi(3, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            if (0 == me) {
                final int[][] in = new int[2][1];
                final Request[] r = {w.Irecv(in[0], 0, 1, MPI.INT, 1, 0), null, w.Irecv(in[1], 0, 1, MPI.INT, 2, 0)};
                final Status first = Request.Waitany(r);
                assertTrue(0 == first.index || 2 == first.index, "index " + first.index);
                final Status[] all = Request.Waitall(r);
                assertNull(all[1]);
                assertEquals(11 + 12, in[0][0] + in[1][0]);
                final Status none = Request.Waitany(new Request[] {null, MPI.REQUEST_NULL});
                assertEquals(MPI.UNDEFINED, none.index);
            } else {
                w.Ssend(new int[] {10 + me}, 0, 1, MPI.INT, 0, 0);
            }
            // persistent ring, started three times
            final int[] token = new int[1];
            final int[] got = new int[1];
            final Prequest send = w.Send_init(token, 0, 1, MPI.INT, (me + 1) % 3, 7);
            final Prequest recv = w.Recv_init(got, 0, 1, MPI.INT, (me + 2) % 3, 7);
            for (int round = 0; round < 3; round++) {
                token[0] = 100 * round + me;
                Prequest.Startall(new Prequest[] {send, recv});
                Request.Waitall(new Request[] {send, recv});
                assertEquals(100 * round + (me + 2) % 3, got[0]);
            }
            // Sendrecv and Sendrecv_replace around the ring
            final long[] out = {me, -1, -1};
            w.Sendrecv(out, 0, 1, MPI.LONG, (me + 1) % 3, 1, out, 2, 1, MPI.LONG, (me + 2) % 3, 1);
            assertEquals((me + 2) % 3, out[2]);
            final double[] rep = {me, me};
            w.Sendrecv_replace(rep, 0, 2, MPI.DOUBLE, (me + 1) % 3, 2, MPI.ANY_SOURCE, 2);
            assertEquals((me + 2) % 3, rep[1], 0.0);
        });
    }

    @Test
    void shouldProbeTestCancelAndCountElements() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.Rank()) {
                assertNull(w.Iprobe(1, 99));
                final int[] nothing = new int[1];
                final Request never = w.Irecv(nothing, 0, 1, MPI.INT, 1, 99);
                assertNull(never.Test());
                never.Cancel();
                assertTrue(never.Wait().Test_cancelled());
                w.Send(new int[] {1, 2, 3, 4, 5, 6}, 0, 6, MPI.INT, 1, 3);
            } else {
                final Status p = w.Probe(0, 3);
                assertEquals(6, p.Get_count(MPI.INT));
                final Datatype triple = Datatype.Contiguous(3, MPI.INT);
                final int[] in = new int[6];
                final Status s = w.Recv(in, 0, 2, triple, 0, 3);
                assertEquals(2, s.Get_count(MPI.INT));
                assertEquals(6, s.Get_elements(MPI.INT));
                assertFalse(s.Test_cancelled());
                assertThrows(MPIException.class, () -> s.Get_count(MPI.DOUBLE));
                assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, in);
            }
        });
    }

    @Test
    void shouldSendBufferedAndPackedMessages() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.Rank()) {
                final MPIException none = assertThrows(MPIException.class,
                    () -> w.Bsend(new int[1], 0, 1, MPI.INT, 1, 0));
                assertTrue(none.getMessage().contains("No buffer has been attached"), none.getMessage());
                MPI.Buffer_attach(ByteBuffer.allocateDirect(1000));
                w.Bsend(new int[] {42}, 0, 1, MPI.INT, 1, 0);
                assertThrows(MPIException.class, () -> w.Bsend(new int[1000], 0, 1000, MPI.INT, 1, 0));
                MPI.Buffer_detach();
                final int cap = w.Pack_size(2, MPI.INT) + w.Pack_size(1, MPI.DOUBLE) + 200;
                final mpjbuf.Buffer b = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(cap), MPI.SEND_OVERHEAD, cap);
                int pos = w.Pack(new int[] {0, 7, 8}, 1, 2, MPI.INT, b, 0);
                pos = w.Pack(new double[] {2.5}, 0, 1, MPI.DOUBLE, b, pos);
                pos = w.Pack(new Object[] {"text"}, 0, 1, MPI.OBJECT, b, pos);
                w.Send(b, 0, pos, MPI.PACKED, 1, 1);
            } else {
                final int[] got = new int[1];
                w.Recv(got, 0, 1, MPI.INT, 0, 0);
                assertEquals(42, got[0]);
                final mpjbuf.Buffer b = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(400), MPI.RECV_OVERHEAD, 400);
                w.Recv(b, 0, 400, MPI.PACKED, 0, 1);
                final int[] ints = new int[2];
                final double[] d = new double[1];
                final Object[] o = new Object[1];
                int pos = w.Unpack(b, 0, ints, 0, 2, MPI.INT);
                pos = w.Unpack(b, pos, d, 0, 1, MPI.DOUBLE);
                w.Unpack(b, pos, o, 0, 1, MPI.OBJECT);
                assertArrayEquals(new int[] {7, 8}, ints);
                assertEquals(2.5, d[0]);
                assertEquals("text", o[0]);
                mpjbuf.BufferFactory.destroy(b.getStaticBuffer());
            }
        });
    }

    @Test
    void shouldInitStripLauncherWordsAndInitAgainAfterFinalize() {
        MpjJobs.run(2, ignored -> {
            assertFalse(MPI.Initialized());
            final String[] own = MPI.Init(new String[] {"0", "2", "smpdev", "alpha", "beta"});
            assertArrayEquals(new String[] {"alpha", "beta"}, own);
            assertArrayEquals(new String[] {"x"}, MPI.programArgs(new String[] {"x"}));
            assertTrue(MPI.Initialized());
            final MPIException twice = assertThrows(MPIException.class, () -> MPI.Init(new String[0]));
            assertTrue(twice.getMessage().contains("already been successfully initialized"), twice.getMessage());
            MPI.Finalize();
            assertFalse(MPI.Initialized());
            assertThrows(MPIException.class, () -> MPI.COMM_WORLD.Rank());
            MPI.Init(new String[0]);
            final int[] sum = new int[1];
            MPI.COMM_WORLD.Allreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            assertEquals(2, sum[0]);
            assertNotNull(MPI.COMM_SELF);
            assertEquals(1, MPI.COMM_SELF.Size());
            assertEquals(0, MPI.COMM_SELF.Rank());
            assertEquals(MPI.ERRORS_RETURN, MPI.Errorhandler_get());
            assertTrue(MPI.Wtick() > 0 && MPI.Wtime() > 1e9);
            assertEquals(Integer.valueOf(MPI.COMM_WORLD.Rank()), MPI.COMM_WORLD.Attr_get(MPI.TAG_UB));
            MPI.Finalize();
        });
    }
}
