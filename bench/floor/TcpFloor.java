import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The floor of a ping-pong over loopback tcp in Java on this machine: two processes, one TCP_NODELAY
 * {@link SocketChannel}, direct buffers, nothing else. The same three ways to wait for the reply as
 * {@code tcp_pingpong.c}:
 * <ul>
 * <li>{@code blocking}: a blocking channel's read (the thread sleeps in the kernel);</li>
 * <li>{@code spin}: a non-blocking channel read in a loop (what a Tutti thread that waits and polls does);</li>
 * <li>{@code selector}: {@code select()} then a non-blocking read (what an I/O thread does, without the hand-off
 * to the waiting thread).</li>
 * </ul>
 * Prints the one-way time (half a round trip) in microseconds per size and mode, best of 5 rounds. Above 8 KiB the
 * iterations shrink with the size (ITERATIONS * 8192 / size, at least 100); the buffers are direct, so no
 * user-space copy either (a heap array would add one on each side).
 *
 * <pre>
 * java bench/floor/TcpFloor.java [ITERATIONS]      # from the repository's root; starts both processes itself
 * </pre>
 */
public final class TcpFloor {
    private static final int[] SIZES = {4, 64, 1024, 8192, 65536, 262144, 1048576, 4194304};
    private static final String[] MODES = {"blocking", "spin", "selector"};

    private TcpFloor() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length > 0 && args[0].startsWith("--port=")) {
            final int port = Integer.parseInt(args[0].substring(7));
            try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                port))) {
                run(ch, false, Long.parseLong(args[1]));
            }
            return;
        }
        final long iterations = args.length > 0 ? Long.parseLong(args[0]) : 20_000;
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            final String java = ProcessHandle.current().info().command().orElse("java");
            final Process peer = new ProcessBuilder(List.of(java, "bench/floor/TcpFloor.java", "--port=" + port,
                Long.toString(iterations))).inheritIO().start();
            try (SocketChannel ch = server.accept()) {
                run(ch, true, iterations);
            }
            if (0 != peer.waitFor()) {
                throw new IllegalStateException("the peer failed: " + peer.exitValue());
            }
        }
    }

    private static void run(final SocketChannel ch, final boolean first, final long iterations)
        throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        final ByteBuffer out = ByteBuffer.allocateDirect(1 << 22);
        final ByteBuffer in = ByteBuffer.allocateDirect(1 << 22);
        try (Selector selector = Selector.open()) {
            for (final int size : SIZES) {
                final long n = size > 8192 ? Math.max(100, iterations * 8192 / size) : iterations;
                for (final String mode : MODES) {
                    final boolean blocking = "blocking".equals(mode);
                    ch.configureBlocking(blocking);
                    final SelectionKey key = blocking ? null : ch.register(selector, SelectionKey.OP_READ);
                    final boolean select = "selector".equals(mode);
                    double best = Double.MAX_VALUE;
                    for (int round = 0; round < 5; round++) {
                        long start = 0;
                        for (long i = -n / 2; i < n; i++) {
                            if (0 == i) {
                                start = System.nanoTime();
                            }
                            if (first) {
                                write(ch, out, size);
                                read(ch, in, size, select ? selector : null);
                            } else {
                                read(ch, in, size, select ? selector : null);
                                write(ch, out, size);
                            }
                        }
                        best = Math.min(best, (System.nanoTime() - start) / 1e3 / (2.0 * n));
                    }
                    if (null != key) {
                        key.cancel();
                        selector.selectNow(); // deregisters, so that the channel may turn blocking
                    }
                    if (first) {
                        System.out.printf("%-8s %8d B  %8.2f us%n", mode, size, best);
                    }
                }
            }
        }
    }

    private static void write(final SocketChannel ch, final ByteBuffer out, final int size) throws IOException {
        out.clear().limit(size);
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    private static void read(final SocketChannel ch, final ByteBuffer in, final int size, final Selector selector)
        throws IOException {
        in.clear().limit(size);
        while (in.hasRemaining()) {
            if (null != selector) {
                selector.select();
                selector.selectedKeys().clear();
            }
            if (ch.read(in) < 0) {
                throw new IOException("the peer closed");
            }
        }
    }
}
