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
 * The calls of a communicator's on-host region past its cells' limit, every form, on this rank: every rank's chunk
 * area ({@link HostLayout}), this rank's own to write, the others' to read. Copies (bcast, gather, allgather, scatter,
 * alltoall, {@link #move}) are pipelined chunk by chunk: a writer copies its pieces of a chunk into its slot and
 * raises {@code in}; each reader copies them out once it sees {@code in}, then raises {@code done}; a writer reuses a
 * slot once every rank is done with the chunk before the last. So each byte a rank sends is copied once in and once
 * out per reader, the readers at once, with no message; a bcast to {@code p - 1} ranks costs the root one copy,
 * where a tree of messages costs two per edge. A writer whose bytes lie in its shared memory (past the shm
 * transport's eager limit, where its messages too are copied once) copies nothing in: its readers copy out of its
 * buffer. A reduce or allreduce is cut into chunks of
 * {@link HostLayout#CHUNK} bytes, numbered on from the communicator's last chunk, and each chunk into one segment per
 * rank (chunks and segments whole numbers of the op's items, {@code Op.itemElements}, so that no fold cuts an item);
 * for each chunk every rank
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
 * a time, or under the region's lock by whichever thread advances a run (a blocking call begins only after every run
 * is complete, the region's {@code pending} giving the order), so its fields are plain. The owner writes a slot with
 * plain stores and then raises a flag with a release store; a reader loads the flag with acquire, then reads the slot
 * plainly, and raises its {@code done} (release) only after its last read of chunk {@code g}'s slots. The owner reuses
 * the slot of chunk {@code g - 2} for chunk {@code g} only once every rank's {@code done} holds {@code g - 2}, so no
 * slot changes under a reader; flags only grow. Segments are whole lines, so two ranks never write one line. A reader
 * that is the only one to read a piece of a peer's slot (a peer's operand segment it folds; any piece of a 2-rank call,
 * a gather's, scatter's or alltoall's, a reduce's reduced segments), or the last of the {@code p - 1} that read it (a
 * bcast's or allgather's piece, an allreduce's reduced segment: each reader counts its read in the owner's {@code
 * reads} word for the slot, atomically, after its copy), writes a word in each of its lines once it has read them
 * ({@link CacheLines#take}), before its {@code done}: the owner's next write into the slot then takes the lines from
 * one reader's cache instead of invalidating shared copies, which on this project's virtual host was at times 4-11
 * times slower (a 2-rank bcast of 1 MiB took 500-600 µs through the chunks without these writes, 47-83 µs with them; at
 * 4 ranks the last reader's writes took bcast, allgather and allreduce of 16 KiB-4 MiB to 0.64-0.74 of their time,
 * geometric means, bench/RESULTS.md). A wait is the region's ({@link HostRegion#awaitWord}): the rank's idle strategy,
 * the engine's progress, a gone peer named. The region has already checked every peer's call words for this call before
 * a chunk moves, so a peer waited for here makes the same call. Cost per chunk and rank: one copy of {@code (p - 1)/p}
 * of the chunk in (all of it in place), a fold of {@code 1/p} of it over {@code p} slots plus two copies of that share,
 * and at a receiving rank one copy of the rest out; three flag stores, and about {@code 3(p - 1)} flag loads; for a
 * copy, one copy of each piece in (none at a rank that only reads) and one out per reader, two flag stores and
 * {@code 2(p - 1)} flag loads at most, and a store per line a reader takes (and an atomic add per piece with
 * {@code p - 1} readers). Memory: {@link HostLayout#areaBytes()} per rank per communicator, made at its first call past the limit; a scratch of
 * one chunk on the heap at a reduce's non-root.
 *
 * <p>One call at a time runs here: {@link #reduce} or {@link #move} begins it, {@link #advance} runs it as far as
 * its peers' flags allow and returns, and resumes where it stopped ({@code pc}, {@code j}, {@code i}), in the same
 * order of steps whatever the form: a blocking call advances and waits for the flag that stopped it
 * ({@link #complete}); a nonblocking call's or persistent start's run advances when it is tested or waited for, or in a
 * pass of the rank's progress, under the region's lock. So every form shares one pipeline, and the next call begins
 * only after this one is complete on this rank (the region completes runs in call order).
 */
final class HostChunks {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Where {@link #advance} resumes: before the first chunk, at a chunk's start, and its later steps. */
    private static final int BEGIN = 0;
    private static final int NEXT = 1;
    private static final int READ = 2;
    private static final int FOLD = 3;
    private static final int OUT = 4;
    private static final int LAST = 5;
    private static final int FINISHED = 6;

    private final HostRegion region;
    private final int rank;
    private final int size;
    private final MemorySegment mine;
    private final MemorySegment[] areas;
    /** Where a reduce's non-root folds its segment (made at its first such call). */
    private MemorySegment scratch;
    /** The chunks this rank has run on the communicator: the next is {@code chunks + 1}. */
    private long chunks;

    /* The current call (begun by reduce or move): its shape, and where advance() stands in it. */
    private CollCall call;
    private boolean reduction;
    private int pc = FINISHED;
    /** The call's first chunk, its number of chunks, and the chunk ({@code 0 <= j <= m}) advance() is at. */
    private long first;
    private long m;
    private long j;
    /** The next peer, as an offset from this rank (1 to size - 1), of a step that reads several. */
    private int i;
    /** The flag advance() last found too low: rank, offset in its area, value wanted. */
    private int waitRank;
    private long waitAt;
    private long waitValue;
    /* A copy's shape (see move). */
    private CollKind kind;
    private int root;
    private long block;
    private long q;
    private boolean writes;
    private boolean copies;
    private boolean readsAll;
    private boolean readsRoot;
    private boolean split;
    private boolean alone;
    private long stride;
    private long seat;
    private long mineAt;
    private MemorySegment source;
    private long sourceAt;
    private MemorySegment[] direct;
    /* A reduction's shape (see reduce). */
    private int bytes;
    /** Elements per chunk, a whole number of the op's items. */
    private long per;
    /** Elements a segment is a multiple of: whole lines and whole items of the op ({@link #segment}). */
    private long unit;
    private long count;
    private boolean receives;
    private MemorySegment in;
    private MemorySegment acc;
    private MemorySegment own;

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
     * Begins a reduce ({@code root} at least 0) or allreduce ({@code root} -1) through the chunks, which
     * {@link #advance} then runs. Every peer has published this call with the same words; the call before is
     * complete.
     *
     * @param c    the call, of at least one element
     * @param root the root, or -1
     */
    void reduce(final CollCall c, final int root) {
        call = c;
        reduction = true;
        final Datatype type = c.sendType();
        bytes = type.sizeBytes();
        final long item = c.op().itemElements(); // at least 1 here (Road.onHost)
        per = HostLayout.CHUNK / bytes / item * item;
        unit = lcm(HostLayout.LINE / bytes, item);
        count = c.sendCount();
        m = (count + per - 1) / per;
        in = null != c.send() ? c.send() : c.recv();
        receives = root < 0 || root == rank;
        acc = receives ? c.recv() : scratch();
        // This rank folds its own segment straight from its operand, unless the operand is where it folds (in place).
        own = in != acc ? in : null;
        begun();
    }

    /**
     * Begins a bcast, gather, allgather, scatter or alltoall through the chunks, which {@link #advance} then runs.
     * Every peer has published this call with the same words; the call before is complete. Each rank's block is cut
     * into pieces of {@link #piece} bytes, piece {@code j} of every block travelling in chunk {@code first + j}: a
     * writer (a bcast's or scatter's root, a gather's other ranks, every rank of an allgather or alltoall) copies its
     * pieces of the chunk into its slot, its readers copy them out into their receive buffers.
     *
     * <p>A writer whose memory lends its bytes to its readers (its shared arena, {@code Tutti.allocShared}, between
     * processes; any buffer between threads) copies nothing in: its readers copy its pieces straight out of its
     * buffer ({@code direct}), which it leaves alone until every rank is done with the call's last chunk. Its chunks
     * are numbered all the same.
     *
     * @param c      the call, with a block of at least one byte
     * @param from   where this rank's bytes come from ({@link HostSteps#source}), or null if it sends none
     * @param at     where its bytes start there ({@link HostSteps#sourceAt})
     * @param places per rank, its bytes as this rank reaches them in place, or null where they go through its slot
     *               (this rank's own entry: whether its readers read it in place); read until the call completes
     */
    void move(final CollCall c, final MemorySegment from, final long at, final MemorySegment[] places) {
        call = c;
        reduction = false;
        kind = c.kind();
        root = c.root();
        block = HostSteps.block(c);
        split = CollKind.SCATTER == kind || CollKind.ALLTOALL == kind;
        q = piece(kind);
        m = (block + q - 1) / q;
        writes = writes(kind, rank, root);
        copies = writes && null == places[rank];
        readsAll = CollKind.ALLGATHER == kind || CollKind.ALLTOALL == kind || CollKind.GATHER == kind && rank == root;
        readsRoot = (CollKind.BCAST == kind || CollKind.SCATTER == kind) && rank != root;
        // Where a peer's pieces land: after the blocks of the ranks before it, or at 0 (a bcast, a scatter).
        stride = CollKind.BCAST == kind || CollKind.SCATTER == kind ? 0 : block;
        // Where this rank's pieces lie in a peer's slot: the first segment, or its own of p; and its block in a
        // peer's buffer.
        seat = split ? rank * q : 0;
        mineAt = split ? rank * block : 0;
        alone = split || 2 == size || CollKind.GATHER == kind;
        source = from;
        sourceAt = at;
        direct = places;
        begun();
    }

    private void begun() {
        first = chunks + 1;
        chunks += m;
        j = 0;
        pc = BEGIN;
    }

    /**
     * Runs the current call as far as it goes without waiting.
     *
     * @return true once it is complete (this rank's part: every chunk copied or folded, and for a writer read in
     * place, every reader done); false when a peer's flag holds it ({@link #await})
     */
    boolean advance() {
        return reduction ? advanceReduce() : advanceMove();
    }

    /** Waits for the flag that held the last {@link #advance}, for operation {@code op} drawn as {@code drawn}. */
    void await(final String op, final int drawn) {
        region.awaitWord(waitRank, areas[waitRank], waitAt, waitValue, op, drawn);
    }

    /** @return the peer whose flag held the last {@link #advance} */
    int waitRank() {
        return waitRank;
    }

    /** Runs the current call to its end, waiting for its peers' flags (a blocking call). */
    void complete(final CollCall c, final int drawn) {
        final String op = c.kind().mpiName();
        while (!advance()) {
            await(op, drawn);
        }
    }

    private boolean advanceReduce() {
        for (;;) {
            switch (pc) {
                case BEGIN -> {
                    if (!slotFree(first)) {
                        return false;
                    }
                    copyIn(first, 0, Math.min(per, count));
                    pc = NEXT;
                }
                case NEXT -> {
                    if (j == m) {
                        return ended();
                    }
                    final long from = j * per;
                    if (j + 1 < m) {
                        if (!slotFree(first + j + 1)) {
                            return false;
                        }
                        copyIn(first + j + 1, from + per, Math.min(per, count - from - per));
                    }
                    pc = FOLD;
                }
                case FOLD -> {
                    final long g = first + j;
                    final long from = j * per;
                    final long n = Math.min(per, count - from);
                    final long seg = segment(n);
                    final long a = Math.min(n, rank * seg);
                    final long b = Math.min(n, (rank + 1) * seg);
                    if (b > a && !every(HostLayout.IN, g)) {
                        return false;
                    }
                    fold(g, a * bytes, (int) (b - a), (from + a) * bytes, receives ? (from + a) * bytes : 0);
                    i = 1;
                    pc = OUT;
                }
                case OUT -> {
                    final long g = first + j;
                    if (receives && !copyOut(g, j * per * bytes, Math.min(per, count - j * per))) {
                        return false;
                    }
                    LONG.setRelease(mine, HostLayout.DONE, g);
                    j++;
                    pc = NEXT;
                }
                default -> {
                    return true;
                }
            }
        }
    }

    private boolean advanceMove() {
        for (;;) {
            switch (pc) {
                case BEGIN -> {
                    if (copies) {
                        if (!slotFree(first)) {
                            return false;
                        }
                        writeIn(first, sourceAt, block);
                    }
                    ownBlock();
                    pc = NEXT;
                }
                case NEXT -> {
                    if (j == m) {
                        pc = LAST;
                        continue;
                    }
                    if (copies && j + 1 < m) {
                        if (!slotFree(first + j + 1)) {
                            return false;
                        }
                        writeIn(first + j + 1, sourceAt + (j + 1) * q, block - (j + 1) * q);
                    }
                    i = 1;
                    pc = READ;
                }
                case READ -> {
                    final long g = first + j;
                    final long n = Math.min(q, block - j * q);
                    final long slot = HostLayout.slotAt(g) + seat;
                    final MemorySegment recv = call.recv();
                    if (readsAll) {
                        for (; i < size; i++) {
                            final int r = (rank + i) % size;
                            if (!read(r, g, direct[r], mineAt + j * q, slot, recv, r * stride + j * q, n)) {
                                return false;
                            }
                        }
                    } else if (readsRoot && !read(root, g, direct[root], mineAt + j * q, slot, recv, j * q, n)) {
                        return false;
                    }
                    LONG.setRelease(mine, HostLayout.DONE, g);
                    j++;
                    pc = NEXT;
                }
                case LAST -> {
                    // the readers read this rank's own buffer, which the caller may reuse once the call completes
                    if (writes && !copies && !every(HostLayout.DONE, first + m - 1)) {
                        return false;
                    }
                    return ended();
                }
                default -> {
                    return true;
                }
            }
        }
    }

    /** Ends the current call: lets its buffers go. */
    private boolean ended() {
        pc = FINISHED;
        call = null;
        source = null;
        direct = null;
        in = null;
        acc = null;
        own = null;
        return true;
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
     * out of its buffer ({@code from}, at {@code fromAt}), or out of its slot (at {@code slot}) once it has raised
     * {@code in}, taking the slot's lines when this rank is the piece's only reader.
     *
     * @return false if the writer has not raised {@code in} for the chunk yet
     */
    private boolean read(final int r, final long g, final MemorySegment from, final long fromAt, final long slot,
        final MemorySegment to, final long toAt, final long n) {
        if (null != from) {
            SegmentCopy.copy(from, fromAt, to, toAt, n);
            return true;
        }
        if (!reached(r, HostLayout.IN, g)) {
            return false;
        }
        SegmentCopy.copy(areas[r], slot, to, toAt, n);
        if (alone || lastReader(r, g)) {
            CacheLines.take(areas[r], slot, n);
        }
        return true;
    }

    /**
     * Counts this rank's read of writer {@code r}'s piece of chunk {@code g}, which {@code p - 1} ranks read, in the
     * writer's read count for the slot (atomic: every other reader has finished its copy before its own count).
     *
     * @return whether this rank read it last
     */
    private boolean lastReader(final int r, final long g) {
        final long reads = (long) LONG.getAndAdd(areas[r], HostLayout.READS + (g & (HostLayout.CHUNK_SLOTS - 1))
            * Long.BYTES, 1L);
        return 0 == (reads + 1) % (size - 1);
    }

    /**
     * @return the bytes of one piece of a block in a chunk: the whole slot, or for a scatter or alltoall, whose slot
     * holds a piece of each rank's block, a {@code 1/p} share of it in whole lines (never 0:
     * {@link HostChunkRoad#open} keeps larger groups off the chunks)
     */
    private long piece(final CollKind k) {
        return CollKind.SCATTER == k || CollKind.ALLTOALL == k
            ? HostLayout.CHUNK / size / HostLayout.LINE * HostLayout.LINE : HostLayout.CHUNK;
    }

    /**
     * Copies this rank's pieces of chunk {@code g} into its slot (which no rank reads any more): the bytes of its
     * block from {@code at} on ({@code left} of them), or for a scatter or alltoall those of every peer's block,
     * each into the peer's segment.
     */
    private void writeIn(final long g, final long at, final long left) {
        final long slot = HostLayout.slotAt(g);
        final long n = Math.min(q, left);
        if (split) {
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
    private void ownBlock() {
        final MemorySegment send = call.send();
        final MemorySegment recv = call.recv();
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

    /** @return whether no rank reads the slot of chunk {@code g} any more: every peer is done with chunk {@code g - 2} */
    private boolean slotFree(final long g) {
        final long before = g - HostLayout.CHUNK_SLOTS;
        return before < 1 || every(HostLayout.DONE, before);
    }

    /** @return whether every peer's flag at {@code at} holds {@code g} or more; if not, the first that does not waits */
    private boolean every(final long at, final long g) {
        for (int d = 1; d < size; d++) {
            if (!reached((rank + d) % size, at, g)) {
                return false;
            }
        }
        return true;
    }

    /** @return whether rank {@code r}'s flag at {@code at} holds {@code g} or more (acquire); if not, it waits */
    private boolean reached(final int r, final long at, final long g) {
        if ((long) LONG.getAcquire(areas[r], at) >= g) {
            return true;
        }
        waitRank = r;
        waitAt = at;
        waitValue = g;
        return false;
    }

    /**
     * @return elements per segment of a chunk of {@code n}: a {@code 1/p} share, rounded up to whole lines and whole
     * items ({@code unit}), so that no segment ends inside an item
     */
    private long segment(final long n) {
        return ((n + size - 1) / size + unit - 1) / unit * unit;
    }

    /** @return the least common multiple of {@code a} and {@code b}, both at least 1 */
    private static long lcm(final long a, final long b) {
        long x = a;
        long y = b;
        while (0 != y) {
            final long t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }

    /**
     * Copies chunk {@code g} of the operand ({@code n} elements from element {@code from}) into its slot (which no
     * rank reads any more); without this rank's own segment when it folds that from the operand.
     */
    private void copyIn(final long g, final long from, final long n) {
        final long slot = HostLayout.slotAt(g);
        if (null != own) {
            final long seg = segment(n);
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
     * Folds this rank's segment of chunk {@code g} ({@code n} elements at {@code at} bytes into each slot), every
     * rank's {@code in} holding the chunk, over every rank's slot in rank order (this rank's own operand at
     * {@code ownAt} when it folds from there) into the accumulator at {@code accAt}, writes the result over the
     * segment in this rank's slot, and raises {@code reduced}.
     */
    private void fold(final long g, final long at, final int n, final long ownAt, final long accAt) {
        if (n > 0) {
            final long off = HostLayout.slotAt(g) + at;
            final long len = (long) n * bytes;
            final Op op = call.op();
            final Datatype type = call.sendType();
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
            for (int d = 1; d < size; d++) { // this rank alone reads its segment of a peer's operand
                CacheLines.take(areas[(rank + d) % size], off, len);
            }
        }
        LONG.setRelease(mine, HostLayout.REDUCED, g);
    }

    /**
     * Copies the peers' reduced segments of chunk {@code g} (of {@code n} elements) out, to {@code to} bytes on,
     * from peer {@code i} on, as each has raised {@code reduced}.
     *
     * @return false if a peer has not reduced its segment yet ({@code i} names it)
     */
    private boolean copyOut(final long g, final long to, final long n) {
        final MemorySegment recv = call.recv();
        final boolean only = 2 == size || CollKind.REDUCE == call.kind(); // no other rank reads the reduced segments
        final long seg = segment(n);
        final long slot = HostLayout.slotAt(g);
        for (; i < size; i++) {
            final int r = (rank + i) % size;
            final long a = Math.min(n, r * seg);
            final long b = Math.min(n, (r + 1) * seg);
            if (b > a) {
                if (!reached(r, HostLayout.REDUCED, g)) {
                    return false;
                }
                SegmentCopy.copy(areas[r], slot + a * bytes, recv, to + a * bytes, (b - a) * bytes);
                if (only || lastReader(r, g)) {
                    CacheLines.take(areas[r], slot + a * bytes, (b - a) * bytes);
                }
            }
        }
        return true;
    }

    private MemorySegment scratch() {
        if (null == scratch) {
            scratch = MemorySegment.ofArray(new long[(int) (HostLayout.CHUNK / Long.BYTES)]);
        }
        return scratch;
    }
}
