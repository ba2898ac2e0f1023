package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.p2p.P2pContractTest;
import dev.tutti.testkit.TcpJob;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The point-to-point contract over the tcp transport, ranks as threads each wired like a process. */
class TcpP2pTest extends P2pContractTest {
    @Override
    public int eager() {
        return 64 * 1024;
    }

    @Override
    public void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        TcpJob.run(n, eagerLimit, finalizeAtEnd, (world, tcp) -> body.run(world, tcp::abort));
    }

    /**
     * A rendezvous message received into a buffer that ends inside the prefix its RTS carried, or past the prefix
     * but before the message's end: each receive gets what fits and reports the truncation, whether the message
     * arrived before its receive (the prefix buffered) or after, the sender completes, and the next messages arrive
     * whole.
     */
    @Test
    void shouldTruncateARendezvousMessageInsideAndPastItsPrefix() {
        final int prefix = TcpLimits.rendezvousPrefix();
        final int message = 1 << 20;
        final int[] takes = {prefix / 2, prefix + 1000, prefix / 2, prefix + 1000};
        job(2, 1024, true, (world, abort) -> {
            if (0 == world.rank()) {
                for (int i = 0; i < takes.length; i++) {
                    world.send(Buf.of(pattern(message, i)), 1, 0);
                }
                world.send(Buf.of(pattern(message, 99)), 1, 1);
            } else {
                for (int i = 0; i < takes.length; i++) {
                    if (i < 2) {
                        world.probe(0, 0); // the message arrived before its receive: its prefix waits in a buffer
                    }
                    final byte[] small = new byte[takes[i]];
                    final TuttiException e = assertThrows(TuttiException.class, () -> world.recv(Buf.of(small), 0, 0));
                    assertEquals(ErrorClass.TRUNCATE, e.errorClass(), e.getMessage());
                    assertArrayEquals(Arrays.copyOf(pattern(message, i), takes[i]), small, "receive " + i);
                }
                final byte[] whole = new byte[message];
                world.recv(Buf.of(whole), 0, 1);
                assertArrayEquals(pattern(message, 99), whole);
            }
        });
    }
}
