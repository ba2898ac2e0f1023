package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.DeadlockException;
import dev.tutti.TuttiException;

import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Alltoall channels under the correctness checker: their exchanges keep to messages it sees (no shared window), so
 * a channel that waits for a rank blocked elsewhere is named in a deadlock report instead of hanging.
 */
@Timeout(60)
class CheckerChannelTest {
    @Test
    void shouldNameAChannelExchangeInADeadlock() {
        final long t0 = System.nanoTime();
        final CheckerTest.Outcomes o = CheckerTest.run(2, (w, line) -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "watched", Datatype.LONG, 16, 1)) {
                if (0 == w.rank()) {
                    final ChannelBuffer out = ch.takeSend();
                    ch.submit(out);
                    final ChannelBuffer in = ch.takeReceive(); // rank 1 never submits
                    assertFalse(in.isShared(), "no shared window under the checker");
                } else {
                    line[0] = CheckerTest.here(); w.recv(Buf.of(new int[1]), 0, 7); // rank 0 never sends
                }
            }
            return 0;
        });
        final long ms = (System.nanoTime() - t0) / 1_000_000L;
        assertTrue(ms < 20_000, "took " + ms + " ms");
        for (int r = 0; r < 2; r++) {
            final Object outcome = o.ranks().get(r);
            // rank 0's is the channel's failure, naming the channel, with the report
            final Class<? extends TuttiException> expected = 0 == r ? TuttiException.class : DeadlockException.class;
            final TuttiException e = assertInstanceOf(expected, outcome, () -> "rank: " + outcome);
            assertTrue(e.getMessage().contains("rank 1 waits in recv from rank 0, tag 7"), e.getMessage());
            assertTrue(0 == r ? e.getMessage().contains("channel=watched") : e.getMessage().contains("cycle"),
                e.getMessage());
        }
    }
}
