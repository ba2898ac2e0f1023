package mpjsuite;

import mpi.MPI;

/** A program whose main throws a checked exception on rank 1 (the job must fail, naming it). */
public class ThrowsChecked {
    public static void main(final String[] args) throws Exception {
        MPI.Init(args);
        if (1 == MPI.COMM_WORLD.Rank()) {
            throw new Exception("checked failure on rank 1");
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
