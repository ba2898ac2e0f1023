package dev.tutti.bench.osu;

import java.util.Arrays;

/**
 * The message sizes of a run, OSU's {@code -m [MIN:]MAX}: from {@code MIN} bytes, doubling, up to and including
 * {@code MAX} (a size of 0 is followed by 1, as in OSU). {@code "MIN:"} keeps the default maximum.
 *
 * @param minBytes the first size, {@code >= 0}
 * @param maxBytes the largest size, {@code >= minBytes} and {@code <= LIMIT_BYTES}
 */
public record SizeRange(int minBytes, int maxBytes) {
    /** Default first size: 1 byte (OSU's default for latency and bandwidth). */
    public static final int DEFAULT_MIN_BYTES = 1;
    /** Default largest size: 4 MiB (OSU's {@code MAX_MESSAGE_SIZE}). */
    public static final int DEFAULT_MAX_BYTES = 1 << 22;
    /** Largest size accepted: 1 GiB, so that every buffer is one Java array. */
    public static final int LIMIT_BYTES = 1 << 30;
    /** The default range, {@code 1:4194304}. */
    public static final SizeRange DEFAULT = new SizeRange(DEFAULT_MIN_BYTES, DEFAULT_MAX_BYTES);

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if {@code minBytes < 0}, {@code maxBytes < minBytes} or
     *                                  {@code maxBytes > LIMIT_BYTES}
     */
    public SizeRange {
        if (minBytes < 0 || maxBytes < minBytes || maxBytes > LIMIT_BYTES) {
            throw new IllegalArgumentException("-m " + minBytes + ":" + maxBytes
                + ", expected 0 <= MIN <= MAX <= " + LIMIT_BYTES);
        }
    }

    /**
     * Parses OSU's {@code -m} argument: {@code MAX}, {@code MIN:MAX} or {@code MIN:}.
     *
     * @param text the argument
     * @return the range
     * @throws IllegalArgumentException if the text is not one of those forms or the bounds are invalid
     */
    public static SizeRange parse(final String text) {
        if (null == text || text.isBlank()) {
            throw new IllegalArgumentException("-m '" + text + "', expected MAX, MIN:MAX or MIN: (bytes)");
        }
        final String t = text.trim();
        final int colon = t.indexOf(':');
        if (colon < 0) {
            return new SizeRange(Math.min(DEFAULT_MIN_BYTES, parseBytes(t, text)), parseBytes(t, text));
        }
        final int min = parseBytes(t.substring(0, colon), text);
        final String maxText = t.substring(colon + 1);
        final int max = maxText.isEmpty() ? Math.max(min, DEFAULT_MAX_BYTES) : parseBytes(maxText, text);
        return new SizeRange(min, max);
    }

    private static int parseBytes(final String part, final String whole) {
        try {
            return Integer.parseInt(part.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("-m '" + whole + "': '" + part
                + "' is not a byte count, expected MAX, MIN:MAX or MIN: with integers", e);
        }
    }

    /**
     * Returns the sizes: {@code MIN}, then doubling ({@code 0} is followed by {@code 1}) while {@code <= MAX}.
     *
     * @return the sizes in increasing order, never empty
     */
    public int[] sizes() {
        int[] out = new int[8];
        int n = 0;
        long s = minBytes;
        while (s <= maxBytes) {
            if (n == out.length) {
                out = Arrays.copyOf(out, 2 * n);
            }
            out[n++] = (int) s;
            s = 0 == s ? 1 : 2 * s;
        }
        return Arrays.copyOf(out, n);
    }

    /** @return the range in {@code -m} form, {@code MIN:MAX} */
    @Override
    public String toString() {
        return minBytes + ":" + maxBytes;
    }
}
