package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ports between two halves of one job: accept/connect, intercommunicator collectives, merge, disconnect. */
@Timeout(60)
class PortsTest {

    /**
     * The classic client/server program: the even ranks serve, the odd ranks connect; the port name travels from
     * the server's root to the client's root by a plain send on COMM_WORLD.
     */
    @Test
    void shouldConnectTwoHalvesThroughAPort() {
        MpiJobs.run(6, args -> {
            MPI.Init(args);
            final int world = MPI.COMM_WORLD.getRank();
            final boolean server = 0 == world % 2;
            final Intracomm half = MPI.COMM_WORLD.split(server ? 0 : 1, world);
            final char[] name = new char[MPI.MAX_PORT_NAME];
            for (int round = 0; round < 2; round++) { // a port serves several connections until closed
                final Intercomm inter;
                final String port;
                if (server) {
                    port = 0 == half.getRank() && 0 == round ? Intracomm.openPort() : null;
                    if (0 == half.getRank() && 0 == round) {
                        final char[] p = port.toCharArray();
                        MPI.COMM_WORLD.send(p, p.length, MPI.CHAR, 1, 7);
                        assertTrue(p.length <= MPI.MAX_PORT_NAME);
                        System.arraycopy(p, 0, name, 0, p.length);
                    }
                    inter = half.accept(0 == half.getRank() ? new String(name).trim() : null, 0);
                } else {
                    if (0 == half.getRank() && 0 == round) {
                        final Status s = MPI.COMM_WORLD.recv(name, name.length, MPI.CHAR, 0, 7);
                        assertEquals(0, s.getSource());
                    }
                    port = 0 == half.getRank() ? new String(name).trim() : "ignored elsewhere";
                    inter = half.connect(port, 0);
                }
                assertTrue(inter.isInter());
                assertEquals(3, inter.getRemoteSize());
                assertEquals(half.getRank(), inter.getRank());
                // bcast from the server's root to the clients
                final int[] v = {server && 0 == half.getRank() ? 42 + round : -1};
                inter.bcast(v, 1, MPI.INT, server ? (0 == half.getRank() ? MPI.ROOT : MPI.PROC_NULL) : 0);
                if (!server || 0 == half.getRank()) {
                    assertEquals(42 + round, v[0]);
                }
                // allReduce over an intercommunicator: each group gets the other group's sum
                final int[] sum = new int[1];
                inter.allReduce(new int[] {world}, sum, 1, MPI.INT, MPI.SUM);
                assertEquals(server ? 1 + 3 + 5 : 0 + 2 + 4, sum[0]);
                final Intracomm merged = inter.merge(!server);
                assertEquals(6, merged.getSize());
                assertEquals(server ? half.getRank() : 3 + half.getRank(), merged.getRank());
                merged.free();
                inter.disconnect();
                assertTrue(inter.isNull());
            }
            if (server && 0 == half.getRank()) {
                final String port = new String(name).trim();
                Intracomm.closePort(port);
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                assertEquals(MPI.ERR_PORT, assertThrows(MPIException.class, () -> Intracomm.closePort(port))
                    .getErrorClass());
            }
            half.setErrhandler(MPI.ERRORS_RETURN);
            if (server) { // a closed port: every member of the group fails
                assertEquals(MPI.ERR_PORT, assertThrows(MPIException.class, () -> half.accept(
                    new String(name).trim(), 0)).getErrorClass());
            } else { // no port name at all, and a port of another job
                assertEquals(MPI.ERR_PORT, assertThrows(MPIException.class, () -> half.connect("nonsense", 0))
                    .getErrorClass());
                final String foreign = new String(name).trim().replaceFirst("tutti-port:[0-9a-f]+:",
                    "tutti-port:123:");
                assertEquals(MPI.ERR_PORT, assertThrows(MPIException.class, () -> half.connect(foreign, 0))
                    .getErrorClass());
            }
            half.free();
            MPI.Finalize();
        });
    }

