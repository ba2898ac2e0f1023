package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Status;
import dev.tutti.testkit.AllocationProbe;
import dev.tutti.testkit.ShmJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A blocking send and receive repeated on the same buffers allocate nothing, its status included: a receive whose
 * message has the source, tag, length and type of the last one on its thread returns that status again (a record,
 * so it cannot tell). Garbage stalls a rank for milliseconds at each young collection, and its peers with it. A
 * status that differs is still a new and right one.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
class P2pAllocationTest {
    private static final int CALLS = 40_000;
    /** Bytes per round trip allowed: nothing (under a byte on average, for the JIT's own rare events). */
    private static final double MAX_BYTES_PER_CALL = 1;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAllocateNothingPerRepeatedBlockingPingPong() {
        ShmJob.run(2, (world, shm) -> {
            final Buf buf = Buf.of(new byte[64]);
            final int peer = 1 - world.rank();
            final Runnable roundTrip = 0 == world.rank()
                ? () -> pingThenPong(world, buf, peer)
                : () -> pongThenPing(world, buf, peer);
            final double perCall = AllocationProbe.leastPerCall(roundTrip, CALLS);
            assertTrue(perCall < MAX_BYTES_PER_CALL, "rank " + world.rank() + ": a blocking send and receive of 64 B "
                + "allocated " + perCall + " bytes per round trip, expected < " + MAX_BYTES_PER_CALL);
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReturnEachReceiveItsOwnStatusWhenMessagesDiffer() {
        ShmJob.run(2, (world, shm) -> {
            final int[] data = new int[8];
            if (0 == world.rank()) {
                for (int i = 0; i < 6; i++) {
                    world.send(Buf.of(data, 0, 1 + i % 3), 1, 10 + i % 2);
                }
                world.send(Buf.of(new long[2]), 1, 11);
            } else {
                for (int i = 0; i < 6; i++) {
                    final Status s = world.recv(Buf.of(data), 0, Communicator.ANY_TAG);
                    assertEquals(new Status(0, 10 + i % 2, 4L * (1 + i % 3), Datatype.INT, false), s, "receive " + i);
                }
                final Status last = world.recv(Buf.of(new long[4]), Communicator.ANY_SOURCE, 11);
                assertEquals(new Status(0, 11, 16, Datatype.LONG, false), last);
                assertEquals(2, last.count());
            }
        });
    }

    private static void pingThenPong(final Communicator world, final Buf buf, final int peer) {
        world.send(buf, peer, 7);
        world.recv(buf, peer, 7);
    }

    private static void pongThenPing(final Communicator world, final Buf buf, final int peer) {
        world.recv(buf, peer, 7);
        world.send(buf, peer, 7);
    }
}
