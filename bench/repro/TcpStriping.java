import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * Whether striping a large message over several loopback tcp connections between two processes would be faster than
 * one connection, on this machine. No Tutti: this process and a child it starts ping-pong messages of 256 KiB to
 * 4 MiB between direct buffers over K connections, each message split into K equal stripes, non-blocking, spinning
 * on empty reads and full writes (as Tutti's waiting threads do). Two ways to drive K stripes:
 * <ul>
 * <li>{@code KxT}: one thread per stripe on each side, each writing and reading its own connection (the kernel's
 * copies of different stripes run at once, on as many cores as there are);</li>
 * <li>{@code Kx1}: one thread per side, writing a piece to each connection in turn and reading each in turn (what a
 * single calling thread would do).</li>
 * </ul>
 * {@code 1x1} is one connection, today's transport. The ways are interleaved in blocks of {@value #ITERS} round
 * trips, {@value #ROUNDS} rounds, so every way is measured in the same seconds as the others; prints the median over
 * the rounds of the one-way time per size and way, and its ratio to {@code 1x1}.
 *
 * <pre>
 * mkdir -p /tmp/repro &amp;&amp; javac -d /tmp/repro bench/repro/TcpStriping.java
 * java -cp /tmp/repro TcpStriping [WAY,WAY,... default 1x1,2x1,4x1]
 * </pre>
 */
public final class TcpStriping {
    private static final int[] SIZES = {256 << 10, 1 << 20, 4 << 20};
    private static final int ITERS = 100;
    private static final int WARMUP = 30;
    private static final int ROUNDS = 7;
    /** Bytes handed to one write or read of the single-threaded ways before moving to the next connection. */
    private static final int PIECE = Integer.getInteger("piece", 64 << 10);

    private record Way(String name, int stripes, boolean threads) {
        static Way parse(final String s) {
            final String[] p = s.split("x");
            return new Way(s, Integer.parseInt(p[0]), "T".equals(p[1]));
        }
    }

    private TcpStriping() {
    }

    public static void main(final String[] args) throws Exception {
        final boolean child = args.length > 0 && "--echo".equals(args[0]);
        final String list = child ? args[2] : args.length > 0 ? args[0] : "1x1,2x1,4x1";
        final Way[] ways = Arrays.stream(list.split(",")).map(Way::parse).toArray(Way[]::new);
        final int most = Arrays.stream(ways).mapToInt(Way::stripes).max().orElseThrow();
        final List<SocketChannel> cs = new ArrayList<>();
        Process p = null;
        if (child) {
            for (int i = 0; i < most; i++) {
                cs.add(setUp(SocketChannel.open(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])))));
            }
        } else {
            try (ServerSocketChannel s = ServerSocketChannel.open()) {
                s.bind(new InetSocketAddress("127.0.0.1", 0));
                p = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                    System.getProperty("java.class.path"), TcpStriping.class.getName(), "--echo",
                    Integer.toString(((InetSocketAddress) s.getLocalAddress()).getPort()), list)).inheritIO().start();
                for (int i = 0; i < most; i++) {
                    cs.add(setUp(s.accept()));
                }
            }
        }
        final ByteBuffer[] bufs = new ByteBuffer[most];
        for (int i = 0; i < most; i++) {
            bufs[i] = ByteBuffer.allocateDirect(SIZES[SIZES.length - 1]);
        }
        final double[][][] us = new double[ways.length][SIZES.length][ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < ways.length; k++) {
                for (int j = 0; j < SIZES.length; j++) {
                    us[k][j][round] = run(ways[k], SIZES[j], cs, bufs, !child);
                }
            }
        }
        for (final SocketChannel c : cs) {
            c.close();
        }
        if (child) {
            return;
        }
        p.waitFor();
        System.out.printf("%-6s %18s %18s %18s   (us one way, median of %d rounds; ratio to %s)%n", "way",
            "256 KiB", "1 MiB", "4 MiB", ROUNDS, ways[0].name());
        final double[] base = new double[SIZES.length];
        for (int k = 0; k < ways.length; k++) {
            final StringBuilder line = new StringBuilder(String.format("%-6s", ways[k].name()));
            for (int j = 0; j < SIZES.length; j++) {
                final double[] r = us[k][j].clone();
                Arrays.sort(r);
                final double m = r[ROUNDS / 2];
                if (0 == k) {
                    base[j] = m;
                }
                line.append(String.format(" %10.1f (%.2f)", m, m / base[j]));
            }
            System.out.println(line);
        }
    }

    /** One block of {@value #ITERS} timed round trips (the parent times; the child echoes); µs one way. */
    private static double run(final Way way, final int size, final List<SocketChannel> cs, final ByteBuffer[] bufs,
        final boolean first) throws Exception {
        final int k = way.stripes();
        final int stripe = size / k;
        if (!way.threads()) {
            long t0 = 0;
            for (int i = 0; i < WARMUP + ITERS; i++) {
                if (WARMUP == i) {
                    t0 = System.nanoTime();
                }
                if (first) {
                    writeAll(cs, bufs, k, stripe);
                    readAll(cs, bufs, k, stripe);
                } else {
                    readAll(cs, bufs, k, stripe);
                    writeAll(cs, bufs, k, stripe);
                }
            }
            return (System.nanoTime() - t0) / 1e3 / ITERS / 2;
        }
        final CyclicBarrier go = new CyclicBarrier(k);
        final long[] t = new long[2];
        final List<Thread> ts = new ArrayList<>();
        for (int s = 0; s < k; s++) {
            final SocketChannel c = cs.get(s);
            final ByteBuffer b = bufs[s];
            final int me = s;
            ts.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < WARMUP + ITERS; i++) {
                        go.await(); // every stripe of a message starts together, as one message's would
                        if (0 == me && WARMUP == i) {
                            t[0] = System.nanoTime();
                        }
                        if (first) {
                            write(c, b, stripe);
                            read(c, b, stripe);
                        } else {
                            read(c, b, stripe);
                            write(c, b, stripe);
                        }
                    }
                    go.await();
                    if (0 == me) {
                        t[1] = System.nanoTime();
                    }
                } catch (final Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (final Thread th : ts) {
            th.join();
        }
        return (t[1] - t[0]) / 1e3 / ITERS / 2;
    }

    private static SocketChannel setUp(final SocketChannel c) throws Exception {
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.configureBlocking(false);
        return c;
    }

    /** Writes {@code n} bytes to each of the first {@code k} connections, a piece to each in turn. */
    private static void writeAll(final List<SocketChannel> cs, final ByteBuffer[] bufs, final int k, final int n)
        throws Exception {
        for (int s = 0; s < k; s++) {
            bufs[s].clear().limit(0);
        }
        int done = 0;
        while (done < k) {
            done = 0;
            for (int s = 0; s < k; s++) {
                final ByteBuffer b = bufs[s];
                if (b.position() == n) {
                    done++;
                    continue;
                }
                b.limit(Math.min(n, b.position() + PIECE));
                cs.get(s).write(b);
            }
        }
    }

    /** Reads {@code n} bytes from each of the first {@code k} connections, whichever has bytes. */
    private static void readAll(final List<SocketChannel> cs, final ByteBuffer[] bufs, final int k, final int n)
        throws Exception {
        for (int s = 0; s < k; s++) {
            bufs[s].clear().limit(n);
        }
        int done = 0;
        while (done < k) {
            done = 0;
            for (int s = 0; s < k; s++) {
                final ByteBuffer b = bufs[s];
                if (!b.hasRemaining()) {
                    done++;
                    continue;
                }
                cs.get(s).read(b);
            }
        }
    }

    private static void write(final SocketChannel c, final ByteBuffer b, final int n) throws Exception {
        b.clear().limit(n);
        while (b.hasRemaining()) {
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
