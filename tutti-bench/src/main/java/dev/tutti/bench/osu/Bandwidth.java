package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Request;
import org.HdrHistogram.Histogram;

/**
 * {@code bandwidth}, as OSU's {@code osu_bw}: per iteration the initiator starts a window of 64 nonblocking sends
 * of one size, waits for them, then waits for a 4-byte acknowledgement; the responder posts 64 receives (into the
 * same buffer, as OSU does), waits, and sends the acknowledgement. The time per message is the iteration time
 * divided by the window; the bandwidth is bytes per microsecond (MB/s, MB = 10^6 bytes). The CSV holds the time
 * per message.
 *
 * <p>Defaults as OSU: 100 iterations (windows) after 10 warm-up ones up to 8 KiB, 20 after 2 above, and a JIT
 * warm-up of 200 windows at the first size. With more than two ranks each pair measures its own bandwidth; the
 * value shown is that of the slowest pair, not the aggregate.
 */
public final class Bandwidth extends PairedBenchmark {
    /** The operation name. */
    public static final String OP = "bandwidth";
    /** Messages in flight per iteration (OSU's default window). */
    public static final int WINDOW = 64;
    private static final IterationDefaults DEFAULTS = new IterationDefaults(100, 10, 20, 2, 200);

    private final Request[] requests = new Request[WINDOW];
    private final byte[] ack = new byte[4];

    @Override
    public String op() {
        return OP;
    }

    @Override
    public String title() {
        return "bandwidth, window " + WINDOW;
    }

    @Override
    public Metric metric() {
        return Metric.BANDWIDTH;
    }

    @Override
    public IterationDefaults defaults() {
        return DEFAULTS;
    }

    @Override
    boolean receives() {
        return !initiator;
    }

    @Override
    public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
        final Histogram histogram) {
        if (peer < 0) {
            return Double.NaN;
        }
        final Buf out = Buf.of(sendBytes, 0, bytes);
        final Buf in = Buf.of(recvBytes, 0, bytes);
        final Buf ackBuf = Buf.of(ack);
        final Request[] window = requests;
        final int p = peer;
        final boolean sender = initiator;
        final int total = warmup + iterations;
        long start = 0;
        long last = 0;
        for (int i = 0; i < total; i++) {
            if (i == warmup) {
                start = System.nanoTime();
                last = start;
            }
            if (sender) {
                for (int j = 0; j < WINDOW; j++) {
                    window[j] = world.isend(out, p, DATA_TAG);
                }
                waitAll(window);
                world.recv(ackBuf, p, ACK_TAG);
            } else {
                for (int j = 0; j < WINDOW; j++) {
                    window[j] = world.irecv(in, p, DATA_TAG);
                }
                waitAll(window);
                world.send(ackBuf, p, ACK_TAG);
            }
            if (null != histogram && i >= warmup) {
                final long now = System.nanoTime();
                histogram.recordValue((now - last) / WINDOW);
                last = now;
            }
        }
        final long elapsed = System.nanoTime() - start;
        return elapsed / 1e3 / ((double) iterations * WINDOW);
    }

    private static void waitAll(final Request[] window) {
        for (int j = 0; j < window.length; j++) {
            window[j].waitFor();
            window[j] = null;
        }
    }
}