    /**
     * The intercommunicator collectives over an accept/connect intercommunicator of groups of 2 (servers) and 3
     * (clients): rooted ones with MPI.ROOT / MPI.PROC_NULL in the root's group, all-to-all ones across the groups.
     */
    @Test
    void shouldRunIntercommunicatorCollectivesOverAPortConnection() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final int world = MPI.COMM_WORLD.getRank();
            final boolean server = world < 2;
            final Intracomm half = MPI.COMM_WORLD.split(server ? 0 : 1, world);
            final int me = half.getRank();
            final char[] name = new char[MPI.MAX_PORT_NAME];
            final Intercomm inter;
            if (server) {
                final String port = 0 == me ? Intracomm.openPort() : null;
                if (0 == me) {
                    MPI.COMM_WORLD.send(port.toCharArray(), port.length(), MPI.CHAR, 2, 0);
                }
                inter = half.accept(port, MPI.INFO_NULL, 0);
            } else {
                if (0 == me) {
                    MPI.COMM_WORLD.recv(name, name.length, MPI.CHAR, 0, 0);
                }
                inter = half.connect(new String(name).trim(), MPI.INFO_NULL, 0);
            }
            final int remote = inter.getRemoteSize();
            assertEquals(server ? 3 : 2, remote);
            assertEquals(server ? 3 : 2, inter.getRemoteGroup().getSize());
            inter.barrier();
            // gather to server 0 from every client
            final int rootHere = server ? (0 == me ? MPI.ROOT : MPI.PROC_NULL) : 0;
            final int[] gathered = new int[3];
            inter.gather(new int[] {10 + me}, 1, MPI.INT, gathered, 1, MPI.INT, rootHere);
            if (server && 0 == me) {
                assertArrayEquals(new int[] {10, 11, 12}, gathered);
            }
            // scatter from server 0 to the clients
            final int[] part = {-1};
            inter.scatter(new int[] {20, 21, 22}, 1, MPI.INT, part, 1, MPI.INT, rootHere);
            if (!server) {
                assertEquals(20 + me, part[0]);
            }
            // reduce to server 0: the clients' sum
            final int[] sum = {-1};
            inter.reduce(new int[] {me + 1}, sum, 1, MPI.INT, MPI.SUM, rootHere);
            if (server && 0 == me) {
                assertEquals(6, sum[0]);
            }
            // allGather: each side gets the other side's blocks
            final int[] all = new int[remote];
            inter.allGather(new int[] {(server ? 100 : 200) + me}, 1, MPI.INT, all, 1, MPI.INT);
            for (int i = 0; i < remote; i++) {
                assertEquals((server ? 200 : 100) + i, all[i]);
            }
            // allToAll: block j goes to remote rank j
            final int[] send = new int[remote];
            for (int j = 0; j < remote; j++) {
                send[j] = 1000 * (server ? 1 : 2) + 10 * me + j;
            }
            final int[] recv = new int[remote];
            inter.allToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            for (int i = 0; i < remote; i++) {
                assertEquals(1000 * (server ? 2 : 1) + 10 * i + me, recv[i]);
            }
            // a nonblocking bcast from client 0 to the servers, with direct buffers
            final java.nio.IntBuffer b = MPI.newIntBuffer(1).put(0, !server && 0 == me ? 77 : -1);
            inter.iBcast(b, 1, MPI.INT, server ? 0 : (0 == me ? MPI.ROOT : MPI.PROC_NULL)).waitFor();
            if (server) {
                assertEquals(77, b.get(0));
            }
            inter.disconnect();
            half.free();
            MPI.Finalize();
        });
    }

    /** Open MPI hands out distinct port names. */
    @Test
    void shouldOpenDistinctPorts() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final String a = Intracomm.openPort();
            final String b = Intracomm.openPort(new Info());
            assertTrue(!a.equals(b), a + " vs " + b);
            Intracomm.closePort(a);
            Intracomm.closePort(b);
            assertArrayEquals(new int[0], new int[0]);
            MPI.Finalize();
        });
    }
}
