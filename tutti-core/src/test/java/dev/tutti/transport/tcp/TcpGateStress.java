package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.testkit.TcpJob;

/**
 * A program for one process with native access enabled, where tcp ranks (threads, {@link TcpJob}) have a
 * {@link NativeSocket} per connection and so read through their {@link ReadinessGate}: four ranks check that they do,
 * then reduce and broadcast vectors at rendezvous sizes and check them whole, then run {@link TcpStressTest}'s
 * many-senders plans (seed and size from {@code -Dtutti.stress.seed} and {@code -Dtutti.stress.messages}) at two
 * eager limits, with one receiving thread and with one per sender. Exits with 0 if all is right; a failure's
 * exception (naming the message and the seed) ends it with another status.
 */
public final class TcpGateStress {
    private static final int RANKS = 4;
    private static final int EAGER_LIMIT = 64 * 1024;

    private TcpGateStress() {
    }

    /**
     * @param args none
     */
    public static void main(final String[] args) {
        if (!NativeSocket.available()) {
            throw new IllegalStateException("native socket I/O is not available here: the gate would not be used");
        }
        TcpJob.run(RANKS, EAGER_LIMIT, (world, tcp) -> {
            if (!tcp.readsReadyOnly()) {
                throw new AssertionError("rank " + world.rank() + " of " + RANKS + " reads every connection: "
                    + "no readiness gate");
            }
            collectives(world);
        });
        TcpStressTest.runPlans(EAGER_LIMIT, TcpStressTest::receiveAll);
        TcpStressTest.runPlans(1 << 20, TcpStressTest::receiveAll);
        TcpStressTest.runPlans(EAGER_LIMIT, TcpStressTest::receiveByThreads);
    }

    /** allreduce (Rabenseifner from 8 KiB on 4 ranks) and bcast from every root, at sizes around the limits. */
    private static void collectives(final Communicator world) {
        final int me = world.rank();
        for (final int count : new int[] {3, 5_000, 40_001, 1 << 18}) {
            final float[] send = new float[count];
            final float[] recv = new float[count];
            for (int i = 0; i < count; i++) {
                send[i] = i % 89 + me;
            }
            world.allreduce(Buf.of(send), Buf.of(recv), Op.SUM);
            for (int i = 0; i < count; i++) {
                final float want = RANKS * (i % 89) + RANKS * (RANKS - 1) / 2f;
                if (recv[i] != want) {
                    throw new AssertionError("rank " + me + ": allreduce of " + count + " floats: element " + i
                        + " is " + recv[i] + ", expected " + want);
                }
            }
            for (int root = 0; root < RANKS; root++) {
                final long[] data = new long[count];
                if (me == root) {
                    for (int i = 0; i < count; i++) {
                        data[i] = 31L * i + root;
                    }
                }
                world.bcast(Buf.of(data), root);
                for (int i = 0; i < count; i++) {
                    if (data[i] != 31L * i + root) {
                        throw new AssertionError("rank " + me + ": bcast of " + count + " longs from " + root
                            + ": element " + i + " is " + data[i]);
                    }
                }
            }
        }
    }
}
