package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;

/**
 * The on-host algorithms as one table, for every form of call (blocking, nonblocking, a persistent start): what a
 * rank publishes in its cell ({@link #source}, {@link #published}), whose calls it waits for ({@link #awaits}), and
 * what it does once they are there ({@link #finish}). {@link HostRegion} publishes, waits and calls these.
 *
 * <p>Implementation notes. Immutable after construction: this rank, the group size, and the views of every rank's
 * cells, made once by the region. Reads the peers' cells only in {@link #finish}, after the region has seen their
 * calls published (acquire), so plain reads see their bytes. No allocation.
 */
final class HostSteps {
    private final int rank;
    private final int size;
    /** Per rank and cell: a view of the cell's bytes, inline ({@code 2c + 1}) and in the lines after ({@code 2c}). */
    private final MemorySegment[][] bytes;

    HostSteps(final int rank, final int size, final MemorySegment[][] bytes) {
        this.rank = rank;
        this.size = size;
        this.bytes = bytes;
    }

    /** @return what a call waits for on this rank: {@link HostRun#NONE}, {@code ROOT} or {@code ALL} */
    int awaits(final CollCall c) {
        return switch (c.kind()) {
            case BARRIER, ALLREDUCE, ALLGATHER, ALLTOALL -> HostRun.ALL;
            case BCAST, SCATTER -> rank == c.root() ? HostRun.NONE : HostRun.ROOT;
            case REDUCE, GATHER -> rank == c.root() ? HostRun.ALL : HostRun.NONE;
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
            case REDUCE, ALLREDUCE, GATHER, ALLGATHER, ALLTOALL -> null != c.send() ? c.send() : c.recv();
            default -> null;
        };
    }

    /** @return where in {@link #source} this rank's bytes start */
    long sourceAt(final CollCall c) {
        final CollKind kind = c.kind();
        return null == c.send() && (CollKind.GATHER == kind || CollKind.ALLGATHER == kind) ? rank * block(c) : 0;
    }

    /**
     * @return the bytes of this rank's own block, which no peer reads, that it leaves out of what it publishes: a
     * scatter's (its root's) and an alltoall's, else 0
     */
    static long hole(final CollCall c) {
        return CollKind.ALLTOALL == c.kind() || CollKind.SCATTER == c.kind() ? block(c) : 0;
    }

    /**
     * @return how many bytes this rank publishes for a call: a block, or a scatter's or alltoall's {@code p - 1} of
     * them (all but its own, {@link #hole})
     */
    long published(final CollCall c) {
        if (null == source(c)) {
            return 0;
        }
        final CollKind kind = c.kind();
        return CollKind.SCATTER == kind || CollKind.ALLTOALL == kind ? block(c) * (size - 1) : block(c);
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
