package dev.tutti.coll.host;

import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The cells of a communicator's region as one rank reaches them ({@link HostLayout}): its own block, which it writes,
 * and every peer's, which it reads. What a call publishes (its bytes, its words, then its number), whether a peer has
 * published a call, whether this rank may write a cell again, what a peer's words say against this rank's, and the
 * offer line of the chunk area. It never waits and takes no lock: {@link HostRegion} decides when each step runs.
 *
 * <p>Implementation notes. Owned as its region is: by the threads that make the communicator's collective calls, one
 * at a time, or by the holder of the region's lock. A cell is written with plain stores, then its seq word with a
 * release store; a reader loads the seq word with acquire, then the words plainly. The cell of call {@code k} is
 * written again (for call {@code k + 4}) only once every peer has published call {@code k + 1}
 * ({@link #free}), and a rank publishes a call only after it has read every cell before, so no cell changes under a
 * reader. {@code seen} keeps per rank the last call seen published, so a writer reads a peer's line again only when it
 * has not seen that call since; seq words only grow, so an older value stored by another thread costs a read more,
 * never a wrong answer. Cost: a write is one copy of the call's bytes and four stores; a look at a peer's call,
 * one acquire load, and a check of its words three plain ones.
 */
final class HostCells {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final int rank;
    private final int size;
    private final MemorySegment mine;
    private final MemorySegment[] blocks;
    private final long cell;
    private final long[] seen;

    /**
     * @param rank   this rank
     * @param blocks every rank's block, this rank's own at its rank
     * @param limit  the most bytes a cell holds
     */
    HostCells(final int rank, final MemorySegment[] blocks, final long limit) {
        this.rank = rank;
        this.size = blocks.length;
        this.mine = blocks[rank];
        this.blocks = blocks;
        this.cell = HostLayout.cellBytes(limit);
        this.seen = new long[size];
    }

    /**
     * @return per rank and cell, a view of the cell's bytes, inline ({@code 2c + 1}) and in the lines after
     * ({@code 2c})
     */
    MemorySegment[][] views() {
        final MemorySegment[][] bytes = new MemorySegment[size][2 * HostLayout.CELLS];
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < HostLayout.CELLS; c++) {
                final long at = HostLayout.cellAt(c, cell);
                bytes[r][2 * c] = blocks[r].asSlice(at + HostLayout.BYTES_AT, cell - HostLayout.BYTES_AT);
                bytes[r][2 * c + 1] = blocks[r].asSlice(at + HostLayout.INLINE_AT, HostLayout.INLINE);
            }
        }
        return bytes;
    }

    /** @return rank {@code r}'s block */
    MemorySegment block(final int r) {
        return blocks[r];
    }

    /** @return where the seq word of call {@code k}'s cell lies in a block */
    long seqAt(final long k) {
        return HostLayout.cellAt(k, cell) + HostLayout.SEQ;
    }

    /** @return whether rank {@code r} has published call {@code k} or a later one (acquire) */
    boolean published(final int r, final long k) {
        return (long) LONG.getAcquire(blocks[r], seqAt(k)) >= k;
    }

    /** @return whether rank {@code r} was seen to have published call {@code k} or a later one */
    boolean seen(final int r, final long k) {
        return seen[r] >= k;
    }

    /** Notes that rank {@code r} has published call {@code k}. */
    void saw(final int r, final long k) {
        seen[r] = k;
    }

    /**
     * @return the call that every peer must have published before this rank writes the cell of call {@code k} (none
     * reads the cell's previous call then), 1 or less when the cell is fresh
     */
    static long frees(final long k) {
        return k - HostLayout.CELLS + 1;
    }

    /** Tells, without waiting, whether this rank may write the cell of call {@code k} (see {@link #frees}). */
    boolean free(final long k) {
        final long before = frees(k);
        if (before <= 1) {
            return true;
        }
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            if (seen[r] < before) {
                if (!published(r, before)) {
                    return false;
                }
                seen[r] = before;
            }
        }
        return true;
    }

    /**
     * Writes call {@code k}'s {@code n} bytes (if any) and words into its cell, then its number (release). With a
     * {@code hole} (a scatter's or alltoall's block), the source holds {@code n + hole} bytes, and this rank's own
     * block, which no peer reads, is left out: the blocks before it and after it lie one behind the other in the cell.
     */
    void write(final long k, final MemorySegment from, final long offset, final long n, final long hole,
        final long call, final long shape, final long op) {
        final long at = HostLayout.cellAt(k, cell);
        if (n > 0) {
            final long to = at + HostLayout.bytesAt(n);
            if (0 == hole) {
                SegmentCopy.copy(from, offset, mine, to, n);
            } else {
                final long before = rank * hole;
                if (before > 0) {
                    SegmentCopy.copy(from, offset, mine, to, before);
                }
                if (n > before) {
                    SegmentCopy.copy(from, offset + before + hole, mine, to + before, n - before);
                }
            }
        }
        seal(k, call, shape, op);
    }

    /**
     * Writes call {@code k}'s words into its cell, then its number (release): publishes the call, with the bytes
     * written into the cell before.
     */
    void seal(final long k, final long call, final long shape, final long op) {
        final long at = HostLayout.cellAt(k, cell);
        LONG.set(mine, at + HostLayout.CALL, call);
        LONG.set(mine, at + HostLayout.SHAPE, shape);
        LONG.set(mine, at + HostLayout.OP, op);
        LONG.setRelease(mine, at + HostLayout.SEQ, k);
        seen[rank] = k;
    }

    /** @return rank {@code r}'s call word of call {@code k}, published (read once its seq word is seen) */
    long callOf(final int r, final long k) {
        return (long) LONG.get(blocks[r], HostLayout.cellAt(k, cell) + HostLayout.CALL);
    }

    /** @return rank {@code r}'s shape word of call {@code k}, published (read once its seq word is seen) */
    long shapeOf(final int r, final long k) {
        return (long) LONG.get(blocks[r], HostLayout.cellAt(k, cell) + HostLayout.SHAPE);
    }

    /**
     * Compares rank {@code r}'s call {@code k}, published, with this rank's call {@code c} (its words
     * {@code call...}).
     *
     * @return the mismatch to report, or null if the calls agree
     */
    TuttiException mismatch(final CollComm comm, final int r, final long k, final CollCall c, final long call,
        final long shape, final long op) {
        final MemorySegment b = blocks[r];
        final long at = HostLayout.cellAt(k, cell);
        final long theirCall = (long) LONG.get(b, at + HostLayout.CALL);
        final long theirShape = (long) LONG.get(b, at + HostLayout.SHAPE);
        final long theirOp = (long) LONG.get(b, at + HostLayout.OP);
        if (HostWords.same(call, shape, op, theirCall, theirShape, theirOp)) {
            return null;
        }
        return HostWords.mismatch(comm, r, CollHeader.of(c.kind(), c.root(), c.sendCount()), c.kind().mpiName(), call,
            shape, op, theirCall, theirShape, theirOp, c);
    }

    /**
     * The words part of {@link HostRegion#stalled}: a peer that published call {@code k} with other words than this
     * rank's, read only while this rank has not published call {@code k + 1} (until then no peer reuses the cell).
     *
     * @return the mismatch, or null while the cells show none
     */
    TuttiException stalled(final CollComm comm, final long k, final CollHeader header, final String op) {
        final long at = HostLayout.cellAt(k, cell);
        final long next = seqAt(k + 1);
        if ((long) LONG.getAcquire(mine, at + HostLayout.SEQ) != k) {
            return null;
        }
        final long ownCall = (long) LONG.get(mine, at + HostLayout.CALL);
        final long ownShape = (long) LONG.get(mine, at + HostLayout.SHAPE);
        final long ownOp = (long) LONG.get(mine, at + HostLayout.OP);
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            final MemorySegment b = blocks[r];
            if ((long) LONG.getAcquire(b, at + HostLayout.SEQ) != k) {
                continue;
            }
            final long theirCall = (long) LONG.get(b, at + HostLayout.CALL);
            final long theirShape = (long) LONG.get(b, at + HostLayout.SHAPE);
            final long theirOp = (long) LONG.get(b, at + HostLayout.OP);
            VarHandle.acquireFence(); // the words above are read before the check below
            if ((long) LONG.getAcquire(mine, next) > k) {
                return null; // this rank has gone on (a nonblocking call): the cell may be another call's now
            }
            if (!HostWords.same(ownCall, ownShape, ownOp, theirCall, theirShape, theirOp)) {
                return HostWords.mismatch(comm, r, header, op, ownCall, ownShape, ownOp, theirCall, theirShape,
                    theirOp, null);
            }
        }
        return null;
    }

    /**
     * Writes this rank's offer of a chunk area in its block's offer line ({@link HostLayout}), plain: the release
     * store of the call that carries it publishes it.
     */
    void offer(final long offered, final long name) {
        final long at = HostLayout.offerAt(cell);
        LONG.set(mine, at, offered);
        LONG.set(mine, at + Long.BYTES, name);
    }

    /** @return word {@code w} of rank {@code r}'s offer line, read once its call that carries the offer is seen */
    long offerOf(final int r, final int w) {
        return (long) LONG.get(blocks[r], HostLayout.offerAt(cell) + (long) w * Long.BYTES);
    }

    /** Gives this rank's block back to {@code memory}, once no peer reads it. */
    void free(final DirectMemory memory) {
        memory.freeDirect(mine);
    }
}
