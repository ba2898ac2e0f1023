package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.type.LocalReduction;
import dev.tutti.type.TypeCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The on-host algorithms as one table, for every form of call (blocking, nonblocking, a persistent start): what a
 * rank publishes in its cell ({@link #source}, {@link #published}), whose calls it waits for ({@link #awaits}), and
 * what it does once they are there ({@link #finish}); and for the vector forms whose road the ranks agree from their
 * offers, what a rank publishes ({@link #vectorBytes}, {@link #pack}), whether the offers make the cells the road
 * ({@link #taken}), and what it copies out ({@link #finishVector}). {@link HostRegion}
 * publishes, waits and calls these.
 * <ul>
 * <li>barrier: publish, then wait for every peer's call.</li>
 * <li>bcast: the root publishes its bytes; every other rank waits for the root's call and copies them out.</li>
 * <li>reduce, allreduce: every rank publishes its operand; the root (every rank) waits for all and folds them in
 * rank order, {@code x0 op (x1 op (... op x(p-1)))}, from the cells: a non-commutative op is right, and every rank
 * of an allreduce computes the same bits (a commutative op starts from the rank's own operand where the bits stay
 * the same, {@link #ownFirst}). Past the limit (blocking calls, and the other forms once a blocking call has
 * made the chunk area): through the chunk area or the message layer, as every rank decides alike from the words and
 * offers they publish with the call ({@link HostChunkRoad}).</li>
 * <li>gather, allgather: every rank publishes its block; the root (every rank) copies each out.</li>
 * <li>scan, exscan: every rank publishes its operand, and waits for the ranks before it and folds theirs (and for a
 * scan its own) in rank order. reduce_scatter_block, reduce_scatter: every rank publishes its whole operand, waits
 * for all, and folds its block of each in rank order (a reduce_scatter's ranks all pass every rank's count, and
 * publish a digest of them as the shape word, so that ranks passing other counts fail the call).</li>
 * <li>scatter: the root publishes every block but its own; each rank copies its own. alltoall: every rank
 * publishes its whole send but its own block; each copies its block out of every peer's cell and its own straight
 * from its send. The own block, which no peer reads, is left out and the others lie one behind the other, so that
 * at 2 ranks a cell holds one block, as a gather's does.</li>
 * <li>Past the limit, a call of any of these but barrier goes through the chunk area or the message layer,
 * as for the reductions ({@link HostChunkRoad}, {@link HostChunks#move}).</li>
 * <li>gatherv, allgatherv, alltoallv, alltoallw, scatterv: as their regular forms (alltoallw as alltoallv, each
 * block with its type), but a rank may not know every other's bytes, so the ranks agree the road from their offers:
 * each publishes its words with its offer (its bytes fit its cell, and are in it, after a table of where each peer's
 * block starts; a gatherv's root: every block it receives fits, {@link #offers}) and its bytes' length; a rank that
 * offers none goes on to the message layer at once, one that does reads the offers it needs (every peer's; a gatherv's
 * or scatterv's other ranks their root's) and takes the cells only if all offered, else the message layer too
 * ({@link #taken}): a blocking call at the call, a nonblocking gatherv, alltoallv, alltoallw or scatterv or a
 * persistent start when its run completes. A gatherv's root, whose offer decides, fails the call when a peer offers
 * none; a peer whose block is not as long as this rank expects fails it as the message layer would, and so does an
 * alltoallw's peer whose block has another type than this rank receives it as. A nonblocking or persistent allgatherv,
 * whose ranks all pass every rank's count, decides alone (its largest block fits a cell) and publishes a digest of the
 * counts as its shape word, so that ranks passing other counts fail it.</li>
 * </ul>
 *
 * <p>Implementation notes. This rank, the group size and the views of every rank's cells are made once by the
 * region; the views of a reduce_scatter_block's blocks once per cell and size, by the thread that completes a call
 * (one at a time, as the region's calls and runs). Reads the peers' cells only in {@link #finish} and
 * {@link #finishVector}, after the region has seen their calls published (acquire), so plain reads see their bytes.
 * No allocation per call.
 */
final class HostSteps {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final int rank;
    private final int size;
    /** Every rank's cells: the bytes a vector call's peer published are its shape word. */
    private final HostCells cells;
    /** Per rank and cell: a view of the cell's bytes, inline ({@code 2c + 1}) and in the lines after ({@code 2c}). */
    private final MemorySegment[][] bytes;
    /**
     * Per rank and cell: a view of this rank's block of the reduce_scatter(_block) operand there, made for the cell's
     * last such call, and where it starts and how long the operand is ({@code blockKeys}, {@code at << 32 | whole}):
     * a call with the same block, start and operand uses it again.
     */
    private final MemorySegment[][] blocks;
    private final long[][] blockKeys;
    /**
     * The bytes of a vector call's table of where its blocks start: {@code p + 1} ints, in whole longs; none at 2
     * ranks, whose cell holds one block (so that up to 32 bytes travel in the cell's first line, with its words).
     */
    private final long table;
    /**
     * The bytes of an alltoallw's table: {@code p + 1} ints of where its blocks start, then the type ordinals of the
     * {@code p} blocks, in whole longs (at every group size: the receiver checks each block's type).
     */
    private final long typedTable;

    HostSteps(final int rank, final int size, final HostCells cells) {
        this.rank = rank;
        this.size = size;
        this.cells = cells;
        this.bytes = cells.views();
        this.blocks = new MemorySegment[size][HostLayout.CELLS];
        this.blockKeys = new long[size][HostLayout.CELLS];
        this.table = 2 == size ? 0 : (Integer.BYTES * (size + 1L) + Long.BYTES - 1) / Long.BYTES * Long.BYTES;
        this.typedTable = (Integer.BYTES * (2L * size + 1) + Long.BYTES - 1) / Long.BYTES * Long.BYTES;
    }

    /**
     * @return what a call waits for on this rank: {@link HostRun#NONE}, {@code ROOT}, {@code ALL} or {@code LOWER}
     * (a scan's or exscan's ranks but the first: the ranks before them)
     */
    int awaits(final CollCall c) {
        return switch (c.kind()) {
            case BARRIER, ALLREDUCE, ALLGATHER, ALLGATHERV, ALLTOALL, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER ->
                HostRun.ALL;
            case SCAN, EXSCAN -> 0 == rank ? HostRun.NONE : HostRun.LOWER;
            case BCAST, SCATTER -> rank == c.root() ? HostRun.NONE : HostRun.ROOT;
            case REDUCE, GATHER -> rank == c.root() ? HostRun.ALL : HostRun.NONE;
            case ALLTOALLV, ALLTOALLW -> HostRun.ALL;
            case GATHERV -> rank == c.root() ? HostRun.ALL : HostRun.ROOT; // its others: their root's offer
            case SCATTERV -> rank == c.root() ? HostRun.NONE : HostRun.ROOT;
            default -> throw Failures.internal(c.kind().mpiName(), c.where(), "no on-host algorithm");
        };
    }

    /**
     * @return the memory this rank's bytes of a call come from, or null when it publishes none: a bcast's or
     * scatter's root its whole vector, a reduction's and an alltoall's every rank its operand, a gather's its block
     * (in place: its block of the receive buffer)
     */
    MemorySegment source(final CollCall c) {
        return switch (c.kind()) {
            case BCAST -> rank == c.root() ? c.recv() : null;
            case SCATTER -> rank == c.root() ? c.send() : null;
            case REDUCE, ALLREDUCE, GATHER, ALLGATHER, ALLGATHERV, ALLTOALL, SCAN, EXSCAN, REDUCE_SCATTER_BLOCK,
                REDUCE_SCATTER -> null != c.send() ? c.send() : c.recv();
            default -> null;
        };
    }

    /** @return where in {@link #source} this rank's bytes start */
    long sourceAt(final CollCall c) {
        final CollKind kind = c.kind();
        if (null != c.send()) {
            return 0;
        }
        return CollKind.GATHER == kind || CollKind.ALLGATHER == kind ? rank * block(c)
            : CollKind.ALLGATHERV == kind ? c.recvDispls()[rank] * c.sendType().sizeBytes() : 0;
    }

    /**
     * @return the bytes of this rank's own block, which no peer reads, that it leaves out of what it publishes: a
     * scatter's (its root's) and an alltoall's, else 0
     */
    static long hole(final CollCall c) {
        return CollKind.ALLTOALL == c.kind() || CollKind.SCATTER == c.kind() ? block(c) : 0;
    }

    /**
     * @return how many bytes this rank publishes for a call: a block, a scatter's or alltoall's {@code p - 1} of
     * them (all but its own, {@link #hole}), or a reduce_scatter(_block)'s whole operand ({@code p} blocks: each
     * rank folds its block of every operand, its own too, out of the cells, in rank order)
     */
    long published(final CollCall c) {
        if (null == source(c)) {
            return 0;
        }
        return switch (c.kind()) {
            case SCATTER, ALLTOALL -> block(c) * (size - 1);
            case REDUCE_SCATTER_BLOCK -> block(c) * size;
            case REDUCE_SCATTER -> c.selectBytes();
            default -> block(c);
        };
    }

    /**
     * Completes call {@code k} on this rank once every peer it waits for ({@link #awaits}) has published it: copies
     * out of their cells, or folds them in rank order, {@code x0 op (x1 op (... op x(p-1)))}.
     */
    void finish(final long k, final CollCall c) {
        final long n = block(c);
        final MemorySegment recv = c.recv();
        final int root = c.root();
        switch (c.kind()) {
            case BCAST -> {
                if (rank != root) {
                    SegmentCopy.copy(data(root, k, n), 0, recv, 0, n);
                }
            }
            case REDUCE, ALLREDUCE -> {
                if (CollKind.ALLREDUCE == c.kind() || rank == root) {
                    if (ownFirst(c)) { // own operand first (in place: recv holds it), then the peers'
                        if (null != c.send()) {
                            SegmentCopy.copy(c.send(), 0, recv, 0, n);
                        }
                        for (int i = 1; i < size; i++) {
                            LocalReduction.reduce(c.op(), c.sendType(), data((rank + i) % size, k, n), recv,
                                c.sendCount());
                        }
                    } else {
                        SegmentCopy.copy(data(size - 1, k, n), 0, recv, 0, n);
                        for (int r = size - 2; r >= 0; r--) {
                            LocalReduction.reduce(c.op(), c.sendType(), data(r, k, n), recv, c.sendCount());
                        }
                    }
                }
            }
            case SCAN, EXSCAN -> {
                // scan: x0 op (x1 op (... op x_rank)), starting from the own operand; exscan: up to x_(rank-1)
                final int last = CollKind.SCAN == c.kind() ? rank : rank - 1;
                if (last < 0) {
                    break; // an exscan's first rank: its receive buffer is not significant
                }
                if (last == rank) {
                    if (null != c.send()) {
                        SegmentCopy.copy(c.send(), 0, recv, 0, n);
                    }
                } else {
                    SegmentCopy.copy(data(last, k, n), 0, recv, 0, n);
                }
                for (int r = last - 1; r >= 0; r--) {
                    reduce(c, data(r, k, n), recv);
                }
            }
            case REDUCE_SCATTER_BLOCK, REDUCE_SCATTER -> { // this rank's block of every operand, in rank order
                final long at = CollKind.REDUCE_SCATTER_BLOCK == c.kind() ? rank * n : before(c);
                final long whole = published(c);
                if (ownFirst(c)) {
                    SegmentCopy.copy(blockOf(rank, k, at, n, whole), 0, recv, 0, n);
                    for (int i = 1; i < size; i++) {
                        reduce(c, blockOf((rank + i) % size, k, at, n, whole), recv);
                    }
                } else {
                    SegmentCopy.copy(blockOf(size - 1, k, at, n, whole), 0, recv, 0, n);
                    for (int r = size - 2; r >= 0; r--) {
                        reduce(c, blockOf(r, k, at, n, whole), recv);
                    }
                }
            }
            case ALLGATHERV -> gathered(c, k, false);
            case GATHER, ALLGATHER -> {
                if (CollKind.ALLGATHER == c.kind() || rank == root) {
                    for (int i = 1; i < size; i++) {
                        final int r = (rank + i) % size;
                        SegmentCopy.copy(data(r, k, n), 0, recv, r * n, n);
                    }
                    if (null != c.send()) {
                        SegmentCopy.copy(c.send(), 0, recv, rank * n, n);
                    }
                }
            }
            case SCATTER -> {
                if (rank != root) { // the root's cell holds its blocks for every rank but itself, in rank order
                    SegmentCopy.copy(data(root, k, n * (size - 1)), (rank < root ? rank : rank - 1) * n, recv, 0, n);
                } else if (null != recv) {
                    SegmentCopy.copy(c.send(), rank * n, recv, 0, n);
                }
            }
            case ALLTOALL -> { // rank r's cell holds its blocks for every rank but r, in rank order
                for (int i = 1; i < size; i++) {
                    final int r = (rank + i) % size;
                    SegmentCopy.copy(data(r, k, n * (size - 1)), (rank < r ? rank : rank - 1) * n, recv, r * n, n);
                }
                if (null != c.send()) { // in place, the own block is in the receive buffer already
                    SegmentCopy.copy(c.send(), rank * n, recv, rank * n, n);
                }
            }
            default -> {
            }
        }
    }

    /**
     * @return the bytes this rank publishes for a call whose road its ranks agree at the call (gatherv, allgatherv,
     * alltoallv, alltoallw, scatterv; {@link dev.tutti.coll.Road#agreedAtCall}): a gatherv's or allgatherv's block,
     * or the blocks an alltoallv, an alltoallw or a scatterv's root sends its peers, one behind the other in rank
     * order, after the table of where each starts; 0 for a gatherv's root and a scatterv's other ranks
     */
    long vectorBytes(final CollCall c) {
        final long e = c.sendType().sizeBytes();
        return switch (c.kind()) {
            case GATHERV -> rank == c.root() ? 0 : c.sendCount() * e;
            case ALLGATHERV -> c.recvCounts()[rank] * e;
            case ALLTOALLV -> table + sent(null == c.send() ? c.recvCounts() : c.sendCounts(), e);
            case ALLTOALLW -> typedTable + sent(c.args().sendBlocks());
            case SCATTERV -> rank == c.root() ? table + sent(c.sendCounts(), e) : 0;
            default -> throw Failures.internal(c.kind().mpiName(), c.where(), "no on-host vector algorithm");
        };
    }

    /**
     * Tells whether this rank may offer the cells for a vector call whose {@link #vectorBytes} are {@code n}: they fit
     * its cell of {@code limit} bytes, and at a gatherv's root every block it receives fits its sender's cell (its
     * offer is the call's road, which the other ranks follow).
     */
    boolean offers(final CollCall c, final long n, final long limit) {
        if (n > limit) {
            return false;
        }
        if (CollKind.GATHERV == c.kind() && rank == c.root()) {
            final long e = c.sendType().sizeBytes();
            final int[] counts = c.recvCounts();
            for (int r = 0; r < size; r++) {
                if (r != rank && counts[r] * e > limit) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Tells whether vector call {@code k}, whose road its ranks agree from their offers, takes the cells: once the
     * offers it needs are published and its words checked, when every rank offered (a gatherv's or scatterv's other
     * ranks: when its root did; a scatterv's root offers for all).
     *
     * @param call  this rank's call word, for a failure's text
     * @param shape its shape word (the bytes it published)
     * @throws dev.tutti.TuttiException at a gatherv's root that offered, if a peer whose block fits its cell of
     *                                   {@code limit} bytes offered none (it runs with other settings); a block past
     *                                   its cell is named by the count check of {@link #finishVector}
     */
    boolean taken(final long k, final CollCall c, final long call, final long shape, final long limit,
        final CollComm comm) {
        final CollKind kind = c.kind();
        final boolean rooted = CollKind.SCATTERV == kind || CollKind.GATHERV == kind;
        if (rooted && rank != c.root()) {
            return 0 != (cells.callOf(c.root(), k) & HostWords.HOST);
        }
        if (CollKind.SCATTERV == kind) {
            return true;
        }
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            if (0 != (cells.callOf(r, k) & HostWords.HOST)) {
                continue;
            }
            if (!rooted) {
                return false;
            }
            if (cells.shapeOf(r, k) <= limit) {
                throw HostWords.mismatch(comm, r, CollHeader.of(kind, c.root(), c.sendCount()), kind.mpiName(), call,
                    shape, 0, cells.callOf(r, k), shape, 0, c);
            }
        }
        return true;
    }

    /** @return the bytes of the blocks this rank sends its peers, {@code counts} elements of {@code e} bytes each */
    private long sent(final int[] counts, final long e) {
        long n = 0;
        for (int j = 0; j < size; j++) {
            n += j == rank ? 0 : counts[j] * e;
        }
        return n;
    }

    /** @return the bytes of the blocks this rank sends its peers, one segment each */
    private long sent(final MemorySegment[] blocks) {
        long n = 0;
        for (int j = 0; j < size; j++) {
            n += j == rank ? 0 : blocks[j].byteSize();
        }
        return n;
    }

    /** Writes this rank's {@code n} {@link #vectorBytes} of vector call {@code k} into its cell ({@link #pack}). */
    void packInto(final CollCall c, final long k, final long n) {
        pack(c, data(rank, k, n));
    }

    /**
     * Writes this rank's {@link #vectorBytes} of a vector call into {@code to}, a view of its cell: a gatherv's or
     * allgatherv's block; or the table, int {@code j} the offset after it of the block for rank {@code j} (the last,
     * {@code p}, where they end; this rank's own block is left out, so its offset is the next one's), then the
     * blocks; at 2 ranks, the peer's block alone. An alltoallw's table also holds each block's type ordinal (int
     * {@code p + 1 + j} the one of rank {@code j}'s block), at every group size.
     */
    void pack(final CollCall c, final MemorySegment to) {
        if (CollKind.ALLTOALLW == c.kind()) {
            packTyped(c.args(), to);
            return;
        }
        final long e = c.sendType().sizeBytes();
        if (CollKind.GATHERV == c.kind()) {
            SegmentCopy.copy(c.send(), 0, to, 0, c.sendCount() * e);
            return;
        }
        if (CollKind.ALLGATHERV == c.kind()) {
            final long at = null == c.send() ? c.recvDispls()[rank] * e : 0;
            SegmentCopy.copy(null == c.send() ? c.recv() : c.send(), at, to, 0, c.recvCounts()[rank] * e);
            return;
        }
        final boolean inPlace = CollKind.ALLTOALLV == c.kind() && null == c.send();
        final MemorySegment from = inPlace ? c.recv() : c.send();
        final int[] counts = inPlace ? c.recvCounts() : c.sendCounts();
        final int[] displs = inPlace ? c.recvDispls() : c.sendDispls();
        if (0 == table) { // 2 ranks: the peer's block alone
            final int peer = 1 - rank;
            SegmentCopy.copy(from, displs[peer] * e, to, 0, counts[peer] * e);
            return;
        }
        long off = 0;
        for (int j = 0; j < size; j++) {
            to.set(INT, (long) Integer.BYTES * j, (int) off);
            if (j != rank) {
                final long n = counts[j] * e;
                SegmentCopy.copy(from, displs[j] * e, to, table + off, n);
                off += n;
            }
        }
        to.set(INT, (long) Integer.BYTES * size, (int) off);
    }

    private void packTyped(final CollArgs a, final MemorySegment to) {
        final MemorySegment[] blocks = a.sendBlocks();
        final Datatype[] types = a.sendTypes();
        long off = 0;
        for (int j = 0; j < size; j++) {
            to.set(INT, (long) Integer.BYTES * j, (int) off);
            to.set(INT, (long) Integer.BYTES * (size + 1 + j), types[j].ordinal());
            if (j != rank) {
                final long n = blocks[j].byteSize();
                SegmentCopy.copy(blocks[j], 0, to, typedTable + off, n);
                off += n;
            }
        }
        to.set(INT, (long) Integer.BYTES * size, (int) off);
    }

    /**
     * Completes vector call {@code k} on this rank once the peers it reads have published it and every rank offered
     * the cells: copies its block out of each peer's cell, after checking that the peer sent as many bytes as this
     * rank expects from it (the message layer's check, and its failure, for the same fault).
     */
    void finishVector(final long k, final CollCall c) {
        final long e = c.sendType().sizeBytes();
        final MemorySegment recv = c.recv();
        switch (c.kind()) {
            case GATHERV, ALLGATHERV -> {
                if (CollKind.ALLGATHERV == c.kind() || rank == c.root()) { // a gatherv's others: its root reads
                    gathered(c, k, true);
                }
            }
            case ALLTOALLV -> {
                final int[] counts = c.recvCounts();
                final int[] displs = c.recvDispls();
                for (int i = 1; i < size; i++) {
                    final int r = (rank + i) % size;
                    copyBlock(c, r, k, counts[r] * e, recv, displs[r] * e);
                }
                if (null != c.send()) { // in place, the own block is in the receive buffer already
                    final long n = c.sendCounts()[rank] * e;
                    expect(c, rank, n, counts[rank] * e);
                    SegmentCopy.copy(c.send(), c.sendDispls()[rank] * e, recv, displs[rank] * e, n);
                }
            }
            case ALLTOALLW -> {
                final CollArgs a = c.args();
                for (int i = 1; i < size; i++) {
                    copyTyped(c, a, (rank + i) % size, k);
                }
                SegmentCopy.copy(a.sendBlocks()[rank], 0, a.recvBlocks()[rank], 0, a.sendBlocks()[rank].byteSize());
            }
            case SCATTERV -> {
                if (rank != c.root()) {
                    copyBlock(c, c.root(), k, c.sendCount() * e, recv, 0);
                } else if (null != recv) {
                    SegmentCopy.copy(c.send(), c.sendDispls()[rank] * e, recv, 0, c.sendCounts()[rank] * e);
                }
            }
            default -> throw Failures.internal(c.kind().mpiName(), c.where(), "no on-host vector algorithm");
        }
    }

    /**
     * Copies every peer's block of (all)gatherv call {@code k} out of its cell, and its own out of its send: the
     * bytes each peer published (its shape word), checked against this rank's count for it, when {@code published};
     * else this rank's count for each, which its peers' words showed is theirs too (a digest of every count).
     */
    private void gathered(final CollCall c, final long k, final boolean published) {
        final long e = c.sendType().sizeBytes();
        final MemorySegment recv = c.recv();
        final int[] counts = c.recvCounts();
        final int[] displs = c.recvDispls();
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            final long want = counts[r] * e;
            final long n = published ? cells.shapeOf(r, k) : want;
            expect(c, r, n, want);
            SegmentCopy.copy(data(r, k, n), 0, recv, displs[r] * e, n);
        }
        if (null != c.send()) {
            SegmentCopy.copy(c.send(), 0, recv, displs[rank] * e, counts[rank] * e);
        }
    }

    /** Copies this rank's block out of rank {@code r}'s table and blocks of call {@code k}, {@code want} bytes. */
    private void copyBlock(final CollCall c, final int r, final long k, final long want, final MemorySegment to,
        final long at) {
        final long bytes = cells.shapeOf(r, k);
        final MemorySegment cell = data(r, k, bytes);
        final int from = 0 == table ? 0 : cell.get(INT, (long) Integer.BYTES * rank);
        final long n = 0 == table ? bytes : cell.get(INT, (long) Integer.BYTES * (rank + 1)) - from;
        expect(c, r, n, want);
        SegmentCopy.copy(cell, table + from, to, at, n);
    }

    /**
     * Copies this rank's block of alltoallw call {@code k} out of rank {@code r}'s cell into its receive block from
     * {@code r}, after checking its type and length as the message layer checks a message's: the types agree unless
     * either is {@code BYTE}, and the lengths are the same.
     */
    private void copyTyped(final CollCall c, final CollArgs a, final int r, final long k) {
        final MemorySegment cell = data(r, k, cells.shapeOf(r, k));
        final int from = cell.get(INT, (long) Integer.BYTES * rank);
        final long n = cell.get(INT, (long) Integer.BYTES * (rank + 1)) - from;
        final Datatype sent = TypeCode.datatype(cell.get(INT, (long) Integer.BYTES * (size + 1 + rank)));
        final Datatype type = a.recvTypes()[r];
        final MemorySegment to = a.recvBlocks()[r];
        if (sent != type && Datatype.BYTE != sent && Datatype.BYTE != type) {
            throw Errors.typeMismatch(c.kind().mpiName(), c.comm().describe(), r, sent, type);
        }
        if (n != to.byteSize()) {
            throw Errors.countMismatch(c.kind().mpiName(), c.comm().describe(), r, n, to.byteSize(), type);
        }
        SegmentCopy.copy(cell, typedTable + from, to, 0, n);
    }

    /**
     * @return a view of this rank's block, {@code n} bytes from {@code at}, of rank {@code r}'s reduce_scatter(_block)
     * operand of call {@code k} ({@code whole} bytes in its cell): the one of the cell's last such call if it had the
     * same block, start and operand
     */
    private MemorySegment blockOf(final int r, final long k, final long at, final long n, final long whole) {
        final int cell = (int) (k & (HostLayout.CELLS - 1));
        final long key = at << Integer.SIZE | whole;
        MemorySegment v = blocks[r][cell];
        if (null == v || v.byteSize() != n || blockKeys[r][cell] != key) {
            v = data(r, k, whole).asSlice(at, n);
            blocks[r][cell] = v;
            blockKeys[r][cell] = key;
        }
        return v;
    }

    /** @return the bytes of a reduce_scatter's blocks before this rank's, in its operand */
    private long before(final CollCall c) {
        final int[] counts = c.recvCounts();
        long n = 0;
        for (int j = 0; j < rank; j++) {
            n += counts[j];
        }
        return n * c.sendType().sizeBytes();
    }

    /** Folds {@code in} into {@code inout}: {@code inout = in op inout}, a block of the call's count. */
    private static void reduce(final CollCall c, final MemorySegment in, final MemorySegment inout) {
        LocalReduction.reduce(c.op(), c.sendType(), in, inout, c.sendCount());
    }

    /** Fails the call if rank {@code r} sent {@code n} bytes to this rank where it expects {@code want}. */
    private static void expect(final CollCall c, final int r, final long n, final long want) {
        if (n != want) {
            throw Errors.countMismatch(c.kind().mpiName(), c.comm().describe(), r, n, want, c.sendType());
        }
    }

    /**
     * Tells whether a reduction may fold this rank's own operand first, out of its own buffer (read in this core's
     * cache, where the rank-order fold starts with a copy of rank {@code p - 1}'s cell, read across cores): the op
     * commutes, and every rank still computes the same bits, since either the group has 2 ranks ({@code a op b} and
     * {@code b op a} are the same bits for a commutative op) or the type is not a floating-point one (its
     * predefined and, by MPI's rule, user ops are associative).
     */
    private boolean ownFirst(final CollCall c) {
        final Datatype t = c.sendType();
        return c.op().isCommutative() && (2 == size || Datatype.FLOAT != t && Datatype.DOUBLE != t);
    }

    /** @return the bytes of one block of the call (its whole vector for bcast and the reductions) */
    static long block(final CollCall c) {
        return (long) c.sendCount() * c.sendType().sizeBytes();
    }

    /** @return a view of the bytes of call {@code k} in rank {@code r}'s cell, a call of {@code n} bytes there */
    MemorySegment data(final int r, final long k, final long n) {
        return bytes[r][(int) (k & (HostLayout.CELLS - 1)) * 2 + (n <= HostLayout.INLINE ? 1 : 0)];
    }
}
