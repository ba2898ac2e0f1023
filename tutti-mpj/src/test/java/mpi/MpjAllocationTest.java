package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layer's hot calls allocate little beyond what Tutti's own API allocates for the same call, whatever the load
 * of the machine (bytes are counted by the JVM per thread after a warm-up, not timed): a program's loop of
 * {@code Send}/{@code Recv} or {@code Allreduce} on the same arrays. What the layer may add: the {@link Status} a
 * {@code Recv} returns; the views over the program's arrays come from the rank's cache ({@link Views}), while the
 * Tutti form here builds its buffers per call.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing while they wait.
@Isolated
@Timeout(120)
class MpjAllocationTest {
    private static final int CALLS = 50_000;
    /** Bytes per call the layer may add to Tutti's own: a Status (48 bytes with compressed pointers) or less. */
    private static final double MAX_EXTRA_BYTES_PER_CALL = 56;

    private static final com.sun.management.ThreadMXBean MX =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A measured loop. */
    @FunctionalInterface
    private interface Loop {
        void run();
    }

    /** @return bytes the calling thread allocated per call of a loop that makes {@code calls} calls */
    private static double bytesPerCall(final Loop loop, final int calls) {
        loop.run(); // warm-up: the JIT
        loop.run();
        final long thread = Thread.currentThread().threadId();
        final long before = MX.getThreadAllocatedBytes(thread);
        loop.run();
        return (double) (MX.getThreadAllocatedBytes(thread) - before) / calls;
    }

    /** A rank sends small int[] messages to itself from an offset and receives them. */
    @Test
    void shouldAllocateLittleMoreThanTuttiPerSmallSendAndRecv() {
        MpjJobs.mpi(1, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final Communicator tw = Env.current().world();
            final int[] out = {9, 1, 2, 3, 4};
            final int[] in = new int[6];
            final double tutti = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    tw.send(Buf.of(out, 1, 4), 0, 7);
                    tw.recv(Buf.of(in, 2, 4), 0, 7);
                }
            }, 2 * CALLS);
            final double mpj = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    w.Send(out, 1, 4, MPI.INT, 0, 7);
                    w.Recv(in, 2, 4, MPI.INT, 0, 7);
                }
            }, 2 * CALLS);
            System.out.printf("Send+Recv of 4 ints to self: Tutti %.1f, MPJ %.1f bytes per call%n", tutti, mpj);
            assertTrue(mpj <= tutti + MAX_EXTRA_BYTES_PER_CALL, "MPJ Send/Recv allocated " + mpj
                + " bytes per call, Tutti's own " + tutti + "; expected at most " + MAX_EXTRA_BYTES_PER_CALL + " more");
            assertArrayEquals(new int[] {0, 0, 1, 2, 3, 4}, in);
        });
    }

    /** A small allreduce repeated on the same arrays, on one rank (no message moves whose allocation blurs it). */
    @Test
    void shouldAllocateLittleMoreThanTuttiPerSmallAllreduce() {
        MpjJobs.mpi(1, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final Communicator tw = Env.current().world();
            final double[] x = {1, 10};
            final double[] y = new double[2];
            final double tutti = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    tw.allreduce(Buf.of(x), Buf.of(y), dev.tutti.Op.SUM);
                }
            }, CALLS);
            final double mpj = bytesPerCall(() -> {
                for (int i = 0; i < CALLS; i++) {
                    w.Allreduce(x, 0, y, 0, 2, MPI.DOUBLE, MPI.SUM);
                }
            }, CALLS);
            System.out.printf("Allreduce of double[2]: Tutti %.1f, MPJ %.1f bytes per call%n", tutti, mpj);
            assertTrue(mpj <= tutti + MAX_EXTRA_BYTES_PER_CALL, "MPJ Allreduce allocated " + mpj
                + " bytes per call, Tutti's own " + tutti + "; expected at most " + MAX_EXTRA_BYTES_PER_CALL + " more");
            assertArrayEquals(new double[] {1, 10}, y, 0);
        });
    }

    /** The cached views never mix up calls: the same array at another offset or count, another array, a collection. */
    @Test
    void shouldReuseViewsOnlyForTheSameArrayOffsetAndCount() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int[] a = {1, 2, 3, 4};
            final int[] b = {5, 6, 7, 8};
            for (int round = 0; round < 3; round++) {
                if (0 == w.Rank()) {
                    w.Send(a, 0, 2, MPI.INT, 1, 1);
                    w.Send(a, 1, 2, MPI.INT, 1, 2);
                    w.Send(a, 0, 4, MPI.INT, 1, 3);
                    w.Send(b, 0, 4, MPI.INT, 1, 4);
                    w.Send(b, 2, 2, MPI.INT, 1, 5);
                    w.Send(new int[] {round}, 0, 1, MPI.INT, 1, 6);
                } else {
                    final int[] in = new int[4];
                    w.Recv(in, 0, 4, MPI.INT, 0, 1);
                    assertArrayEquals(new int[] {1, 2, 0, 0}, in);
                    w.Recv(in, 2, 2, MPI.INT, 0, 2);
                    assertArrayEquals(new int[] {1, 2, 2, 3}, in);
                    w.Recv(in, 0, 4, MPI.INT, 0, 3);
                    assertArrayEquals(a, in);
                    w.Recv(in, 0, 4, MPI.INT, 0, 4);
                    assertArrayEquals(b, in);
                    w.Recv(in, 1, 2, MPI.INT, 0, 5);
                    assertArrayEquals(new int[] {5, 7, 8, 8}, in);
                    final int[] fresh = new int[1];
                    w.Recv(fresh, 0, 1, MPI.INT, 0, 6);
                    assertArrayEquals(new int[] {round}, fresh);
                }
                System.gc(); // the views are held weakly: those collected are built again
            }
        });
    }
}
