package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.testkit.StressPayload;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.SplittableRandom;

/**
 * A rank program for two ranks as processes with native access enabled: both ranks exchange rendezvous-sized
 * messages at once, several in flight each way, from and into heap arrays at random offsets (written and read by the
 * socket straight through {@link NativeSocket}) and now and then native segments, and check every byte; then
 * allreduce and bcast at rendezvous sizes, checked whole. First it
 * checks that a loopback connection's descriptor is found at all (else the run would pass on the staged path), and
 * exits with {@link #NO_HEAP_IO} if not.
 */
public final class TcpHeapIoStress {
    /** Exit status of a rank that found a wrong message. */
    static final int CORRUPT = 3;
    /** Exit status of a rank where heap I/O is not available. */
    static final int NO_HEAP_IO = 4;
    private static final int IN_FLIGHT = 3;
    private static final int MAX_BYTES = 3 << 20;

    private TcpHeapIoStress() {
    }

    /**
     * @param args seed, rounds
     * @throws Exception if the socket check cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        final long seed = Long.parseLong(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        if (!heapIoFound()) {
            System.out.println("heap I/O not available: no descriptor found for a loopback connection");
            System.out.flush();
            Runtime.getRuntime().halt(NO_HEAP_IO);
        }
        try (Tutti t = Tutti.init()) {
            String wrong = run(t.world(), seed, rounds);
            if (null == wrong) {
                wrong = collectives(t.world(), seed);
            }
            if (null != wrong) {
                System.out.println(wrong);
                System.out.flush();
                Runtime.getRuntime().halt(CORRUPT);
            }
            System.out.println("rank " + t.world().rank() + " ok");
        }
    }

    private static boolean heapIoFound() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel a = SocketChannel.open(server.getLocalAddress()); SocketChannel b = server.accept()) {
                final NativeSocket na = NativeSocket.of(a);
                final NativeSocket nb = NativeSocket.of(b);
                final boolean found = null != na && null != nb;
                if (found) {
                    na.close();
                    nb.close();
                }
                return found;
            }
        }
    }

    /** allreduce (SUM of int arrays) and bcast (a byte array from each root) at rendezvous sizes, checked whole. */
    private static String collectives(final Communicator world, final long seed) {
        final int me = world.rank();
        for (final int count : new int[] {40_000, (1 << 18) + 3, 1 << 20}) {
            final int[] send = new int[count];
            final int[] recv = new int[count];
            for (int i = 0; i < count; i++) {
                send[i] = (int) (seed ^ (31L * i + me));
            }
            world.allreduce(Buf.of(send), Buf.of(recv), dev.tutti.Op.SUM);
            for (int i = 0; i < count; i++) {
                final int want = (int) (seed ^ (31L * i)) + (int) (seed ^ (31L * i + 1));
                if (recv[i] != want) {
                    return "allreduce of " + count + " ints: element " + i + " is " + recv[i] + ", expected " + want
                        + " (seed " + seed + ")";
                }
            }
            for (int root = 0; root < 2; root++) {
                final byte[] data = new byte[4 * count + 1];
                final byte[] expected = new byte[data.length];
                StressPayload.fill(expected, expected.length, StressPayload.messageSeed(seed, root, count));
                if (me == root) {
                    System.arraycopy(expected, 0, data, 0, data.length);
                }
                world.bcast(Buf.of(data), root);
                final String wrong = StressPayload.compare(data, data.length, expected, "bcast of " + data.length
                    + " bytes from rank " + root + " (seed " + seed + ")");
                if (null != wrong) {
                    return wrong;
                }
            }
        }
        return null;
    }

