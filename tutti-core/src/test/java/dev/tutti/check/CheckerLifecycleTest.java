package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.CheckFailedException;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.RankBody;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's request lifecycle, on embedded jobs: a nonblocking collective started and never
 * waited or tested to completion, a persistent collective left active, a tagged collective never ended are each
 * reported at close with the call site that made them, and the job fails ({@link CheckFailedException}) unless the
 * checker only warns; the correct twins are silent and the job passes.
 */
// Runs alone (@Isolated): it replaces System.out or System.err, which other tests print to.
@Isolated
@Timeout(60)
class CheckerLifecycleTest {
    private static final String FILE = "CheckerLifecycleTest.java:";
    private static final Tutti.Options CHECKED = Tutti.Options.defaults().timeout(Duration.ofSeconds(30)).check(true);

    /** What a job printed on standard error and how it ended (null: it returned). */
    record Ended(String err, TuttiException failure) {
    }

    /** Runs a job with these options and returns its standard error and its failure. */
    static Ended run(final Tutti.Options options, final int n, final RankBody body) {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TuttiException failure = null;
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            Tutti.runLocal(n, options, body);
        } catch (final TuttiException e) {
            failure = e;
        } finally {
            System.setErr(saved);
        }
        return new Ended(bytes.toString(StandardCharsets.UTF_8), failure);
    }

    private static void assertCheckFailed(final Ended e) {
        assertTrue(e.failure() instanceof CheckFailedException, () -> e.err() + e.failure());
        assertEquals(ErrorClass.REQUEST, e.failure().errorClass());
    }

    @Test
    void shouldReportANonblockingCollectiveNeverWaitedAndFailTheJob() {
        final int[] line = new int[1];
        final Ended e = run(CHECKED, 2, world -> {
            final Communicator w = (Communicator) world;
            line[0] = CheckerTest.here(); w.ibarrier();
            w.ibcast(Buf.of(new int[4]), 0).waitFor();
            w.barrier(); // the ibarrier has finished by now, but the program never saw it complete
        });
        assertCheckFailed(e);
        assertTrue(e.failure().getMessage().contains("check: rank 0 has 1 finding (1 leak), reported above; "
            + "--check=warn only reports them"), e.failure().getMessage());
        for (int r = 0; r < 2; r++) {
            assertTrue(e.err().contains("tutti check: rank " + r + " leaves behind at close:\n  nonblocking collective "
                + "never completed: ibarrier() on 'WORLD', started at " + FILE + line[0]), e.err());
        }
        assertFalse(e.err().contains("ibcast"), e.err());
    }

    @Test
    void shouldPassTheTwinThatWaitsOrTests() {
        final Ended e = run(CHECKED, 2, world -> {
            final Communicator w = (Communicator) world;
            final Request r = w.ibarrier();
            while (!r.test()) {
                Thread.yield();
            }
            w.ibcast(Buf.of(new int[4]), 0).waitFor();
            Request.waitAll(w.iallreduce(Buf.of(new int[] {1}), Buf.of(new int[1]), Op.SUM));
        });
        assertNull(e.failure(), e.err());
        assertFalse(e.err().contains("tutti check"), e.err());
    }

    @Test
    void shouldReportAPersistentCollectiveLeftActiveAndATaggedOneNeverEnded() {
        final int[] initLine = new int[1];
        final int[] beginLine = new int[1];
        final Ended e = run(CHECKED, 2, world -> {
            final Communicator w = (Communicator) world;
            initLine[0] = CheckerTest.here(); final PersistentRequest p = w.barrierInit();
            p.start();
            beginLine[0] = CheckerTest.here(); w.barrierBegin(5);
            w.barrier();
        });
        assertCheckFailed(e);
        for (int r = 0; r < 2; r++) {
            assertTrue(e.err().contains("persistent request left active (started, never waited or tested to "
                + "completion): barrierInit() on 'WORLD', created at " + FILE + initLine[0]), e.err());
            assertTrue(e.err().contains("tagged handle never ended: barrierBegin(tag=5) on 'WORLD', created at "
                + FILE + beginLine[0]), e.err());
        }
        assertTrue(e.failure().getMessage().contains("has 2 findings (2 leak)"), e.failure().getMessage());
    }

    @Test
    void shouldPassTheTwinThatCompletesAndFreesThem() {
        final Ended e = run(CHECKED, 2, world -> {
            final Communicator w = (Communicator) world;
            final PersistentRequest p = w.barrierInit();
            p.start();
            p.waitFor();
            p.free();
            w.barrierBegin(5).end();
        });
        assertNull(e.failure(), e.err());
        assertFalse(e.err().contains("tutti check"), e.err());
    }

    @Test
    void shouldOnlyReportUnderWarn() {
        final Ended e = run(CHECKED.warn(true), 2, world -> {
            final Communicator w = (Communicator) world;
            w.ibarrier();
            w.barrier();
        });
        assertNull(e.failure(), e.err());
        assertTrue(e.err().contains("nonblocking collective never completed: ibarrier() on 'WORLD'"), e.err());
    }

    @Test
    void shouldFailTheJobOnlyOnceEveryRankHasReturned() {
        final int[] got = new int[1];
        final Ended e = run(CHECKED, 3, world -> {
            final Communicator w = (Communicator) world;
            w.ibarrier(); // never waited
            w.barrier();
            if (1 == w.rank()) {
                w.send(Buf.of(new int[] {42}), 2, 1);
            } else if (2 == w.rank()) {
                final int[] x = new int[1];
                w.recv(Buf.of(x), 1, 1);
                got[0] = x[0]; // ranks 1 and 2 go on after rank 0 has left with its finding
            }
        });
        assertCheckFailed(e);
        assertEquals(42, got[0]);
        assertTrue(e.failure().getMessage().startsWith("runLocal: check: rank 0 has 1 finding"), e.failure()
            .getMessage());
        assertEquals(2, e.failure().getSuppressed().length, e.err());
    }
}
