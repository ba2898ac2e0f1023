package dev.tutti.channel;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log-bucket histogram against exact percentiles of sorted samples. */
class LatencyHistogramTest {

    @Test
    void shouldPutEveryValueInABucketThatHoldsIt() {
        final Random rnd = new Random(7);
        for (int n = 0; n < 100_000; n++) {
            final long v = rnd.nextLong() >>> rnd.nextInt(64);
            final int b = LatencyHistogram.bucketOf(v);
            assertTrue(v <= LatencyHistogram.upperOf(b), "value " + v + " above its bucket " + b);
            assertTrue(0 == b || v > LatencyHistogram.upperOf(b - 1), "value " + v + " below its bucket " + b);
        }
    }

    @Test
    void shouldGivePercentilesWithinOneSixteenth() {
        final Random rnd = new Random(11);
        final LatencyHistogram h = new LatencyHistogram();
        final long[] xs = new long[20_000];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = (long) Math.exp(rnd.nextGaussian() * 2 + 10); // log-normal, ~ 22 us median
            h.record(xs[i]);
        }
        Arrays.sort(xs);
        for (final double p : new double[] {1, 10, 50, 90, 99, 99.9, 100}) {
            final long exact = xs[(int) Math.ceil(p / 100 * xs.length) - 1];
            final long got = h.percentile(p);
            assertTrue(got >= exact && got <= exact + exact / 16 + 1, "p" + p + ": " + got + " vs exact " + exact);
        }
        assertEquals(xs[xs.length - 1], h.max());
        assertEquals(xs.length, h.count());
        assertEquals(0, new LatencyHistogram().percentile(50));
    }
}
