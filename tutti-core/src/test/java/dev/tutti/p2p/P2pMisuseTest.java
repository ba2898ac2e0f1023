package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.ErrorClass;
import dev.tutti.Status;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.tutti.BadInputTest.OPTS;
import static dev.tutti.BadInputTest.refused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Point-to-point misuse that used to lose a message or fail obscurely: {@link Buf#IN_PLACE} as a point-to-point
 * buffer (a receive into it discarded the message and reported success), and a {@code sendrecv} whose send half
 * failed (its posted receive stayed behind and swallowed the next matching message). Each case checks that the
 * message the misuse would have eaten is still received afterwards.
 */
@Timeout(60)
class P2pMisuseTest {

    @Test
    void shouldRefuseInPlaceAsAPointToPointBufferAndKeepTheMessage() {
        Tutti.runLocal(2, OPTS, w -> {
            final String expected = "buf=IN_PLACE, expected a buffer (IN_PLACE is only for collectives";
            if (0 == w.rank()) {
                refused(ErrorClass.BUFFER, expected, () -> w.send(Buf.IN_PLACE, 1, 0));
                refused(ErrorClass.BUFFER, expected, () -> w.isend(Buf.IN_PLACE, 1, 0));
                refused(ErrorClass.BUFFER, "sendBuf=IN_PLACE",
                    () -> w.sendrecv(Buf.IN_PLACE, 1, 0, Buf.of(new int[1]), 1, 0));
                w.send(Buf.of(new int[] {7, 8, 9}), 1, 0);
                w.send(Buf.of(new int[] {10}), 1, 1);
            } else {
                refused(ErrorClass.BUFFER, expected, () -> w.recv(Buf.IN_PLACE, 0, 0));
                refused(ErrorClass.BUFFER, expected, () -> w.irecv(Buf.IN_PLACE, Comm.ANY_SOURCE, Comm.ANY_TAG));
                refused(ErrorClass.BUFFER, "recvBuf=IN_PLACE",
                    () -> w.sendrecv(Buf.of(new int[1]), 0, 1, Buf.IN_PLACE, 0, 0));
                final Status probed = w.probe(0, 0);
                refused(ErrorClass.BUFFER, expected, () -> w.recv(Buf.IN_PLACE, probed.source(), probed.tag()));
                // The probed message is still there, whole.
                final int[] got = new int[3];
                assertEquals(3, w.recv(Buf.of(got), 0, 0).count());
                assertArrayEquals(new int[] {7, 8, 9}, got);
                final int[] next = new int[1];
                w.recv(Buf.of(next), 0, 1);
                assertEquals(10, next[0]);
            }
            assertEquals(0, Worlds.impl(w).engine().pendingCount(), "nothing left posted or unmatched");
        });
    }

    @Test
    void shouldWithdrawTheReceiveOfASendrecvWhoseSendFails() {
        Tutti.runLocal(3, OPTS, w -> {
            // Rank 2 leaves at once; rank 0's sendrecv sends to it (fails: it left) and receives from rank 1.
            if (2 == w.rank()) {
                return;
            }
            if (0 == w.rank()) {
                refused(ErrorClass.PROC_FAILED, "rank 2 closed", () -> w.recv(Buf.of(new int[1]), 2, 0));
                final int[] in = new int[1];
                final TuttiException e = org.junit.jupiter.api.Assertions.assertThrows(TuttiException.class,
                    () -> w.sendrecv(Buf.of(new int[] {1}), 2, 0, Buf.of(in), 1, 5));
                assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
                w.send(Buf.of(new int[0]), 1, 6); // tells rank 1 to send now
                final int[] got = new int[1];
                w.recv(Buf.of(got), 1, 5); // the message the leaked receive used to swallow
                assertEquals(42, got[0]);
                assertEquals(0, in[0], "the failed sendrecv received nothing");
            } else {
                w.recv(Buf.of(new int[0]), 0, 6);
                w.send(Buf.of(new int[] {42}), 0, 5);
            }
        });
    }

    @Test
    void shouldLeaveNothingPostedWhenAnObjectReceiveIsRefused() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                refused(ErrorClass.RANK, "source=5", () -> w.irecvObject(5, 0));
                w.sendObject("after", 1, 0);
            } else {
                refused(ErrorClass.TAG, "tag=-4", () -> w.recvObject(0, -4));
                assertEquals("after", w.recvObject(0, 0));
                assertEquals(0, Worlds.impl(w).engine().pendingCount(), "nothing left posted or unmatched");
            }
        });
    }
}
