package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point programs in the style of Open MPI's Java examples, on 4 embedded ranks. */
@Timeout(60)
class PointToPointTest {

    /** The classic ring: rank 0 sends 10 round the ring, each pass through 0 decrements it, all stop at 0. */
    @Test
    void shouldPassAMessageRoundTheRing() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int size = MPI.COMM_WORLD.getSize();
            final int next = (rank + 1) % size;
            final int prev = (rank + size - 1) % size;
            final int[] message = new int[1];
            if (0 == rank) {
                message[0] = 10;
                MPI.COMM_WORLD.send(message, 1, MPI.INT, next, 201);
            }
            int passes = 0;
            while (true) {
                final Status s = MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, 201);
                assertEquals(prev, s.getSource());
                assertEquals(201, s.getTag());
                assertEquals(1, s.getCount(MPI.INT));
                if (0 == rank) {
                    --message[0];
                }
                MPI.COMM_WORLD.send(message, 1, MPI.INT, next, 201);
                passes++;
                if (0 == message[0]) {
                    break;
                }
            }
            if (0 == rank) {
                MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, 201);
            }
            assertEquals(0 == rank ? 10 : 11, passes); // 0 sees 10..1; the others 10..0
            MPI.Finalize();
        });
    }

    @Test
    void shouldMoveDataWithNonblockingCallsAndDirectBuffers() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int size = MPI.COMM_WORLD.getSize();
            final IntBuffer out = MPI.newIntBuffer(3);
            out.put(0, rank).put(1, rank * 10).put(2, -rank);
            final IntBuffer in = MPI.newIntBuffer(3);
            final Request[] rs = {
                MPI.COMM_WORLD.iRecv(in, 3, MPI.INT, MPI.ANY_SOURCE, 7),
                MPI.COMM_WORLD.iSend(out, 3, MPI.INT, (rank + 1) % size, 7),
            };
            final Status[] st = Request.waitAllStatus(rs);
            final int prev = (rank + size - 1) % size;
            assertEquals(prev, st[0].getSource());
            assertEquals(3, st[0].getCount(MPI.INT));
            assertEquals(prev * 10, in.get(1));
            assertTrue(rs[0].isNull() && rs[1].isNull());
            assertThrows(IllegalArgumentException.class, () -> MPI.COMM_WORLD.iSend(IntBuffer.allocate(1), 1,
                MPI.INT, 0, 0));
            // waitAny / waitSome over two receives
            final DoubleBuffer a = MPI.newDoubleBuffer(1);
            final DoubleBuffer b = MPI.newDoubleBuffer(1);
            final Request[] two = {MPI.COMM_WORLD.iRecv(a, 1, MPI.DOUBLE, prev, 1),
                MPI.COMM_WORLD.iRecv(b, 1, MPI.DOUBLE, prev, 2)};
            MPI.COMM_WORLD.send(new double[] {rank + 0.5}, 1, MPI.DOUBLE, (rank + 1) % size, 2);
            final int first = Request.waitAny(two);
            assertEquals(1, first);
            MPI.COMM_WORLD.barrier(); // every rank has seen tag 2 alone before tag 1 is sent
            MPI.COMM_WORLD.send(new double[] {rank + 0.25}, 1, MPI.DOUBLE, (rank + 1) % size, 1);
            final int[] some = Request.waitSome(two);
            assertArrayEquals(new int[] {0}, some);
            assertNull(Request.waitSome(two)); // all null now
            assertEquals(MPI.UNDEFINED, Request.waitAny(two));
            assertEquals(prev + 0.25, a.get(0));
            assertEquals(prev + 0.5, b.get(0));
            MPI.Finalize();
        });
    }

    @Test
    void shouldExchangeWithSendRecvAndProbe() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int size = w.getSize();
            final long[] got = new long[2];
            final Status s = w.sendRecv(new long[] {rank, rank * rank}, 2, MPI.LONG, (rank + 1) % size, 5, got, 2,
                MPI.LONG, (rank + size - 1) % size, 5);
            final int prev = (rank + size - 1) % size;
            assertArrayEquals(new long[] {prev, (long) prev * prev}, got);
            assertEquals(prev, s.getSource());
            final char[] buf = {(char) ('a' + rank), 'x'};
            w.sendRecvReplace(buf, 2, MPI.CHAR, (rank + 1) % size, 6, prev, 6);
            assertEquals((char) ('a' + prev), buf[0]);
            // probe, then receive exactly what arrived
            if (0 == rank) {
                w.send(new short[] {1, 2, 3, 4, 5}, 5, MPI.SHORT, 1, 9);
            } else if (1 == rank) {
                final Status p = w.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(0, p.getSource());
                assertEquals(9, p.getTag());
                assertEquals(5, p.getCount(MPI.SHORT));
                final short[] in = new short[p.getCount(MPI.SHORT)];
                w.recv(in, in.length, MPI.SHORT, 0, 9);
                assertArrayEquals(new short[] {1, 2, 3, 4, 5}, in);
                assertNull(w.iProbe(0, 9));
            }
            // PROC_NULL: nothing moves, the status says so
            final Status none = w.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, none.getSource());
            assertEquals(0, none.getCount(MPI.INT));
            w.send(null, 0, MPI.INT, MPI.PROC_NULL, 0);
            // an offset into an array through slice
            final int[] big = new int[10];
            if (0 == rank) {
                w.send(MPI.slice(new int[] {0, 0, 0, 7, 8}, 3), 2, MPI.INT, 1, 11);
            } else if (1 == rank) {
                w.recv(MPI.slice(big, 4), 2, MPI.INT, 0, 11);
                assertEquals(7, big[4]);
                assertEquals(8, big[5]);
                assertEquals(0, big[3]);
            }
            // booleans
            final boolean[] flags = {rank % 2 == 0, true};
            final boolean[] in = new boolean[2];
            w.sendRecv(flags, 2, MPI.BOOLEAN, (rank + 1) % size, 12, in, 2, MPI.BOOLEAN, prev, 12);
            assertEquals(prev % 2 == 0, in[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldCancelAReceiveAndReuseAPersistentRequest() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final Request r = MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 999);
            r.cancel();
            assertTrue(r.waitStatus().isCancelled());
            final IntBuffer buf = MPI.newIntBuffer(1);
            final Prequest p = 0 == rank ? MPI.COMM_WORLD.sendInit(buf, 1, MPI.INT, 1, 3)
                : MPI.COMM_WORLD.recvInit(buf, 1, MPI.INT, 0, 3);
            for (int i = 0; i < 3; i++) {
                if (0 == rank) {
                    buf.put(0, 100 + i);
                }
                p.start();
                p.waitFor();
                assertFalse(p.isNull());
                if (1 == rank) {
                    assertEquals(100 + i, buf.get(0));
                }
            }
            p.free();
            assertTrue(p.isNull());
            assertNotNull(MPI.REQUEST_NULL);
            assertTrue(MPI.REQUEST_NULL.isNull());
            MPI.Finalize();
        });
    }
}
