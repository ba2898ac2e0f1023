package dev.tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(30)
class P2pSmokeTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(20));

    @Test
    void shouldPingPong() {
        Tutti.runLocal(2, OPTS, world -> {
            final int[] a = new int[1000];
            if (0 == world.rank()) {
                for (int i = 0; i < a.length; i++) {
                    a[i] = i;
                }
                world.send(Buf.of(a), 1, 7);
                final int[] b = new int[1000];
                final Status s = world.recv(Buf.of(b), 1, 8);
                assertEquals(1, s.source());
                assertEquals(1000, s.count());
                assertEquals(999 * 2, b[999]);
            } else {
                world.recv(Buf.of(a), 0, 7);
                for (int i = 0; i < a.length; i++) {
                    a[i] *= 2;
                }
                world.send(Buf.of(a), 0, 8);
            }
        });
    }

    @Test
    void shouldMoveLargeAndObjects() {
        Tutti.runLocal(3, OPTS, world -> {
            final double[] big = new double[1 << 20];
            if (0 == world.rank()) {
                java.util.Arrays.fill(big, 3.5);
                world.send(Buf.of(big), 1, 0);
                world.sendObject(java.util.List.of("a", "b"), 2, 0);
            } else if (1 == world.rank()) {
                world.recv(Buf.of(big), 0, 0);
                assertEquals(3.5, big[big.length - 1]);
            } else {
                final java.util.List<String> l = world.recvObject(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                assertArrayEquals(new Object[] {"a", "b"}, l.toArray());
            }
        });
    }
}
