package dev.tutti.testkit;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The bytes of a stress test's messages: a function of (run seed, sender, message index), so the receiver can
 * regenerate and compare them. Filling and comparing use only byte[] code (a VarHandle view, {@link Arrays#mismatch})
 * and element-layout segment copies, never the segment bulk operations under test.
 */
public final class StressPayload {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private StressPayload() {
    }

    /**
     * @param seed   the run's seed
     * @param sender the sending rank
     * @param index  the message's index in the sender's plan
     * @return the seed of that message's bytes
     */
    public static long messageSeed(final long seed, final int sender, final int index) {
        return new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (sender + 1)) ^ ((long) index << 20)).nextLong();
    }

    /**
     * Fills {@code a[0, size)} with a message's bytes.
     *
     * @param a           the array
     * @param size        how many bytes
     * @param messageSeed from {@link #messageSeed}
     */
    public static void fill(final byte[] a, final int size, final long messageSeed) {
        final SplittableRandom r = new SplittableRandom(messageSeed);
        int i = 0;
        for (; i + Long.BYTES <= size; i += Long.BYTES) {
            LONGS.set(a, i, r.nextLong());
        }
        long v = r.nextLong();
        for (; i < size; i++) {
            a[i] = (byte) v;
            v >>>= Byte.SIZE;
        }
    }

    /**
     * Fills {@code s[0, size)} with a message's bytes, through {@code scratch}.
     *
     * @param s           the segment
     * @param size        how many bytes
     * @param messageSeed from {@link #messageSeed}
     * @param scratch     an array of at least {@code size} bytes
     */
    public static void fill(final MemorySegment s, final int size, final long messageSeed, final byte[] scratch) {
        fill(scratch, size, messageSeed);
        MemorySegment.copy(scratch, 0, s, ValueLayout.JAVA_BYTE, 0, size);
    }

    /**
     * Copies {@code s[0, size)} into {@code into} (for a comparison that does not rely on the segment code).
     *
     * @param s    the segment
     * @param size how many bytes
     * @param into an array of at least {@code size} bytes
     * @return {@code into}
     */
    public static byte[] read(final MemorySegment s, final int size, final byte[] into) {
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 0, into, 0, size);
        return into;
    }

    /**
     * Compares a received message with what was sent.
     *
     * @param actual   the received bytes, {@code actual[0, size)}
     * @param size     the message's size
     * @param expected an array holding the sent bytes in {@code [0, size)}
     * @param what     names the message (seed, sender, index, tag) for the report
     * @return null if equal, else a description naming the first differing offset and every differing range
     */
    public static String compare(final byte[] actual, final int size, final byte[] expected, final String what) {
        final int first = Arrays.mismatch(actual, 0, size, expected, 0, size);
        if (first < 0) {
            return null;
        }
        final StringBuilder ranges = new StringBuilder();
        int wrong = 0;
        int listed = 0;
        int i = first;
        while (i < size) {
            if (actual[i] == expected[i]) {
                i++;
                continue;
            }
            final int from = i;
            while (i < size && actual[i] != expected[i]) {
                i++;
            }
            wrong += i - from;
            if (listed++ < 8) {
                ranges.append(" [").append(from).append(", ").append(i).append(')');
            }
        }
        final HexFormat hex = HexFormat.of();
        return what + ", " + size + " bytes: first differing byte at offset " + first + " (size - " + (size - first)
            + "), expected 0x" + hex.toHexDigits(expected[first]) + " got 0x" + hex.toHexDigits(actual[first]) + "; "
            + wrong + " bytes differ in " + listed + " ranges:" + ranges + (listed > 8 ? " ..." : "");
    }
}
