package dev.tutti.runtime.identity;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

import dev.tutti.runtime.identity.Identities;

/**
 * A rank program for {@link MpirunTest}, started by another launcher ({@code mpirun}): joins the job through
 * {@link Tutti#init()}, which finds its identity in the launcher's variables, and runs allreduces. {@code ok}: one
 * allreduce, checked, then a line {@code rank r of n (source) sum=s}. {@code die v}: every rank runs allreduces in
 * a loop; rank {@code v} halts after the first with exit status 0 (so that the launcher sees nothing wrong and only
 * Tutti's own failure detection can end the others); the others must fail, which ends them with a non-zero status
 * and the exception, naming the rank, on stderr.
 */
public final class ForeignLaunchMain {
    private ForeignLaunchMain() {
    }

    /**
     * Runs the rank.
     *
     * @param args {@code ok}, or {@code die} and the rank that dies
     */
    public static void main(final String[] args) {
        final String source = Identities.detect(System.getenv()).chosen().source();
        final Tutti tutti = Tutti.init();
        final Communicator world = tutti.world();
        final int r = world.rank();
        final int n = world.size();
        final long[] sum = new long[1];
        world.allreduce(Buf.of(new long[] {r + 1}), Buf.of(sum), Op.SUM);
        if (sum[0] != (long) n * (n + 1) / 2) {
            throw new AssertionError("rank " + r + ": allreduce gave " + sum[0]);
        }
        if ("die".equals(args[0])) {
            final int victim = Integer.parseInt(args[1]);
            if (victim == r) {
                System.out.println("rank " + r + " dies now");
                System.out.flush();
                Runtime.getRuntime().halt(0); // no goodbye, and a status the launcher finds normal
            }
            final long start = System.nanoTime();
            for (int i = 0; i < 100_000; i++) {
                world.allreduce(Buf.of(new long[] {r}), Buf.of(sum), Op.SUM);
                Thread.onSpinWait();
            }
            throw new AssertionError("rank " + r + ": 100000 allreduces completed without rank " + victim + " in "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
        }
        tutti.close();
        System.out.println("rank " + r + " of " + n + " (" + source + ") sum=" + sum[0]);
    }
}
