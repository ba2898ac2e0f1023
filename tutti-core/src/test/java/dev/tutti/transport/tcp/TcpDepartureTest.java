package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.testkit.TcpJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a tcp rank leaves: a close returns once the peers' I/O threads have answered its goodbye, whatever their
 * programs do meanwhile; an abort makes the peers fail it at once, saying it aborted.
 */
// Runs alone (@Isolated): it asserts how soon a failure is noticed, which another job on these 2 cores would delay.
@Isolated
@Timeout(60)
class TcpDepartureTest {

    @Test
    void shouldCloseWithoutWaitingForThePeersProgramsToClose() {
        final CountDownLatch closed = new CountDownLatch(1);
        final AtomicLong closeMs = new AtomicLong(-1);
        TcpJob.run(2, 65536, false, (w, tcp) -> {
            w.barrier();
            if (1 == w.rank()) {
                final long t0 = System.nanoTime();
                tcp.close();
                closeMs.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                closed.countDown();
            } else {
                // Busy with something else until rank 1 has closed (before, its close waited for this rank's
                // goodbye: 10 s, tutti.tcp.closeTimeoutMs); then a receive from it fails at once.
                assertTrue(closed.await(30, TimeUnit.SECONDS), "rank 1's close did not return");
                final TuttiException e = assertThrows(TuttiException.class, () -> w.recv(Buf.of(new int[1]), 1, 0));
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("rank 1 closed"), e.getMessage());
                tcp.close();
            }
        });
        assertTrue(closeMs.get() < 2_000, "close took " + closeMs.get() + " ms");
    }

    @Test
    void shouldFailARankThatAbortsAtOnceSayingItAborted() {
        // Rank 1 aborts only once the others have completed the first barrier: an abort drops what the aborting
        // rank had in flight, so an earlier one could fail their first barrier instead of the second.
        final CountDownLatch othersPassed = new CountDownLatch(2);
        TcpJob.run(3, 65536, false, (w, tcp) -> {
            w.barrier();
            if (1 == w.rank()) {
                assertTrue(othersPassed.await(30, TimeUnit.SECONDS), "ranks 0 and 2 did not complete the barrier");
                tcp.abort();
                return;
            }
            othersPassed.countDown();
            final long t0 = System.nanoTime();
            final TuttiException e = assertThrows(TuttiException.class, w::barrier);
            final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("aborted by rank 1"), e.getMessage());
            assertTrue(ms < 2_000, "took " + ms + " ms");
            tcp.close();
        });
    }
}
