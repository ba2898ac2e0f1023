package dev.tutti.examples;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * Two threads per rank run independent reductions on ONE communicator, told apart by tag: thread A sums with tag
 * 1, thread B takes maxima with tag 2. Odd ranks start thread B's work first, even ranks thread A's, so the ranks
 * begin the collectives in different orders; tagged collectives are matched by (kind, tag), not by call order, so
 * this is correct.
 *
 * <pre>
 * bin/tutti run -n 4 -cp tutti-examples/target/classes dev.tutti.examples.TaggedReductions
 * </pre>
 */
public final class TaggedReductions {
    private static final int ROUNDS = 100;

    private TaggedReductions() {
    }

    /**
     * Runs the example.
     *
     * @param args unused
     * @throws InterruptedException if interrupted while joining the threads
     */
    public static void main(final String[] args) throws InterruptedException {
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            final long[] sums = new long[1];
            final long[] maxima = new long[1];
            final Thread a = Thread.ofPlatform().unstarted(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    final long[] mine = {world.rank() + i};
                    final CollectiveHandle h = world.allreduceBegin(Buf.of(mine), Buf.of(sums), Op.SUM, 1);
                    h.end();
                }
            });
            final Thread b = Thread.ofPlatform().unstarted(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    final long[] mine = {world.rank() * 10L + i};
                    world.allreduceBegin(Buf.of(mine), Buf.of(maxima), Op.MAX, 2).end();
                }
            });
            final boolean odd = 1 == world.rank() % 2;
            (odd ? b : a).start();
            (odd ? a : b).start();
            a.join();
            b.join();
            if (0 == world.rank()) {
                final int p = world.size();
                System.out.printf("tag 1 (sum of rank+%d) = %d, expected %d%n", ROUNDS - 1, sums[0],
                    (long) p * (p - 1) / 2 + (long) p * (ROUNDS - 1));
                System.out.printf("tag 2 (max of 10*rank+%d) = %d, expected %d%n", ROUNDS - 1, maxima[0],
                    10L * (p - 1) + ROUNDS - 1);
            }
        }
    }
}
