package dev.tutti.testkit;

import dev.tutti.transport.tcp.TcpLimits;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Message sizes for the tcp stress test, concentrated on the protocol's boundaries for one eager limit: 0 and 1,
 * the 64-byte threshold of the JDK's small segment copies, the eager limit, the largest eager frame that fits the
 * staging buffer, the read buffer (with and without the frame header), the DATA chunk sizes, the rendezvous
 * prefix (the bytes an RTS carries) with nothing, a chunk or a read buffer after it, and frames that fill
 * the read buffer k times and end with a short piece; each at -1, 0 and +1, some with a wider jitter, plus
 * log-uniform sizes in between and a few up to 64 MiB.
 */
public final class StressSizes {
    /** Largest size drawn. */
    public static final int MAX_BYTES = 64 << 20;
    /** Sizes above this are "huge": sent alone from their own buffer, and only a few per plan. */
    public static final int HUGE_BYTES = 8 << 20;

    private final int[] boundaries;

    public StressSizes(final int eagerLimit) {
        final int prefix = TcpLimits.rendezvousPrefix();
        final int header = TcpLimits.headerBytes();
        final int read = TcpLimits.readBufferBytes();
        final TreeSet<Integer> b = new TreeSet<>();
        final int[] centres = {1, 8, 16, 48, 64, eagerLimit, TcpLimits.stagedEagerBytes(eagerLimit), read,
            read - header, TcpLimits.minChunkBytes(), TcpLimits.maxChunkBytes(),
            TcpLimits.maxChunkBytes() - header, 1 << 20, 4 << 20, HUGE_BYTES, MAX_BYTES,
            // a rendezvous message whose rest after the RTS's prefix is empty, one byte, or a whole chunk
            prefix, prefix + TcpLimits.maxChunkBytes(), prefix + read};
        for (final int c : centres) {
            for (int d = -1; d <= 1; d++) {
                b.add(c + d);
            }
        }
        for (int k = 2; k <= 16; k *= 2) {
            // a frame of k read buffers plus a short piece of 8, 48 or 63 bytes, when it starts a read
            for (final int tail : new int[] {-header, -header + 8, 0, 15}) {
                b.add(k * read + tail);
            }
        }
        b.add(0);
        b.removeIf(s -> s < 0 || s > MAX_BYTES);
        this.boundaries = b.stream().mapToInt(Integer::intValue).toArray();
    }

    /** @return every boundary size, ascending */
    public int[] boundaries() {
        return Arrays.copyOf(boundaries, boundaries.length);
    }

    /**
     * Draws a size: a boundary (60 %), a boundary with a jitter of up to 64 bytes (20 %), or log-uniform up to
     * {@link #HUGE_BYTES} (20 %); a huge draw is replaced by a log-uniform one unless {@code hugeAllowed}.
     *
     * @param r           the plan's generator
     * @param hugeAllowed whether a size above {@link #HUGE_BYTES} may be returned
     * @return the size
     */
    public int draw(final SplittableRandom r, final boolean hugeAllowed) {
        final int p = r.nextInt(10);
        int s;
        if (p < 6) {
            s = boundaries[r.nextInt(boundaries.length)];
        } else if (p < 8) {
            s = boundaries[r.nextInt(boundaries.length)] + r.nextInt(-64, 65);
        } else {
            s = (int) Math.min(HUGE_BYTES, Math.exp(r.nextDouble() * Math.log(HUGE_BYTES)));
        }
        s = Math.max(0, Math.min(MAX_BYTES, s));
        if (s > HUGE_BYTES && !hugeAllowed) {
            s = (int) Math.exp(r.nextDouble() * Math.log(HUGE_BYTES));
        }
        return s;
    }
}
