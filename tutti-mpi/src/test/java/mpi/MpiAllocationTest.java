package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mpi layer's hot calls allocate (almost) nothing beyond what Tutti's own API allocates for the same call: a
 * program's loop of {@code send}/{@code recv} or {@code allReduce} on the same arrays gets its Tutti buffers from
 * {@link BufCache}, its reduction plan from the op, and no lambda or second state lookup per call. Bytes are
 * counted by the JVM per thread after a warm-up (not timed). Measured: 20 bytes per send or receive and none per
 * allreduce over Tutti's own; before the cache (per-call views, plans and lambdas), 213 and 360.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(120)
class MpiAllocationTest {
    private static final int CALLS = 50_000;
    /** Bytes per call the mpi layer may add to Tutti's own: under one object (a Status, when the JIT keeps it). */
    private static final double MAX_EXTRA_BYTES_PER_CALL = 40;

    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A measured loop. */
    @FunctionalInterface
    private interface Loop {
        void run() throws MPIException;
    }

    /** @return bytes the calling thread allocated per call of a loop that makes {@code calls} calls */
    private static double bytesPerCall(final Loop loop, final int calls) throws MPIException {
        loop.run(); // warm-up: the JIT, the cache
        loop.run();
        final long thread = Thread.currentThread().threadId();
        final long before = MX.getThreadAllocatedBytes(thread);
        loop.run();
        return (double) (MX.getThreadAllocatedBytes(thread) - before) / calls;
    }

    /** A rank sends small int[] messages to itself and receives them: the same path every time, in one thread. */
    @Test
    void shouldAllocateNoMoreThanTuttiPerSmallSendAndRecv() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Communicator tw = Env.current().world();
            final int[] out = {1, 2, 3, 4};
            final int[] in = new int[4];
            final Buf bo = Buf.of(out);
            final Buf bi = Buf.of(in);
            final double tutti = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    tw.send(bo, 0, 7);
                    tw.recv(bi, 0, 7);
                }
            }, 2 * CALLS);
            final double mpi = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    w.send(out, 4, MPI.INT, 0, 7);
                    w.recv(in, 4, MPI.INT, 0, 7);
                }
            }, 2 * CALLS);
            System.out.printf("send+recv of int[4] to self: Tutti %.1f, mpi %.1f bytes per call%n", tutti, mpi);
            assertTrue(mpi <= tutti + MAX_EXTRA_BYTES_PER_CALL, "mpi send/recv allocated " + mpi
                + " bytes per call, Tutti's own " + tutti + "; expected at most " + MAX_EXTRA_BYTES_PER_CALL + " more");
            assertArrayEquals(out, in);
            MPI.Finalize();
        });
    }

    /**
     * A small allreduce repeated on the same arrays, on one rank: the mpi layer's own work per call (buffers, the
     * op's plan) is the same at any size of job, and no message moves whose allocation would blur it. (Between two
     * ranks that are threads of one JVM the inproc transport allocates per message, more when a message arrives before
     * its receive is posted: on a slow host one loop measured 75-135 bytes per call, by timing alone, more on the
     * slower of the two forms.)
     */
    @Test
    void shouldAllocateNoMoreThanTuttiPerSmallAllReduce() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Communicator tw = Env.current().world();
            final float[] x = {1 + tw.rank(), 10 * (1 + tw.rank())};
            final float[] y = new float[2];
            final Buf bx = Buf.of(x);
            final Buf by = Buf.of(y);
            final double tutti = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    tw.allreduce(bx, by, dev.tutti.Op.SUM);
                }
            }, CALLS);
            final double mpi = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    w.allReduce(x, y, 2, MPI.FLOAT, MPI.SUM);
                }
            }, CALLS);
            System.out.printf("allReduce of float[2] (rank %d): Tutti %.1f, mpi %.1f bytes per call%n", tw.rank(),
                tutti, mpi);
            assertTrue(mpi <= tutti + MAX_EXTRA_BYTES_PER_CALL, "rank " + tw.rank() + ": mpi allReduce allocated "
                + mpi + " bytes per call, Tutti's own " + tutti + "; expected at most " + MAX_EXTRA_BYTES_PER_CALL
                + " more");
            assertArrayEquals(new float[] {1, 10}, y, 0f);
            MPI.Finalize();
        });
    }

    /**
     * The reused views never mix up calls: the same array with another count, another array of the same length,
     * and a datatype freed after its view was cached.
     */
    @Test
    void shouldReuseViewsOnlyForTheSameArrayCountAndType() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] a = {1, 2, 3, 4};
            final int[] b = {5, 6, 7, 8};
            for (int round = 0; round < 3; round++) {
                if (0 == rank) {
                    w.send(a, 2, MPI.INT, 1, 1);
                    w.send(a, 4, MPI.INT, 1, 2);
                    w.send(b, 4, MPI.INT, 1, 3);
                    w.send(a, 4, MPI.BYTE, 1, 4); // 4 bytes: a[0] only
                } else {
                    final int[] in = new int[4];
                    assertEquals(2, w.recv(in, 4, MPI.INT, 0, 1).getCount(MPI.INT));
                    assertArrayEquals(new int[] {1, 2, 0, 0}, in);
                    w.recv(in, 4, MPI.INT, 0, 2);
                    assertArrayEquals(a, in);
                    w.recv(in, 4, MPI.INT, 0, 3);
                    assertArrayEquals(b, in);
                    java.util.Arrays.fill(in, 0);
                    assertEquals(4, w.recv(in, 16, MPI.BYTE, 0, 4).getCount(MPI.BYTE));
                    assertArrayEquals(new int[] {1, 0, 0, 0}, in);
                }
            }
            final Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            if (0 == rank) {
                w.send(a, 2, pair, 1, 5);
            } else {
                final int[] in = new int[4];
                w.recv(in, 2, pair, 0, 5);
                assertArrayEquals(a, in);
            }
            pair.free();
            w.setErrhandler(MPI.ERRORS_RETURN);
            final MPIException e = org.junit.jupiter.api.Assertions.assertThrows(MPIException.class,
                () -> w.send(a, 2, pair, 1 - rank, 6));
            assertEquals(MPI.ERR_TYPE, e.getErrorClass());
            MPI.Finalize();
        });
    }
}