    private static String run(final Communicator world, final long seed, final int rounds) {
        final int me = world.rank();
        final int peer = 1 - me;
        final SplittableRandom sizes = new SplittableRandom(seed); // the same sequence at both ranks
        final byte[][] send = new byte[IN_FLIGHT][MAX_BYTES + 8];
        final byte[][] recv = new byte[IN_FLIGHT][MAX_BYTES + 8];
        final byte[] expected = new byte[MAX_BYTES];
        final byte[] got = new byte[MAX_BYTES];
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment[] sendNative = new MemorySegment[IN_FLIGHT];
            final MemorySegment[] recvNative = new MemorySegment[IN_FLIGHT];
            for (int k = 0; k < IN_FLIGHT; k++) {
                sendNative[k] = arena.allocate(MAX_BYTES);
                recvNative[k] = arena.allocate(MAX_BYTES);
            }
            final int[] size = new int[IN_FLIGHT];
            final int[] offset = new int[IN_FLIGHT];
            final boolean[] nativeSend = new boolean[IN_FLIGHT];
            final boolean[] nativeRecv = new boolean[IN_FLIGHT];
            final Request[] requests = new Request[2 * IN_FLIGHT];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < IN_FLIGHT; k++) {
                    size[k] = sizes.nextInt(4) == 0 ? sizes.nextInt(1, 96 * 1024) : sizes.nextInt(64 * 1024, MAX_BYTES);
                    offset[k] = sizes.nextInt(8);
                    nativeSend[k] = sizes.nextInt(5) == 0; // per direction: rank 0's choice for its send
                    nativeRecv[k] = sizes.nextInt(5) == 0;
                    final boolean mySendNative = 0 == me ? nativeSend[k] : nativeRecv[k];
                    final boolean myRecvNative = 0 == me ? nativeRecv[k] : nativeSend[k];
                    final Buf in = myRecvNative ? Buf.of(recvNative[k], Datatype.BYTE, 0, size[k])
                        : Buf.of(recv[k], offset[k], size[k]);
                    if (!myRecvNative) {
                        java.util.Arrays.fill(recv[k], (byte) 0x5A);
                    }
                    requests[2 * k] = world.irecv(in, peer, k);
                    final long messageSeed = StressPayload.messageSeed(seed, me, round * IN_FLIGHT + k);
                    StressPayload.fill(expected, size[k], messageSeed);
                    final Buf out;
                    if (mySendNative) {
                        StressPayload.fill(sendNative[k], size[k], messageSeed, got);
                        out = Buf.of(sendNative[k], Datatype.BYTE, 0, size[k]);
                    } else {
                        System.arraycopy(expected, 0, send[k], offset[k], size[k]);
                        out = Buf.of(send[k], offset[k], size[k]);
                    }
                    requests[2 * k + 1] = world.isend(out, peer, k);
                }
                for (final Request r : requests) {
                    r.waitFor();
                }
                for (int k = 0; k < IN_FLIGHT; k++) {
                    final boolean myRecvNative = 0 == me ? nativeRecv[k] : nativeSend[k];
                    StressPayload.fill(expected, size[k], StressPayload.messageSeed(seed, peer, round * IN_FLIGHT + k));
                    if (myRecvNative) {
                        StressPayload.read(recvNative[k], size[k], got);
                    } else {
                        System.arraycopy(recv[k], offset[k], got, 0, size[k]);
                        for (int i = 0; i < offset[k]; i++) {
                            if (0x5A != recv[k][i]) {
                                return "round " + round + " message " + k + ": byte " + i + " before the receive's "
                                    + "offset " + offset[k] + " was written (seed " + seed + ")";
                            }
                        }
                        if (0x5A != recv[k][offset[k] + size[k]]) {
                            return "round " + round + " message " + k + ": the byte after the receive's end was "
                                + "written (size " + size[k] + ", seed " + seed + ")";
                        }
                    }
                    final String wrong = StressPayload.compare(got, size[k], expected, "round " + round + " message "
                        + k + " of " + size[k] + " bytes from rank " + peer + " (seed " + seed + ")");
                    if (null != wrong) {
                        return wrong;
                    }
                }
            }
        }
        return null;
    }
}
