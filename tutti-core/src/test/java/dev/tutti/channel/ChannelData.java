package dev.tutti.channel;

import dev.tutti.Buf;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The values channel tests send: element i of the block from src to dst in exchange k, each one distinct. */
final class ChannelData {
    private ChannelData() {
    }

    static long value(final long k, final int src, final int dst, final int i) {
        return k * 1_000_003L + src * 7_919L + dst * 131L + i + ((long) src << 40);
    }

    /** Fills a LONG send buffer of rank {@code me} for exchange {@code k}. */
    static void fill(final ChannelBuffer out, final long k, final int me) {
        final long[] a = out.longs();
        final int block = out.blockCount();
        for (int dst = 0; dst < out.ranks(); dst++) {
            for (int i = 0; i < block; i++) {
                a[dst * block + i] = value(k, me, dst, i);
            }
        }
    }

    /** Checks every element of a LONG receive buffer of rank {@code me} from exchange {@code k}. */
    static void check(final ChannelBuffer in, final long k, final int me) {
        assertEquals(k, in.exchange(), "exchange number");
        final long[] a = in.longs();
        final int block = in.blockCount();
        for (int src = 0; src < in.ranks(); src++) {
            for (int i = 0; i < block; i++) {
                final long want = value(k, src, me, i);
                if (a[src * block + i] != want) {
                    assertEquals(want, a[src * block + i], "exchange " + k + " rank " + me + " block of " + src
                        + " element " + i);
                }
            }
        }
    }

    /** A checksum of a buffer's bytes, to see that a held buffer did not change. */
    static long checksum(final Buf b) {
        long h = 17;
        final long n = b.byteSize();
        for (long i = 0; i < n; i++) {
            h = h * 31 + b.segment().get(ValueLayout.JAVA_BYTE, i);
        }
        return h;
    }
}
