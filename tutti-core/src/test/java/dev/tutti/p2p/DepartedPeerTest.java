package dev.tutti.p2p;

import dev.tutti.BadInputTest;
import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank of an embedded job that returns while the others wait for it (it skipped the operation): every waiting
 * rank fails within 2 s, naming it, instead of hanging until the job's timeout. The process forms (shm, tcp; a
 * rank that closes, throws, exits or is killed) are in tutti-cli's DepartedPeerMatrixTest.
 */
// Runs alone (@Isolated): it asserts how soon a failure is noticed, which another job on these 2 cores would delay.
@Isolated
@Timeout(60)
class DepartedPeerTest {
    private static final int RANKS = 4;
    private static final int DEPARTED = 1;

    /** What the staying ranks wait in. */
    enum Wait {
        RECV, BARRIER, BCAST, ALLREDUCE, TAGGED_END;

        void run(final Communicator w) {
            final int[] x = {w.rank()};
            switch (this) {
                case RECV -> w.recv(Buf.of(x), DEPARTED, 0);
                case BARRIER -> w.barrier();
                case BCAST -> w.bcast(Buf.of(x), DEPARTED);
                case ALLREDUCE -> w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                case TAGGED_END -> w.allreduceBegin(Buf.IN_PLACE, Buf.of(x), Op.SUM, 3).end();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Wait.class)
    void shouldFailEveryRankWaitingForARankThatReturned(final Wait wait) {
        final AtomicReferenceArray<TuttiException> seen = new AtomicReferenceArray<>(RANKS);
        final long[] tookMs = new long[RANKS];
        final TuttiException job = assertThrows(TuttiException.class, () -> Tutti.runLocal(RANKS,
            BadInputTest.OPTS, w -> {
                if (DEPARTED == w.rank()) {
                    return; // skips the operation and leaves
                }
                final long t0 = System.nanoTime();
                try {
                    wait.run((Communicator) w);
                } catch (final TuttiException e) {
                    tookMs[w.rank()] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                    seen.set(w.rank(), e);
                    throw e;
                }
            }));
        assertEquals(ErrorClass.PROC_FAILED, job.errorClass(), job.getMessage());
        for (int r = 0; r < RANKS; r++) {
            if (DEPARTED == r) {
                continue;
            }
            final TuttiException e = seen.get(r);
            assertNotNull(e, "rank " + r + " returned from " + wait + " although rank " + DEPARTED + " never took part");
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("rank " + DEPARTED + " closed"), "rank " + r + ": " + e.getMessage());
            assertTrue(tookMs[r] < 2_000, "rank " + r + " took " + tookMs[r] + " ms to fail");
        }
    }

    /**
     * The same for persistent requests whose messages go through slots (in-process, every message does): after
     * a few starts the runs take the lean way ({@code SlotRounds}), whose waits must still find the departure.
     */
    @ParameterizedTest
    @EnumSource(names = {"BARRIER", "ALLREDUCE"}, value = Wait.class)
    void shouldFailEveryLeanPersistentRunWaitingForARankThatReturned(final Wait wait) {
        final AtomicReferenceArray<TuttiException> seen = new AtomicReferenceArray<>(RANKS);
        final long[] tookMs = new long[RANKS];
        final TuttiException job = assertThrows(TuttiException.class, () -> Tutti.runLocal(RANKS,
            BadInputTest.OPTS, w -> {
                final Communicator c = (Communicator) w;
                final int[] x = {c.rank()};
                final PersistentRequest r = Wait.BARRIER == wait ? c.barrierInit()
                    : c.allreduceInit(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                for (int i = 0; i < 5; i++) {
                    r.start();
                    r.waitFor();
                }
                if (DEPARTED == c.rank()) {
                    return; // skips the sixth start and leaves
                }
                final long t0 = System.nanoTime();
                try {
                    r.start();
                    r.waitFor();
                } catch (final TuttiException e) {
                    tookMs[c.rank()] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                    seen.set(c.rank(), e);
                    throw e;
                }
            }));
        assertEquals(ErrorClass.PROC_FAILED, job.errorClass(), job.getMessage());
        for (int r = 0; r < RANKS; r++) {
            if (DEPARTED != r) {
                final TuttiException e = seen.get(r);
                assertNotNull(e, "rank " + r + " completed a start although rank " + DEPARTED + " never took part");
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("rank " + DEPARTED + " closed"), "rank " + r + ": "
                    + e.getMessage());
                assertTrue(tookMs[r] < 2_000, "rank " + r + " took " + tookMs[r] + " ms to fail");
            }
        }
    }

    @Test
    void shouldFailTheJobWithTheCauseARankAbortsWith() {
        final TuttiException job = assertThrows(TuttiException.class, () -> Tutti.runLocal(RANKS,
            BadInputTest.OPTS, w -> {
                if (DEPARTED == w.rank()) {
                    Tutti.init().abort(new IllegalStateException("rank one gives up"));
                    return;
                }
                w.barrier();
            }));
        assertTrue(job.getMessage().contains("rank " + DEPARTED + " failed: java.lang.IllegalStateException: rank one "
            + "gives up"), job.getMessage());
    }
}
