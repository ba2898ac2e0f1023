import mpi.*;

/** A token passed around the ring of processes, counted down by rank 0 (MPJ Express style). */
public class Ring {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] message = new int[2];
        int tag = 201;
        if (rank == 0) {
            message[1] = 10;
            MPI.COMM_WORLD.Send(message, 1, 1, MPI.INT, next, tag);
        }
        int laps = 0;
        while (true) {
            MPI.COMM_WORLD.Recv(message, 1, 1, MPI.INT, prev, tag);
            if (rank == 0) {
                message[1]--;
                laps++;
            }
            MPI.COMM_WORLD.Send(message, 1, 1, MPI.INT, next, tag);
            if (message[1] == 0) {
                break;
            }
        }
        if (rank == 0) {
            MPI.COMM_WORLD.Recv(message, 1, 1, MPI.INT, prev, tag);
            System.out.println("ring OK: " + laps + " laps of " + size);
        }
        MPI.Finalize();
    }
}
