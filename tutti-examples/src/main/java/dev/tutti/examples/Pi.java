package dev.tutti.examples;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * Computes pi by integrating 4/(1+x^2) over [0,1]: each rank sums its share of the intervals, an allreduce adds
 * the shares, and rank 0 prints the result.
 *
 * <pre>
 * bin/tutti run -n 4 -cp tutti-examples/target/classes dev.tutti.examples.Pi 10000000
 * </pre>
 */
public final class Pi {
    private Pi() {
    }

    /**
     * Runs the example.
     *
     * @param args optional: the number of intervals (default 10 000 000)
     */
    public static void main(final String[] args) {
        final long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            final double h = 1.0 / intervals;
            double sum = 0;
            for (long i = world.rank(); i < intervals; i += world.size()) {
                final double x = h * (i + 0.5);
                sum += 4.0 / (1.0 + x * x);
            }
            final double[] pi = new double[1];
            world.allreduce(Buf.of(new double[] {sum * h}), Buf.of(pi), Op.SUM);
            if (0 == world.rank()) {
                System.out.printf("pi ~= %.12f (error %.2e) from %d ranks%n", pi[0], Math.abs(pi[0] - Math.PI),
                    world.size());
            }
        }
    }
}
