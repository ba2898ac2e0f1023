package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.CheckFailedException;
import dev.tutti.CollectiveHandle;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.RankBody;
import dev.tutti.Request;
import dev.tutti.Tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's watch of buffers an operation owns, on embedded jobs: a send buffer written
 * between the start of a nonblocking collective or send and its completion, and a receive buffer written while a
 * nonblocking collective is in flight, are reported naming the call, the buffer, the rank and the call sites, and
 * fail the job; the correct twins (writes after the wait, in-place calls, buffers larger than the call, large
 * messages whose receive buffers the algorithms write piece by piece) are silent and give the right results.
 */
@Timeout(60)
class CheckerBufferTest {
    private static final String FILE = "CheckerBufferTest.java:";
    private static final Tutti.Options CHECKED = Tutti.Options.defaults().timeout(Duration.ofSeconds(30)).check(true);

    private static CheckerLifecycleTest.Ended run(final int n, final RankBody body) {
        return CheckerLifecycleTest.run(CHECKED, n, body);
    }

    private static void assertFailed(final CheckerLifecycleTest.Ended e) {
        assertTrue(e.failure() instanceof CheckFailedException, () -> e.err() + e.failure());
        assertTrue(e.failure().getMessage().contains("buffer-in-use"), e.failure().getMessage());
    }

    @Test
    void shouldReportASendBufferWrittenBeforeTheWaitOfAnIallreduce() {
        final int[] start = new int[1];
        final int[] wait = new int[1];
        final CheckerLifecycleTest.Ended e = run(2, world -> {
            final Communicator w = (Communicator) world;
            final int[] send = {1, 2, 3, 4};
            start[0] = CheckerTest.here(); final Request r = w.iallreduce(Buf.of(send), Buf.of(new int[4]), Op.SUM);
            if (1 == w.rank()) {
                send[2] = 99; // the bug: the operation owns send until its wait returns
            }
            wait[0] = CheckerTest.here(); r.waitFor();
        });
        assertFailed(e);
        assertTrue(e.err().contains("tutti check: rank 1: the send buffer of iallreduce(op=SUM, 4 x int) on 'WORLD', "
            + "started at " + FILE + start[0] + ", was written before the wait or test that completed it at " + FILE
            + wait[0] + " (byte 8 of 16 changed); MPI forbids writing it until the operation completes"), e.err());
        assertFalse(e.err().contains("rank 0: the"), e.err());
    }

    @Test
    void shouldReportAReceiveBufferWrittenWhileAnIbcastIsInFlight() {
        final int[] start = new int[1];
        final CheckerLifecycleTest.Ended e = run(3, world -> {
            final Communicator w = (Communicator) world;
            final int[] buf = new int[8];
            if (0 == w.rank()) {
                java.util.Arrays.fill(buf, 7);
            }
            start[0] = CheckerTest.here(); final Request r = w.ibcast(Buf.of(buf), 0);
            if (2 == w.rank()) {
                buf[5] = -1; // the bug: the library may be writing it
            }
            r.waitFor();
        });
        assertFailed(e);
        assertTrue(e.err().contains("tutti check: rank 2: the receive buffer of ibcast(root=0, 8 x int) on 'WORLD', "
            + "started at " + FILE + start[0] + ", was written before "), e.err());
        assertTrue(e.err().contains("(byte 20 of 32 changed); MPI forbids touching it until the operation completes"),
            e.err());
    }

    @Test
    void shouldReportTheRootsBufferOfAnIbcastAndAnInPlaceBufferWrittenInFlight() {
        final CheckerLifecycleTest.Ended e = run(2, world -> {
            final Communicator w = (Communicator) world;
            final int[] buf = {1, 2};
            final Request r = w.ibcast(Buf.of(buf), 0);
            final int[] acc = {w.rank(), 1};
            final Request s = w.iallreduce(Buf.IN_PLACE, Buf.of(acc), Op.SUM);
            if (0 == w.rank()) {
                buf[0] = 5;
                acc[1] = 5;
            }
            Request.waitAll(r, s);
        });
        assertFailed(e);
        assertTrue(e.err().contains("tutti check: rank 0: the buffer (the root's send buffer) of ibcast(root=0, 2 x "
            + "int) on 'WORLD'"), e.err());
        assertTrue(e.err().contains("tutti check: rank 0: the receive buffer (in place: also its send buffer) of "
            + "iallreduce(op=SUM, IN_PLACE, 2 x int) on 'WORLD'"), e.err());
    }

    @Test
    void shouldReportTheSendBufferOfAnIsendWrittenBeforeItsWait() {
        final int[] start = new int[1];
        final CheckerLifecycleTest.Ended e = run(2, world -> {
            final Communicator w = (Communicator) world;
            if (0 == w.rank()) {
                final int[] data = {1, 2, 3};
                start[0] = CheckerTest.here(); final Request r = w.isend(Buf.of(data), 1, 4);
                data[0] = 0;
                r.waitFor();
            } else {
                w.recv(Buf.of(new int[3]), 0, 4);
            }
        });
        assertFailed(e);
        assertTrue(e.err().contains("tutti check: rank 0: the send buffer of isend (send to world rank 1, tag 4"),
            e.err());
        assertTrue(e.err().contains("started at " + FILE + start[0] + ", was written before the wait or test that "
            + "completed it at " + FILE + (start[0] + 2) + " (byte 0 of 12 changed)"), e.err());
    }

    @Test
    void shouldStaySilentForCorrectProgramsAndGiveTheirResults() {
        final int big = 1 << 17; // 1 MiB of doubles: algorithms that write the receive buffer in pieces
        final CheckerLifecycleTest.Ended e = run(3, world -> {
            final Communicator w = (Communicator) world;
            final int me = w.rank();
            final double[] send = new double[big];
            java.util.Arrays.fill(send, me + 1);
            final double[] recv = new double[big];
            final Request r = w.iallreduce(Buf.of(send), Buf.of(recv), Op.SUM);
            r.waitFor();
            send[0] = -1; // after the wait: the program's again
            assertEquals(6.0, recv[big - 1]);
            final int[] acc = {me, me};
            w.iallreduce(Buf.IN_PLACE, Buf.of(acc), Op.SUM).waitFor();
            assertArrayEquals(new int[] {3, 3}, acc);
            final int[] gathered = new int[3 + 2]; // larger than the call: its tail stays the program's
            final Request g = w.iallgather(Buf.of(new int[] {me}), Buf.of(gathered));
            gathered[4] = 42;
            g.waitFor();
            assertArrayEquals(new int[] {0, 1, 2, 0, 42}, gathered);
            final int[] b = {0 == me ? 9 : 0};
            final CollectiveHandle h = w.bcastBegin(Buf.of(b), 0, 3);
            h.end();
            assertEquals(9, b[0]);
            final int[] out = {me};
            final Request s = w.isend(Buf.of(out), (me + 1) % 3, 2);
            final int[] in = new int[1];
            w.recv(Buf.of(in), (me + 2) % 3, 2);
            s.waitFor();
            out[0] = 0;
            assertEquals((me + 2) % 3, in[0]);
        });
        assertNull(e.failure(), e.err());
        assertFalse(e.err().contains("tutti check"), e.err());
    }
}
