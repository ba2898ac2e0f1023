import mpi.*;

/** The classic MPJ Express first program, as its users write it. */
public class HelloWorld {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        System.out.println("Hi from <" + me + "> of " + size);
        MPI.Finalize();
    }
}
