import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;

import java.util.Arrays;

/**
 * What a vector form costs beside its regular form on the on-host region: allgather, allgatherv, alltoall, alltoallv,
 * gather and gatherv (to rank 0), alltoallw (an int block per peer), the vector forms blocking, nonblocking (started
 * and waited for) and persistent (started and waited for), of N bytes a block (every count the same), in turn, 40
 * blocks of 20,000 calls each; rank 0 prints the median block of each, µs per call, leaving out the first 10 (the JIT's
 * warm-up). They run in one job, so their ratios compare calls at the same one of the host's speed levels.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/vb bench/repro/VectorBlocks.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/vb VectorBlocks 8
 * </pre>
 */
public final class VectorBlocks {
    private static final int BLOCKS = 40;
    private static final int WARM = 10;
    private static final int CALLS = 20000;
    private static final String[] NAMES = {"allgather", "allgatherv", "iallgatherv", "allgatherv_init", "alltoall",
        "alltoallv", "ialltoallv", "alltoallv_init", "gather", "gatherv", "igatherv", "gatherv_init", "alltoallw",
        "ialltoallw", "alltoallw_init"};

    private VectorBlocks() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int p = w.size();
            final int n = Math.max(1, bytes / Integer.BYTES);
            final Buf block = Buf.of(new int[n]);
            final Buf all = Buf.of(new int[n * p]);
            final Buf got = Buf.of(new int[n * p]);
            final int[] counts = new int[p];
            final int[] displs = new int[p];
            for (int r = 0; r < p; r++) {
                counts[r] = n;
                displs[r] = r * n;
            }
            final double[][] us = new double[NAMES.length][BLOCKS];
            final PersistentRequest kept = w.allgathervInit(block, got, counts, displs);
            final PersistentRequest exchange = w.alltoallvInit(all, counts, displs, got, counts, displs);
            final PersistentRequest gathered = w.gathervInit(block, got, counts, displs, 0);
            final Buf[] sendBlocks = new Buf[p];
            final Buf[] recvBlocks = new Buf[p];
            for (int r = 0; r < p; r++) {
                sendBlocks[r] = Buf.of(new int[n]);
                recvBlocks[r] = Buf.of(new int[n]);
            }
            final PersistentRequest typed = w.alltoallwInit(sendBlocks, recvBlocks);
            for (int b = 0; b < BLOCKS; b++) {
                for (int op = 0; op < NAMES.length; op++) {
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < CALLS; i++) {
                        switch (op) {
                            case 0 -> w.allgather(block, got);
                            case 1 -> w.allgatherv(block, got, counts, displs);
                            case 2 -> w.iallgatherv(block, got, counts, displs).waitFor();
                            case 3 -> {
                                kept.start();
                                kept.waitFor();
                            }
                            case 4 -> w.alltoall(all, got);
                            case 5 -> w.alltoallv(all, counts, displs, got, counts, displs);
                            case 6 -> w.ialltoallv(all, counts, displs, got, counts, displs).waitFor();
                            case 7 -> {
                                exchange.start();
                                exchange.waitFor();
                            }
                            case 8 -> w.gather(block, got, 0);
                            case 9 -> w.gatherv(block, got, counts, displs, 0);
                            case 10 -> w.igatherv(block, got, counts, displs, 0).waitFor();
                            case 11 -> {
                                gathered.start();
                                gathered.waitFor();
                            }
                            case 12 -> w.alltoallw(sendBlocks, recvBlocks);
                            case 13 -> w.ialltoallw(sendBlocks, recvBlocks).waitFor();
                            default -> {
                                typed.start();
                                typed.waitFor();
                            }
                        }
                    }
                    us[op][b] = (System.nanoTime() - t0) / 1e3 / CALLS;
                }
            }
            kept.close();
            exchange.close();
            gathered.close();
            typed.close();
            if (0 == w.rank()) {
                final StringBuilder line = new StringBuilder(bytes + " B:");
                for (int op = 0; op < NAMES.length; op++) {
                    final double[] warm = Arrays.copyOfRange(us[op], WARM, BLOCKS);
                    Arrays.sort(warm);
                    line.append(String.format(" %s %.3f", NAMES[op], warm[warm.length / 2]));
                }
                System.out.println(line);
            }
        }
    }
}
