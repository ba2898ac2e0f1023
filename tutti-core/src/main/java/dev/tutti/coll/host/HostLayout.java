package dev.tutti.coll.host;

/**
 * The layout of a communicator's on-host region: one block per rank, in that rank's own direct memory (its part of
 * the job's shared arena between processes, the heap between threads of one JVM), written only by its owner and read
 * by every other rank of the communicator.
 *
 * <pre>
 * one rank's block (4C bytes, 64-aligned): call k of the communicator goes to cell k &amp; 3
 *
 *   0              C              2C             3C             4C
 *   +--------------+--------------+--------------+--------------+
 *   |    cell 0    |    cell 1    |    cell 2    |    cell 3    |
 *   +--------------+--------------+--------------+--------------+
 *
 * a cell (C = 64 + round_up(limit, 64) bytes): its first line holds the call and, when they fit, its bytes
 *
 *   0       8       16      24                          56      64                        C
 *   +-------+-------+-------+---------------------------+-------+-------------------------+
 *   | call  | shape | op    | bytes, up to 32           | seq   | bytes, 33 up to limit   |
 *   +-------+-------+-------+---------------------------+-------+-------------------------+
 *
 *   call   the call's header bits (kind, root: the bits its messages would carry) &lt;&lt; 32 | the road it took
 *   shape  count &lt;&lt; 32 | element type ordinal
 *   op     0, a predefined op's ordinal + 1, or 1 &lt;&lt; 32 | a user op's name hash
 *   seq    the number of the call this cell holds: the owner's k-th call on the communicator writes cell k &amp; 3,
 *          and stores k here last (release); a reader that loads k (acquire) finds the call and bytes above
 * </pre>
 *
 * <p>Why four cells: a rank overwrites the cell of call {@code k - 4} at call {@code k}, which every peer has read
 * once it has published call {@code k - 3} (a rank publishes a call only after completing the one before), so a
 * reader never sees a cell change under it, and a rank whose call waits for nobody (a bcast's root, a reduce's other
 * ranks) may run three calls ahead of its slowest peer before it waits, as the message layer's eager sends let it;
 * with two cells a stream of reduces ran in lockstep, slower than through messages. The seq
 * word shares its line with the call words and the first bytes, so a small call crosses between cores in one line.
 * A block lives as long as its communicator: it is given back when the communicator's context block is retired
 * (every member has freed it, so none reads the block any more).
 */
final class HostLayout {
    /** Cells per block: calls a rank may publish ahead of its slowest peer's last published call, plus one. */
    static final int CELLS = 4;
    /** A cache line. */
    static final long LINE = 64;
    /** A cell's words. */
    static final long CALL = 0;
    static final long SHAPE = 8;
    static final long OP = 16;
    /** Where bytes of up to {@link #INLINE} go in a cell, in its first line. */
    static final long INLINE_AT = 24;
    static final long INLINE = 32;
    static final long SEQ = 56;
    /** Where larger bytes go in a cell: its second line on. */
    static final long BYTES_AT = LINE;

    private HostLayout() {
    }

    /** @return the bytes of a cell for slots of {@code limit} bytes */
    static long cellBytes(final long limit) {
        return LINE + (limit + LINE - 1) / LINE * LINE;
    }

    /** @return the bytes of one rank's block for slots of {@code limit} bytes */
    static long blockBytes(final long limit) {
        return CELLS * cellBytes(limit);
    }

    /** @return the offset of call {@code k}'s cell in a block whose cells are {@code cell} bytes */
    static long cellAt(final long k, final long cell) {
        return (k & (CELLS - 1)) * cell;
    }

    /** @return the offset in its cell of a call's {@code bytes} bytes */
    static long bytesAt(final long bytes) {
        return bytes <= INLINE ? INLINE_AT : BYTES_AT;
    }
}
