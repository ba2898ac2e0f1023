import mpi.*;

/** The rank named by the program's argument throws after Init; the others wait for it in a barrier. */
public class FailAt {
    public static void main(String[] args) throws Exception {
        String[] own = MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == Integer.parseInt(own[0])) {
            throw new IllegalStateException("rank " + own[0] + " fails");
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
