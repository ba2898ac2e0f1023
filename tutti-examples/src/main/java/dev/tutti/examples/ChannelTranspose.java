package dev.tutti.examples;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelStats;

/**
 * A time-stepped distributed matrix transpose over an intragroup alltoall channel, the communication of a 2-D
 * FFT: every step, each rank holds {@code b} rows of an {@code n x n} matrix ({@code n = p * b}) and needs the same
 * rows of its transpose.
 *
 * <p>The channel is created once; each step takes an empty send buffer, packs block {@code j} (this rank's rows x
 * rank {@code j}'s columns, transposed) for rank {@code j}, and submits it. With a ring of depth 2 the packing of
 * step {@code t + 1} overlaps the exchange of step {@code t}: the program takes step {@code t}'s receive buffer only
 * after submitting step {@code t + 1}. Every element is checked against the formula of the matrix.
 *
 * <pre>
 * bin/tutti run -n 4 -cp tutti-examples/target/classes dev.tutti.examples.ChannelTranspose [b steps]
 * </pre>
 */
public final class ChannelTranspose {
    private ChannelTranspose() {
    }

    /** Element (i, j) of the matrix at step t: exact in a double. */
    static double a(final int t, final int i, final int j) {
        return t * 1e8 + i * 1e4 + j;
    }

    /**
     * Runs the example.
     *
     * @param args optional: b (rows per rank, default 64) and steps (default 200)
     */
    public static void main(final String[] args) {
        final int b = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        final int steps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            final int p = world.size();
            final int me = world.rank();
            final long t0 = System.nanoTime();
            try (AlltoallChannel ch = AlltoallChannel.create(world, "transpose", Datatype.DOUBLE, b * b, 2)) {
                for (int t = 0; t <= steps; t++) {
                    if (t < steps) {
                        final ChannelBuffer out = ch.takeSend();
                        final double[] x = out.doubles();
                        for (int j = 0; j < p; j++) {          // block j: my rows x j's columns, transposed
                            for (int c = 0; c < b; c++) {
                                for (int r = 0; r < b; r++) {
                                    x[(j * b + c) * b + r] = a(t, me * b + r, j * b + c);
                                }
                            }
                        }
                        ch.submit(out);                         // exchange t starts
                    }
                    if (t > 0) {
                        final ChannelBuffer in = ch.takeReceive();  // exchange t - 1: rows of the transpose
                        check(in, t - 1, me, b, p);
                        ch.release(in);
                    }
                }
                final ChannelStats stats = ch.stats();
                if (0 == me) {
                    final double ms = (System.nanoTime() - t0) / 1e6;
                    System.out.printf("transposed a %dx%d matrix %d times on %d ranks in %.1f ms (%.1f us/step)%n",
                        p * b, p * b, steps, p, ms, 1000 * ms / steps);
                    System.out.println(stats);
                }
            }
        }
    }

    /** Row c of my block of the transpose, column i * b + r, is A(i * b + r, me * b + c). */
    private static void check(final ChannelBuffer in, final int t, final int me, final int b, final int p) {
        final double[] y = in.doubles();
        for (int i = 0; i < p; i++) {
            for (int c = 0; c < b; c++) {
                for (int r = 0; r < b; r++) {
                    final double want = a(t, i * b + r, me * b + c);
                    if (y[(i * b + c) * b + r] != want) {
                        throw new IllegalStateException("step " + t + ", rank " + me + ": transpose row " + (me * b + c)
                            + " column " + (i * b + r) + " is " + y[(i * b + c) * b + r] + ", expected " + want);
                    }
                }
            }
        }
    }
}
