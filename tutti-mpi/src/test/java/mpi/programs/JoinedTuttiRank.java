package mpi.programs;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.mpi.JoinedRank;
import mpi.MPI;
import mpi.MPIException;

/**
 * A Tutti program that also uses the mpi layer in the same rank process: it joins with {@code Tutti.init()},
 * hands the handle to {@link JoinedRank}, and then {@code MPI.Init} works on the same rank (a second join would
 * fail). Messages go both ways between the two APIs; after {@code MPI.Finalize} the Tutti handle still works.
 * Prints "joined rank OK" at rank 0.
 */
public final class JoinedTuttiRank {
    private JoinedTuttiRank() {
    }

    public static void main(final String[] args) throws MPIException {
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            JoinedRank.use(tutti);
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int size = MPI.COMM_WORLD.getSize();
            check(rank == world.rank() && size == world.size(), "rank/size " + rank + "/" + size);
            final int[] x = {rank};
            final int[] y = new int[1];
            // around the ring: sent through mpi, received through Tutti's API (same context: COMM_WORLD is the world)
            final int next = (rank + 1) % size;
            final int prev = (rank + size - 1) % size;
            final dev.tutti.Request r = world.irecv(Buf.of(y), prev, 3);
            MPI.COMM_WORLD.send(x, 1, MPI.INT, next, 3);
            r.waitFor();
            check(prev == y[0], "received " + y[0] + " from " + prev);
            final int[] sum = new int[1];
            MPI.COMM_WORLD.allReduce(x, sum, 1, MPI.INT, MPI.SUM);
            check(size * (size - 1) / 2 == sum[0], "sum " + sum[0]);
            MPI.Finalize();
            world.barrier(); // the handle is still open: Finalize left it to its owner
            if (0 == rank) {
                System.out.println("joined rank OK");
            }
        }
    }

    private static void check(final boolean ok, final String what) {
        if (!ok) {
            throw new IllegalStateException("joined rank: " + what);
        }
    }
}
