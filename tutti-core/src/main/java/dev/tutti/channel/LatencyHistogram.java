package dev.tutti.channel;

import java.util.Arrays;

/**
 * A histogram of non-negative {@code long} values (latencies in nanoseconds) in logarithmic buckets, each power of
 * two split into 16 linear sub-buckets, so a percentile is within 1/16 (6.25 %) of the true value, in a fixed 8 KiB
 * of counts: HdrHistogram's idea at its smallest, so that {@code tutti-core} needs no runtime dependency.
 *
 * <p>Implementation note. Values below 16 have a bucket each; a value {@code v >= 16} with highest set bit {@code e}
 * goes to bucket {@code (e - 3) * 16 + ((v >>> (e - 4)) & 15)}. Not thread-safe: the channel records under its lock
 * and copies for a snapshot.
 */
final class LatencyHistogram {
    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS + 1) * SUB;

    private final long[] counts;
    private long total;
    private long max;
    private long sum;

    LatencyHistogram() {
        this(new long[BUCKETS], 0, 0, 0);
    }

    private LatencyHistogram(final long[] counts, final long total, final long max, final long sum) {
        this.counts = counts;
        this.total = total;
        this.max = max;
        this.sum = sum;
    }

    static int bucketOf(final long value) {
        if (value < SUB) {
            return (int) Math.max(0, value);
        }
        final int e = 63 - Long.numberOfLeadingZeros(value);
        return (e - SUB_BITS + 1) * SUB + (int) ((value >>> (e - SUB_BITS)) & (SUB - 1));
    }

    /** The largest value of a bucket. */
    static long upperOf(final int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        final int e = bucket / SUB + SUB_BITS - 1;
        final long lowest = (1L << e) + ((long) (bucket % SUB) << (e - SUB_BITS));
        return lowest + (1L << (e - SUB_BITS)) - 1;
    }

    void record(final long value) {
        final long v = Math.max(0, value);
        counts[bucketOf(v)]++;
        total++;
        sum += v;
        max = Math.max(max, v);
    }

    long count() {
        return total;
    }

    long max() {
        return max;
    }

    double mean() {
        return 0 == total ? 0 : (double) sum / total;
    }

    /**
     * Returns the value at or below which {@code percentile} percent of the recorded values fall (within the
     * bucket's precision; never above the largest value recorded), or 0 if nothing was recorded.
     */
    long percentile(final double percentile) {
        if (0 == total) {
            return 0;
        }
        final long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return Math.min(upperOf(b), max);
            }
        }
        return max;
    }

    LatencyHistogram copy() {
        return new LatencyHistogram(Arrays.copyOf(counts, counts.length), total, max, sum);
    }
}
