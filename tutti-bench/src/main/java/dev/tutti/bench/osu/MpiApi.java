package dev.tutti.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * The benchmarks of the {@code mpi} layer ({@code tutti-mpi}, Open MPI's Java API on Tutti): {@code mpi-pingpong}
 * and {@code mpi-allreduce} run the same method, buffers, data checks and CSV columns as {@code pingpong} and
 * {@code allreduce}, with the timed calls made through {@code mpi.MPI.COMM_WORLD} instead of Tutti's
 * {@code Communicator}. Their CSV rows carry the op of the Tutti benchmark and the impl {@code tutti-mpi-} and the
 * transport ({@code tutti-mpi-inproc}, {@code tutti-mpi-shm}, ...), so {@code bench/merge.py} puts them next to
 * {@code tutti-inproc}, {@code tutti-shm}, ... and the ratio is the mpi layer's overhead.
 *
 * <p>Any transport: with ranks as threads ({@code --transport inproc}) {@code MPI.Init} joins the calling thread's
 * rank through {@code Tutti.init()}; a rank process ({@code --transport shm|tcp}, see {@link BenchWorker}) has
 * joined its job already and hands its handle to {@code dev.tutti.mpi.JoinedRank}, which {@code MPI.Init} uses
 * instead of joining a second time.
 */
final class MpiApi {
    /** Prefix of the benchmark names of the mpi layer. */
    static final String PREFIX = "mpi-";

    private MpiApi() {
    }

    /**
     * Initializes MPI in the calling rank (its {@code allocate}, once per run; each run's rank threads are new) and
     * makes errors on {@code COMM_WORLD} throw, so that a failure fails the run instead of exiting the JVM.
     * Not guarded by {@code MPI.isInitialized()}: in a thread that has not called {@code MPI.Init} that answers
     * for the first rank initialized in this JVM (the process-wide state), which may belong to an earlier run.
     *
     * @param op the benchmark, for the message of a failure
     */
    static void init(final String op) {
        try {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        } catch (final MPIException e) {
            throw failed(op, "MPI.Init", e);
        }
    }

    /**
     * @param op   the benchmark
     * @param call the mpi call that failed
     * @param e    its exception
     * @return the benchmark failure to throw
     */
    static BenchmarkException failed(final String op, final String call, final MPIException e) {
        return new BenchmarkException(PREFIX + op + ": " + call + " failed: " + e.getMessage());
    }
}
