package mpi.programs;

import mpi.CartComm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * A process job in the Open MPI style: a periodic ring as a Cartesian communicator (shift and neighbour
 * allgather), then the two halves of the world connected through a port (intercommunicator allreduce). Prints
 * "topology and ports OK" at rank 0; any mismatch ends the job with a non-zero status.
 */
public final class TopologyAndPorts {
    private TopologyAndPorts() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        final CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
        final ShiftParms s = ring.shift(0, 1);
        final int[] got = new int[2];
        ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
        check(got[0] == s.getRankSource() && got[1] == s.getRankDest(), "neighbours " + got[0] + "," + got[1]);
        ring.free();

        final boolean server = rank < size / 2;
        final Intracomm half = MPI.COMM_WORLD.split(server ? 0 : 1, rank);
        final char[] name = new char[MPI.MAX_PORT_NAME];
        final Intercomm inter;
        if (server) {
            final String port = 0 == half.getRank() ? Intracomm.openPort() : null;
            if (null != port) {
                MPI.COMM_WORLD.send(port.toCharArray(), port.length(), MPI.CHAR, size / 2, 1);
            }
            inter = half.accept(port, 0);
            if (null != port) {
                Intracomm.closePort(port);
            }
        } else {
            if (0 == half.getRank()) {
                MPI.COMM_WORLD.recv(name, name.length, MPI.CHAR, 0, 1);
            }
            inter = half.connect(new String(name).trim(), 0);
        }
        final int[] sum = new int[1];
        inter.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == inter.getRemoteSize(), "remote sum " + sum[0]);
        inter.disconnect();
        half.free();
        if (0 == rank) {
            System.out.println("topology and ports OK");
        }
        MPI.Finalize();
    }

    private static void check(final boolean ok, final String what) throws MPIException {
        if (!ok) {
            System.err.println("mismatch: " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }
}
