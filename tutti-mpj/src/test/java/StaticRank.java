import mpi.*;

/**
 * Keeps its rank in a static field, as MPJ Express programs do, and fails unless every rank's field still holds that
 * rank's own number once all ranks have set theirs: under MPJ Express's multicore device each rank has its own copy.
 */
public class StaticRank {
    static int rank;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        MPI.COMM_WORLD.Barrier();
        int[] all = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {rank}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            if (all[r] != r) {
                throw new IllegalStateException("static rank of rank " + r + " is " + all[r] + ", expected " + r);
            }
        }
        System.out.println("static rank " + rank + " of " + size);
        MPI.Finalize();
    }
}
