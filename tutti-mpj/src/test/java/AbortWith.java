import mpi.*;

/** Rank 1 calls Abort with the code given as the program's argument, then both meet in a barrier and finish. */
public class AbortWith {
    public static void main(String[] args) throws Exception {
        String[] own = MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            MPI.COMM_WORLD.Abort(Integer.parseInt(own[0]));
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
