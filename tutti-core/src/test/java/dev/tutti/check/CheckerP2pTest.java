package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.DeadlockException;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The correctness checker's point-to-point rules, on embedded jobs: a receive whose buffer
 * does not fit the message's type signature fails naming both sides' types, counts and call sites; a job whose ranks
 * all block with no way on ends within 5 s with a {@link DeadlockException} on every rank naming each rank's call and
 * the cycle; and the correct twin of each passes. The threshold is the default (1 s).
 */
@Timeout(60)
class CheckerP2pTest {
    private static final String FILE = "CheckerP2pTest.java:";

    private static TuttiException failure(final CheckerTest.Outcomes o, final int rank) {
        return assertInstanceOf(TuttiException.class, o.ranks().get(rank), "rank " + rank + " returned");
    }

    private static DeadlockException deadlock(final CheckerTest.Outcomes o, final int rank) {
        return assertInstanceOf(DeadlockException.class, o.ranks().get(rank), () -> "rank " + rank + ": "
            + o.ranks().get(rank));
    }

    @Test
    void shouldNameBothSidesWhenIntsAreReceivedIntoDoubles() {
        final int[] sendLine = new int[1];
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            if (0 == w.rank()) {
                sendLine[0] = CheckerTest.here(); w.send(Buf.of(new int[] {1, 2, 3, 4}), 1, 7);
            } else {
                line[0] = CheckerTest.here(); w.recv(Buf.of(new double[4]), 0, 7);
            }
            return 0;
        });
        assertEquals(CheckerTest.OK, o.ranks().get(0));
        final TuttiException e = failure(o, 1);
        assertEquals(ErrorClass.TYPE, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("message from rank=0 tag=7 has 4 x INT (16 bytes) sent at " + FILE
            + sendLine[0] + ", the receive at " + FILE + o.lines()[1] + " expects at most 4 x DOUBLE (32 bytes): the "
            + "type signatures differ"), e.getMessage());
    }

    @Test
    void shouldRefuseBytesThatAreNotWholeElementsAndAcceptTheCorrectTwins() {
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            if (0 == w.rank()) {
                w.send(Buf.of(new int[] {5, 6}), 1, 1);
                w.send(Buf.of(new byte[8]), 1, 2);
                w.send(Buf.of(new byte[6]), 1, 3);
            } else {
                final int[] ints = new int[2];
                w.recv(Buf.of(ints), 0, 1);
                assertEquals(6, ints[1]);
                w.recv(Buf.of(new int[2]), 0, 2); // bytes into ints: 8 bytes are 2 whole ints
                line[0] = CheckerTest.here(); w.recv(Buf.of(new int[2]), 0, 3);
            }
            return 0;
        });
        final TuttiException e = failure(o, 1);
        assertEquals(ErrorClass.TYPE, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("has 6 x BYTE (6 bytes) sent at " + FILE), e.getMessage());
        assertTrue(e.getMessage().contains("the receive at " + FILE + o.lines()[1] + " expects at most 2 x INT (8 "
            + "bytes): the bytes are not whole elements"), e.getMessage());
    }

    @Test
    void shouldEndARecvRecvCycleWithinFiveSecondsNamingBothCalls() {
        final long t0 = System.nanoTime();
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            line[0] = CheckerTest.here(); w.recv(Buf.of(new int[1]), 1 - w.rank(), 7);
            return 0;
        });
        final long ms = (System.nanoTime() - t0) / 1_000_000L;
        assertTrue(ms < 5_000, "took " + ms + " ms");
        for (int r = 0; r < 2; r++) {
            final DeadlockException e = deadlock(o, r);
            assertTrue(e.getMessage().contains("rank 0 waits in recv from rank 1, tag 7 on 'WORLD' at " + FILE
                + o.lines()[0]), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1 waits in recv from rank 0, tag 7 on 'WORLD' at " + FILE
                + o.lines()[1]), e.getMessage());
            assertTrue(e.getMessage().contains("cycle: rank 0 -> rank 1 -> rank 0"), e.getMessage());
        }
    }

    @Test
    void shouldEndACycleOfRanksThatPollTheirReceivesWithTest() {
        final long t0 = System.nanoTime();
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            line[0] = CheckerTest.here(); final Request r = w.irecv(Buf.of(new int[1]), 1 - w.rank(), 7);
            while (!r.test()) {
                Thread.onSpinWait(); // polls, never blocks in a wait
            }
            w.send(Buf.of(new int[1]), 1 - w.rank(), 7);
            return 0;
        });
        final long ms = (System.nanoTime() - t0) / 1_000_000L;
        assertTrue(ms < 15_000, "took " + ms + " ms");
        for (int r = 0; r < 2; r++) {
            final DeadlockException e = deadlock(o, r);
            assertTrue(e.getMessage().contains("rank " + r + " waits in recv from rank " + (1 - r) + ", tag 7 on "
                + "'WORLD' (polled with test())"), e.getMessage());
            assertTrue(e.getMessage().contains("cycle: rank 0 -> rank 1 -> rank 0"), e.getMessage());
        }
    }

    @Test
    void shouldNotTakeALoopThatComputesBetweenItsTestsForADeadlock() {
        // Both ranks test their receive now and then while they compute for 1.5 s, and only then send: no deadlock.
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            final Request r = w.irecv(Buf.of(new int[1]), 1 - w.rank(), 7);
            final long end = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() - end < 0) {
                Thread.sleep(2); // the work between two tests
                r.test();
            }
            w.send(Buf.of(new int[1]), 1 - w.rank(), 7);
            r.waitFor();
            return 0;
        });
        assertEquals(CheckerTest.OK, o.ranks().get(0), () -> String.valueOf(o.ranks().get(0)));
        assertEquals(CheckerTest.OK, o.ranks().get(1), () -> String.valueOf(o.ranks().get(1)));
    }

    @Test
    void shouldEndACycleOfWildcardReceives() {
        final CheckerTest.Outcomes o = CheckerTest.run(3, (w, line) -> {
            line[0] = CheckerTest.here(); w.recv(Buf.of(new int[1]), Communicator.ANY_SOURCE, 3);
            return 0;
        });
        for (int r = 0; r < 3; r++) {
            final DeadlockException e = deadlock(o, r);
            assertTrue(e.getMessage().contains("ranks 0-2 wait in recv from any source, tag 3 on 'WORLD' at " + FILE
                + o.lines()[0]), e.getMessage());
        }
    }

    @Test
    void shouldNameTheRankInABarrierWhileTheOthersWaitForIt() {
        final CheckerTest.Outcomes o = CheckerTest.run(3, (w, line) -> {
            if (2 == w.rank()) {
                line[0] = CheckerTest.here(); w.barrier();
            } else {
                line[0] = CheckerTest.here(); w.recv(Buf.of(new int[1]), 2, 7);
            }
            return 0;
        });
        final DeadlockException e = deadlock(o, 0);
        assertTrue(e.getMessage().contains("rank 2 waits in barrier() on 'WORLD' (call #1) at " + FILE
            + o.lines()[2]), e.getMessage());
        assertTrue(e.getMessage().contains("ranks 0, 1 wait in recv from rank 2, tag 7 on 'WORLD' at " + FILE
            + o.lines()[0]), e.getMessage());
        assertTrue(e.getMessage().contains("cycle: rank 0 -> rank 2 -> rank 0"), e.getMessage());
        deadlock(o, 2);
    }

    @Test
    void shouldNotReportARankThatComputesWhileTheOthersWait() throws Exception {
        final CheckerTest.Outcomes o = CheckerTest.run(3, (w, line) -> {
            if (0 == w.rank()) {
                Thread.sleep(2_500); // longer than twice the threshold: the others wait that long
                w.send(Buf.of(new int[] {1}), 1, 0);
                w.send(Buf.of(new int[] {2}), 2, 0);
            } else {
                w.recv(Buf.of(new int[1]), Communicator.ANY_SOURCE, 0);
            }
            w.barrier();
            return 0;
        });
        for (int r = 0; r < 3; r++) {
            assertEquals(CheckerTest.OK, o.ranks().get(r), "rank " + r);
        }
    }
}
