package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.CacheLines;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The blocking calls of a communicator's on-host region past its cells' limit, on this rank: every rank's chunk area
 * ({@link HostLayout}), this rank's own to write, the others' to read. Copies (bcast, gather, allgather, scatter,
 * alltoall, {@link #move}) are pipelined chunk by chunk: a writer copies its pieces of a chunk into its slot and
 * raises {@code in}; each reader copies them out once it sees {@code in}, then raises {@code done}; a writer reuses a
 * slot once every rank is done with the chunk before the last. So each byte a rank sends is copied once in and once
 * out per reader, the readers at once, with no message; a bcast to {@code p - 1} ranks costs the root one copy,
 * where a tree of messages costs two per edge. A writer whose bytes lie in its shared memory (past the shm
 * transport's eager limit, where its messages too are copied once) copies nothing in: its readers copy out of its
 * buffer. A reduce or allreduce is cut into chunks of
 * {@link HostLayout#CHUNK} bytes, numbered on from the communicator's last chunk, and each chunk into one segment per
 * rank; for each chunk every rank
 * <ol>
 * <li>copies its operand's chunk into its slot (but for its own segment, which it folds from the operand itself,
 * unless it reduces in place) and raises {@code in};</li>
 * <li>once every rank's {@code in} holds the chunk, folds its own segment over every rank's slot in rank order,
 * {@code x0 op (x1 op (... op x(p-1)))}, into its receive buffer (a scratch buffer at a reduce's non-root), writes
 * the result over its segment in its own slot and raises {@code reduced};</li>
 * <li>the receiving ranks (every rank of an allreduce, a reduce's root) copy each peer's reduced segment out once
 * its {@code reduced} holds the chunk; each rank then raises {@code done}.</li>
 * </ol>
 * A rank copies chunk {@code g + 1} in before it folds chunk {@code g}, so the copy overlaps its peers' folds; every
 * rank folds a {@code 1/p} share of each chunk, so a large reduction uses every rank's core; a non-commutative op
 * is right, and every rank of an allreduce gets the same bits, because each segment is folded by one rank in rank
 * order.
 *
 * <p>Implementation notes. Owned, like its region, by the threads that make the communicator's collective calls, one at
 * a time, so its fields are plain. The owner writes a slot with plain stores and then raises a flag with a release
 * store; a reader loads the flag with acquire, then reads the slot plainly, and raises its {@code done} (release) only
 * after its last read of chunk {@code g}'s slots. The owner reuses the slot of chunk {@code g - 2} for chunk {@code g}
 * only once every rank's {@code done} holds {@code g - 2}, so no slot changes under a reader; flags only grow. Segments
 * are whole lines, so two ranks never write one line. A reader that is the only one to read a piece of a peer's slot (a
 * peer's operand segment it folds; any piece of a 2-rank call, a gather's, scatter's or alltoall's, a reduce's reduced
 * segments) writes a word in each of its lines once it has read them ({@link CacheLines#take}), before its
 * {@code done}: the owner's next write into the slot then takes the lines from the reader's cache instead of
 * invalidating shared copies, which on this project's virtual host was at times 4-11 times slower (a 2-rank bcast of 1
 * MiB took 500-600 µs through the chunks without these writes, 47-83 µs with them). A wait is the region's
 * ({@link HostRegion#awaitFlag}): the rank's idle strategy, the engine's progress, a gone peer named. The region has
 * already checked every peer's call words for this call before a chunk moves, so a peer waited for here makes the same
 * call. Cost per chunk and rank: one copy of {@code (p - 1)/p} of the chunk in (all of it in place), a fold of
 * {@code 1/p} of it over {@code p} slots plus two copies of that share, and at a receiving rank one copy of the rest
 * out; three flag stores, and about {@code 3(p - 1)} flag loads; for a copy, one copy of each piece in (none at a rank
 * that only reads) and one out per reader, two flag stores and {@code 2(p - 1)} flag loads at most, and a store per
 * line a reader takes. Memory: {@link HostLayout#areaBytes()} per rank per communicator, made at its first call past
 * the limit; a scratch of one chunk on the heap at a reduce's non-root.
 */
final class HostChunks {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final HostRegion region;
    private final int rank;
    private final int size;
    private final MemorySegment mine;
    private final MemorySegment[] areas;
    /** Where a reduce's non-root folds its segment (made at its first such call). */
    private MemorySegment scratch;
    /** The chunks this rank has run on the communicator: the next is {@code chunks + 1}. */
    private long chunks;

    /**
     * @param region the communicator's region
     * @param rank   this rank
     * @param areas  every rank's chunk area, this rank's own at its rank
     */
    HostChunks(final HostRegion region, final int rank, final MemorySegment[] areas) {
        this.region = region;
        this.rank = rank;
        this.size = areas.length;
        this.mine = areas[rank];
        this.areas = areas;
    }

    /** @return this rank's own chunk area (given back when the communicator is retired) */
    MemorySegment area() {
        return mine;
    }

    /** @return the chunks run so far */
    long chunks() {
        return chunks;
    }

    /**
     * Runs a reduce ({@code root} at least 0) or allreduce ({@code root} -1) through the chunks. Every peer has
     * published this call with the same words.
     *
     * @param c    the call, of at least one element
     * @param root the root, or -1
     */
    void reduce(final CollCall c, final int root) {
        final Datatype type = c.sendType();
        final int bytes = type.sizeBytes();
        final long per = HostLayout.CHUNK / bytes;
        final long count = c.sendCount();
        final long m = (count + per - 1) / per;
        final MemorySegment in = null != c.send() ? c.send() : c.recv();
        final boolean receives = root < 0 || root == rank;
        final MemorySegment acc = receives ? c.recv() : scratch();
        // This rank folds its own segment straight from its operand, unless the operand is where it folds (in place).
        final MemorySegment own = in != acc ? in : null;
        final long first = chunks + 1;
        chunks += m;
        copyIn(first, in, 0, Math.min(per, count), bytes, null != own, c);
        for (long j = 0; j < m; j++) {
            final long g = first + j;
            final long from = j * per;
            final long n = Math.min(per, count - from);
            if (j + 1 < m) {
                copyIn(g + 1, in, from + per, Math.min(per, count - from - per), bytes, null != own, c);
            }
            final long seg = segment(n, bytes);
            final long a = Math.min(n, rank * seg);
            final long b = Math.min(n, (rank + 1) * seg);
            fold(g, c, a * bytes, (int) (b - a), bytes, own, (from + a) * bytes, acc,
                receives ? (from + a) * bytes : 0);
            if (receives) {
                copyOut(g, c, from * bytes, n, seg, bytes);
            }
            LONG.setRelease(mine, HostLayout.DONE, g);
        }
    }

    /**
     * Runs a bcast, gather, allgather, scatter or alltoall through the chunks. Every peer has published this call
     * with the same words. Each rank's block is cut into pieces of {@link #piece} bytes, piece {@code j} of every
     * block travelling in chunk {@code first + j}: a writer (a bcast's or scatter's root, a gather's other ranks,
     * every rank of an allgather or alltoall) copies its pieces of the chunk into its slot, its readers copy them
     * out into their receive buffers.
     *
     * <p>A writer whose bytes lie in its shared memory ({@code Tutti.allocShared}) copies nothing in: its readers
     * copy its pieces straight out of its buffer ({@code direct}), which it leaves alone until every rank is done with
     * the call's last chunk. Its chunks are numbered all the same.
     *
     * @param c      the call, with a block of at least one byte
     * @param source where this rank's bytes come from ({@link HostSteps#source}), or null if it sends none
     * @param at     where its bytes start there ({@link HostSteps#sourceAt})
     * @param direct per rank, its bytes as this rank reaches them in place, or null where they go through its slot
     *               (this rank's own entry: whether its readers read it in place)
     */
    void move(final CollCall c, final MemorySegment source, final long at, final MemorySegment[] direct) {
        final CollKind kind = c.kind();
        final int root = c.root();
        final long block = HostSteps.block(c);
        final boolean split = CollKind.SCATTER == kind || CollKind.ALLTOALL == kind;
        final long q = piece(kind);
        final long m = (block + q - 1) / q;
        final boolean writes = writes(kind, rank, root);
        final boolean copies = writes && null == direct[rank];
        final boolean readsAll = CollKind.ALLGATHER == kind || CollKind.ALLTOALL == kind
            || CollKind.GATHER == kind && rank == root;
        final boolean readsRoot = (CollKind.BCAST == kind || CollKind.SCATTER == kind) && rank != root;
        // Where a peer's pieces land: after the blocks of the ranks before it, or at 0 (a bcast, a scatter).
        final long stride = CollKind.BCAST == kind || CollKind.SCATTER == kind ? 0 : block;
        // Where this rank's pieces lie in a peer's slot: the first segment, or its own of p; and its block in a
        // peer's buffer.
        final long seat = split ? rank * q : 0;
        final long mineAt = split ? rank * block : 0;
        final MemorySegment recv = c.recv();
        final boolean alone = split || 2 == size || CollKind.GATHER == kind;
        final long first = chunks + 1;
        chunks += m;
        if (copies) {
            writeIn(first, c, source, at, block, q, split);
        }
        ownBlock(c, kind, root, block);
        for (long j = 0; j < m; j++) {
            final long g = first + j;
            if (copies && j + 1 < m) {
                writeIn(g + 1, c, source, at + (j + 1) * q, block - (j + 1) * q, q, split);
            }
            final long n = Math.min(q, block - j * q);
            final long slot = HostLayout.slotAt(g) + seat;
            if (readsAll) {
                for (int i = 1; i < size; i++) {
                    final int r = (rank + i) % size;
                    read(r, g, c, direct[r], mineAt + j * q, slot, recv, r * stride + j * q, n, alone);
                }
            } else if (readsRoot) {
                read(root, g, c, direct[root], mineAt + j * q, slot, recv, j * q, n, alone);
            }
            LONG.setRelease(mine, HostLayout.DONE, g);
        }
        if (writes && !copies) { // the readers read this rank's own buffer, which the caller may reuse on return
            awaitDone(first + m - 1, c);
        }
    }

    /** @return whether a rank sends bytes in a copy: a bcast's or scatter's root, a gather's others, every rank else */
    static boolean writes(final CollKind kind, final int rank, final int root) {
        return switch (kind) {
            case BCAST, SCATTER -> rank == root;
            case GATHER -> rank != root;
            default -> true;
        };
    }

    /**
     * Copies writer {@code r}'s piece of chunk {@code g} ({@code n} bytes) into {@code to} at {@code toAt}: straight
     * out of its buffer ({@code direct}, at {@code directAt}), or out of its slot (at {@code slot}) once it has
     * raised {@code in}, taking the slot's lines when this rank is the piece's only reader.
     */
    private void read(final int r, final long g, final CollCall c, final MemorySegment direct, final long directAt,
        final long slot, final MemorySegment to, final long toAt, final long n, final boolean alone) {
        if (null != direct) {
            SegmentCopy.copy(direct, directAt, to, toAt, n);
            return;
        }
        region.awaitFlag(r, areas[r], HostLayout.IN, g, c);
        SegmentCopy.copy(areas[r], slot, to, toAt, n);
        if (alone) {
            CacheLines.take(areas[r], slot, n);
        }
    }

    /**
     * @return the bytes of one piece of a block in a chunk: the whole slot, or for a scatter or alltoall, whose slot
     * holds a piece of each rank's block, a {@code 1/p} share of it in whole lines (never 0:
     * {@link HostChunkRoad#open} keeps larger groups off the chunks)
     */
    private long piece(final CollKind kind) {
        return CollKind.SCATTER == kind || CollKind.ALLTOALL == kind
            ? HostLayout.CHUNK / size / HostLayout.LINE * HostLayout.LINE : HostLayout.CHUNK;
    }

    /**
     * Copies this rank's pieces of chunk {@code g} into its slot once no rank reads the slot any more: the bytes of
     * its block from {@code at} on ({@code left} of them), or with {@code split} those of every peer's block, each
     * into the peer's segment.
     */
    private void writeIn(final long g, final CollCall c, final MemorySegment source, final long at, final long left,
        final long q, final boolean split) {
        awaitSlot(g, c);
        final long slot = HostLayout.slotAt(g);
        final long n = Math.min(q, left);
        if (split) {
            final long block = HostSteps.block(c);
            for (int d = 0; d < size; d++) {
                if (d != rank) {
                    SegmentCopy.copy(source, d * block + at, mine, slot + d * q, n);
                }
            }
        } else {
            SegmentCopy.copy(source, at, mine, slot, n);
        }
        LONG.setRelease(mine, HostLayout.IN, g);
    }

    /** Copies this rank's own block, which no peer carries, into its receive buffer, unless it is there already. */
    private void ownBlock(final CollCall c, final CollKind kind, final int root, final long block) {
        final MemorySegment send = c.send();
        final MemorySegment recv = c.recv();
        switch (kind) {
            case GATHER, ALLGATHER -> {
                if (null != send && (CollKind.ALLGATHER == kind || rank == root)) {
                    SegmentCopy.copy(send, 0, recv, rank * block, block);
                }
            }
            case SCATTER -> {
                if (rank == root && null != recv) {
                    SegmentCopy.copy(send, root * block, recv, 0, block);
                }
            }
            case ALLTOALL -> {
                if (null != send) {
                    SegmentCopy.copy(send, rank * block, recv, rank * block, block);
                }
            }
            default -> {
            }
        }
    }

    /** Waits until no rank reads the slot of chunk {@code g} any more: every peer is done with chunk {@code g - 2}. */
    private void awaitSlot(final long g, final CollCall c) {
        final long before = g - HostLayout.CHUNK_SLOTS;
        if (before >= 1) {
            awaitDone(before, c);
        }
    }

    /** Waits until every peer is done with chunk {@code g}. */
    private void awaitDone(final long g, final CollCall c) {
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            region.awaitFlag(r, areas[r], HostLayout.DONE, g, c);
        }
    }

    /** @return elements per segment of a chunk of {@code n}: a {@code 1/p} share, rounded up to whole lines */
    private long segment(final long n, final int bytes) {
        final long line = HostLayout.LINE / bytes;
        return ((n + size - 1) / size + line - 1) / line * line;
    }

    /**
     * Copies chunk {@code g} of the operand ({@code n} elements from element {@code from}) into its slot, once no
     * rank reads the slot any more; without this rank's own segment when it folds that from the operand.
     */
    private void copyIn(final long g, final MemorySegment in, final long from, final long n, final int bytes,
        final boolean skipOwn, final CollCall c) {
        awaitSlot(g, c);
        final long slot = HostLayout.slotAt(g);
        if (skipOwn) {
            final long seg = segment(n, bytes);
            final long a = Math.min(n, rank * seg);
            final long b = Math.min(n, (rank + 1) * seg);
            SegmentCopy.copy(in, from * bytes, mine, slot, a * bytes);
            SegmentCopy.copy(in, (from + b) * bytes, mine, slot + b * bytes, (n - b) * bytes);
        } else {
            SegmentCopy.copy(in, from * bytes, mine, slot, n * bytes);
        }
        LONG.setRelease(mine, HostLayout.IN, g);
    }

    /**
     * Folds this rank's segment of chunk {@code g} ({@code n} elements at {@code at} bytes into each slot) over every
     * rank's slot, in rank order (this rank's own operand from {@code own} at {@code ownAt} when not null), into
     * {@code acc} at {@code accAt}, and writes the result over the segment in this rank's slot.
     */
    private void fold(final long g, final CollCall c, final long at, final int n, final int bytes,
        final MemorySegment own, final long ownAt, final MemorySegment acc, final long accAt) {
        if (n > 0) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                region.awaitFlag(r, areas[r], HostLayout.IN, g, c);
            }
            final long off = HostLayout.slotAt(g) + at;
            final long len = (long) n * bytes;
            final Op op = c.op();
            final Datatype type = c.sendType();
            final MemorySegment into = acc.asSlice(accAt, len);
            if (null != own && size - 1 == rank) {
                SegmentCopy.copy(own, ownAt, into, 0, len);
            } else {
                SegmentCopy.copy(areas[size - 1], off, into, 0, len);
            }
            for (int r = size - 2; r >= 0; r--) {
                LocalReduction.reduce(op, type, null != own && r == rank ? own.asSlice(ownAt, len)
                    : areas[r].asSlice(off, len), into, n);
            }
            SegmentCopy.copy(into, 0, mine, off, len);
            for (int i = 1; i < size; i++) { // this rank alone reads its segment of a peer's operand
                CacheLines.take(areas[(rank + i) % size], off, len);
            }
        }
        LONG.setRelease(mine, HostLayout.REDUCED, g);
    }

    /** Copies every peer's reduced segment of chunk {@code g} (of {@code n} elements) out, to {@code to} bytes on. */
    private void copyOut(final long g, final CollCall c, final long to, final long n, final long seg,
        final int bytes) {
        final MemorySegment recv = c.recv();
        final boolean alone = 2 == size || CollKind.REDUCE == c.kind(); // no other rank reads the reduced segments
        final long slot = HostLayout.slotAt(g);
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            final long a = Math.min(n, r * seg);
            final long b = Math.min(n, (r + 1) * seg);
            if (b > a) {
                region.awaitFlag(r, areas[r], HostLayout.REDUCED, g, c);
                SegmentCopy.copy(areas[r], slot + a * bytes, recv, to + a * bytes, (b - a) * bytes);
                if (alone) {
                    CacheLines.take(areas[r], slot + a * bytes, (b - a) * bytes);
                }
            }
        }
    }

    private MemorySegment scratch() {
        if (null == scratch) {
            scratch = MemorySegment.ofArray(new long[(int) (HostLayout.CHUNK / Long.BYTES)]);
        }
        return scratch;
    }
}
