package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.testkit.StressPayload;

import dev.tutti.transport.tcp.TcpLimits;

import java.util.ArrayList;
import java.util.List;

/**
 * The ping-pong half of the tcp stress test, as a rank program ({@link #main}, for ranks as processes) and as a
 * method ({@link #run}, for ranks as threads). Two ranks bounce messages whose frames fill the read buffer k times
 * and end with a short piece (each frame starts a read, as in a ping-pong), after a warm-up that gets the I/O
 * thread's copies compiled, with an 8-byte double message from rank 1 before each size (as the benchmark that found
 * the corruption of bench/history/RESULTS-diary.md sent one after each: that message made the copy's destination type
 * polymorphic, which the failing compilation needed). The receiver poisons its buffer before each message and
 * checks every byte.
 */
public final class TcpPingPongStress {
    /** Exit status of a rank that found a wrong message. */
    static final int CORRUPT = 3;
    private static final int CONTROL_TAG = 2;
    private static final int ROUNDS_PER_SIZE = 40;

    private TcpPingPongStress() {
    }

    /**
     * As a rank launched with the job environment: {@code args} = seed, warm-up round trips; the eager limit is
     * the job's ({@code -Dtutti.eager.limit}). Exits with {@link #CORRUPT} naming the first wrong message.
     *
     * @param args seed and warm-up round trips
     */
    public static void main(final String[] args) {
        final long seed = Long.parseLong(args[0]);
        final int warmUp = Integer.parseInt(args[1]);
        final int eagerLimit = Integer.getInteger("tutti.eager.limit", 64 * 1024);
        try (Tutti t = Tutti.init()) {
            final String wrong = run(t.world(), eagerLimit, seed, warmUp);
            if (null != wrong) {
                System.out.println(wrong);
                System.out.flush();
                Runtime.getRuntime().halt(CORRUPT);
            }
            System.out.println("rank " + t.world().rank() + " ok");
        }
    }

    /**
     * Runs the ping-pong on ranks 0 and 1 of {@code world}.
     *
     * @param world      a communicator of two ranks
     * @param eagerLimit the job's eager limit (sizes are chosen to stay eager)
     * @param seed       the run's seed
     * @param warmUp     round trips of half a read buffer first
     * @return null, or a description of the first wrong message this rank received
     */
    static String run(final Communicator world, final int eagerLimit, final long seed, final int warmUp) {
        final int read = TcpLimits.readBufferBytes();
        final int header = TcpLimits.headerBytes();
        final List<Integer> sizes = new ArrayList<>();
        for (int k = 1; k * read + read / 2 <= eagerLimit && k <= 16; k *= 2) {
            for (final int tail : new int[] {0, 1, -header + 8, -header + 1, 15}) {
                sizes.add(k * read + tail);
            }
        }
        final int max = Math.max(read, sizes.stream().mapToInt(Integer::intValue).max().orElse(0));
        final int me = world.rank();
        final byte[] send = new byte[max];
        final byte[] recv = new byte[max];
        final byte[] expected = new byte[max];
        final double[] control = new double[1];
        int round = 0;
        for (; round < warmUp; round++) {
            final String wrong = bounce(world, send, recv, expected, read / 2, round, seed);
            if (null != wrong) {
                return wrong;
            }
        }
        for (final int size : sizes) {
            if (1 == me) {
                control[0] = size;
                world.send(Buf.of(control), 0, CONTROL_TAG);
            } else {
                world.recv(Buf.of(control), 1, CONTROL_TAG);
                if (control[0] != size) {
                    return "control message before size " + size + " was " + control[0] + ", seed " + seed;
                }
            }
            for (int i = 0; i < ROUNDS_PER_SIZE; i++, round++) {
                final String wrong = bounce(world, send, recv, expected, size, round, seed);
                if (null != wrong) {
                    return wrong + " (eager limit " + eagerLimit + ")";
                }
            }
        }
        return null;
    }

    /** One round trip of {@code size} bytes, rank 0 first. */
    private static String bounce(final Communicator world, final byte[] send, final byte[] recv,
        final byte[] expected, final int size, final int round, final long seed) {
        final int me = world.rank();
        final int peer = 1 - me;
        StressPayload.fill(send, size, StressPayload.messageSeed(seed, me, round));
        StressPayload.fill(expected, size, StressPayload.messageSeed(seed, peer, round));
        for (int i = 0; i < size; i++) {
            recv[i] = (byte) ~expected[i];
        }
        if (0 == me) {
            world.send(Buf.of(send, 0, size), peer, 1);
            world.recv(Buf.of(recv, 0, size), peer, 1);
        } else {
            world.recv(Buf.of(recv, 0, size), peer, 1);
            world.send(Buf.of(send, 0, size), peer, 1);
        }
        return StressPayload.compare(recv, size, expected, "ping-pong round " + round + " from rank " + peer
            + " to rank " + me + " (seed " + seed + ")");
    }
}
