import mpi.*;

/** Rank 1 aborts the job with the status given as the program's argument; rank 0 waits in a barrier. */
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
