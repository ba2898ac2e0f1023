package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;

import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;
import dev.tutti.channel.PriorityCrossOrderRun;
import dev.tutti.channel.TimeDrivenRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Alltoall channels over the process transports, ranks wired as separate processes (shm, tcp): an intragroup channel
 * with small (eager) and large (rendezvous) blocks, a bipartite one, both also confined to the rank's thread, a low
 * and a high-priority one called in a cross order, and a time-driven one with a slow rank, every element checked. The channel package's own tests run the same
 * over inproc.
 */
@Timeout(120)
class ChannelTransportTest {
    private static final int EXCHANGES = 60;

    static long value(final long k, final int src, final int dst, final int i) {
        return (k << 40) + ((long) src << 28) + ((long) dst << 16) + i;
    }

    /** Pipelined exchanges (depth - 1 ahead) of {@code block} longs per pair, every element checked. */
    static void exchange(final Comm comm, final int block) {
        exchange(comm, block, ChannelQos.bestEffort());
    }

    /** The same with a QoS ({@link ChannelQos#confined()} too). */
    static void exchange(final Comm comm, final int block, final ChannelQos qos) {
        final boolean inter = comm.isInter();
        final int ranks = inter ? comm.remoteSize() : comm.size();
        final int me = comm.rank();
        final int depth = 3;
        try (AlltoallChannel ch = inter
            ? AlltoallChannel.bipartite((Intercommunicator) comm, "x" + block, Datatype.LONG, block, block, depth, qos)
            : AlltoallChannel.create((Communicator) comm, "x" + block, Datatype.LONG, block, depth, qos)) {
            for (int k = 0; k < EXCHANGES + depth - 1; k++) {
                if (k < EXCHANGES) {
                    final ChannelBuffer out = ch.takeSend();
                    final long[] x = out.longs();
                    for (int d = 0; d < ranks; d++) {
                        for (int i = 0; i < block; i++) {
                            x[d * block + i] = value(k, me, d, i);
                        }
                    }
                    ch.submit(out);
                }
                if (k >= depth - 1) {
                    final long n = k - (depth - 1);
                    final ChannelBuffer in = ch.takeReceive();
                    final long[] y = in.longs();
                    for (int s = 0; s < ranks; s++) {
                        for (int i = 0; i < block; i++) {
                            if (y[s * block + i] != value(n, s, me, i)) {
                                assertEquals(value(n, s, me, i), y[s * block + i], "exchange " + n + " from " + s);
                            }
                        }
                    }
                    ch.release(in);
                }
            }
            assertEquals(EXCHANGES, ch.stats().exchanges());
        }
    }

    private static void all(final Communicator world, final boolean shared) {
        exchange(world, 3);
        exchange(world, 3_000);
        final ChannelQos confined = ChannelQos.bestEffort().confined();
        exchange(world, 3, confined); // the persistent alltoall
        exchange(world, 16, confined); // over shm the window
        exchange(world, 3_000, confined); // over shm the arena's send buffers
        final Communicator half = world.split(world.rank() % 2, world.rank());
        final Intercommunicator pair = half.createIntercomm(0, world, 1 - world.rank() % 2, 5);
        exchange(pair, 700);
        exchange(pair, 5, confined);
        pair.free();
        half.free();
        PriorityCrossOrderRun.run(world, 4, 8); // over shm the low channel takes the window
        PriorityCrossOrderRun.run(world, 8, 8); // and the high one too
        try {
            TimeDrivenRun.run(world, 2, shared); // a time-driven channel takes the window too
        } catch (final InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldRunChannelsOverShm() {
        ShmJob.run(3, (world, shm) -> all(world, true));
    }

    @Test
    void shouldRunChannelsOverTcp() {
        TcpJob.run(3, 4096, (world, tcp) -> all(world, false));
    }
}
