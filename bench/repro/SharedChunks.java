import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Tutti;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Large blocking collectives through the on-host region's chunks, with heap buffers and with buffers from the shared
 * arena ({@code Tutti.allocShared}, which the readers copy straight out of), timed in interleaved blocks in one job so
 * that both see the same moments of the host: bcast, allgather and alltoall of N bytes per rank (per block for the
 * alltoall). Rank 0 prints each form's median and fastest block, µs per call, and the region, which counts the calls
 * that read a peer in place.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/shared bench/repro/SharedChunks.java
 * bin/tutti run -n 2 --transport shm -cp /tmp/shared SharedChunks 1048576
 * </pre>
 */
public final class SharedChunks {
    private static final int BLOCKS = 12;
    /** Blocks left out at the start (JIT warm-up). */
    private static final int WARM = 2;

    private SharedChunks() {
    }

    public static void main(final String[] args) {
        final int n = Integer.parseInt(args[0]);
        final int iters = (int) Math.max(50, (64L << 20) / n);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int p = w.size();
            final long all = (long) n * p;
            final MemorySegment heapSend = MemorySegment.ofArray(new byte[(int) all]);
            final MemorySegment heapRecv = MemorySegment.ofArray(new byte[(int) all]);
            final MemorySegment sharedSend = t.allocShared(all);
            final MemorySegment sharedRecv = t.allocShared(all);
            heapSend.fill((byte) w.rank());
            sharedSend.fill((byte) w.rank());
            final String[] names = {"bcast heap", "bcast shared", "allgather heap", "allgather shared",
                "alltoall heap", "alltoall shared"};
            final double[][] us = new double[names.length][BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                for (int k = 0; k < names.length; k++) {
                    final boolean shared = 1 == k % 2;
                    final MemorySegment send = shared ? sharedSend : heapSend;
                    final MemorySegment recv = shared ? sharedRecv : heapRecv;
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        switch (k / 2) {
                            case 0 -> w.bcast(Buf.of(send.asSlice(0, n), Datatype.BYTE), 0);
                            case 1 -> w.allgather(Buf.of(send.asSlice(0, n), Datatype.BYTE), Buf.of(recv,
                                Datatype.BYTE));
                            default -> w.alltoall(Buf.of(send, Datatype.BYTE), Buf.of(recv, Datatype.BYTE));
                        }
                    }
                    us[k][b] = (System.nanoTime() - t0) / 1e3 / iters;
                }
            }
            if (0 == w.rank()) {
                System.out.printf("%d ranks, %d bytes, %d calls a block%n", p, n, iters);
                for (int k = 0; k < names.length; k++) {
                    final double[] kept = Arrays.copyOfRange(us[k], WARM, BLOCKS);
                    Arrays.sort(kept);
                    System.out.printf("%-18s median %9.2f  fastest %9.2f%n", names[k], kept[kept.length / 2],
                        kept[0]);
                }
            }
            t.freeShared(sharedSend);
            t.freeShared(sharedRecv);
        }
    }
}
