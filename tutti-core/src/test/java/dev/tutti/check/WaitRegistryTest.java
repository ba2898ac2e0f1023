package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.p2p.AbstractRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WaitRegistry#oldestMs}: what it answers for blocking waits and polls, and that it allocates nothing, as it
 * is asked at every pass of the coordinator's wait loops (it copied every wait into a list, which made a checked
 * collective of the coordinator allocate 130-150 bytes per call on a loaded host).
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(60)
class WaitRegistryTest {
    @Test
    void shouldAnswerTheOldestWaitWithoutAllocating() {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Tutti.runLocal(1, world -> {
            final Request never = world.irecv(Buf.of(new byte[1]), 0, 77); // matched by nothing: stays pending
            final Request polledOne = world.irecv(Buf.of(new byte[1]), 0, 78);
            try {
                final WaitRegistry waits = new WaitRegistry();
                assertEquals(-1, waits.oldestMs(), "no wait");
                final Object token = waits.add((AbstractRequest) never);
                final long start = System.nanoTime();
                waits.polled((AbstractRequest) polledOne, start - 5_000_000_000L); // a poll that took 5 s so far
                assertTrue(waits.oldestMs() >= 5_000, "the poll counts from its first test: " + waits.oldestMs());
                final long thread = Thread.currentThread().threadId();
                long sink = 0;
                for (int i = 0; i < 20_000; i++) { // warm-up: the JIT
                    sink += waits.oldestMs();
                }
                final long before = mx.getThreadAllocatedBytes(thread);
                for (int i = 0; i < 100_000; i++) {
                    sink += waits.oldestMs();
                }
                final double perCall = (double) (mx.getThreadAllocatedBytes(thread) - before) / 100_000;
                assertTrue(perCall < 1, "oldestMs allocated " + perCall + " bytes per call (" + sink + ")");
                waits.remove(token);
            } finally {
                never.cancel();
                polledOne.cancel();
            }
        });
    }
}
