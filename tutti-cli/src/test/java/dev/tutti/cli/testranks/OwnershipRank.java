package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;

/**
 * Misuses of requests and buffers the checker reports at close or at completion: with {@code leak} every
 * rank starts an ibarrier it never waits for; with {@code write}, rank 1 writes its send buffer between the start of
 * an iallreduce and its wait; with {@code ok}, the correct twin, every rank waits and writes after. Prints the
 * iallreduce's result on rank 0.
 */
public final class OwnershipRank {
    private OwnershipRank() {
    }

    public static void main(final String[] args) {
        final String mode = args.length > 0 ? args[0] : "ok";
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final Request b = w.ibarrier();
            if (!"leak".equals(mode)) {
                b.waitFor();
            }
            final int[] send = {w.rank() + 1};
            final int[] sum = new int[1];
            final Request r = w.iallreduce(Buf.of(send), Buf.of(sum), Op.SUM);
            if ("write".equals(mode) && 1 == w.rank()) {
                send[0] = 100;
            }
            r.waitFor();
            send[0] = 0;
            w.barrier();
            if (0 == w.rank()) {
                System.out.println("sum " + sum[0]);
            }
        }
    }
}
