package dev.tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(60)
class TcpP2pTest {
    private static final int EAGER = 64 * 1024;

    @Test
    void shouldPingPongOverTcp() {
        TcpJob.run(2, EAGER, (world, tcp) -> {
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
    void shouldMoveLargeMessage() {
        TcpJob.run(2, EAGER, (world, tcp) -> {
            final double[] big = new double[1 << 20];
            if (0 == world.rank()) {
                for (int i = 0; i < big.length; i++) {
                    big[i] = i * 0.5;
                }
                world.send(Buf.of(big), 1, 0);
            } else {
                world.recv(Buf.of(big), 0, 0);
                final double[] expected = new double[big.length];
                for (int i = 0; i < big.length; i++) {
                    expected[i] = i * 0.5;
                }
                assertArrayEquals(expected, big);
            }
        });
    }
}
