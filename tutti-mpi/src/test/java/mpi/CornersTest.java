package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The corners a conformance suite probes: count 0, PROC_NULL with statuses, slice offsets in collectives,
 * cancelled and not cancelled receives, testSome before anything completes, and which new communicators get the
 * parent's attributes (duplicates only) and error handler (all).
 */
@Timeout(60)
class CornersTest {

    @Test
    void shouldMoveZeroElements() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int next = (rank + 1) % 3;
            final int prev = (rank + 2) % 3;
            final Status s = w.sendRecv(new int[0], 0, MPI.INT, next, 4, new int[0], 0, MPI.INT, MPI.ANY_SOURCE,
                MPI.ANY_TAG);
            assertEquals(prev, s.getSource());
            assertEquals(4, s.getTag());
            assertEquals(0, s.getCount(MPI.INT));
            assertEquals(0, s.getElements(MPI.INT));
            final int[] untouched = {-1};
            final Request r = w.iRecv(MPI.newIntBuffer(0), 0, MPI.INT, prev, 5);
            w.send(untouched, 0, MPI.INT, next, 5);
            final Status rs = r.waitStatus();
            assertEquals(0, rs.getCount(MPI.INT));
            assertFalse(rs.isCancelled());
            final int[] b = {rank};
            w.bcast(b, 0, MPI.INT, 1);
            assertEquals(rank, b[0]);
            w.allReduce(new int[] {1}, untouched, 0, MPI.INT, MPI.SUM);
            w.gather(new int[0], 0, MPI.INT, untouched, 0, MPI.INT, 0);
            w.allGather(new int[0], 0, MPI.INT, untouched, 0, MPI.INT);
            assertEquals(-1, untouched[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldReportProcNullInEveryStatus() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int[] buf = {42};
            final Status probed = w.probe(MPI.PROC_NULL, 3);
            assertEquals(MPI.PROC_NULL, probed.getSource());
            assertEquals(MPI.ANY_TAG, probed.getTag());
            assertEquals(0, probed.getCount(MPI.INT));
            final Status s = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 3).waitStatus();
            assertEquals(MPI.PROC_NULL, s.getSource());
            assertEquals(MPI.ANY_TAG, s.getTag());
            assertEquals(0, s.getCount(MPI.INT));
            assertFalse(s.isCancelled());
            final Request send = w.iSend(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 3);
            send.waitFor();
            assertTrue(send.isNull());
            final Status sr = w.sendRecv(buf, 1, MPI.INT, MPI.PROC_NULL, 1, buf, 1, MPI.INT, MPI.PROC_NULL, 1);
            assertEquals(MPI.PROC_NULL, sr.getSource());
            assertEquals(42, buf[0]);
            w.sendRecvReplace(buf, 1, MPI.INT, MPI.PROC_NULL, 1, MPI.PROC_NULL, 1);
            assertEquals(42, buf[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldHonourSliceOffsetsInCollectives() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] b = {-1, -1, 0 == rank ? 7 : 0, 0 == rank ? 8 : 0, -1};
            w.bcast(MPI.slice(b, 2), 2, MPI.INT, 0);
            assertArrayEquals(new int[] {-1, -1, 7, 8, -1}, b);
            final long[] in = {99, rank, 2L * rank};
            final long[] out = new long[4];
            w.allReduce(MPI.slice(in, 1), MPI.slice(out, 2), 2, MPI.LONG, MPI.SUM);
            assertArrayEquals(new long[] {0, 0, 3, 6}, out);
            final double[] g = new double[5];
            w.gather(MPI.slice(new double[] {-1, rank + 0.5}, 1), 1, MPI.DOUBLE, MPI.slice(g, 2), 1, MPI.DOUBLE, 2);
            if (2 == rank) {
                assertArrayEquals(new double[] {0, 0, 0.5, 1.5, 2.5}, g);
            }
            final int[] inPlace = {-5, rank, rank};
            w.allReduce(MPI.slice(inPlace, 1), 2, MPI.INT, MPI.MAX);
            assertArrayEquals(new int[] {-5, 2, 2}, inPlace);
            MPI.Finalize();
        });
    }

    @Test
    void shouldTellCancelledReceivesFromCompletedOnes() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            if (1 == rank) {
                final IntBuffer first = MPI.newIntBuffer(1);
                final Request cancelled = w.iRecv(first, 1, MPI.INT, 0, 8);
                final Request[] none = {cancelled};
                assertArrayEquals(new int[0], Request.testSome(none));
                cancelled.cancel();
                Status s;
                while (null == (s = cancelled.testStatus())) {
                    Thread.onSpinWait();
                }
                assertTrue(s.isCancelled());
                w.barrier();
                final IntBuffer second = MPI.newIntBuffer(1);
                final Status got = w.iRecv(second, 1, MPI.INT, 0, 8).waitStatus();
                assertFalse(got.isCancelled());
                assertEquals(0, got.getSource());
                assertEquals(81, second.get(0)); // the cancelled receive did not take the message
                assertEquals(0, first.get(0));
            } else {
                w.barrier();
                w.send(new int[] {81}, 1, MPI.INT, 1, 8);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCopyAttributesOnDuplicationOnly() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int key = Comm.createKeyval();
            w.setAttr(key, "parent");
            w.setErrhandler(MPI.ERRORS_RETURN);
            final Intracomm dup = w.dup();
            assertEquals("parent", dup.getAttr(key));
            final CartComm cart = w.createCart(new int[] {2, 2}, new boolean[] {false, false}, false);
            final CartComm cartDup = cart.dup();
            final CartComm sub = cart.sub(new boolean[] {true, false});
            final GraphComm graph = w.createGraph(new int[] {1, 2, 3, 4}, new int[] {1, 2, 3, 0}, false);
            final Intracomm split = w.split(w.getRank() % 2, 0);
            final Intracomm created = w.create(w.getGroup());
            for (final Comm c : new Comm[] {cart, sub, graph, split, created}) {
                assertNull(c.getAttr(key), c.getName());
                assertFalse(c.getErrhandler().isFatal(), c.getName()); // the handler is inherited
            }
            cart.setAttr(key, "cart");
            assertNull(cartDup.getAttr(key));
            assertEquals("cart", cart.dup().getAttr(key));
            assertNotNull(cartDup.getTopo());
            MPI.Finalize();
        });
    }
}
