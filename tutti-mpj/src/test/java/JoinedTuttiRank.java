import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.mpj.JoinedRank;
import mpi.MPI;

/**
 * A Tutti program that also uses MPJ's API in the same rank process: it joins with {@code Tutti.init()}, hands the
 * handle to {@link JoinedRank}, and {@code MPI.Init} then works on the same rank (a second join would fail).
 * Messages go both ways between the two APIs; after {@code MPI.Finalize} the Tutti handle still works. Prints
 * "joined rank OK" at rank 0.
 */
public final class JoinedTuttiRank {
    private JoinedTuttiRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            JoinedRank.use(tutti);
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.Rank();
            final int size = MPI.COMM_WORLD.Size();
            check(rank == world.rank() && size == world.size(), "rank/size " + rank + "/" + size);
            final int[] x = {rank};
            final int[] y = new int[1];
            // around the ring: sent through MPJ, received through Tutti's API (COMM_WORLD is the world)
            final dev.tutti.Request r = world.irecv(Buf.of(y), (rank + size - 1) % size, 3);
            MPI.COMM_WORLD.Send(x, 0, 1, MPI.INT, (rank + 1) % size, 3);
            r.waitFor();
            check((rank + size - 1) % size == y[0], "received " + y[0]);
            final int[] sum = new int[1];
            MPI.COMM_WORLD.Allreduce(x, 0, sum, 0, 1, MPI.INT, MPI.SUM);
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
