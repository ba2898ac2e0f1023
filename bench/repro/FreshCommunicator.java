import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * A communicator's first calls, before it has made any blocking barrier, allreduce, allgather or alltoall: bcasts,
 * reduces and nonblocking allreduces of 2 ints on a fresh dup, 20,000 calls of each in turn, 5 times (the last
 * kept), then a barrier, and the same again, 4 phases in all. Rank 0 (every call's root) prints µs per call of each
 * phase. Phase 0 shows whether a fresh communicator's calls take its on-host region or the message layer; the
 * later phases are after a barrier, which agrees the region where creation did not.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/fresh bench/repro/FreshCommunicator.java
 * bin/tutti run -n 4 --transport shm -cp /tmp/fresh FreshCommunicator
 * </pre>
 */
public final class FreshCommunicator {
    private static final int CALLS = 20_000;

    private FreshCommunicator() {
    }

    public static void main(final String[] args) {
        try (Tutti t = Tutti.init()) {
            final Communicator d = t.world().dup();
            final int[] x = new int[2];
            final int[] y = new int[2];
            for (int phase = 0; phase < 4; phase++) {
                final double[] us = new double[3];
                for (int k = 0; k < 5; k++) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < CALLS; i++) {
                        d.bcast(Buf.of(x), 0);
                    }
                    us[0] = (System.nanoTime() - t0) / 1e3 / CALLS;
                    t0 = System.nanoTime();
                    for (int i = 0; i < CALLS; i++) {
                        d.reduce(Buf.of(x), Buf.of(y), Op.SUM, 0);
                    }
                    us[1] = (System.nanoTime() - t0) / 1e3 / CALLS;
                    t0 = System.nanoTime();
                    for (int i = 0; i < CALLS; i++) {
                        d.iallreduce(Buf.of(x), Buf.of(y), Op.SUM).waitFor();
                    }
                    us[2] = (System.nanoTime() - t0) / 1e3 / CALLS;
                }
                if (0 == d.rank()) {
                    System.out.printf("phase %d: bcast %.3f reduce %.3f iallreduce %.3f us%n", phase, us[0], us[1],
                        us[2]);
                }
                d.barrier();
            }
        }
    }
}
