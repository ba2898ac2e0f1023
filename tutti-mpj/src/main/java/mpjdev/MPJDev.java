package mpjdev;

/**
 * MPJ Express's device entry point, as its device-level test programs use it: {@link #init} and {@link #finish}
 * bracket the program, {@link #WORLD} is the communicator of every process. Here they are {@code MPI.Init},
 * {@code MPI.Finalize} and {@code MPI.COMM_WORLD}'s device communicator, so device and {@code mpi} calls mix, and
 * a program may init and finish several times, as MPJ Express's test suite does.
 */
public class MPJDev {
    /** Every process's communicator, set by {@link #init}. */
    public static Comm WORLD = null;

    /** Not made: static methods only (public as in MPJ Express). */
    public MPJDev() {
    }

    /**
     * Joins the job, as {@code MPI.Init(args)} does, and sets {@link #WORLD}.
     *
     * @param args the program's arguments
     * @throws MPJDevException if joining fails
     */
    public static void init(final String[] args) {
        mpi.MPI.Init(args);
        WORLD = mpi.MPI.COMM_WORLD.mpjdevComm;
    }

    /** @return the bytes a send needs before the data: none on Tutti's devices ({@code MPI.SEND_OVERHEAD}) */
    public static int getSendOverhead() {
        return mpi.MPI.SEND_OVERHEAD;
    }

    /** @return the bytes a receive needs before the data: none on Tutti's devices ({@code MPI.RECV_OVERHEAD}) */
    public static int getRecvOverhead() {
        return mpi.MPI.RECV_OVERHEAD;
    }

    /**
     * Leaves the job, as {@code MPI.Finalize()} does.
     *
     * @throws MPJDevException if finalizing fails
     */
    public static void finish() {
        mpi.MPI.Finalize();
    }
}
