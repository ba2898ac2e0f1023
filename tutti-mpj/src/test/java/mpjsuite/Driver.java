package mpjsuite;

/**
 * Runs the suite's programs one after the other in one JVM a rank, as MPJ Express's TestSuite does: Init and Finalize
 * ten times first, then each program with its own Init and Finalize. Prints "ALL TESTS COMPLETE" on rank 0.
 */
public class Driver {
    public static void main(final String[] args) throws Exception {
        int me = -1;
        for (int i = 0; i < 10; i++) {
            mpi.MPI.Init(args);
            me = mpi.MPI.COMM_WORLD.Rank();
            mpi.MPI.COMM_WORLD.Barrier();
            mpi.MPI.Finalize();
        }
        new EnvCalls(args);
        new Pt2ptModes(args);
        new Pt2ptMatching(args);
        new Collectives(args);
        new DerivedTypes(args);
        new GroupsAndComms(args);
        new Topologies(args);
        new Threads(args);
        if (0 == me) {
            System.out.println("ALL TESTS COMPLETE");
        }
    }
}
