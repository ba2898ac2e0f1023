package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.comm.IntercommTest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cost of a symmetric broadcast against two one-way broadcasts (A to B, then B to A) moving the same data,
 * in-JVM. The test runs a short version and checks only that both variants deliver the same data (timings on a
 * shared 2-core machine are not assertions); {@link #main} prints the table:
 *
 * <pre>
 * java -cp tutti-core/target/classes:tutti-core/target/test-classes dev.tutti.CollIntercommBenchTest
 * </pre>
 */
@Timeout(60)
class CollIntercommBenchTest {

    /**
     * Median over {@code rounds} of the mean microseconds per iteration (max over ranks) of {symmetric, two
     * one-way}; the variants alternate round by round so that both see the same machine state.
     */
    static double[] measure(final int a, final int b, final int bytes, final int iters, final int rounds) {
        final double[] out = new double[2];
        Tutti.runLocal(a + b, Tutti.Options.defaults().timeout(Duration.ofSeconds(300)), w -> {
            final Intercommunicator inter = IntercommTest.make(w, a);
            final boolean inA = w.rank() < a;
            final byte[] mine = new byte[bytes];
            Arrays.fill(mine, (byte) (inA ? 1 : 2));
            final byte[] theirs = new byte[bytes];
            final byte[] oneWay = new byte[bytes];
            final double[][] samples = new double[2][rounds];
            for (int round = -1; round < rounds; round++) {
                for (int variant = 0; variant < 2; variant++) {
                    inter.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        if (0 == variant) {
                            inter.bcast(Buf.of(mine), Buf.of(theirs), 0, 0);
                        } else {
                            // A's rank 0 to all of B, then B's rank 0 to all of A.
                            inter.bcast(Buf.of(inA ? mine : oneWay), inA ? (0 == inter.rank()
                                ? Intercommunicator.ROOT : Comm.PROC_NULL) : 0);
                            inter.bcast(Buf.of(inA ? oneWay : mine), inA ? 0 : (0 == inter.rank()
                                ? Intercommunicator.ROOT : Comm.PROC_NULL));
                        }
                    }
                    final double[] us = {(System.nanoTime() - t0) / 1e3 / iters};
                    final double[] max = new double[1];
                    w.allreduce(Buf.of(us), Buf.of(max), Op.MAX);
                    if (round >= 0) {
                        samples[variant][round] = max[0];
                    }
                }
            }
            final byte[] expected = new byte[bytes];
            Arrays.fill(expected, (byte) (inA ? 2 : 1));
            assertArrayEquals(expected, theirs);
            assertArrayEquals(expected, oneWay);
            if (0 == w.rank()) {
                for (int v = 0; v < 2; v++) {
                    Arrays.sort(samples[v]);
                    out[v] = samples[v][rounds / 2];
                }
            }
            inter.free();
        });
        return out;
    }

    @Test
    void shouldDeliverTheSameDataBothWays() {
        final double[] t = measure(2, 3, 1024, 10, 1);
        assertTrue(t[0] > 0 && t[1] > 0);
    }

    /**
     * Prints the table of ratios.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        System.out.println("groups  bytes      symmetric_us  two_one_way_us  ratio(sym/two)");
        for (final int[] ab : new int[][] {{1, 1}, {2, 2}, {3, 4}}) {
            for (final int bytes : new int[] {8, 1024, 65_536, 1 << 20}) {
                final int iters = bytes >= 1 << 20 ? 40 : bytes >= 65_536 ? 200 : 1000;
                final double[] t = measure(ab[0], ab[1], bytes, iters, 9);
                System.out.println(String.format(Locale.ROOT, "%dx%d     %-9d  %12.1f  %14.1f  %8.2f", ab[0], ab[1],
                    bytes, t[0], t[1], t[0] / t[1]));
            }
        }
    }
}
