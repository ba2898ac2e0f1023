import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

import java.util.Arrays;

/**
 * What the rooted nonblocking collectives cost when the non-roots run ahead of the root: igather, igatherv, ireduce
 * and ibcast to rank 0, each started and waited for, of N bytes a block, in turn, 30 blocks of 20,000 calls each;
 * rank 0 prints the median block of each, µs per call, leaving out the first 10. Run with the on-host region off
 * ({@code tutti.coll.hostLimit=0}) to time the message layer, whose root receives find their messages among the
 * many that the non-roots sent ahead.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/rn bench/repro/RootedNonblocking.java
 * bin/tutti run -n 4 --transport shm -J -Dtutti.coll.hostLimit=0 -cp /tmp/rn RootedNonblocking 8
 * </pre>
 */
public final class RootedNonblocking {
    private static final int BLOCKS = 30;
    private static final int WARM = 10;
    private static final int CALLS = 20000;
    private static final String[] NAMES = {"igather", "igatherv", "ireduce", "ibcast"};

    private RootedNonblocking() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int p = w.size();
            final int n = Math.max(1, bytes / Integer.BYTES);
            final Buf block = Buf.of(new int[n]);
            final Buf got = Buf.of(new int[n * p]);
            final Buf sum = Buf.of(new int[n]);
            final int[] counts = new int[p];
            final int[] displs = new int[p];
            for (int r = 0; r < p; r++) {
                counts[r] = n;
                displs[r] = r * n;
            }
            final double[][] us = new double[NAMES.length][BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                for (int op = 0; op < NAMES.length; op++) {
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < CALLS; i++) {
                        switch (op) {
                            case 0 -> w.igather(block, got, 0).waitFor();
                            case 1 -> w.igatherv(block, got, counts, displs, 0).waitFor();
                            case 2 -> w.ireduce(block, sum, Op.SUM, 0).waitFor();
                            default -> w.ibcast(block, 0).waitFor();
                        }
                    }
                    w.barrier();
                    us[op][b] = (System.nanoTime() - t0) / 1e3 / CALLS;
                }
            }
            if (0 == w.rank()) {
                for (int op = 0; op < NAMES.length; op++) {
                    final double[] warm = Arrays.copyOfRange(us[op], WARM, BLOCKS);
                    Arrays.sort(warm);
                    System.out.printf("%-9s %8.3f us%n", NAMES[op], warm[warm.length / 2]);
                }
            }
        }
    }
}
