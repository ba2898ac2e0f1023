import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

import java.util.Arrays;

/**
 * A 2-rank ping-pong of one size in blocks of 50,000 round trips within one job, the same buffer each time: rank 0
 * prints the one-way µs of each block and, over the blocks after the first five (the JIT's warm-up), their median,
 * quartiles and fastest. One size per job keeps the JIT's profile of the copy paths to that size, and the median of
 * many blocks shows the level a job ran at, which OSU's single mean per size hides. With Open MPI beside it
 * ({@code bench/openmpi/build/pingpong -m N:N -i 2000000 -x 200000}), jobs in turn, compare the jobs that ran at
 * the same level.
 *
 * <pre>
 * mkdir -p /tmp/repro &amp;&amp; javac -cp tutti-cli/target/tutti.jar -d /tmp/repro bench/repro/PingPongBlocks.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/repro PingPongBlocks 256 60
 * </pre>
 */
public final class PingPongBlocks {
    private static final int ROUND_TRIPS = 50_000;
    private static final int WARM_UP_BLOCKS = 5;

    private PingPongBlocks() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        final int blocks = Math.max(WARM_UP_BLOCKS + 1, Integer.parseInt(args[1]));
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final Buf buf = Buf.of(new byte[bytes]);
            final int peer = 1 - w.rank();
            final double[] us = new double[blocks];
            for (int b = 0; b < blocks; b++) {
                w.barrier();
                final long t0 = System.nanoTime();
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    if (0 == w.rank()) {
                        w.send(buf, peer, 1);
                        w.recv(buf, peer, 1);
                    } else {
                        w.recv(buf, peer, 1);
                        w.send(buf, peer, 1);
                    }
                }
                us[b] = (System.nanoTime() - t0) / 2e3 / ROUND_TRIPS;
            }
            if (0 == w.rank()) {
                final StringBuilder line = new StringBuilder(bytes + " B ping-pong, µs one way per block:");
                for (final double u : us) {
                    line.append(String.format(" %.3f", u));
                }
                System.out.println(line);
                final double[] v = Arrays.copyOfRange(us, WARM_UP_BLOCKS, blocks);
                Arrays.sort(v);
                System.out.printf("%d B: median %.3f, quartiles %.3f-%.3f, fastest %.3f µs (blocks %d-%d)%n", bytes,
                    v[v.length / 2], v[v.length / 4], v[3 * v.length / 4], v[0], WARM_UP_BLOCKS + 1, blocks);
            }
        }
    }
}
