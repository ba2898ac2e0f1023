package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ShmJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mismatches across the two roads where the rank that waits is on the message layer and its peer took the on-host
 * region and does not wait there (a bcast's root, a reduce's non-root): the waiting rank reads the peer's published
 * call and fails with the mismatch, instead of waiting for a message that never comes. Two ranks wired as processes
 * over shm ({@link ShmJob}), whose first barrier agrees the region; the limit is shm's default, 8192 bytes per rank
 * (the tests that change it run alone), so 100 ints take the region and 4000 ints the message layer. A job that hangs
 * fails at 20 s.
 */
@Timeout(120)
class HostStallTest {
    /**
     * Runs {@code body} on two shm ranks between a barrier that agrees the region and another barrier, and returns
     * the failure of rank {@code waiter}, which the job reports.
     */
    private static TuttiException refused(final int waiter, final ShmJob.Body body) {
        final AssertionError job = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                ShmJob.run(2, (w, shm) -> {
                    w.barrier();
                    assertTrue(HostCollectivesTest.region(w).contains("HostRegion"), HostCollectivesTest.region(w));
                    body.run(w, shm);
                    w.barrier(); // the rank that does not wait goes on, as a program would: it does not leave
                });
                return null;
            } catch (final AssertionError e) {
                return e;
            }
        }, "the job hung: the waiting rank never saw the mismatch");
        assertNotNull(job, "every rank returned: the mismatch went unnoticed");
        // The failing rank leaves the job, so the other may fail too (the peer is gone), and either may be first.
        final Throwable mine = job.getMessage().startsWith("rank " + waiter + " failed") ? job.getCause()
            : Arrays.stream(job.getSuppressed()).findFirst().orElse(null);
        return assertInstanceOf(TuttiException.class, mine, () -> Arrays.toString(job.getSuppressed())
            + " " + job);
    }

    /**
     * A nonblocking call that waits for a free cell (its rank started it four calls ahead of its peer) against a
     * blocking call on the region whose rank does not wait (a bcast's root): the waiting rank's progress publishes
     * it (no other call comes to do it) and its run then finds the mismatch in the peer's cell.
     */
    @Test
    void shouldRefuseAnIbcastWhoseWordsWaitedAgainstABcastWhoseRootTookTheRegion() {
        final int ahead = 4;
        final TuttiException e = refused(0, (w, shm) -> {
            final int[] token = {0};
            final int[] b = new int[100];
            final dev.tutti.Request[] r = new dev.tutti.Request[ahead + 1];
            if (0 == w.rank()) {
                for (int i = 0; i < ahead; i++) {
                    r[i] = w.ibarrier();
                }
                r[ahead] = w.ibcast(Buf.of(b), 1);
                w.send(Buf.of(token), 1, 7);
                dev.tutti.Request.waitAll(r);
            } else {
                w.recv(Buf.of(token), 0, 7);
                for (int i = 0; i < ahead; i++) {
                    r[i] = w.ibarrier();
                }
                w.bcast(Buf.of(b), 1);
                dev.tutti.Request.waitAll(Arrays.copyOf(r, ahead));
            }
        });
        assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("rank=1 sent a blocking bcast through the on-host region but this rank "
            + "called a nonblocking bcast through the on-host region: blocking and nonblocking collectives do not "
            + "match"),
            e.getMessage());
    }

    @Test
    void shouldRefuseABcastOfAnotherCountWhoseRootTookTheRegion() {
        final TuttiException e = refused(1, (w, shm) -> w.bcast(Buf.of(new int[0 == w.rank() ? 100 : 4000]), 0));
        assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("bcast") && e.getMessage().contains("rank=0 sent count=100 of type=INT "
            + "but this rank passed count=4000 of type=INT"), e.getMessage());
    }

    @Test
    void shouldRefuseAnIbcastAgainstABcastWhoseRootTookTheRegion() {
        final TuttiException e = refused(1, (w, shm) -> {
            final int[] b = new int[100];
            if (0 == w.rank()) {
                w.bcast(Buf.of(b), 0);
            } else {
                w.ibcast(Buf.of(b), 0).waitFor();
            }
        });
        assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("rank=0 sent a blocking bcast through the on-host region but this rank "
            + "called a nonblocking bcast through the on-host region: blocking and nonblocking collectives do not "
            + "match"),
            e.getMessage());
    }

    @Test
    void shouldRefuseAReduceRootOnMessagesAgainstANonRootOnTheRegion() {
        final TuttiException e = refused(0, (w, shm) -> {
            final int n = 0 == w.rank() ? 4000 : 100;
            w.reduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM, 0);
        });
        assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("reduce") && e.getMessage().contains("rank=1 sent count=100 of type=INT "
            + "but this rank passed count=4000 of type=INT"), e.getMessage());
    }

    /**
     * The vector forms' ranks (and reduce_scatter's) pass counts of their own: a rank whose run stalls (its peer is
     * late) and that reads two peers' published calls of other counts than its own goes on waiting: these forms
     * publish no count. Three ranks, so that the two on time see each other's call while they wait for the third.
     */
    @Test
    void shouldWaitForALateRankOfVectorCollectivesWhoseCountsDiffer() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> ShmJob.run(3, (w, shm) -> {
            w.barrier();
            final int p = w.size();
            final int me = w.rank();
            final int[] counts = new int[p];
            final int[] displs = new int[p];
            for (int r = 0; r < p; r++) {
                counts[r] = r + 1;
                displs[r] = r * (r + 1) / 2;
            }
            final int total = p * (p + 1) / 2;
            final int[] mine = new int[me + 1];
            Arrays.fill(mine, 100 + me);
            final int[] gathered = new int[total];
            // Rank 0 comes late to each call (it waits for nobody): the others' runs must stall past the stall
            // checks' first look (200 ms), and no condition of theirs shows when that look has been made.
            if (0 == me) {
                Thread.sleep(1500);
            }
            w.allgatherv(Buf.of(mine), Buf.of(gathered), counts, displs);
            for (int r = 0; r < p; r++) {
                assertEquals(100 + r, gathered[displs[r] + r], "allgatherv block of rank " + r);
            }
            // alltoallv: rank me sends me + 1 ints to every rank and receives r + 1 from rank r
            final int[] sendCounts = new int[p];
            final int[] sendDispls = new int[p];
            for (int r = 0; r < p; r++) {
                sendCounts[r] = me + 1;
                sendDispls[r] = r * (me + 1);
            }
            final int[] send = new int[p * (me + 1)];
            Arrays.fill(send, 200 + me);
            final int[] recv = new int[total];
            if (0 == me) {
                Thread.sleep(1500);
            }
            w.alltoallv(Buf.of(send), sendCounts, sendDispls, Buf.of(recv), counts, displs);
            for (int r = 0; r < p; r++) {
                assertEquals(200 + r, recv[displs[r] + r], "alltoallv block of rank " + r);
            }
            // reduce_scatter: rank r keeps r + 1 sums, each 1 + 2 + ... + p
            final int[] terms = new int[total];
            Arrays.fill(terms, me + 1);
            final int[] share = new int[me + 1];
            if (0 == me) {
                Thread.sleep(1500);
            }
            w.reduceScatter(Buf.of(terms), Buf.of(share), counts, Op.SUM);
            assertEquals(total, share[me], "reduce_scatter share");
            assertNotNull(HostCollectivesTest.region(w));
        }));
    }

    /** The check reads only a peer's published call: a matching call that is merely late is not refused. */
    @Test
    void shouldWaitForALateRootOfAMessageLayerBcast() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> ShmJob.run(2, (w, shm) -> {
            w.barrier();
            final int[] b = new int[4000];
            if (0 == w.rank()) {
                Thread.sleep(1500); // past the stall checks' first look
                b[3999] = 7;
            }
            w.bcast(Buf.of(b), 0);
            assertEquals(7, b[3999]);
            assertNotNull(HostCollectivesTest.region(w));
        }));
    }
}
