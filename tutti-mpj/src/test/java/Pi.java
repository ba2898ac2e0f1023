import mpi.*;

/** Computes pi by the midpoint rule, each process a share of the intervals, summed with Reduce. */
public class Pi {
    public static void main(String[] args) throws Exception {
        String[] own = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] n = new int[1];
        if (rank == 0) {
            n[0] = own.length > 0 ? Integer.parseInt(own[0]) : 100000;
        }
        MPI.COMM_WORLD.Bcast(n, 0, 1, MPI.INT, 0);
        double h = 1.0 / n[0];
        double sum = 0.0;
        for (int i = rank + 1; i <= n[0]; i += size) {
            double x = h * (i - 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] mine = new double[] {h * sum};
        double[] pi = new double[1];
        MPI.COMM_WORLD.Reduce(mine, 0, pi, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            double error = Math.abs(pi[0] - Math.PI);
            System.out.println("pi is approximately " + pi[0] + ", error " + error);
            System.out.println(error < 1e-6 ? "pi OK" : "pi WRONG");
        }
        MPI.Finalize();
    }
}
