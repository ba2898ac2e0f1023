import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * The time of an alltoall of BYTES a pair, block by block: 50 calls a block, BLOCKS blocks, a barrier before each;
 * rank 0 prints µs per call of every block on one line. Over tcp with 2 ranks this is a bidirectional exchange of a
 * large message on one connection, whose time moves between two levels for seconds at a time (bench/RESULTS.md,
 * "tcp"); the kernel's TCP counters of the run tell whether it met retransmissions or reordering on loopback.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/xb bench/repro/TcpExchangeBlocks.java
 * nstat -n; bin/tutti run -n 2 --transport tcp -cp /tmp/xb TcpExchangeBlocks 1048576 100
 * nstat | grep -i 'retrans\|ofo\|loss'
 * </pre>
 */
public final class TcpExchangeBlocks {
    private static final int CALLS = 50;

    private TcpExchangeBlocks() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        final int blocks = Integer.parseInt(args[1]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int n = bytes / Float.BYTES;
            final float[] send = new float[n * w.size()];
            final float[] recv = new float[n * w.size()];
            final StringBuilder line = new StringBuilder();
            for (int b = 0; b < blocks; b++) {
                w.barrier();
                final long t0 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    w.alltoall(Buf.of(send), Buf.of(recv));
                }
                line.append((System.nanoTime() - t0) / CALLS / 1000).append(' ');
            }
            if (0 == w.rank()) {
                System.out.println(line.toString().trim());
            }
        }
    }
}
