package dev.tutti.examples.ompi;

import mpi.CartComm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;
import mpi.Status;

/**
 * The classic ring, written for Open MPI's Java bindings and run unchanged on Tutti: rank 0 sends a counter round
 * a periodic ring (a Cartesian communicator); each pass through rank 0 lowers it by one, and when it reaches zero
 * every rank passes it on once more and stops. Then the ranks sum their ranks with allReduce.
 *
 * <pre>
 * bin/tutti run -n 4 -cp tutti-examples/target/classes:tutti-mpi/target/classes dev.tutti.examples.ompi.Ring
 * </pre>
 */
public final class Ring {
    private Ring() {
    }

    /**
     * Runs the example.
     *
     * @param args unused
     * @throws MPIException if an MPI call fails
     */
    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final int size = MPI.COMM_WORLD.getSize();
        final CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
        final int rank = ring.getRank();
        final ShiftParms neighbours = ring.shift(0, 1);
        final int next = neighbours.getRankDest();
        final int prev = neighbours.getRankSource();
        final int[] message = new int[1];
        final int tag = 201;
        if (0 == rank) {
            message[0] = 10;
            System.out.println("Process 0 sending " + message[0] + " to " + next + " (" + size + " processes in ring)");
            ring.send(message, 1, MPI.INT, next, tag);
        }
        while (true) {
            final Status status = ring.recv(message, 1, MPI.INT, prev, tag);
            if (0 == rank) {
                message[0]--;
                System.out.println("Process 0 decremented value: " + message[0] + " (from " + status.getSource()
                    + ")");
            }
            ring.send(message, 1, MPI.INT, next, tag);
            if (0 == message[0]) {
                System.out.println("Process " + rank + " exiting");
                break;
            }
        }
        if (0 == rank) { // the last message, from the ring's last process
            ring.recv(message, 1, MPI.INT, prev, tag);
        }
        final int[] sum = {rank};
        ring.allReduce(sum, 1, MPI.INT, MPI.SUM);
        if (0 == rank) {
            System.out.println("sum of ranks: " + sum[0]);
        }
        ring.free();
        MPI.Finalize();
    }
}
