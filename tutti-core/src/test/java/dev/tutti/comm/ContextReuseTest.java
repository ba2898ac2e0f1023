package dev.tutti.comm;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.ObjectRequest;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;
import dev.tutti.testkit.Worlds;

import dev.tutti.comm.ContextIdAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reuse of a freed communicator's context block: a message sent on the old communicator, unreceived or still on
 * the wire, never matches a receive on the communicator that gets the block next (see
 * {@link ContextIdAllocator}'s retirement), and freed blocks still come back to the pool.
 */
@Timeout(120)
class ContextReuseTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(100));
    private static final int TAG = 5;

    @Test
    void shouldNotDeliverAFreedCommunicatorsMessageOnTheNextCommunicatorOfItsBlock() {
        Tutti.runLocal(2, OPTS, w -> {
            final Communicator a = w.dup();
            final int aBase = Worlds.impl(a).contextBase();
            if (1 == w.rank()) {
                a.send(Buf.of(new int[] {-1}), 0, TAG); // never received: a late message of A
            }
            a.free();
            w.barrier();
            final Communicator b = w.dup();
            assertEquals(aBase, Worlds.impl(b).contextBase(), "B got A's block (the case under test)");
            if (1 == w.rank()) {
                b.send(Buf.of(new int[] {1}), 0, TAG);
            } else {
                final int[] got = new int[1];
                b.recv(Buf.of(got), 1, TAG);
                assertEquals(1, got[0], "the receive on B got A's message");
            }
            b.free();
            w.barrier();
            Worlds.impl(w).contexts().awaitRetired();
            assertEquals(0, Worlds.impl(w).engine().pendingCount(), "A's unreceived message is dropped, not kept forever");
        });
    }

    @Test
    void shouldCompleteAReceivePostedBeforeFreeAndHoldTheBlockUntilThen() {
        Tutti.runLocal(2, OPTS, w -> {
            final Communicator a = w.dup();
            final ContextIdAllocator ids = Worlds.impl(w).contexts();
            if (0 == w.rank()) {
                final int[] got = new int[1];
                final Request r = a.irecv(Buf.of(got), 1, TAG);
                a.free();
                w.barrier(); // rank 1 has freed A too: its FIN is here, but the receive still holds the block
                assertFalse(r.test());
                assertEquals(1, ids.retiring(), "the block waits for the pending receive");
                final Communicator b = w.dup();
                assertTrue(Worlds.impl(b).contextBase() != Worlds.impl(a).contextBase(), "a block with a pending receive is not reused");
                w.barrier();
                r.waitFor();
                assertEquals(7, got[0], "a pending operation of a freed communicator completes normally");
                b.free();
            } else {
                a.free();
                w.barrier();
                final Communicator b = w.dup();
                w.barrier();
                // The latest a message of A can come: after its sender's FIN (as a send whose transfer ran late
                // would); the engine sends it, since A is freed here. The posted receive still holds the block.
                Worlds.impl(w).engine().send(Worlds.impl(a).contextBase(), 0, TAG, Buf.of(new int[] {7}));
                b.free();
            }
            w.barrier();
            ids.awaitRetired();
            assertEquals(0, ids.retiring());
            assertEquals(0, Worlds.impl(w).engine().pendingCount());
        });
    }

    /**
     * MPI lets a rank free a communicator while its nonblocking collective on it runs: the collective completes
     * normally. Its later rounds send after the free, so this rank's FIN (which promises that nothing more comes on
     * the block) waits for the run; probed here: rank 1 sees no FIN of rank 0 while rank 0's ibarrier waits for
     * rank 1, and the collective, the block's reuse and a persistent request's refusal after the free all behave.
     */
    @Test
    void shouldHoldTheFinOfAFreeUntilTheCollectivesRunningOnTheCommunicatorAreDone() {
        Tutti.runLocal(2, OPTS, w -> {
            final Communicator a = w.idup().get(); // no on-host region: its collectives send messages on the block
            final int finContext = Worlds.impl(a).contextBase() + ContextIdAllocator.RETIRE;
            final int[] sum = new int[1];
            final PersistentRequest p = a.allreduceInit(Buf.of(new int[] {w.rank() + 1}), Buf.of(sum), Op.SUM);
            if (0 == w.rank()) {
                final Request r = a.ibarrier();
                final Request s = a.iallreduce(Buf.of(new int[] {w.rank() + 1}), Buf.of(sum), Op.SUM);
                a.free();
                final TuttiException e = assertThrows(TuttiException.class, p::start);
                assertEquals(ErrorClass.COMM, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("communicator is freed"), e.getMessage());
                w.send(Buf.of(new int[1]), 1, TAG);
                r.waitFor();
                s.waitFor();
                assertEquals(3, sum[0], "a collective running at the free completes normally");
            } else {
                w.recv(Buf.of(new int[1]), 0, TAG);
                for (int i = 0; i < 200; i++) {
                    Worlds.impl(w).engine().progress();
                }
                assertNull(Worlds.impl(w).engine().iprobe(finContext, 0, 0, Worlds.impl(w).view()),
                    "rank 0's FIN went out while its ibarrier and iallreduce on the block still had to send");
                a.ibarrier().waitFor(); // nonblocking, as rank 0's: MPI never matches the two kinds
                a.iallreduce(Buf.of(new int[] {w.rank() + 1}), Buf.of(sum), Op.SUM).waitFor();
                assertEquals(3, sum[0]);
                a.free();
            }
            p.free();
            w.barrier();
            final Communicator b = w.dup();
            final int[] again = new int[1];
            b.allreduce(Buf.of(new int[] {10 * (w.rank() + 1)}), Buf.of(again), Op.SUM);
            assertEquals(30, again[0]);
            b.free();
            Worlds.impl(w).contexts().awaitRetired();
            assertEquals(0, Worlds.impl(w).contexts().retiring());
        });
    }

    @Test
    void shouldWaitForRetiringBlocksRatherThanReportExhaustion() {
        Tutti.runLocal(2, OPTS, w -> {
            final List<Communicator> live = new ArrayList<>();
            for (int i = 1; i < ContextIdAllocator.BLOCKS; i++) {
                live.add(w.dup());
            }
            final int[] token = new int[1];
            final ObjectRequest<Communicator> next;
            if (1 == w.rank()) {
                next = w.idup(); // proposes nothing: every block is in use here
                w.send(Buf.of(token), 0, TAG);
                w.recv(Buf.of(token), 0, TAG);
                live.forEach(Comm::free);
            } else {
                w.recv(Buf.of(token), 1, TAG);
                live.forEach(Comm::free); // retiring until rank 1 frees them too
                next = w.idup();
                w.send(Buf.of(token), 1, TAG);
            }
            final Communicator c = next.get();
            assertTrue(Worlds.impl(w).contexts().retried() > 0, "the first attempt found no block free at both ranks");
            final int[] sum = new int[1];
            c.allreduce(Buf.of(new int[] {1}), Buf.of(sum), Op.SUM);
            assertEquals(2, sum[0]);
            c.free();
        });
    }

    @Test
    void shouldNeverCrossMessagesWhenFreeingAndCreatingInALoopInproc() {
        Tutti.runLocal(4, OPTS, w -> churn(w, 2_500));
    }

    @Test
    void shouldNeverCrossMessagesWhenFreeingAndCreatingInALoopOverShm() {
        ShmJob.run(4, (w, shm) -> churn(w, 200));
    }

    @Test
    void shouldNeverCrossMessagesWhenFreeingAndCreatingInALoopOverTcp() {
        TcpJob.run(4, 4096, (w, tcp) -> churn(w, 300));
    }

    /**
     * Creates and frees communicators in a loop (dups of the world, splits into halves whose blocks other groups
     * reuse, dups of a long-lived half), more of them than a rank has blocks. On each, every rank sends two
     * messages to every other member and receives as many messages as it has peers (from any source), then frees
     * it at once: the other half stays unreceived, in the unexpected queue or still on the wire when the receiver
     * moves on (over shm and tcp, a message from a rank that the next agreement does not talk to directly arrives
     * late). Every message carries the serial of its communicator; a receive that gets another serial got a
     * message of another communicator. (With the FIN wait removed, so that free() drops the unreceived messages at
     * once, this fails over shm and tcp: the late ones then match on the next communicator.)
     */
    private static void churn(final Communicator w, final int rounds) {
        final ContextIdAllocator ids = Worlds.impl(w).contexts();
        final Communicator half = w.split(w.rank() % 2, 0);
        final int baseline = ids.inUse();
        for (int i = 0; i < rounds; i++) {
            final Communicator c = switch (i % 3) {
                case 0 -> w.dup();
                case 1 -> w.split(w.rank() / 2, w.rank());
                default -> half.dup();
            };
            final int n = c.size();
            final int[] mine = {i, w.rank()};
            final Request[] sends = new Request[2 * (n - 1)];
            int k = 0;
            for (int d = 1; d < n; d++) {
                final int to = (c.rank() + d) % n;
                sends[k++] = c.isend(Buf.of(mine.clone()), to, TAG);
                sends[k++] = c.isend(Buf.of(mine.clone()), to, TAG);
            }
            for (int d = 1; d < n; d++) {
                final int[] got = new int[2];
                final Status st = c.recv(Buf.of(got), Comm.ANY_SOURCE, TAG);
                assertEquals(i, got[0], "round " + i + " on " + c.name() + " received a message of round " + got[0]
                    + " from world rank " + got[1]);
                assertEquals(c.group().worldRank(st.source()), got[1]);
            }
            Request.waitAll(sends);
            c.free();
        }
        half.free();
        w.barrier();
        ids.awaitRetired();
        assertEquals(baseline - 1, ids.inUse());
        assertEquals(0, ids.retiring());
        assertEquals(0, Worlds.impl(w).engine().pendingCount(), "every unreceived message of a freed communicator is dropped");
    }
}
