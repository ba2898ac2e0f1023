package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;

/**
 * Pairwise exchange: {@code p-1} rounds, in round {@code i} rank {@code r} sends to {@code r+i} and receives
 * from {@code r-i} (mod p), so every rank has exactly one message in and one out per round and no rank is
 * flooded. MPICH {@code MPIR_Alltoall_intra_pairwise}, {@code MPIR_Reduce_scatter_intra_pairwise}; Thakur,
 * Rabenseifner &amp; Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 2005.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Alltoall(v): round {@code i} sends the block for {@code r+i} and receives the block from {@code r-i}
 *     directly into {@code recv}; the own block is copied locally first. Cost {@code (p-1)α + (p-1)mβ} for
 *     blocks of {@code m} bytes, one message pair in flight per rank. In place: the input is copied to scratch
 *     first (the block for {@code r-i} is still to be sent when the block from {@code r-i} arrives over it,
 *     because the send and receive peers of a round differ); scratch {@code p·m}.</li>
 * <li>Reduce-scatter(-block): round {@code i} sends the input block owned by {@code r+i} and receives the
 *     block owned by this rank from {@code r-i} into one scratch block, then folds it into the accumulator.
 *     Cost {@code (p-1)α + ((p-1)/p)n(β+γ)}. The accumulator is the own block of the output (not in place) or
 *     of the input (in place: the own input block is never sent, so it may be overwritten; it is copied to the
 *     first block after the last round, when every send of the input is complete). Operands are combined in
 *     arrival order: commutative operations only.</li>
 * <li>Each ordered pair of ranks exchanges exactly one message per call, so matching order is trivial.</li>
 * </ul>
 */
public final class Pairwise {
    private Pairwise() {
    }

    /**
     * Pairwise alltoall.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule alltoall(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final MemorySegment input = a.inPlace() && p > 1 && a.count() > 0
            ? b.snapshot(a.slice(a.recv(), 0, (long) p * a.count())) : a.inPlace() ? a.recv() : a.send();
        b.copyMeanwhile(a.block(input, me), a.block(a.recv(), me)); // with the first round's messages
        if (0 == a.count()) {
            return b.build();
        }
        for (int i = 1; i < p; i++) {
            final int to = (me + i) % p;
            final int from = (me - i + p) % p;
            b.recv(from, a.block(a.recv(), from), a.type());
            b.send(to, a.block(input, to), a.type());
            b.endRound();
        }
        return b.build();
    }

    /**
     * Pairwise alltoallv.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule alltoallv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int[] rc = a.recvCounts();
        final int[] rd = a.recvDispls();
        final int[] sc = a.inPlace() ? rc : a.sendCounts();
        final int[] sd = a.inPlace() ? rd : a.sendDispls();
        final MemorySegment input = a.inPlace() && p > 1 ? b.snapshot(a.recv()) : a.inPlace() ? a.recv()
            : a.send();
        b.copyMeanwhile(a.slice(input, sd[me], sc[me]), a.slice(a.recv(), rd[me], rc[me]));
        for (int i = 1; i < p; i++) {
            final int to = (me + i) % p;
            final int from = (me - i + p) % p;
            b.recv(from, a.slice(a.recv(), rd[from], rc[from]), a.type());
            b.send(to, a.slice(input, sd[to], sc[to]), a.type());
            b.endRound();
        }
        return b.build();
    }

    /**
     * Pairwise reduce_scatter_block. Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule reduceScatterBlock(final CollComm c, final CollArgs a) {
        final int[] counts = new int[c.size()];
        java.util.Arrays.fill(counts, a.count());
        return reduceScatter(c, a, counts);
    }

    /**
     * Pairwise reduce_scatter. Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule reduceScatter(final CollComm c, final CollArgs a) {
        return reduceScatter(c, a, a.recvCounts());
    }

    private static Schedule reduceScatter(final CollComm c, final CollArgs a, final int[] counts) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final long[] displs = new long[p + 1];
        for (int i = 0; i < p; i++) {
            displs[i + 1] = displs[i] + counts[i];
        }
        final MemorySegment input = a.inPlace() ? a.recv() : a.send();
        final MemorySegment out = a.slice(a.recv(), 0, counts[me]);
        final MemorySegment acc = a.inPlace() ? Ring.blockOf(a, input, displs, me) : out;
        if (!a.inPlace()) {
            b.copy(Ring.blockOf(a, input, displs, me), acc);
        }
        final MemorySegment tmp = p > 1 ? Scratch.allocate(counts[me] * a.elem(), a.type()) : null;
        for (int i = 1; i < p; i++) {
            final int to = (me + i) % p;
            final int from = (me - i + p) % p;
            b.recv(from, tmp, a.type());
            b.send(to, Ring.blockOf(a, input, displs, to), a.type());
            b.reduce(a.reduceOp(), a.type(), tmp, acc, counts[me]);
            b.endRound();
        }
        if (a.inPlace() && 0 != displs[me] && counts[me] > 0) {
            // Overlapping ranges are fine: SegmentCopy.copy behaves as if through a temporary.
            b.local(() -> SegmentCopy.copy(acc, 0, out, 0, acc.byteSize()));
        }
        return b.build();
    }
}
