import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import java.util.Arrays;

/**
 * An allreduce of N bytes of doubles with an elementwise sum declared non-commutative, once applied to whole operands
 * and once declared with items of one element ({@code Op.Builder.items(1)}), against {@code Op.SUM}, in interleaved
 * blocks: past the on-host region's cells the first takes the message layer (an op that does not commute is applied
 * to whole operands), the other two the region's chunks. Rank 0 prints each op's median of 8 blocks (the first left
 * out), in µs per call.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/nc bench/repro/NonCommutative.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/nc NonCommutative 1048576
 * </pre>
 */
public final class NonCommutative {
    public static void main(final String[] args) {
        final int n = Integer.parseInt(args[0]) / 8;
        final Op.DoubleFunction sum = (double[] in, double[] io, int count) -> {
            for (int i = 0; i < count; i++) {
                io[i] += in[i];
            }
        };
        final Op nc = Op.user("sum, declared non-commutative", false, sum);
        final Op items = Op.builder("sum, non-commutative with items", false).items(1).doubles(sum).build();
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final double[] x = new double[n];
            final double[] y = new double[n];
            final Op[] ops = {Op.SUM, nc, items};
            final String[] names = {"SUM", "non-comm", "items(1)"};
            final double[][] us = new double[ops.length][9];
            final int iters = Math.max(20, 20_000_000 / (8 * n));
            for (int b = 0; b < 9; b++) {
                for (int k = 0; k < ops.length; k++) {
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        w.allreduce(Buf.of(x), Buf.of(y), ops[k]);
                    }
                    us[k][b] = (System.nanoTime() - t0) / 1e3 / iters;
                }
            }
            if (0 == w.rank()) {
                for (int k = 0; k < ops.length; k++) {
                    final double[] v = Arrays.copyOfRange(us[k], 1, 9);
                    Arrays.sort(v);
                    System.out.printf("%d B %-8s median %.1f us%n", 8 * n, names[k], (v[3] + v[4]) / 2);
                }
            }
        }
    }
}
