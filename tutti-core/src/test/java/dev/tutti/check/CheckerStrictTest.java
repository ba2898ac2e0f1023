package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.DeadlockException;
import dev.tutti.Request;
import dev.tutti.Tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --check=strict}: a program that works only because its small sends are buffered (each
 * rank sends to the other before it receives) passes unchecked and checked, and is reported as a deadlock under
 * strict checking, naming both sends; its correct twins (ordered sends and receives, sendrecv) pass under strict.
 */
@Timeout(60)
class CheckerStrictTest {
    private static final Tutti.Options STRICT = CheckerTest.CHECKED.strict(true);

    /** Each rank sends 4 ints to the other, then receives the other's. */
    private static int sendSend(final Communicator w, final int[] line) {
        final int peer = 1 - w.rank();
        final int[] got = new int[4];
        line[0] = CheckerTest.here(); w.send(Buf.of(new int[] {w.rank(), 1, 2, 3}), peer, 7);
        w.recv(Buf.of(got), peer, 7);
        assertEquals(peer, got[0]);
        return 0;
    }

    @Test
    void shouldPassASendSendProgramUncheckedAndChecked() {
        for (final Tutti.Options o : new Tutti.Options[] {CheckerTest.CHECKED.check(false), CheckerTest.CHECKED}) {
            final CheckerTest.Outcomes out = CheckerTest.run(o, 2, CheckerStrictTest::sendSend);
            assertEquals(CheckerTest.OK, out.ranks().get(0), () -> String.valueOf(out.ranks().get(0)));
            assertEquals(CheckerTest.OK, out.ranks().get(1), () -> String.valueOf(out.ranks().get(1)));
        }
    }

    @Test
    void shouldReportASendSendProgramAsADeadlockUnderStrict() {
        final long t0 = System.nanoTime();
        final CheckerTest.Outcomes o = CheckerTest.run(STRICT, 2, CheckerStrictTest::sendSend);
        for (int r = 0; r < 2; r++) {
            final int rank = r;
            final DeadlockException e = assertInstanceOf(DeadlockException.class, o.ranks().get(r),
                () -> "rank " + rank + ": " + o.ranks().get(rank));
            for (int s = 0; s < 2; s++) {
                assertTrue(e.getMessage().contains("rank " + s + " waits in send to world rank " + (1 - s)
                    + ", tag 7 (unbuffered under --check=strict"), e.getMessage());
                assertTrue(e.getMessage().contains("at CheckerStrictTest.java:" + o.lines()[s]), e.getMessage());
            }
        }
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "reported within 5 s");
    }

    @Test
    void shouldPassTheCorrectTwinsUnderStrict() {
        final CheckerTest.Outcomes o = CheckerTest.run(STRICT, 2, (w, line) -> {
            final int peer = 1 - w.rank();
            final int[] got = new int[4];
            final int[] mine = {w.rank(), 1, 2, 3};
            if (0 == w.rank()) { // ordered: one sends while the other receives
                w.send(Buf.of(mine), peer, 7);
                w.recv(Buf.of(got), peer, 7);
            } else {
                w.recv(Buf.of(got), peer, 7);
                w.send(Buf.of(mine), peer, 7);
            }
            assertEquals(peer, got[0]);
            final int[] swapped = new int[4];
            w.sendrecv(Buf.of(mine), peer, 8, Buf.of(swapped), peer, 8);
            assertArrayEquals(new int[] {peer, 1, 2, 3}, swapped);
            final Request r = w.isend(Buf.of(mine), peer, 9); // nonblocking sends stay buffered: MPI allows it
            w.recv(Buf.of(got), peer, 9);
            r.waitFor();
            w.barrier();
            return 0;
        });
        assertEquals(CheckerTest.OK, o.ranks().get(0), () -> String.valueOf(o.ranks().get(0)));
        assertEquals(CheckerTest.OK, o.ranks().get(1), () -> String.valueOf(o.ranks().get(1)));
    }

    @Test
    void shouldTakeStrictFromOptions() {
        assertTrue(Tutti.Options.defaults().strict(true).check(), "strict implies the checker");
        assertEquals(false, Tutti.Options.defaults().strict(true).check(false).strict(), "off turns strict off");
    }
}
