package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Several nonblocking collectives and point-to-point messages in flight at once on one communicator. */
@Timeout(60)
class CollNonblockingTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    @RepeatedTest(5)
    void shouldCompleteManyOutstandingCollectivesWithP2pInterleaved() {
        for (final int p : new int[] {2, 3, 5, 8}) {
            Tutti.runLocal(p, OPTS, w -> {
                final int me = w.rank();
                final int n = w.size();
                final List<Request> rs = new ArrayList<>();
                final int[] sum = new int[100];
                final int[] mine = new int[100];
                java.util.Arrays.fill(mine, me + 1);
                rs.add(w.iallreduce(Buf.of(mine), Buf.of(sum), Op.SUM));
                final int[] recvP2p = new int[1];
                rs.add(w.irecv(Buf.of(recvP2p), (me + n - 1) % n, 9));
                final double[] bc = new double[50_000];
                if (0 == me) {
                    java.util.Arrays.fill(bc, 2.5);
                }
                rs.add(w.ibcast(Buf.of(bc), 0));
                rs.add(w.ibarrier());
                final long[] gathered = new long[n];
                rs.add(w.iallgather(Buf.of(new long[] {me * 10L}), Buf.of(gathered)));
                rs.add(w.isend(Buf.of(new int[] {me}), (me + 1) % n, 9));
                final int[] a2a = new int[n];
                final int[] a2aOut = new int[n];
                for (int j = 0; j < n; j++) {
                    a2aOut[j] = me * 100 + j;
                }
                rs.add(w.ialltoall(Buf.of(a2aOut), Buf.of(a2a)));
                // Complete in reverse order of start: the engine must progress all of them meanwhile.
                for (int i = rs.size() - 1; i >= 0; i--) {
                    rs.get(i).waitFor();
                }
                assertEquals(n * (n + 1) / 2, sum[99]);
                assertEquals((me + n - 1) % n, recvP2p[0]);
                assertEquals(2.5, bc[49_999]);
                for (int j = 0; j < n; j++) {
                    assertEquals(j * 10L, gathered[j]);
                    assertEquals(j * 100 + me, a2a[j]);
                }
            });
        }
    }

    @Test
    void shouldProgressAnOutstandingCollectiveWhileBlockedInARecv() {
        // Rank 0 starts ibarrier and then blocks in a recv that rank 1 only satisfies after its own barrier
        // completes, which needs rank 0's barrier to progress while rank 0 waits in recv (MPI's progress rule).
        Tutti.runLocal(4, OPTS.algorithm("barrier", "dissemination"), w -> {
            final Request bar = w.ibarrier();
            if (0 == w.rank()) {
                final int[] x = new int[1];
                w.recv(Buf.of(x), 1, 0);
                assertEquals(7, x[0]);
            } else if (1 == w.rank()) {
                bar.waitFor();
                w.send(Buf.of(new int[] {7}), 0, 0);
            }
            bar.waitFor();
        });
    }

    @Test
    void shouldKeepCollectivesApartFromP2pWithSameNumbers() {
        Tutti.runLocal(3, OPTS, w -> {
            // A p2p message with tag 0 sent before a bcast must not be taken by the bcast, and vice versa.
            if (0 == w.rank()) {
                w.send(Buf.of(new int[] {-1}), 1, 0);
            }
            final int[] b = {0 == w.rank() ? 5 : 0};
            w.bcast(Buf.of(b), 0);
            assertEquals(5, b[0]);
            if (1 == w.rank()) {
                final int[] x = new int[1];
                w.recv(Buf.of(x), 0, Communicator.ANY_TAG);
                assertEquals(-1, x[0]);
            }
        });
    }

    @Test
    void shouldRunObjectCollectives() {
        Tutti.runLocal(4, OPTS, w -> {
            final int me = w.rank();
            assertEquals("root", w.bcastObject(me == 2 ? "root" : null, 2));
            final List<String> g = w.gatherObject("r" + me, 1);
            if (1 == me) {
                assertEquals(List.of("r0", "r1", "r2", "r3"), g);
            }
            assertEquals("v" + me, w.scatterObject(me == 3 ? List.of("v0", "v1", "v2", "v3") : null, 3));
            assertEquals(List.of(0, 1, 2, 3), w.allgatherObject(me));
            final List<String> out = new ArrayList<>();
            for (int j = 0; j < 4; j++) {
                out.add(me + "->" + j);
            }
            final List<String> in = w.alltoallObject(out);
            for (int j = 0; j < 4; j++) {
                assertEquals(j + "->" + me, in.get(j));
            }
            assertEquals("abcd", w.allreduceObject(String.valueOf((char) ('a' + me)), String::concat));
            final String reduced = w.reduceObject(String.valueOf((char) ('a' + me)), String::concat, 0);
            assertEquals(0 == me ? "abcd" : null, reduced);
            assertEquals("abcd".substring(0, me + 1), w.scanObject(String.valueOf((char) ('a' + me)),
                String::concat));
            assertEquals(0 == me ? null : "abcd".substring(0, me), w.exscanObject(String.valueOf((char) ('a' + me)),
                String::concat));
            assertArrayEquals(new int[] {1, 2}, w.bcastObject(me == 0 ? new int[] {1, 2} : null, 0));
        });
    }
}
