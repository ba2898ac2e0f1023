package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probes as MPI (3.8) defines them: matched probes take their message out of the queue (two wildcard matched
 * probes get two messages, a later receive or probe the next one), probes report what a receive would get, and
 * wildcard exchanges fill the status.
 */
@Timeout(60)
class ConformanceProbeTest {

    /** A matched probe takes its message out of the queue: a second probe or receive sees the next one. */
    @Test
    void shouldMatchDistinctMessagesWithWildcardMatchedProbes() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            if (0 == rank) {
                w.barrier(); // all six messages are on their way
                final Message[] ms = new Message[6];
                final Status[] ps = new Status[6];
                for (int k = 0; k < 6; k++) {
                    ms[k] = new Message();
                    ps[k] = ms[k].mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w);
                    assertFalse(ms[k].isNull());
                }
                final boolean[] seen = new boolean[40];
                for (int k = 5; k >= 0; k--) { // receive in reverse order of the probes
                    final int n = ps[k].getCount(MPI.INT);
                    final int[] got = new int[n];
                    final Status r = ms[k].mRecv(got, n, MPI.INT);
                    assertTrue(ms[k].isNull());
                    assertEquals(ps[k].getSource(), r.getSource());
                    assertEquals(ps[k].getTag(), r.getTag());
                    assertEquals(n, r.getCount(MPI.INT));
                    assertEquals(r.getSource(), got[0]);
                    assertEquals(r.getTag(), got[1]);
                    assertFalse(seen[r.getTag()], "message " + r.getTag() + " matched twice");
                    seen[r.getTag()] = true;
                }
                // a probed message is not seen by a later receive or probe
                w.barrier();
                final Message m = new Message();
                final Status first = m.mProbe(1, MPI.ANY_TAG, w);
                assertEquals(30, first.getTag());
                assertNull(w.iProbe(1, 30));
                final int[] next = new int[2];
                final Status other = w.recv(next, 2, MPI.INT, 1, MPI.ANY_TAG);
                assertEquals(31, other.getTag());
                final IntBuffer b = MPI.newIntBuffer(2);
                final Status got = m.imRecv(b, 2, MPI.INT).waitStatus();
                assertEquals(30, got.getTag());
                assertEquals(30, b.get(1));
                final Message none = new Message();
                assertNull(none.imProbe(2, 99, w));
                assertTrue(none.isNull());
            } else {
                for (int i = 0; i < 2; i++) {
                    final int tag = 10 * rank + i;
                    w.send(new int[] {rank, tag, 0}, 2 + i, MPI.INT, 0, tag);
                }
                w.barrier();
                w.barrier();
                if (1 == rank) {
                    w.send(new int[] {1, 30}, 2, MPI.INT, 0, 30);
                    w.send(new int[] {1, 31}, 2, MPI.INT, 0, 31);
                }
            }
            MPI.Finalize();
        });
    }

    /** Probes and exchanges with wildcards and PROC_NULL. */
    @Test
    void shouldProbeAndReplaceWithWildcards() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Status nullProbe = w.iProbe(MPI.PROC_NULL, 3);
            assertEquals(MPI.PROC_NULL, nullProbe.getSource()); // flag true at once
            assertEquals(MPI.ANY_TAG, nullProbe.getTag());
            assertEquals(0, nullProbe.getCount(MPI.INT));
            final int next = (rank + 1) % 3;
            final int prev = (rank + 2) % 3;
            final double[] buf = {rank, rank + 0.5};
            final Status s = w.sendRecvReplace(buf, 2, MPI.DOUBLE, next, 10 + rank, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(prev, s.getSource());
            assertEquals(10 + prev, s.getTag());
            assertEquals(2, s.getCount(MPI.DOUBLE));
            assertArrayEquals(new double[] {prev, prev + 0.5}, buf);
            final long[] got = new long[3];
            final Status t = w.sendRecv(new long[] {rank}, 1, MPI.LONG, next, 20, got, 3, MPI.LONG,
                MPI.ANY_SOURCE, 20);
            assertEquals(prev, t.getSource());
            assertEquals(1, t.getCount(MPI.LONG));
            assertEquals(prev, got[0]);
            // probe with wildcards reports what a receive would get
            w.barrier();
            if (0 == rank) {
                w.send(new short[] {1, 2, 3}, 3, MPI.SHORT, 2, 30);
            } else if (2 == rank) {
                final Status p = w.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertEquals(0, p.getSource());
                assertEquals(30, p.getTag());
                assertEquals(3, p.getCount(MPI.SHORT));
                assertEquals(MPI.UNDEFINED, p.getCount(MPI.INT));
                final Status again = w.iProbe(0, 30); // a probe does not receive
                assertEquals(3, again.getCount(MPI.SHORT));
                w.recv(new short[3], 3, MPI.SHORT, 0, 30);
                assertNull(w.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            }
            MPI.Finalize();
        });
    }
}
