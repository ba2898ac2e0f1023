import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.Tutti;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Large collectives on one host, blocking and nonblocking (started, then waited for at once), timed in interleaved
 * blocks in one job so that both forms see the same moments of the host: bcast, allreduce (of longs), allgather and
 * alltoall of N bytes per rank (per block for the alltoall). A blocking call first agrees the region's chunk area, so
 * with the default {@code tutti.coll.hostChunks} both forms go through the chunks; with {@code off}, both through the
 * message layer. Rank 0 prints each form's median and fastest block, µs per call, and the ratio of the medians.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/nbc bench/repro/NonblockingChunks.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/nbc NonblockingChunks 1048576
 * JAVA_TOOL_OPTIONS=-Dtutti.coll.hostChunks=off bin/tutti run -n 2 --transport shm -cp /tmp/nbc NonblockingChunks
 * 1048576
 * </pre>
 */
public final class NonblockingChunks {
    private static final int BLOCKS = 12;
    /** Blocks left out at the start (JIT warm-up). */
    private static final int WARM = 2;
    private static final String[] OPS = {"bcast", "allreduce", "allgather", "alltoall"};

    private NonblockingChunks() {
    }

    public static void main(final String[] args) {
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            for (final String a : args) {
                run(w, Integer.parseInt(a));
            }
        }
    }

    private static void run(final Communicator w, final int n) {
        final int iters = (int) Math.max(50, (32L << 20) / n);
        final int p = w.size();
        final long all = (long) n * p;
        final MemorySegment send = MemorySegment.ofArray(new long[(int) (all / Long.BYTES)]);
        final MemorySegment recv = MemorySegment.ofArray(new long[(int) (all / Long.BYTES)]);
        send.fill((byte) w.rank());
        w.allreduce(Buf.of(send.asSlice(0, n), Datatype.LONG), Buf.of(recv.asSlice(0, n), Datatype.LONG), Op.SUM);
        final double[][] us = new double[2 * OPS.length][BLOCKS];
        for (int b = 0; b < BLOCKS; b++) {
            for (int k = 0; k < us.length; k++) {
                final boolean nonblocking = 1 == k % 2;
                w.barrier();
                final long t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    final Buf s = Buf.of(send.asSlice(0, n), Datatype.LONG);
                    final Buf r = Buf.of(recv.asSlice(0, n), Datatype.LONG);
                    switch (k / 2) {
                        case 0 -> {
                            if (nonblocking) {
                                w.ibcast(s, 0).waitFor();
                            } else {
                                w.bcast(s, 0);
                            }
                        }
                        case 1 -> {
                            if (nonblocking) {
                                w.iallreduce(s, r, Op.SUM).waitFor();
                            } else {
                                w.allreduce(s, r, Op.SUM);
                            }
                        }
                        case 2 -> {
                            final Buf to = Buf.of(recv, Datatype.LONG);
                            if (nonblocking) {
                                w.iallgather(s, to).waitFor();
                            } else {
                                w.allgather(s, to);
                            }
                        }
                        default -> {
                            final Buf from = Buf.of(send, Datatype.LONG);
                            final Buf to = Buf.of(recv, Datatype.LONG);
                            if (nonblocking) {
                                w.ialltoall(from, to).waitFor();
                            } else {
                                w.alltoall(from, to);
                            }
                        }
                    }
                }
                us[k][b] = (System.nanoTime() - t0) / 1e3 / iters;
            }
        }
        if (0 == w.rank()) {
            System.out.printf("%d ranks, %d bytes, %d calls a block%n", p, n, iters);
            for (int o = 0; o < OPS.length; o++) {
                final double[] m = new double[2];
                for (int f = 0; f < 2; f++) {
                    final double[] kept = Arrays.copyOfRange(us[2 * o + f], WARM, BLOCKS);
                    Arrays.sort(kept);
                    m[f] = kept[kept.length / 2];
                    System.out.printf("%-10s %-11s median %9.2f  fastest %9.2f%n", OPS[o],
                        0 == f ? "blocking" : "nonblocking", m[f], kept[0]);
                }
                System.out.printf("%-10s nonblocking / blocking %.2f%n", OPS[o], m[1] / m[0]);
            }
        }
    }
}
