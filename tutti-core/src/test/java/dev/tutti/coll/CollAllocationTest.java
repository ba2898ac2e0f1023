package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Op;
import dev.tutti.testkit.AllocationProbe;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.Worlds;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A blocking collective repeated on the same buffers allocates (almost) nothing: its schedule, its run and its part
 * requests come from the communicator's schedule cache. Garbage matters beyond its own cost: on a host whose cores
 * all run busy-polling ranks, every collection stalls every rank for milliseconds. Bytes are counted by the JVM per
 * thread (not timed), after a warm-up; what remains is a message that arrives before its receive is posted, which
 * gets a new envelope object (its bytes wait in a pooled array).
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
class CollAllocationTest {
    private static final int CALLS = 40_000;
    /**
     * Bytes per call allowed: nothing (under a byte on average, for the JIT's own rare events). The descriptor is the
     * thread's, the schedule the cache's, the matcher searches without iterators, and a message that arrives before
     * its receive is posted lands in a pooled array and envelope. Except where bcast's root runs ahead: it never
     * waits for rank 1, whose inbox then holds many of its messages at once, more than the pools keep (holding them
     * takes memory). A wait on the on-host region that goes idle looks for a peer's message of another road with a
     * probe that allocates nothing, so a loaded host, whose waits go idle often, stays under the bound too.
     */
    private static final double MAX_BYTES_PER_CALL = 1;
    private static final double MAX_BYTES_PER_BUFFERED_CALL = 300;
    /** Bytes allowed per unexpected 1 KiB message received (with its share of the receive and the barrier). */
    private static final double MAX_BYTES_PER_UNEXPECTED = 300;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAllocateAlmostNothingPerRepeatedBlockingCollective() {
        ShmJob.run(2, (world, shm) -> {
            final float[] x = {1 + world.rank(), 10 * (1 + world.rank())};
            final float[] y = new float[2];
            final byte[] b = new byte[64];
            final Buf bx = Buf.of(x);
            final Buf by = Buf.of(y);
            final Buf head = Buf.of(b, 0, 8);
            final Buf tail = Buf.of(b, 32, 8);
            final Runnable[] calls = {world::barrier, () -> world.allreduce(bx, by, Op.SUM),
                () -> world.bcast(head, 0), () -> world.alltoall(head, tail)};
            final String[] names = {"barrier", "allreduce", "bcast", "alltoall"};
            for (int c = 0; c < calls.length; c++) {
                final double perCall = AllocationProbe.leastPerCall(calls[c], CALLS); // after warm-up: cache, JIT
                System.out.printf("blocking %s: %.2f bytes per call (rank %d)%n", names[c], perCall, world.rank());
                final double max = 2 == c && 1 == world.rank() ? MAX_BYTES_PER_BUFFERED_CALL : MAX_BYTES_PER_CALL;
                assertTrue(perCall < max, "rank " + world.rank() + ": blocking " + names[c] + " allocated " + perCall
                    + " bytes per call, expected < " + max);
            }
            // The reused runs still compute: the sum of both ranks' x.
            assertArrayEquals(new float[] {3, 30}, y, 0f, Arrays.toString(y));
        });
    }

    /**
     * The vector forms, scans and reduce_scatter(_block) that the on-host region runs allocate nothing per call
     * either: a v-collective's counts stay the caller's arrays (its argument record is made only for a schedule).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAllocateNothingPerVectorFormOrScanOnTheRegion() {
        ShmJob.run(2, (world, shm) -> {
            final int[] x = {1 + world.rank(), 10 * (1 + world.rank())};
            final int[] y = new int[4];
            final Buf bx = Buf.of(x);
            final Buf by = Buf.of(y);
            final Buf one = Buf.of(x, 0, 1);
            final Buf first = Buf.of(y, 0, 1);
            final Buf two = Buf.of(y, 0, 2);
            final int[] counts = {1, 1};
            final int[] displs = {0, 1};
            world.barrier();
            final Runnable[] calls = {() -> world.gatherv(one, 0 == world.rank() ? two : null, counts, displs, 0),
                () -> world.allgatherv(one, two, counts, displs),
                () -> world.alltoallv(bx, counts, displs, by, counts, displs),
                () -> world.scatterv(0 == world.rank() ? bx : null, counts, displs, first, 0),
                () -> world.scan(bx, by, Op.SUM), () -> world.exscan(bx, by, Op.SUM),
                () -> world.reduceScatterBlock(bx, first, Op.SUM),
                () -> world.reduceScatter(bx, first, counts, Op.SUM)};
            final String[] names = {"gatherv", "allgatherv", "alltoallv", "scatterv", "scan", "exscan",
                "reduce_scatter_block", "reduce_scatter"};
            for (int c = 0; c < calls.length; c++) {
                final double perCall = AllocationProbe.leastPerCall(calls[c], CALLS);
                assertTrue(perCall < MAX_BYTES_PER_CALL, "rank " + world.rank() + ": blocking " + names[c]
                    + " allocated " + perCall + " bytes per call, expected < " + MAX_BYTES_PER_CALL);
            }
            assertTrue(String.valueOf(Worlds.impl(world).collComm().hostState()).contains(" 0 through messages"),
                "every call took the region: " + Worlds.impl(world).collComm().hostState());
        });
    }

    /**
     * Small messages that reach a rank before their receives are posted (the usual case when ranks outnumber cores)
     * allocate only their envelope: the payload waits in a pooled array. Before the pool, each 1 KiB message
     * allocated over 1 KiB, which made a 4-rank 1 KiB alltoall on 2 cores collect garbage every second.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAllocateLittlePerSmallMessageThatArrivesBeforeItsReceive() {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final int burst = 32;
        final int rounds = 3_000;
        ShmJob.run(2, (world, shm) -> {
            final byte[] b = new byte[1024];
            final Buf buf = Buf.of(b);
            final long thread = Thread.currentThread().threadId();
            long before = 0;
            for (int r = 0; r < 2 * rounds; r++) {
                if (r == rounds) { // the first half warms up
                    before = mx.getThreadAllocatedBytes(thread);
                }
                if (0 == world.rank()) {
                    for (int k = 0; k < burst; k++) {
                        b[0] = (byte) k;
                        world.send(buf, 1, k);
                    }
                    world.barrier(); // rank 1 reads every message above while it waits here: none is expected yet
                    world.barrier();
                } else {
                    world.barrier();
                    for (int k = 0; k < burst; k++) {
                        world.recv(buf, 0, k);
                        if ((byte) k != b[0]) { // no message string built per call: it would be counted
                            assertEquals((byte) k, b[0], "message " + k + " of round " + r);
                        }
                    }
                    world.barrier(); // at most one burst waits at a time (a pool class keeps SLOTS arrays)
                }
            }
            final double perMessage = (double) (mx.getThreadAllocatedBytes(thread) - before) / (rounds * burst);
            if (1 == world.rank()) {
                assertTrue(perMessage < MAX_BYTES_PER_UNEXPECTED, "rank 1 allocated " + perMessage
                    + " bytes per unexpected 1 KiB message, expected < " + MAX_BYTES_PER_UNEXPECTED);
            }
        });
    }
}
