package dev.tutti.bench.osu;

import java.util.HexFormat;

/**
 * The data a rank sends at a size, and the check of what it received. The pattern depends on the index, the size
 * and the sender, so a message from the wrong peer, of an earlier size or shifted by a byte does not pass.
 */
final class Patterns {
    private Patterns() {
    }

    /**
     * Returns byte {@code index} of what {@code sender} sends at size {@code bytes}.
     *
     * @param bytes  the size
     * @param sender the sending rank
     * @param index  the byte index
     * @return the byte
     */
    static byte at(final int bytes, final int sender, final int index) {
        return (byte) (index * 31 + (index >>> 8) + bytes * 7 + sender * 13 + 1);
    }

    /**
     * Fills {@code a[0..bytes)} with what {@code sender} sends.
     *
     * @param a      the buffer
     * @param bytes  the size
     * @param sender the sending rank
     */
    static void fill(final byte[] a, final int bytes, final int sender) {
        fill(a, 0, bytes, sender);
    }

    /**
     * Fills the block {@code a[offset..offset + bytes)} with what {@code sender} sends (the pattern restarts at
     * the block's start).
     *
     * @param a      the buffer
     * @param offset the block's first byte
     * @param bytes  the size
     * @param sender the sending rank, or any code that identifies the block
     */
    static void fill(final byte[] a, final int offset, final int bytes, final int sender) {
        for (int i = 0; i < bytes; i++) {
            a[offset + i] = at(bytes, sender, i);
        }
    }

    /**
     * Fills {@code a[0..bytes)} with the complement of what {@code sender} sends, so every byte differs from the
     * expected data until the message arrives.
     *
     * @param a      the buffer
     * @param bytes  the size
     * @param sender the rank whose message is expected
     */
    static void poison(final byte[] a, final int bytes, final int sender) {
        poison(a, 0, bytes, sender);
    }

    /**
     * Fills the block {@code a[offset..offset + bytes)} with the complement of what {@code sender} sends.
     *
     * @param a      the buffer
     * @param offset the block's first byte
     * @param bytes  the size
     * @param sender the rank (or block code) whose message is expected
     */
    static void poison(final byte[] a, final int offset, final int bytes, final int sender) {
        for (int i = 0; i < bytes; i++) {
            a[offset + i] = (byte) ~at(bytes, sender, i);
        }
    }

    /**
     * Checks that {@code a[0..bytes)} holds what {@code sender} sends.
     *
     * @param op     the operation, for the message
     * @param rank   the checking rank, for the message
     * @param a      the received data
     * @param bytes  the size
     * @param sender the rank the data came from
     * @throws BenchmarkException naming the first wrong byte and how many are wrong
     */
    static void check(final String op, final int rank, final byte[] a, final int bytes, final int sender) {
        check(op, rank, a, 0, bytes, sender, "rank " + sender);
    }

    /**
     * Checks that the block {@code a[offset..offset + bytes)} holds what {@code sender} sends.
     *
     * @param op     the operation, for the message
     * @param rank   the checking rank, for the message
     * @param a      the received data
     * @param offset the block's first byte
     * @param bytes  the size
     * @param sender the rank (or block code) the data came from
     * @param what   names the block in the message, e.g. {@code "rank 3"} or {@code "block 2 from rank 1"}
     * @throws BenchmarkException naming the block, the first wrong byte and how many are wrong
     */
    static void check(final String op, final int rank, final byte[] a, final int offset, final int bytes,
        final int sender, final String what) {
        int wrong = 0;
        int first = -1;
        for (int i = 0; i < bytes; i++) {
            if (a[offset + i] != at(bytes, sender, i)) {
                if (0 == wrong) {
                    first = i;
                }
                wrong++;
            }
        }
        if (0 != wrong) {
            final HexFormat hex = HexFormat.of();
            throw new BenchmarkException(op + " verify failed (rank=" + rank + ", bytes=" + bytes + "): " + wrong
                + " of " + bytes + " bytes from " + what + " are wrong, first at index=" + first + ": got 0x"
                + hex.toHexDigits(a[offset + first]) + ", expected 0x" + hex.toHexDigits(at(bytes, sender, first)));
        }
    }
}
