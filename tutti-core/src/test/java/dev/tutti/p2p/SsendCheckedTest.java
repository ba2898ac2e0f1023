package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.DeadlockException;
import dev.tutti.Tutti;
import dev.tutti.check.CheckerTest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synchronous-send contract in-process with the correctness checker on: the message's code carries the sender's
 * call site besides the synchronous bit, and both must be read right; and two ranks that each ssend to the other
 * before they receive are reported as a deadlock, naming both sends.
 */
class SsendCheckedTest extends SsendContractTest {
    @Override
    int eager() {
        return 4096;
    }

    /**
     * The contract's jobs run checked with findings only reported ({@code --check=warn}): some leave a message
     * unreceived on purpose (a receiver that dies), which the checker reports as a leak and would fail the job for.
     */
    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final P2pContractTest.Body body) {
        Tutti.runLocal(n, CheckerTest.CHECKED.warn(true), w -> body.run(w, () -> { }));
    }

    @Test
    void shouldReportCrossingSsendsAsADeadlock() {
        final CheckerTest.Outcomes o = CheckerTest.run(CheckerTest.CHECKED, 2, (w, line) -> {
            final int peer = 1 - w.rank();
            line[0] = CheckerTest.here(); w.ssend(Buf.of(new int[] {w.rank()}), peer, 7);
            w.recv(Buf.of(new int[1]), peer, 7);
            return 0;
        });
        for (int r = 0; r < 2; r++) {
            final int rank = r;
            final DeadlockException e = assertInstanceOf(DeadlockException.class, o.ranks().get(r),
                () -> "rank " + rank + ": " + o.ranks().get(rank));
            for (int s = 0; s < 2; s++) {
                assertTrue(e.getMessage().contains("rank " + s + " waits in ssend to rank " + (1 - s) + ", tag 7"),
                    e.getMessage());
                assertTrue(e.getMessage().contains("at SsendCheckedTest.java:" + o.lines()[s]), e.getMessage());
            }
        }
    }
}
