import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;

import java.util.Arrays;

/**
 * Persistent collectives through the two shared-memory roads in one job: a persistent allreduce and alltoall of N
 * bytes per rank on a communicator with an on-host region (made by a blocking barrier) and on one without (made while
 * {@code tutti.coll.hostLimit} is 0, so its persistent starts take slot lanes), timed in interleaved blocks of
 * 20,000 starts, so that both roads see the same moments of the host. Rank 0 prints each form's median and fastest
 * block (µs per start and wait), and the request's description, which names its road.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/roads bench/repro/PersistentRoads.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/roads PersistentRoads 8
 * </pre>
 */
public final class PersistentRoads {
    private static final int ITERS = 20_000;
    private static final int BLOCKS = 12;
    /** Blocks left out at the start (JIT warm-up). */
    private static final int WARM = 2;

    private PersistentRoads() {
    }

    public static void main(final String[] args) {
        final int n = Integer.parseInt(args[0]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final Communicator region = w.dup();
            region.barrier(); // agrees the region
            System.setProperty("tutti.coll.hostLimit", "0"); // read at the communicator's first call
            final Communicator slots = w.dup();
            slots.barrier();
            System.clearProperty("tutti.coll.hostLimit");
            final int p = w.size();
            final PersistentRequest[] req = {
                region.allreduceInit(Buf.of(new byte[n]), Buf.of(new byte[n]), Op.BOR),
                slots.allreduceInit(Buf.of(new byte[n]), Buf.of(new byte[n]), Op.BOR),
                region.alltoallInit(Buf.of(new byte[n * p]), Buf.of(new byte[n * p])),
                slots.alltoallInit(Buf.of(new byte[n * p]), Buf.of(new byte[n * p]))};
            final String[] names = {"allreduce region", "allreduce slots", "alltoall region", "alltoall slots"};
            final double[][] us = new double[req.length][BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                for (int k = 0; k < req.length; k++) {
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < ITERS; i++) {
                        req[k].start();
                        req[k].waitFor();
                    }
                    us[k][b] = (System.nanoTime() - t0) / 1e3 / ITERS;
                }
            }
            if (0 == w.rank()) {
                for (int k = 0; k < req.length; k++) {
                    final double[] x = Arrays.copyOfRange(us[k], WARM, BLOCKS);
                    Arrays.sort(x);
                    System.out.printf("%d B %-17s median %.3f us, fastest %.3f  %s%n", n, names[k],
                        (x[x.length / 2 - 1] + x[x.length / 2]) / 2, x[0], req[k]);
                }
            }
            for (final PersistentRequest r : req) {
                r.free();
            }
        }
    }
}
