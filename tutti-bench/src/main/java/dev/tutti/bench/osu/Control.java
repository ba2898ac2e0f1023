package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Status;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;

/**
 * The benchmark's own synchronisation and result gathering, built on point-to-point messages until the
 * collectives exist: a barrier, the maximum of one value per rank at rank 0, and the merge of histograms at
 * rank 0.
 *
 * <p>Implementation notes. Control messages use tags at the top of the tag space ({@link #TAG_BASE} and up), which
 * benchmarks never use for data (they use tags below 1000), so control and data never match each other.
 * <ul>
 * <li>{@link #barrier}: dissemination (Hensgen, Finkel and Manber 1988): in round {@code k} rank {@code r} sends
 * to {@code r + 2^k} and receives from {@code r - 2^k} (mod n), {@code ceil(log2 n)} rounds of zero-byte
 * messages. Each round has its own tag, and within one barrier the sources of the rounds are distinct, so a
 * message of the next barrier, sent by a rank that has already left this one, cannot be taken for one of this
 * barrier (same tag means same round means same source, and messages of one source arrive in order).</li>
 * <li>{@link #maxToRoot} and {@link #mergeToRoot}: every rank sends to rank 0, which receives from ranks 1..n-1
 * in order: linear, n - 1 messages. Used once per size, outside the timed loop.</li>
 * </ul>
 * Cost of the barrier: {@code ceil(log2 n)} latencies. It allocates a little (requests), which is fine because
 * it runs outside the timed loop, except in {@link CollectiveBenchmark}'s untimed gap between iterations.
 */
public final class Control {
    /** First control tag; benchmarks use data tags below this. */
    public static final int TAG_BASE = Communicator.TAG_UB - 64;
    private static final int BARRIER_TAG = TAG_BASE;
    private static final int MAX_TAG = TAG_BASE + 40;
    private static final int HISTOGRAM_TAG = TAG_BASE + 41;
    private static final Buf EMPTY = Buf.of(new byte[0]);

    private Control() {
    }

    /**
     * Returns when every rank of {@code world} has called it.
     *
     * @param world the communicator
     */
    public static void barrier(final Communicator world) {
        final int n = world.size();
        final int r = world.rank();
        int round = 0;
        for (int k = 1; k < n; k <<= 1, round++) {
            world.sendrecv(EMPTY, (r + k) % n, BARRIER_TAG + round, EMPTY, (r - k + n) % n, BARRIER_TAG + round);
        }
    }

    /**
     * Returns at rank 0 the maximum of {@code value} over all ranks, ignoring NaN.
     *
     * @param world the communicator
     * @param value this rank's value, or NaN if it has none
     * @return at rank 0 the maximum (NaN if every rank passed NaN); at other ranks their own value
     */
    public static double maxToRoot(final Communicator world, final double value) {
        final double[] one = {value};
        if (0 != world.rank()) {
            world.send(Buf.of(one), 0, MAX_TAG);
            return value;
        }
        double max = value;
        for (int src = 1; src < world.size(); src++) {
            world.recv(Buf.of(one), src, MAX_TAG);
            if (!Double.isNaN(one[0]) && (Double.isNaN(max) || one[0] > max)) {
                max = one[0];
            }
        }
        return max;
    }

    /**
     * Returns at rank 0 the union of every rank's histogram.
     *
     * @param world     the communicator
     * @param histogram this rank's histogram
     * @return at rank 0 a new histogram holding every rank's values; at other ranks their own histogram
     */
    public static Histogram mergeToRoot(final Communicator world, final Histogram histogram) {
        if (0 != world.rank()) {
            final ByteBuffer b = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
            final int length = histogram.encodeIntoCompressedByteBuffer(b);
            world.send(Buf.of(b.array(), 0, length), 0, HISTOGRAM_TAG);
            return histogram;
        }
        final Histogram all = histogram.copy();
        for (int src = 1; src < world.size(); src++) {
            final Status s = world.probe(src, HISTOGRAM_TAG);
            final byte[] bytes = new byte[(int) s.bytes()];
            world.recv(Buf.of(bytes), src, HISTOGRAM_TAG);
            try {
                all.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0));
            } catch (final java.util.zip.DataFormatException e) {
                throw new BenchmarkException("histogram merge (rank=0): histogram from rank " + src
                    + " could not be decoded, bytes=" + bytes.length, e);
            }
        }
        return all;
    }
}
