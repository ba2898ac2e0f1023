package mpi.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Open MPI's pt2pt/Ssend check as a process job of 2 ranks: rank 0 sends in synchronous mode, rank 1 pauses, sends
 * a note and then receives; the synchronous send returns only after the receive began, so rank 0 finds the note
 * there at once. Prints "ssend OK" at rank 0; a failed check aborts with 3.
 */
public final class Ssend {
    private Ssend() {
    }

    public static void main(final String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        final int[] data = new int[100_000]; // larger than an eager message, and a small one below
        for (final int n : new int[] {1, data.length}) {
            if (0 == w.getRank()) {
                data[n - 1] = n;
                w.sSend(data, n, MPI.INT, 1, 1);
                if (null == w.iProbe(1, 2)) {
                    System.err.println("sSend of " + n + " ints returned before rank 1 began its receive");
                    w.abort(3);
                }
                w.recv(new int[1], 1, MPI.INT, 1, 2);
            } else {
                Thread.sleep(500);
                w.send(new int[1], 1, MPI.INT, 0, 2);
                w.recv(data, n, MPI.INT, 0, 1);
                if (n != data[n - 1]) {
                    System.err.println("rank 1 received " + data[n - 1] + ", expected " + n);
                    w.abort(3);
                }
            }
        }
        if (0 == w.getRank()) {
            System.out.println("ssend OK");
        }
        MPI.Finalize();
    }
}
