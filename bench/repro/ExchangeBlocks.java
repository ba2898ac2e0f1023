import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * How the time of a small alltoall and allgather moves within one job: 30 blocks of each, alternating, 20,000 calls
 * a block, on the world communicator; rank 0 prints the µs per call of every block, in order, one line per
 * operation. At 2 ranks the two move the same bytes between the same cores through the on-host region, so a step
 * that both take in the same blocks is the host's or the JIT's, not one operation's.
 *
 * <pre>
 * mkdir -p /tmp/repro &amp;&amp; javac -cp tutti-cli/target/tutti.jar -d /tmp/repro bench/repro/ExchangeBlocks.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/repro ExchangeBlocks 64
 * </pre>
 */
public final class ExchangeBlocks {
    private static final int BLOCKS = 30;
    private static final int CALLS = 20000;

    private ExchangeBlocks() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int p = w.size();
            final int n = Math.max(1, bytes / Integer.BYTES);
            final int[] send = new int[n * p];
            final int[] recv = new int[n * p];
            final StringBuilder alltoall = new StringBuilder(bytes + " B alltoall:");
            final StringBuilder allgather = new StringBuilder(bytes + " B allgather:");
            for (int b = 0; b < BLOCKS; b++) {
                w.barrier();
                long t0 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    w.alltoall(Buf.of(send, 0, n * p), Buf.of(recv, 0, n * p));
                }
                alltoall.append(String.format(" %.2f", (System.nanoTime() - t0) / 1e3 / CALLS));
                w.barrier();
                t0 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    w.allgather(Buf.of(send, 0, n), Buf.of(recv, 0, n * p));
                }
                allgather.append(String.format(" %.2f", (System.nanoTime() - t0) / 1e3 / CALLS));
            }
            if (0 == w.rank()) {
                System.out.println(alltoall + System.lineSeparator() + allgather);
            }
        }
    }
}
