package dev.tutti.check;

import dev.tutti.Communicator;
import dev.tutti.PersistentRequest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's leak report at close (issue 17, item 6) for what the collective layer hands out: communicators never
 * freed, persistent requests never freed, tagged handles never ended, each with the call site that made it; and
 * nothing for the correct twin that releases them.
 */
@Timeout(60)
class CheckerLeakTest {
    private static final String FILE = "CheckerLeakTest.java:";

    @Test
    void shouldListCommunicatorsPersistentRequestsAndTaggedHandlesNeverReleased() {
        final int[] dupLine = new int[1];
        final int[] initLine = new int[1];
        final int[] beginLine = new int[1];
        final CheckerTest.Outcomes[] o = new CheckerTest.Outcomes[1];
        final String err = CheckerP2pTest.stderrOf(2, (w, line) -> {
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
        final String err = CheckerP2pTest.stderrOf(2, (w, line) -> {
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

    /** @return the lines of rank {@code r}'s leak report in {@code err} */
    private static String leaksOf(final String err, final int r) {
        final int at = err.indexOf("tutti check: rank " + r + " leaves behind at close:");
        assertTrue(at >= 0, err);
        final int next = err.indexOf("tutti check: rank", at + 1);
        return err.substring(at, next < 0 ? err.length() : next);
    }
}
