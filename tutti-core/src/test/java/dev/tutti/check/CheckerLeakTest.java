package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's leak report at close for what the collective layer hands out: communicators never
 * freed, persistent requests never freed, tagged handles never ended, each with the call site that made it; and
 * nothing for the correct twin that releases them.
 */
// Runs alone (@Isolated): it replaces System.err, which other tests print to.
@Isolated
@Timeout(60)
class CheckerLeakTest {
    private static final String FILE = "CheckerLeakTest.java:";

    @Test
    void shouldListCommunicatorsPersistentRequestsAndTaggedHandlesNeverReleased() {
        final int[] dupLine = new int[1];
        final int[] initLine = new int[1];
        final int[] beginLine = new int[1];
        final CheckerTest.Outcomes[] o = new CheckerTest.Outcomes[1];
        final String err = stderrOf(2, (w, line) -> {
            dupLine[0] = CheckerTest.here(); final Communicator d = w.dup();
            d.barrier();
            initLine[0] = CheckerTest.here(); final PersistentRequest p = w.barrierInit();
            p.start();
            p.waitFor();
            if (0 == w.rank()) {
                beginLine[0] = CheckerTest.here(); w.barrierBegin(3); // rank 1 never begins it
            }
            w.barrier();
            return 0;
        }, o);
        assertEquals(CheckerTest.OK, o[0].ranks().get(0), () -> String.valueOf(o[0].ranks().get(0)));
        for (int r = 0; r < 2; r++) {
            final String mine = leaksOf(err, r);
            assertTrue(mine.contains("communicator never freed: '"), mine);
            assertTrue(mine.contains("', created at " + FILE + dupLine[0]), mine);
            assertTrue(mine.contains("persistent request never freed: "), mine);
            assertTrue(mine.contains(", created at " + FILE + initLine[0]), mine);
        }
        assertTrue(leaksOf(err, 0).contains("tagged handle never ended: "), err);
        assertTrue(leaksOf(err, 0).contains(", created at " + FILE + beginLine[0]), err);
        assertTrue(!leaksOf(err, 1).contains("tagged handle"), err);
    }

    @Test
    void shouldReportNothingWhenEverythingIsReleased() {
        final CheckerTest.Outcomes[] o = new CheckerTest.Outcomes[1];
        final String err = stderrOf(2, (w, line) -> {
            final Communicator d = w.dup();
            d.barrier();
            d.free();
            final PersistentRequest p = w.barrierInit();
            p.start();
            p.waitFor();
            p.free();
            w.barrierBegin(3).end();
            return 0;
        }, o);
        assertEquals(CheckerTest.OK, o[0].ranks().get(0), () -> String.valueOf(o[0].ranks().get(0)));
        assertTrue(!err.contains("leaves behind"), err);
    }

    /** Runs a checked job and returns what its ranks printed on the standard error. */
    static String stderrOf(final int n, final CheckerTest.Body body, final CheckerTest.Outcomes[] out) {
        final java.io.PrintStream saved = System.err;
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            out[0] = CheckerTest.run(n, body);
        } finally {
            System.setErr(saved);
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void shouldListRequestsNeverCompletedAndMessagesNeverReceivedAtClose() {
        final int[] sendLine = new int[1];
        final CheckerTest.Outcomes[] o = new CheckerTest.Outcomes[1];
        final String err = stderrOf(2, (w, line) -> {
            if (0 == w.rank()) {
                sendLine[0] = CheckerTest.here(); w.isend(Buf.of(new int[] {1, 2}), 1, 5).waitFor();
                line[0] = CheckerTest.here(); w.irecv(Buf.of(new int[1]), 1, 9);
            }
            w.barrier();
            return 0;
        }, o);
        assertTrue(err.contains("tutti check: rank 0 leaves behind at close:\n  request never completed: recv from "
            + "rank 1, tag 9 (comm=WORLD, rank=0), started at " + FILE + o[0].lines()[0]), err);
        assertTrue(err.contains("tutti check: rank 1 leaves behind at close:\n  message never received: from world "
            + "rank 0, tag 5, 2 x INT (8 bytes), sent at " + FILE + sendLine[0]), err);
    }

    @Test
    void shouldReportNothingAtCloseForACorrectProgram() {
        final CheckerTest.Outcomes[] o = new CheckerTest.Outcomes[1];
        final String err = stderrOf(2, (w, line) -> {
            final Request r = w.irecv(Buf.of(new int[1]), 1 - w.rank(), 5);
            w.isend(Buf.of(new int[] {w.rank()}), 1 - w.rank(), 5).waitFor();
            r.waitFor();
            w.barrier();
            return 0;
        }, o);
        assertEquals(CheckerTest.OK, o[0].ranks().get(0));
        assertTrue(!err.contains("leaves behind"), err);
    }

    /** @return the lines of rank {@code r}'s leak report in {@code err} */
    private static String leaksOf(final String err, final int r) {
        final int at = err.indexOf("tutti check: rank " + r + " leaves behind at close:");
        assertTrue(at >= 0, err);
        final int next = err.indexOf("tutti check: rank", at + 1);
        return err.substring(at, next < 0 ? err.length() : next);
    }
}
