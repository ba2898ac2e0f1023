import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a JVM can do with one large message over loopback tcp, and how it depends on the bytes handed to each
 * {@code write}. No Tutti: two processes (this one and a child it starts) ping-pong 1, 2 and 4 MiB messages between
 * direct buffers over one connection, non-blocking, both sides spinning on their reads and writes (as Tutti's waiting
 * threads do). Each write system call is given at most W bytes (0: the whole rest of the message); the ways are
 * interleaved in blocks of {@value #ITERS} round trips, {@value #ROUNDS} rounds, so that every way is measured in
 * the same seconds as the others. Prints the median over the rounds of the one-way time per size and way.
 *
 * <pre>
 * mkdir -p /tmp/repro &amp;&amp; javac -d /tmp/repro bench/repro/TcpWriteSizes.java
 * java -cp /tmp/repro TcpWriteSizes [W,W,... default 0,131072,262144,524288]
 * </pre>
 */
public final class TcpWriteSizes {
    private static final int[] SIZES = {1 << 20, 2 << 20, 4 << 20};
    private static final int ITERS = 200;
    private static final int WARMUP = 50;
    private static final int ROUNDS = 5;

    private TcpWriteSizes() {
    }

    public static void main(final String[] args) throws Exception {
        final boolean child = args.length > 0 && "--echo".equals(args[0]);
        final String list = child ? args[2] : args.length > 0 ? args[0] : "0,131072,262144,524288";
        final int[] ways = Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
        final ByteBuffer b = ByteBuffer.allocateDirect(SIZES[SIZES.length - 1]);
        if (child) {
            try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])))) {
                setUp(c);
                for (int round = 0; round < ROUNDS; round++) {
                    for (final int w : ways) {
                        for (final int size : SIZES) {
                            for (int i = 0; i < WARMUP + ITERS; i++) {
                                read(c, b, size);
                                write(c, b, size, w);
                            }
                        }
                    }
                }
            }
            return;
        }
        final double[][][] us = new double[ways.length][SIZES.length][ROUNDS];
        try (ServerSocketChannel s = ServerSocketChannel.open()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            final Process p = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                System.getProperty("java.class.path"), TcpWriteSizes.class.getName(), "--echo",
                Integer.toString(((InetSocketAddress) s.getLocalAddress()).getPort()), list)).inheritIO().start();
            try (SocketChannel c = s.accept()) {
                setUp(c);
                for (int round = 0; round < ROUNDS; round++) {
                    for (int k = 0; k < ways.length; k++) {
                        for (int j = 0; j < SIZES.length; j++) {
                            long t0 = 0;
                            for (int i = 0; i < WARMUP + ITERS; i++) {
                                if (WARMUP == i) {
                                    t0 = System.nanoTime();
                                }
                                write(c, b, SIZES[j], ways[k]);
                                read(c, b, SIZES[j]);
                            }
                            us[k][j][round] = (System.nanoTime() - t0) / 1e3 / ITERS / 2;
                        }
                    }
                }
            }
            p.waitFor();
        }
        final List<String> lines = new ArrayList<>();
        lines.add(String.format("%-10s %10s %10s %10s   (us one way, median of %d rounds)", "write", "1 MiB",
            "2 MiB", "4 MiB", ROUNDS));
        for (int k = 0; k < ways.length; k++) {
            final StringBuilder line = new StringBuilder(String.format("%-10s", 0 == ways[k] ? "whole" : ways[k]));
            for (int j = 0; j < SIZES.length; j++) {
                final double[] r = us[k][j].clone();
                Arrays.sort(r);
                line.append(String.format(" %10.1f", r[ROUNDS / 2]));
            }
            lines.add(line.toString());
        }
        lines.forEach(System.out::println);
    }

    private static void setUp(final SocketChannel c) throws Exception {
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.configureBlocking(false);
    }

    /** Writes {@code n} bytes, at most {@code piece} per system call (0: no bound). */
    private static void write(final SocketChannel c, final ByteBuffer b, final int n, final int piece)
        throws Exception {
        b.clear();
        while (b.position() < n) {
            b.limit(0 == piece ? n : Math.min(n, b.position() + piece));
            if (0 == c.write(b)) {
                Thread.onSpinWait();
            }
        }
    }

    private static void read(final SocketChannel c, final ByteBuffer b, final int n) throws Exception {
        b.clear().limit(n);
        while (b.hasRemaining()) {
            if (0 == c.read(b)) {
                Thread.onSpinWait();
            }
        }
    }
}
