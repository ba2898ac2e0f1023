import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * Latency of pingpong and allreduce written against Open MPI's Java API (package {@code mpi}), so that one source
 * runs on Open MPI's own bindings ({@code mpirun ... java -cp mpi.jar:.}) and on Tutti's {@code tutti-mpi}
 * ({@code tutti run ... -cp tutti.jar:.}). Method as in {@code tutti bench}: per size, warm-up calls, then timed
 * calls, after an untimed rehearsal of every size; pingpong reports half the round trip, allreduce the slowest
 * rank's mean. Buffers are direct, as Open MPI's bindings want for speed. Prints {@code impl,op,ranks,bytes,avg_us}
 * rows on rank 0.
 *
 * <p>Usage: {@code OmpiJavaBench IMPL pingpong|allreduce MINBYTES MAXBYTES ITERS WARMUP}
 */
public final class OmpiJavaBench {
    private OmpiJavaBench() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final String impl = args[0];
        final String op = args[1];
        final int min = Integer.parseInt(args[2]);
        final int max = Integer.parseInt(args[3]);
        final int iters = Integer.parseInt(args[4]);
        final int warmup = Integer.parseInt(args[5]);
        final int rank = MPI.COMM_WORLD.getRank();
        final int size = MPI.COMM_WORLD.getSize();
        // A rehearsal of every size, untimed: the JIT compiles the loops before anything is timed. Every size, not
        // only the small ones: on tutti-mpi the first size above the shared-memory eager limit (32 KiB) takes a new
        // protocol (pushed chunks), whose first message deoptimizes the compiled send, receive and poll methods;
        // rehearsing only up to 1 KiB put their recompilation in 32 KiB's timed calls (12 us instead of ~5).
        for (int bytes = min; bytes <= max; bytes *= 2) {
            if ("pingpong".equals(op)) {
                pingpong(rank, bytes, 5 * warmup, warmup);
            } else {
                allreduce(bytes, 5 * warmup, warmup);
            }
        }
        for (int bytes = min; bytes <= max; bytes *= 2) {
            final double us = "pingpong".equals(op) ? pingpong(rank, bytes, iters, warmup)
                : allreduce(bytes, iters, warmup);
            if (0 == rank) {
                System.out.printf("%s,%s,%d,%d,%.3f%n", impl, op, size, bytes, us);
            }
        }
        MPI.Finalize();
    }

    /** @return microseconds per one-way message, seen by rank 0 */
    private static double pingpong(final int rank, final int bytes, final int iters, final int warmup)
        throws MPIException {
        final ByteBuffer buf = MPI.newByteBuffer(bytes);
        long start = 0;
        for (int i = 0; i < warmup + iters; i++) {
            if (i == warmup) {
                MPI.COMM_WORLD.barrier();
                start = System.nanoTime();
            }
            if (0 == rank) {
                MPI.COMM_WORLD.send(buf, bytes, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.recv(buf, bytes, MPI.BYTE, 1, 1);
            } else if (1 == rank) {
                MPI.COMM_WORLD.recv(buf, bytes, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(buf, bytes, MPI.BYTE, 0, 1);
            }
        }
        return (System.nanoTime() - start) / 1e3 / iters / 2;
    }

    /** @return the slowest rank's mean microseconds per allreduce of {@code bytes / 4} floats */
    private static double allreduce(final int bytes, final int iters, final int warmup) throws MPIException {
        final int count = Math.max(1, bytes / 4);
        final java.nio.FloatBuffer in = MPI.newFloatBuffer(count);
        final java.nio.FloatBuffer out = MPI.newFloatBuffer(count);
        long start = 0;
        for (int i = 0; i < warmup + iters; i++) {
            if (i == warmup) {
                MPI.COMM_WORLD.barrier();
                start = System.nanoTime();
            }
            MPI.COMM_WORLD.allReduce(in, out, count, MPI.FLOAT, MPI.SUM);
        }
        final double[] mine = {(System.nanoTime() - start) / 1e3 / iters};
        final double[] slowest = new double[1];
        MPI.COMM_WORLD.reduce(mine, slowest, 1, MPI.DOUBLE, MPI.MAX, 0);
        return slowest[0];
    }
}
