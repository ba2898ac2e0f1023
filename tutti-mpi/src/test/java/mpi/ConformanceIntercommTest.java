package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Intercommunicator collectives (MPI 5.2.2 and each collective's intercommunicator paragraph) over an
 * accept/connect intercommunicator between group A (world ranks 0-1, accepting) and group B (world ranks 2-4,
 * connecting), in both directions: the root's process passes MPI.ROOT, the rest of its group MPI.PROC_NULL, and the
 * other group the root's rank in the root's group. Also point-to-point on the intercommunicator (statuses give
 * remote ranks) and count 0.
 */
@Timeout(60)
class ConformanceIntercommTest {

    /** Builds the intercommunicator: A accepts on a port its rank 0 opened and sent to B's rank 0. */
    private static Intercomm connect(final boolean a, final Intracomm half) throws MPIException {
        final char[] name = new char[MPI.MAX_PORT_NAME];
        if (a) {
            final String port = 0 == half.getRank() ? Intracomm.openPort() : null;
            if (0 == half.getRank()) {
                MPI.COMM_WORLD.send(port.toCharArray(), port.length(), MPI.CHAR, 2, 0);
            }
            return half.accept(port, 0);
        }
        if (0 == half.getRank()) {
            MPI.COMM_WORLD.recv(name, name.length, MPI.CHAR, 0, 0);
        }
        return half.connect(new String(name).trim(), 0);
    }

    /** The root argument: MPI.ROOT at the root, PROC_NULL in its group, its rank in the other group. */
    private static int root(final boolean rootInA, final boolean a, final int me, final int rootRank) {
        if (rootInA == a) {
            return me == rootRank ? MPI.ROOT : MPI.PROC_NULL;
        }
        return rootRank;
    }

    @Test
    void shouldRunRootedCollectivesInBothDirections() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final boolean a = MPI.COMM_WORLD.getRank() < 2;
            final Intracomm half = MPI.COMM_WORLD.split(a ? 0 : 1, 0);
            final int me = half.getRank();
            final Intercomm inter = connect(a, half);
            assertEquals(a ? 3 : 2, inter.getRemoteSize());
            // bcast A1 -> B, then B2 -> A
            final int[] b = {a && 1 == me ? 11 : -1, -1};
            inter.bcast(b, 1, MPI.INT, root(true, a, me, 1));
            assertEquals(a && 0 == me ? -1 : 11, b[0]); // A0 is neither root nor receiver
            final int[] b2 = {!a && 2 == me ? 22 : -1};
            inter.bcast(b2, 1, MPI.INT, root(false, a, me, 2));
            assertEquals(!a && 2 != me ? -1 : 22, b2[0]);
            // gather A -> B1 (2 items each), B -> A0
            final int[] gB = new int[4];
            inter.gather(new int[] {10 * me, 10 * me + 1}, 2, MPI.INT, gB, 2, MPI.INT, root(false, a, me, 1));
            if (!a && 1 == me) {
                assertArrayEquals(new int[] {0, 1, 10, 11}, gB);
            }
            final int[] gA = new int[3];
            inter.gather(new int[] {100 + me}, 1, MPI.INT, gA, 1, MPI.INT, root(true, a, me, 0));
            if (a && 0 == me) {
                assertArrayEquals(new int[] {100, 101, 102}, gA);
            }
            // gatherv B -> A1: B's counts {1, 0, 2} at displacements {3, 0, 1}
            final int[] counts = {1, 0, 2};
            final int[] displs = {3, 0, 1};
            final int[] gv = new int[5];
            Arrays.fill(gv, -9);
            final int[] mine = {50 + me, 60 + me};
            inter.gatherv(mine, a ? 0 : counts[me], MPI.INT, gv, counts, displs, MPI.INT, root(true, a, me, 1));
            if (a && 1 == me) {
                assertArrayEquals(new int[] {-9, 52, 62, 50, -9}, gv);
            }
            // scatter B0 -> A, scatterv A0 -> B
            final int[] sc = {-1};
            inter.scatter(new int[] {70, 71}, 1, MPI.INT, sc, 1, MPI.INT, root(false, a, me, 0));
            if (a) {
                assertEquals(70 + me, sc[0]);
            }
            final int[] sv = {-1, -1};
            inter.scatterv(new int[] {-9, 80, 81, -9, 82}, new int[] {2, 0, 1}, new int[] {1, 3, 4}, MPI.INT, sv,
                a ? 0 : new int[] {2, 0, 1}[me], MPI.INT, root(true, a, me, 0));
            if (!a) {
                assertArrayEquals(new int[][] {{80, 81}, {-1, -1}, {82, -1}}[me], sv);
            }
            // reduce A -> B2 and B -> A1
            final int[] rB = {-1, -1};
            inter.reduce(new int[] {me + 1, -me}, rB, 2, MPI.INT, MPI.SUM, root(false, a, me, 2));
            if (!a && 2 == me) {
                assertArrayEquals(new int[] {3, -1}, rB);
            }
            final int[] rA = {-1};
            inter.reduce(new int[] {me + 5}, rA, 1, MPI.INT, MPI.MAX, root(true, a, me, 1));
            assertEquals(a && 1 == me ? 7 : -1, rA[0]);
            // nonblocking rooted forms, direct buffers
            final IntBuffer nb = MPI.newIntBuffer(3).put(0, a && 0 == me ? 33 : -1);
            inter.iBcast(nb, 1, MPI.INT, root(true, a, me, 0)).waitFor();
            assertEquals(a && 1 == me ? -1 : 33, nb.get(0));
            final IntBuffer ng = MPI.newIntBuffer(3);
            inter.iGather(MPI.newIntBuffer(1).put(0, 40 + me), 1, MPI.INT, ng, 1, MPI.INT,
                root(true, a, me, 1)).waitFor();
            if (a && 1 == me) {
                assertArrayEquals(new int[] {40, 41, 42}, new int[] {ng.get(0), ng.get(1), ng.get(2)});
            }
            final IntBuffer nr = MPI.newIntBuffer(1).put(0, -1);
            inter.iReduce(MPI.newIntBuffer(1).put(0, me + 1), nr, 1, MPI.INT, MPI.PROD,
                root(false, a, me, 0)).waitFor();
            if (!a && 0 == me) {
                assertEquals(2, nr.get(0));
            }
            final IntBuffer ns = MPI.newIntBuffer(1).put(0, -1);
            final IntBuffer src = MPI.newIntBuffer(2).put(0, 90).put(1, 91);
            inter.iScatter(src, 1, MPI.INT, ns, 1, MPI.INT, root(false, a, me, 1)).waitFor();
            if (a) {
                assertEquals(90 + me, ns.get(0));
            }
            inter.disconnect();
            half.free();
            MPI.Finalize();
        });
    }

    @Test
    void shouldRunAllToAllFormsAcrossTheGroups() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final boolean a = MPI.COMM_WORLD.getRank() < 2;
            final Intracomm half = MPI.COMM_WORLD.split(a ? 0 : 1, 0);
            final int me = half.getRank();
            final Intercomm inter = connect(a, half);
            final int remote = inter.getRemoteSize();
            final int tagA = a ? 1 : 2; // group id as data
            inter.barrier();
            inter.iBarrier().waitFor();
            // allReduce: each group gets the other's reduction
            final int[] ar = new int[2];
            inter.allReduce(new int[] {tagA, me}, ar, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(a ? new int[] {6, 3} : new int[] {2, 1}, ar);
            // allGatherv: blocks of the remote group, remote rank j sends j + 1 items, reverse order
            final int[] rc = new int[remote];
            final int[] rd = new int[remote];
            int at = 0;
            for (int j = remote - 1; j >= 0; j--) {
                rc[j] = j + 1;
                rd[j] = at;
                at += j + 1;
            }
            final int[] sendv = new int[me + 1];
            Arrays.fill(sendv, 10 * tagA + me);
            final int[] agv = new int[at];
            inter.allGatherv(sendv, me + 1, MPI.INT, agv, rc, rd, MPI.INT);
            for (int j = 0; j < remote; j++) {
                for (int k = 0; k < rc[j]; k++) {
                    assertEquals(10 * (3 - tagA) + j, agv[rd[j] + k]);
                }
            }
            // allToAllv: to remote rank j, (me + j) % 2 items (some zero)
            final int[] sc = new int[remote];
            final int[] sd = new int[remote];
            final int[] rcv = new int[remote];
            final int[] rdv = new int[remote];
            for (int j = 0; j < remote; j++) {
                sc[j] = (me + j) % 2;
                sd[j] = j;
                rcv[j] = (j + me) % 2;
                rdv[j] = remote - 1 - j;
            }
            final int[] send = new int[remote];
            for (int j = 0; j < remote; j++) {
                send[j] = 100 * tagA + 10 * me + j;
            }
            final int[] recv = new int[remote];
            Arrays.fill(recv, -1);
            inter.allToAllv(send, sc, sd, MPI.INT, recv, rcv, rdv, MPI.INT);
            for (int j = 0; j < remote; j++) {
                assertEquals(0 == rcv[j] ? -1 : 100 * (3 - tagA) + 10 * j + me, recv[rdv[j]]);
            }
            // reduceScatterBlock: A (2 ranks) blocks of 3, B (3 ranks) blocks of 2: 6 elements each side
            final int block = a ? 3 : 2;
            final int[] v = new int[6];
            for (int k = 0; k < 6; k++) {
                v[k] = k + (a ? 10 : 100) * me;
            }
            final int[] rsb = new int[block];
            inter.reduceScatterBlock(v, rsb, block, MPI.INT, MPI.SUM);
            for (int k = 0; k < block; k++) {
                final int e = block * me + k;
                assertEquals(a ? 3 * e + 300 : 2 * e + 10, rsb[k]);
            }
            // reduceScatter: A's counts {4, 2}, B's {1, 0, 5}
            final int[] counts = a ? new int[] {4, 2} : new int[] {1, 0, 5};
            final int start = a ? new int[] {0, 4}[me] : new int[] {0, 1, 1}[me];
            final int[] rs = new int[5];
            Arrays.fill(rs, -1);
            inter.reduceScatter(v, rs, counts, MPI.INT, MPI.SUM);
            for (int k = 0; k < 5; k++) {
                final int e = start + k;
                assertEquals(k < counts[me] ? (a ? 3 * e + 300 : 2 * e + 10) : -1, rs[k]);
            }
            // nonblocking forms
            final IntBuffer nar = MPI.newIntBuffer(1);
            final IntBuffer nag = MPI.newIntBuffer(remote);
            final IntBuffer na2a = MPI.newIntBuffer(remote);
            final IntBuffer a2aSend = MPI.newIntBuffer(remote);
            for (int j = 0; j < remote; j++) {
                a2aSend.put(j, 1000 * tagA + 10 * me + j);
            }
            final IntBuffer nrsb = MPI.newIntBuffer(block);
            final IntBuffer vb = MPI.newIntBuffer(6);
            for (int k = 0; k < 6; k++) {
                vb.put(k, v[k]);
            }
            Request.waitAll(new Request[] {
                inter.iAllReduce(MPI.newIntBuffer(1).put(0, me + 1), nar, 1, MPI.INT, MPI.MAX),
                inter.iAllGather(MPI.newIntBuffer(1).put(0, 7 * tagA + me), 1, MPI.INT, nag, 1, MPI.INT),
                inter.iAllToAll(a2aSend, 1, MPI.INT, na2a, 1, MPI.INT),
                inter.iReduceScatterBlock(vb, nrsb, block, MPI.INT, MPI.SUM),
            });
            assertEquals(a ? 3 : 2, nar.get(0));
            for (int j = 0; j < remote; j++) {
                assertEquals(7 * (3 - tagA) + j, nag.get(j));
                assertEquals(1000 * (3 - tagA) + 10 * j + me, na2a.get(j));
            }
            assertEquals(a ? 3 * (3 * me) + 300 : 2 * (2 * me) + 10, nrsb.get(0));
            // count 0 moves nothing
            final int[] untouched = {-5};
            inter.allReduce(new int[1], untouched, 0, MPI.INT, MPI.SUM);
            inter.allGather(new int[1], 0, MPI.INT, untouched, 0, MPI.INT);
            inter.allToAll(new int[1], 0, MPI.INT, untouched, 0, MPI.INT);
            inter.bcast(untouched, 0, MPI.INT, root(true, a, me, 0));
            assertEquals(-5, untouched[0]);
            inter.disconnect();
            half.free();
            MPI.Finalize();
        });
    }

    /** The nonblocking vector forms across the groups, with zero counts. */
    @Test
    void shouldRunNonblockingVectorFormsAcrossTheGroups() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final boolean a = MPI.COMM_WORLD.getRank() < 2;
            final Intracomm half = MPI.COMM_WORLD.split(a ? 0 : 1, 0);
            final int me = half.getRank();
            final Intercomm inter = connect(a, half);
            final int remote = inter.getRemoteSize();
            // iGatherv B -> A1 (counts {2, 0, 1}), iScatterv A0 -> B (counts {1, 2, 0})
            final IntBuffer gv = MPI.newIntBuffer(3);
            final IntBuffer mine = MPI.newIntBuffer(2).put(0, 10 * me).put(1, 10 * me + 1);
            inter.iGatherv(mine, a ? 0 : new int[] {2, 0, 1}[me], MPI.INT, gv, new int[] {2, 0, 1},
                new int[] {1, 7, 0}, MPI.INT, root(true, a, me, 1)).waitFor();
            if (a && 1 == me) {
                assertArrayEquals(new int[] {20, 0, 1}, new int[] {gv.get(0), gv.get(1), gv.get(2)});
            }
            final IntBuffer src = MPI.newIntBuffer(3).put(0, 5).put(1, 6).put(2, 7);
            final IntBuffer part = MPI.newIntBuffer(2).put(0, -1).put(1, -1);
            inter.iScatterv(src, new int[] {1, 2, 0}, new int[] {2, 0, 9}, MPI.INT, part,
                a ? 0 : new int[] {1, 2, 0}[me], MPI.INT, root(true, a, me, 0)).waitFor();
            if (!a) {
                assertArrayEquals(new int[][] {{7, -1}, {5, 6}, {-1, -1}}[me], new int[] {part.get(0), part.get(1)});
            }
            // iAllGatherv and iAllToAllv: one item from each remote rank, in reverse order
            final int[] ones = new int[remote];
            final int[] reverse = new int[remote];
            final int[] forward = new int[remote];
            for (int j = 0; j < remote; j++) {
                ones[j] = 1;
                reverse[j] = remote - 1 - j;
                forward[j] = j;
            }
            final IntBuffer all = MPI.newIntBuffer(remote);
            final IntBuffer send = MPI.newIntBuffer(remote);
            for (int j = 0; j < remote; j++) {
                send.put(j, 100 * (a ? 1 : 2) + 10 * me + j);
            }
            final IntBuffer recv = MPI.newIntBuffer(remote);
            Request.waitAll(new Request[] {
                inter.iAllGatherv(MPI.newIntBuffer(1).put(0, (a ? 50 : 60) + me), 1, MPI.INT, all, ones, reverse,
                    MPI.INT),
                inter.iAllToAllv(send, ones, forward, MPI.INT, recv, ones, reverse, MPI.INT),
            });
            for (int j = 0; j < remote; j++) {
                assertEquals((a ? 60 : 50) + j, all.get(remote - 1 - j));
                assertEquals(100 * (a ? 2 : 1) + 10 * j + me, recv.get(remote - 1 - j));
            }
            inter.disconnect();
            half.free();
            MPI.Finalize();
        });
    }

    /** The client/server program of MPI 10.4.6: the server publishes its port, the client looks it up. */
    @Test
    void shouldConnectThroughAPublishedServiceName() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int[] buf = {rank + 40};
            if (1 == rank) { // the server: not rank 0, which keeps the table
                final String port = Intracomm.openPort();
                Intracomm.publishName("my-service", port);
                assertEquals(MPI.ERR_SERVICE, assertThrows(MPIException.class,
                    () -> Intracomm.publishName("my-service", port)).getErrorClass());
                MPI.COMM_WORLD.barrier();
                final Intercomm client = MPI.COMM_SELF.accept(port, 0);
                final Status s = client.recv(buf, 1, MPI.INT, 0, 1);
                assertEquals(0, s.getSource());
                assertEquals(42, buf[0]);
                client.disconnect();
                Intracomm.closePort(port);
                Intracomm.unpublishName("my-service", MPI.INFO_NULL, port);
                assertEquals(MPI.ERR_SERVICE, assertThrows(MPIException.class,
                    () -> Intracomm.unpublishName("my-service", port)).getErrorClass());
            } else if (2 == rank) { // the client
                assertEquals(MPI.ERR_NAME, assertThrows(MPIException.class,
                    () -> Intracomm.lookupName("no-such-service")).getErrorClass());
                MPI.COMM_WORLD.barrier();
                final String port = Intracomm.lookupName("my-service", MPI.INFO_NULL);
                final Intercomm server = MPI.COMM_SELF.connect(port, 0);
                server.send(buf, 1, MPI.INT, 0, 1);
                server.disconnect();
            } else {
                MPI.COMM_WORLD.barrier();
            }
            MPI.COMM_WORLD.barrier();
            assertEquals(MPI.ERR_NAME, assertThrows(MPIException.class, () -> Intracomm.lookupName("my-service"))
                .getErrorClass());
            MPI.Finalize();
        });
    }

    @Test
    void shouldReportRemoteRanksInPointToPointStatuses() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final boolean a = MPI.COMM_WORLD.getRank() < 2;
            final Intracomm half = MPI.COMM_WORLD.split(a ? 0 : 1, 0);
            final int me = half.getRank();
            final Intercomm inter = connect(a, half);
            assertTrue(inter.isInter());
            assertEquals(me, inter.getRank());
            assertEquals(a ? 2 : 3, inter.getSize());
            if (a) { // every A rank sends to every B rank
                for (int j = 0; j < 3; j++) {
                    inter.send(new int[] {10 * me + j}, 1, MPI.INT, j, 4 + me);
                }
            } else {
                final boolean[] from = new boolean[2];
                for (int k = 0; k < 2; k++) {
                    final int[] got = {-1};
                    final Status s = inter.recv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    assertEquals(10 * s.getSource() + me, got[0]);
                    assertEquals(4 + s.getSource(), s.getTag());
                    from[s.getSource()] = true;
                }
                assertTrue(from[0] && from[1]);
                final Message m = new Message();
                inter.send(new int[] {me}, 1, MPI.INT, 1, 9); // to A1
                assertEquals(MPI.PROC_NULL, m.mProbe(MPI.PROC_NULL, 9, inter).getSource());
            }
            if (a && 1 == me) {
                final Message m = new Message();
                for (int k = 0; k < 3; k++) {
                    final Status s = m.mProbe(MPI.ANY_SOURCE, 9, inter);
                    final int[] got = {-1};
                    m.mRecv(got, 1, MPI.INT);
                    assertEquals(s.getSource(), got[0]);
                }
            }
            inter.disconnect();
            half.free();
            MPI.Finalize();
        });
    }
}
