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
 * Request operations as the MPI standard (3.7.3, 3.7.5, 3.9) defines them, corners first: null handles, inactive
 * persistent requests and empty arrays in every completion call, the empty status, getStatus leaving the request
 * alone, cancel of pending and of completed receives, persistent requests started again and again.
 */
@Timeout(60)
class ConformanceRequestTest {

    /** MPI's empty status: source ANY_SOURCE, tag ANY_TAG, count 0, not cancelled. */
    private static void assertEmpty(final Status s) throws MPIException {
        assertNotNull(s);
        assertEquals(MPI.ANY_SOURCE, s.getSource());
        assertEquals(MPI.ANY_TAG, s.getTag());
        assertEquals(0, s.getCount(MPI.INT));
        assertEquals(0, s.getElements(MPI.INT));
        assertEquals(MPI.SUCCESS, s.getError());
        assertFalse(s.isCancelled());
    }

    @Test
    void shouldCompleteNullRequestsAtOnceWithTheEmptyStatus() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Request none = MPI.REQUEST_NULL;
            assertEmpty(none.waitStatus());
            none.waitFor();
            assertEmpty(none.testStatus());
            assertTrue(none.test());
            assertEmpty(none.getStatus());
            none.free(); // freeing a null request does nothing
            assertTrue(none.isNull());
            final Request[] nulls = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
            assertEquals(MPI.UNDEFINED, Request.waitAny(nulls));
            assertEquals(MPI.UNDEFINED, Request.waitAnyStatus(nulls).getIndex());
            assertEquals(MPI.UNDEFINED, Request.testAny(nulls));
            final Status any = Request.testAnyStatus(nulls); // flag true: a status, index UNDEFINED
            assertNotNull(any);
            assertEquals(MPI.UNDEFINED, any.getIndex());
            assertEmpty(any);
            Request.waitAll(nulls);
            final Status[] all = Request.waitAllStatus(nulls);
            assertEquals(2, all.length);
            assertEmpty(all[0]);
            assertEmpty(all[1]);
            assertTrue(Request.testAll(nulls));
            assertEquals(2, Request.testAllStatus(nulls).length);
            assertNull(Request.waitSome(nulls)); // outcount MPI_UNDEFINED
            assertNull(Request.waitSomeStatus(nulls));
            assertNull(Request.testSome(nulls));
            assertNull(Request.testSomeStatus(nulls));
            MPI.Finalize();
        });
    }

    @Test
    void shouldTreatAnEmptyArrayAsAllNull() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Request[] empty = new Request[0];
            assertEquals(MPI.UNDEFINED, Request.waitAny(empty));
            assertEquals(MPI.UNDEFINED, Request.testAny(empty));
            assertNotNull(Request.testAnyStatus(empty));
            Request.waitAll(empty);
            assertEquals(0, Request.waitAllStatus(empty).length);
            assertTrue(Request.testAll(empty));
            assertEquals(0, Request.testAllStatus(empty).length);
            assertNull(Request.waitSome(empty));
            assertNull(Request.testSome(empty));
            MPI.Finalize();
        });
    }

    @Test
    void shouldTreatInactivePersistentRequestsAsNull() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int other = 1 - w.getRank();
            final Prequest p = w.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, other, 4); // never started: inactive
            assertFalse(p.isNull());
            assertEmpty(p.waitStatus());
            assertTrue(p.test());
            assertFalse(p.isNull()); // stays allocated
            final Request[] inactive = {p, MPI.REQUEST_NULL};
            assertEquals(MPI.UNDEFINED, Request.waitAny(inactive));
            assertEquals(MPI.UNDEFINED, Request.testAny(inactive));
            assertTrue(Request.testAll(inactive));
            assertNull(Request.waitSome(inactive));
            assertNull(Request.testSome(inactive));
            // mixed: one active receive among inactive and null ones
            final IntBuffer in = MPI.newIntBuffer(1);
            final Prequest q = w.recvInit(in, 1, MPI.INT, other, 5);
            final Request[] mixed = {p, MPI.REQUEST_NULL, q};
            q.start();
            w.send(new int[] {40 + w.getRank()}, 1, MPI.INT, other, 5);
            final Status s = Request.waitAnyStatus(mixed);
            assertEquals(2, s.getIndex());
            assertEquals(other, s.getSource());
            assertEquals(5, s.getTag());
            assertEquals(40 + other, in.get(0));
            assertFalse(q.isNull()); // persistent: inactive again, not null
            assertEquals(MPI.UNDEFINED, Request.waitAny(mixed));
            p.free();
            q.free();
            assertTrue(p.isNull() && q.isNull());
            MPI.Finalize();
        });
    }

    @Test
    void shouldStartAllAndCompleteInEveryWay() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int other = 1 - rank;
            final IntBuffer out = MPI.newIntBuffer(2);
            final IntBuffer in = MPI.newIntBuffer(2);
            final Prequest[] ps = {w.sendInit(out, 2, MPI.INT, other, 1), w.recvInit(in, 2, MPI.INT, other, 1)};
            for (int round = 0; round < 4; round++) {
                out.put(0, rank).put(1, round);
                Prequest.startAll(ps);
                switch (round) {
                    case 0 -> Request.waitAll(ps);
                    case 1 -> {
                        final Status[] st = Request.waitAllStatus(ps);
                        assertEquals(other, st[1].getSource());
                        assertEquals(2, st[1].getCount(MPI.INT));
                    }
                    case 2 -> {
                        while (!Request.testAll(ps)) {
                            Thread.onSpinWait();
                        }
                    }
                    default -> {
                        int done = 0;
                        while (done < 2) {
                            final int[] some = Request.waitSome(ps);
                            assertNotNull(some);
                            done += some.length;
                        }
                        assertNull(Request.waitSome(ps)); // both inactive now
                    }
                }
                assertArrayEquals(new int[] {other, round}, new int[] {in.get(0), in.get(1)});
                assertFalse(ps[0].isNull() || ps[1].isNull());
                w.barrier();
            }
            ps[0].free();
            ps[1].free();
            MPI.Finalize();
        });
    }

    @Test
    void shouldReportTheStatusWithoutFreeingTheRequest() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                final IntBuffer in = MPI.newIntBuffer(1);
                final Request r = w.iRecv(in, 1, MPI.INT, 1, 2);
                assertNull(r.getStatus()); // not yet sent
                assertNull(r.testStatus());
                assertEquals(MPI.UNDEFINED, Request.testAny(new Request[] {r}));
                assertNull(Request.testAnyStatus(new Request[] {r}));
                assertFalse(Request.testAll(new Request[] {r}));
                assertNull(Request.testAllStatus(new Request[] {r}));
                assertArrayEquals(new int[0], Request.testSome(new Request[] {r}));
                assertEquals(0, Request.testSomeStatus(new Request[] {r}).length);
                w.barrier();
                Status s;
                while (null == (s = r.getStatus())) {
                    Thread.onSpinWait();
                }
                assertEquals(1, s.getSource());
                assertEquals(2, s.getTag());
                assertFalse(r.isNull()); // getStatus leaves the request active
                final Status again = r.waitStatus();
                assertEquals(1, again.getSource());
                assertEquals(1, again.getCount(MPI.INT));
                assertTrue(r.isNull());
                assertEquals(9, in.get(0));
            } else {
                w.barrier();
                w.send(new int[] {9}, 1, MPI.INT, 0, 2);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCancelAPendingReceiveAndLeaveItsBufferAlone() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (1 == w.getRank()) {
                final IntBuffer buf = MPI.newIntBuffer(3);
                buf.put(0, -7).put(1, -8).put(2, -9);
                final Request pending = w.iRecv(buf, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                pending.cancel();
                final Status s = pending.waitStatus();
                assertTrue(s.isCancelled());
                assertTrue(pending.isNull());
                assertArrayEquals(new int[] {-7, -8, -9}, new int[] {buf.get(0), buf.get(1), buf.get(2)});
                // a completed receive cannot be cancelled: the data arrived, the status says not cancelled
                final IntBuffer got = MPI.newIntBuffer(1);
                final Request done = w.iRecv(got, 1, MPI.INT, 0, 6);
                w.barrier();
                while (null == done.getStatus()) {
                    Thread.onSpinWait();
                }
                done.cancel();
                final Status ds = done.waitStatus();
                assertFalse(ds.isCancelled());
                assertEquals(0, ds.getSource());
                assertEquals(6, ds.getTag());
                assertEquals(1, ds.getCount(MPI.INT));
                assertEquals(66, got.get(0));
                // a cancelled persistent receive is inactive again and can be started
                final IntBuffer pbuf = MPI.newIntBuffer(1);
                final Prequest p = w.recvInit(pbuf, 1, MPI.INT, 0, 7);
                p.start();
                p.cancel();
                assertTrue(p.waitStatus().isCancelled());
                assertFalse(p.isNull());
                w.barrier();
                p.start();
                final Status ps = p.waitStatus();
                assertFalse(ps.isCancelled());
                assertEquals(77, pbuf.get(0));
                p.free();
            } else {
                w.barrier();
                w.send(new int[] {66}, 1, MPI.INT, 1, 6);
                w.barrier();
                w.send(new int[] {77}, 1, MPI.INT, 1, 7);
            }
            MPI.Finalize();
        });
    }

    /** A freed active request still completes: the message arrives; the handle is null at once. */
    @Test
    void shouldCompleteAFreedSendInTheBackground() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                final IntBuffer big = MPI.newIntBuffer(50_000);
                big.put(49_999, 5);
                final Request r = w.iSend(big, 50_000, MPI.INT, 1, 1);
                r.free();
                assertTrue(r.isNull());
                assertEmpty(r.waitStatus()); // a null handle now
                final Request t = w.iSend(MPI.newIntBuffer(1).put(0, 6), 1, MPI.INT, 1, 2);
                while (!t.test()) {
                    Thread.onSpinWait();
                }
                assertTrue(t.isNull());
            } else {
                final int[] got = new int[50_000];
                final Status s = w.recv(got, got.length, MPI.INT, 0, 1);
                assertEquals(50_000, s.getCount(MPI.INT));
                assertEquals(5, got[49_999]);
                assertEquals(6, w.recv(got, 1, MPI.INT, 0, 2).getCount(MPI.INT) + got[0] - 1);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCompleteSomeOfManyInAnyOrder() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            if (0 == rank) {
                final IntBuffer[] bufs = new IntBuffer[3];
                final Request[] rs = new Request[5];
                for (int i = 0; i < 3; i++) {
                    bufs[i] = MPI.newIntBuffer(1);
                    rs[i + 1] = w.iRecv(bufs[i], 1, MPI.INT, i + 1, 3);
                }
                rs[0] = MPI.REQUEST_NULL;
                rs[4] = MPI.REQUEST_NULL;
                final boolean[] seen = new boolean[5];
                int done = 0;
                while (done < 3) {
                    final Status[] st = Request.waitSomeStatus(rs);
                    assertNotNull(st);
                    assertTrue(st.length > 0);
                    for (final Status s : st) {
                        final int i = s.getIndex();
                        assertTrue(i >= 1 && i <= 3, "index " + i);
                        assertFalse(seen[i]);
                        seen[i] = true;
                        assertEquals(i, s.getSource());
                        assertTrue(rs[i].isNull());
                        done++;
                    }
                }
                assertNull(Request.waitSomeStatus(rs));
                for (int i = 0; i < 3; i++) {
                    assertEquals(100 * (i + 1), bufs[i].get(0));
                }
            } else {
                w.send(new int[] {100 * rank}, 1, MPI.INT, 0, 3);
            }
            MPI.Finalize();
        });
    }
}
