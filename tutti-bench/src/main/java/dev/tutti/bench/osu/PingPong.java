package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import org.HdrHistogram.Histogram;

/**
 * {@code pingpong}, as OSU's {@code osu_latency}: the initiator sends a message and waits for the same size back;
 * the one-way latency is half the round trip, averaged over the iterations. Both ranks of a pair time their loop;
 * the reported value is the maximum of their means.
 *
 * <p>Defaults as OSU: 10000 iterations after 1000 warm-up ones up to 8 KiB (OSU warms up with 100; the JVM
 * benefits from more), 1000 after 100 above, and a JIT warm-up of 20000 round trips at the first size.
 */
public class PingPong extends PairedBenchmark {
    /** The operation name. */
    public static final String OP = "pingpong";
    private static final IterationDefaults DEFAULTS = new IterationDefaults(10_000, 1_000, 1_000, 100, 20_000);

    @Override
    public String op() {
        return OP;
    }

    @Override
    public String title() {
        return "one-way latency";
    }

    @Override
    public IterationDefaults defaults() {
        return DEFAULTS;
    }

    @Override
    boolean receives() {
        return true;
    }

    @Override
    public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
        final Histogram histogram) {
        if (peer < 0) {
            return Double.NaN;
        }
        final Buf out = Buf.of(sendBytes, 0, bytes);
        final Buf in = Buf.of(recvBytes, 0, bytes);
        final int p = peer;
        final boolean first = initiator;
        final int total = warmup + iterations;
        long start = 0;
        long last = 0;
        for (int i = 0; i < total; i++) {
            if (i == warmup) {
                start = System.nanoTime();
                last = start;
            }
            if (first) {
                world.send(out, p, DATA_TAG);
                world.recv(in, p, DATA_TAG);
            } else {
                world.recv(in, p, DATA_TAG);
                world.send(out, p, DATA_TAG);
            }
            if (null != histogram && i >= warmup) {
                final long now = System.nanoTime();
                histogram.recordValue((now - last) / 2);
                last = now;
            }
        }
        final long elapsed = System.nanoTime() - start;
        return elapsed / 1e3 / (2.0 * iterations);
    }
}
