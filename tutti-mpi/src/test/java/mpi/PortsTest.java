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
