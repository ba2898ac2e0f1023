import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

import java.util.Arrays;

/**
 * What an iteration of OSU's loop costs whole: a collective, then a barrier, timed together (OSU times the
 * collective alone, so a barrier that moves waiting from the next call into itself looks free there). Per operation
 * (barrier alone, bcast from 0, reduce to 0, allreduce, gather to 0, allgather, scatter from 0, alltoall, of N bytes
 * a rank), 12 blocks of iterations, the first 2 left out; rank 0 prints the median block, µs per iteration. To compare
 * two builds, run each in turn, several times (bench/RESULTS.md compares main with a barrier that let rank 0 leave
 * first, and threads that outnumber the cores on the message layer and on the region). Ranks as threads of one JVM:
 * {@code bin/tutti run -n 4 --embedded -cp /tmp/bto BarrierThenOp 8}.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/bto bench/repro/BarrierThenOp.java
 * bin/tutti run -n 4 --transport shm -cp /tmp/bto BarrierThenOp 8 1024
 * </pre>
 */
public final class BarrierThenOp {
    private static final int BLOCKS = 12;
    private static final int WARM = 2;
    private static final int ITERS = 5000;
    private static final String[] OPS = {"barrier", "bcast", "reduce", "allreduce", "gather", "allgather", "scatter",
        "alltoall"};

    private BarrierThenOp() {
    }

    public static void main(final String[] args) {
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            for (final String a : args) {
                run(w, Integer.parseInt(a));
            }
        }
    }

    private static void run(final Communicator w, final int bytes) {
        final int p = w.size();
        final int n = Math.max(1, bytes / Integer.BYTES);
        final int[] send = new int[n * p];
        final int[] recv = new int[n * p];
        Arrays.fill(send, w.rank());
        final StringBuilder line = new StringBuilder(bytes + " B:");
        for (final String op : OPS) {
            final double[] us = new double[BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                w.barrier();
                final long t0 = System.nanoTime();
                for (int i = 0; i < ITERS; i++) {
                    switch (op) {
                        case "bcast" -> w.bcast(Buf.of(send, 0, n), 0);
                        case "reduce" -> w.reduce(Buf.of(send, 0, n), Buf.of(recv, 0, n), Op.SUM, 0);
                        case "allreduce" -> w.allreduce(Buf.of(send, 0, n), Buf.of(recv, 0, n), Op.SUM);
                        case "gather" -> w.gather(Buf.of(send, 0, n), Buf.of(recv, 0, n * p), 0);
                        case "allgather" -> w.allgather(Buf.of(send, 0, n), Buf.of(recv, 0, n * p));
                        case "scatter" -> w.scatter(Buf.of(send, 0, n * p), Buf.of(recv, 0, n), 0);
                        case "alltoall" -> w.alltoall(Buf.of(send, 0, n * p), Buf.of(recv, 0, n * p));
                        default -> {
                        }
                    }
                    w.barrier();
                }
                us[b] = (System.nanoTime() - t0) / 1e3 / ITERS;
            }
            final double[] kept = Arrays.copyOfRange(us, WARM, BLOCKS);
            Arrays.sort(kept);
            line.append(String.format(" %s %.2f", op, kept[kept.length / 2]));
        }
        if (0 == w.rank()) {
            System.out.println(line);
        }
    }
}
