package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Status;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;

/**
 * The benchmark's own result gathering, on point-to-point messages: the maximum of one value per rank at rank 0, the
 * merge of histograms at rank 0, and rank 0's decisions sent to every rank. (Synchronisation uses the library's
 * {@code barrier()}.)
 *
 * <p>Implementation notes. Control messages use tags at the top of the tag space ({@link #TAG_BASE} and up), which
 * benchmarks never use for data (they use tags below 1000), so control and data never match each other. Every
 * rank sends to rank 0, which receives from ranks 1..n-1 in order: linear, n - 1 messages, once per size and
 * outside the timed loop. This stays point-to-point on purpose rather than {@code reduce(MAX)}: a rank without a
 * value passes NaN, which must be ignored rather than propagated as {@code Op.MAX} would, and the result gathering
 * must not depend on the collective algorithm that {@code --algorithm} forces for the operation under test.
 */
public final class Control {
    /** First control tag; benchmarks use data tags below this. */
    public static final int TAG_BASE = Communicator.TAG_UB - 64;
    private static final int MAX_TAG = TAG_BASE + 40;
    private static final int HISTOGRAM_TAG = TAG_BASE + 41;
    private static final int DECIDE_TAG = TAG_BASE + 42;

    private Control() {
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
     * Returns rank 0's decision at every rank (rank 0 sends it to each other rank in turn).
     *
     * @param world    the communicator
     * @param decision rank 0's decision (ignored at other ranks)
     * @return rank 0's decision
     */
    public static boolean fromRoot(final Communicator world, final boolean decision) {
        final int[] one = {decision ? 1 : 0};
        if (0 == world.rank()) {
            for (int dest = 1; dest < world.size(); dest++) {
                world.send(Buf.of(one), dest, DECIDE_TAG);
            }
        } else {
            world.recv(Buf.of(one), 0, DECIDE_TAG);
        }
        return 1 == one[0];
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
