package dev.tutti.coll.host;

/**
 * The layout of a communicator's on-host region: one block per rank, in that rank's own direct memory (its part of
 * the job's shared arena between processes, the heap between threads of one JVM), written only by its owner and read
 * by every other rank of the communicator.
 *
 * <pre>
 * one rank's block (4C + 64 bytes, 64-aligned): call k of the communicator goes to cell k &amp; 3
 *
 *   0              C              2C             3C             4C         4C+8       4C+16      4C+64
 *   +--------------+--------------+--------------+--------------+----------+----------+---...---+
 *   |    cell 0    |    cell 1    |    cell 2    |    cell 3    | offered  | area     |         |
 *   +--------------+--------------+--------------+--------------+----------+----------+---...---+
 *
 *   offered, area  the owner's offer of a chunk area when a call that waits for every peer agrees one (see
 *                  HostChunkRoad): 1 and the area's name, or 0; written once, before that call's seq
 *
 * a cell (C = 64 + round_up(limit, 64) bytes): its first line holds the call and, when they fit, its bytes
 *
 *   0       8       16      24                          56      64                        C
 *   +-------+-------+-------+---------------------------+-------+-------------------------+
 *   | call  | shape | op    | bytes, up to 32           | seq   | bytes, 33 up to limit   |
 *   +-------+-------+-------+---------------------------+-------+-------------------------+
 *
 *   call   the call's header bits (kind, root: the bits its messages would carry) &lt;&lt; 32 | the road it took
 *          (bit 8) | whether its ranks agree its road from their offers (bit 9: a gatherv, alltoallv,
 *          alltoallw or scatterv but a tagged one, and a blocking allgatherv, whose bit 8 is then its rank's
 *          offer of the cells) | its form
 *   shape  count &lt;&lt; 32 | element type ordinal; 0 for the vector forms, whose ranks pass counts
 *          of their own, but the bytes a call of bit 9 published; a reduce_scatter's and a nonblocking
 *          or persistent allgatherv's (whose ranks all pass every count): a digest of its counts and type
 *   bytes  the call's bytes; for an alltoallv or a scatterv's root of more than 2 ranks, p + 1 ints (in whole
 *          longs), int j where the block for rank j starts after them and int p where the blocks end, then
 *          the blocks in rank order (the own block left out); of 2 ranks, the peer's block alone; for an
 *          alltoallw of any size, those p + 1 ints and then the p blocks' type ordinals (in whole longs), then
 *          the blocks
 *   op     0, a predefined op's ordinal + 1, or 1 &lt;&lt; 32 | a user op's name hash
 *   seq    the number of the call this cell holds: the owner's k-th call on the communicator writes cell k &amp; 3,
 *          and stores k here last (release); a reader that loads k (acquire) finds the call and bytes above
 * </pre>
 *
 * <p>Why four cells: a rank overwrites the cell of call {@code k - 4} at call {@code k}, which every peer has read
 * once it has published call {@code k - 3} (a rank publishes a call only after completing every one before: a
 * nonblocking call or persistent start that waits for its cell, or behind a run not yet complete, waits in the
 * rank's memory, see {@link HostRegion}), so a
 * reader never sees a cell change under it, and a rank whose call waits for nobody (a bcast's root, a reduce's other
 * ranks) may run three calls ahead of its slowest peer before it waits, as the message layer's eager sends let it;
 * with two cells a stream of reduces ran in lockstep, slower than through messages. The seq
 * word shares its line with the call words and the first bytes, so a small call crosses between cores in one line.
 * A block lives as long as its communicator: it is given back when the communicator's context block is retired
 * (every member has freed it, so none reads the block any more).
 *
 * <p>A call past the limit, of any form, goes through a second block per rank, its chunk area, made at
 * the communicator's first blocking such call (see {@link HostChunks}) and given back with the first:
 *
 * <pre>
 * one rank's chunk area (128 + 2K bytes, K = {@value #CHUNK}): chunk g of the communicator goes to slot g &amp; 1
 *
 *   0      8        16     24        64      72      80       128                 128+K               128+2K
 *   +------+--------+------+---...---+-------+-------+---...---+-------------------+-------------------+
 *   | in   | reduced| done |         | reads0| reads1|         |      slot 0       |      slot 1       |
 *   +------+--------+------+---...---+-------+-------+---...---+-------------------+-------------------+
 *
 * a slot holds one chunk of the owner's operand, cut into one segment per rank (each a whole number of lines,
 * the last ones of a short chunk empty):
 *
 *   +--------------+--------------+-- ... --+----------------+
 *   |  segment 0   |  segment 1   |         | segment p-1    |
 *   +--------------+--------------+-- ... --+----------------+
 *
 * or, for a copy, the owner's piece of the chunk: K bytes of its block (bcast, gather, allgather), or for a scatter
 * or alltoall one piece of each rank's block, K/p bytes rounded down to whole lines, at segment d for rank d (its
 * own segment unused)
 *
 *   in       the last chunk whose operand (or pieces) the owner has copied into its slot (release)
 *   reduced  the last chunk whose owner's own segment, reduced over every rank's slot in rank order, the owner
 *            has written over its operand's segment in its slot (release)
 *   done     the last chunk for which the owner has read every peer's slot it needs (release): a peer's operand
 *            segment while reducing its own, the peers' reduced segments while copying the result out, the
 *            pieces a copy sends it; a rank that reads nothing raises it too, so every rank's done counts every chunk
 *   reads    per slot, how many times a piece the owner wrote for p - 1 readers (of more than 2 ranks: a bcast's
 *            or allgather's piece, an allreduce's reduced segment) has been read: each reader adds 1 once it has
 *            read the piece (atomic), and the one that makes it a multiple of p - 1 read it last
 * </pre>
 *
 * <p>Why two slots: the owner copies chunk {@code g + 1} in while its peers may still reduce chunk {@code g}, and
 * reuses the slot of chunk {@code g - 1} only once every rank's {@code done} has reached it. The flags share a
 * line, written by the owner alone; the read counts have a line of their own, written by the readers; a slot's lines
 * are written by the owner, and by a rank that alone or last read them, a word each, before it raises its
 * {@code done} ({@link HostChunks}).
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

    /** Bytes of a chunk: a slot of the chunk area (a whole number of lines, and of every element type's bytes). */
    static final long CHUNK = 128 * 1024;
    /** Slots of the chunk area (a power of 2). */
    static final int CHUNK_SLOTS = 2;
    /** The chunk area's flags. */
    static final long IN = 0;
    static final long REDUCED = 8;
    static final long DONE = 16;
    /** Where the chunk area's read counts start, one word per slot: its second line. */
    static final long READS = LINE;
    /** Where the chunk area's slots start: its third line. */
    static final long SLOTS_AT = 2 * LINE;

    private HostLayout() {
    }

    /** @return the bytes of a cell for slots of {@code limit} bytes */
    static long cellBytes(final long limit) {
        return LINE + (limit + LINE - 1) / LINE * LINE;
    }

    /** @return the bytes of one rank's block for slots of {@code limit} bytes */
    static long blockBytes(final long limit) {
        return CELLS * cellBytes(limit) + LINE;
    }

    /** @return the offset of the offer line in a block whose cells are {@code cell} bytes */
    static long offerAt(final long cell) {
        return CELLS * cell;
    }

    /** @return the offset of call {@code k}'s cell in a block whose cells are {@code cell} bytes */
    static long cellAt(final long k, final long cell) {
        return (k & (CELLS - 1)) * cell;
    }

    /** @return the bytes of one rank's chunk area */
    static long areaBytes() {
        return SLOTS_AT + CHUNK_SLOTS * CHUNK;
    }

    /** @return the offset of chunk {@code g}'s slot in a chunk area */
    static long slotAt(final long g) {
        return SLOTS_AT + (g & (CHUNK_SLOTS - 1)) * CHUNK;
    }

    /** @return the offset in its cell of a call's {@code bytes} bytes */
    static long bytesAt(final long bytes) {
        return bytes <= INLINE ? INLINE_AT : BYTES_AT;
    }
}
