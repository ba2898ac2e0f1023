package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * Reduce-scatter by recursive halving: MPICH {@code MPIR_Reduce_scatter_intra_recursive_halving}; Thakur,
 * Rabenseifner &amp; Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 2005.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Fold for any {@code p}: let {@code p'} be the largest power of two {@code <= p} and {@code rem = p - p'}.
 *     Among the first {@code 2·rem} ranks each even rank sends its whole input to the odd rank above it, which
 *     reduces it into its own copy, and then sits out until the end; the {@code p'} remaining ranks get new
 *     ranks {@code 0..p'-1} (odd rank {@code r < 2·rem} becomes {@code r/2}, rank {@code r >= 2·rem} becomes
 *     {@code r - rem}). New rank {@code i} is responsible for the blocks of the old ranks it stands for (both
 *     ranks of a folded pair), which keeps every new rank's part contiguous and in rank order.</li>
 * <li>Halving: {@code lg p'} rounds with distance {@code p'/2, p'/4, ..., 1}. A rank keeps the half of its
 *     current range on its side of the partner (the lower half if its bit is clear), sends the other half,
 *     receives the partner's copy of the kept half into scratch at the kept half's own offset and reduces it
 *     in, so that both operands of the reduction sit at one index (the kernels' fast loop, see
 *     {@code dev.tutti.type.kernel.Kernels}). After the last round new rank {@code i} holds the reduced part
 *     {@code i}. Then each folded odd rank sends the even rank's block back to it.</li>
 * <li>No copy of the input: the first round sends its half straight from the input, receives the partner's
 *     copy of the kept half straight into the working vector and reduces the input's kept half into it; a
 *     folded odd rank receives its even neighbour's vector into the working vector and reduces its input in.
 *     The operands then meet in the other order ({@code mine (op) theirs}), which a commutative operation
 *     allows; every block is still reduced by one rank alone, so every rank gets the same bits.</li>
 * <li>Cost {@code lg p'·α + ((p'-1)/p')n(β+γ)}, plus {@code 2α + nβ + nγ} for the fold when {@code p} is not a
 *     power of two. Scratch {@code 2n} on the working ranks (the working vector, since the input must not be
 *     modified, and a receive area), arrays of the element type ({@link Scratch#allocate(long, dev.tutti.Datatype)}).
 *     Operands are combined out of rank order: commutative operations only.</li>
 * <li>In place: the input is in {@code recv}; it is only read (sent, or reduced into the working vector) in
 *     the first round, before the result is written into its first block at the end.</li>
 * </ul>
 */
public final class RecursiveHalving {
    private RecursiveHalving() {
    }

    /**
     * Recursive-halving reduce_scatter_block. Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule reduceScatterBlock(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final long n = a.count();
        final long total = p * n;
        final MemorySegment input = a.slice(a.inPlace() ? a.recv() : a.send(), 0, total);
        final MemorySegment out = a.slice(a.recv(), 0, n);
        if (1 == p || 0 == n) {
            b.copy(a.slice(input, (long) me * n, n), out);
            return b.build();
        }
        final int pof2 = Integer.highestOneBit(p);
        final int rem = p - pof2;
        if (me < 2 * rem && 0 == (me & 1)) {
            b.send(me + 1, input, a.type()).endRound();
            b.recv(me + 1, out, a.type());
            return b.build();
        }
        final MemorySegment work = Scratch.allocate(total * a.elem(), a.type());
        final MemorySegment tmp = Scratch.allocate(total * a.elem(), a.type());
        final int newRank = me < 2 * rem ? me / 2 : me - rem;
        if (me < 2 * rem) {
            b.recv(me - 1, work, a.type());
            b.reduce(a.reduceOp(), a.type(), input, work, (int) total);
            b.endRound();
        }
        // New rank i stands for old ranks oldFirst(i) (and oldFirst(i) - 1 when folded): elements [d[i], d[i+1]).
        final long[] d = new long[pof2 + 1];
        for (int i = 0; i < pof2; i++) {
            d[i + 1] = (long) (i < rem ? 2 * i + 2 : i + rem + 1) * n;
        }
        halve(b, a, me < 2 * rem ? null : input, work, tmp, d, newRank, rem);
        b.copy(a.slice(work, (long) me * n, n), out);
        if (me < 2 * rem) {
            b.endRound();
            b.send(me - 1, a.slice(work, (long) (me - 1) * n, n), a.type());
        }
        return b.build();
    }

    /** @return the old rank of new rank {@code i} after the fold of the first {@code 2·rem} ranks */
    static int oldRank(final int i, final int rem) {
        return i < rem ? 2 * i + 1 : i + rem;
    }

    /**
     * Adds the recursive-halving rounds over {@code p' = d.length - 1} parts: afterwards {@code newRank}'s part
     * {@code [d[newRank], d[newRank + 1])} of {@code work} holds the reduction over all {@code p'} ranks.
     *
     * @param b       the builder
     * @param a       the arguments (type, op)
     * @param input   this rank's vector when {@code work} does not hold it yet (the first round then reads it
     *                there and writes {@code work}), or null when {@code work} holds it
     * @param work    this rank's working vector (the whole, element offsets as in {@code d})
     * @param tmp     scratch at least as large as {@code work}: a part is received at its own offset
     * @param d       element offsets of the parts, {@code p' + 1} entries, {@code p' >= 2} (so the first round,
     *                which reads {@code input}, always runs)
     * @param newRank this rank among the {@code p'}
     * @param rem     the number of folded pairs (maps new ranks to group ranks)
     */
    static void halve(final ScheduleBuilder b, final CollArgs a, final MemorySegment input,
        final MemorySegment work, final MemorySegment tmp, final long[] d, final int newRank, final int rem) {
        final int pof2 = d.length - 1;
        int lo = 0;
        int hi = pof2;
        MemorySegment from = null == input ? work : input;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            final int partner = newRank ^ mask;
            final int mid = lo + mask;
            final int keepLo = newRank < partner ? lo : mid;
            final int keepHi = newRank < partner ? mid : hi;
            final int sendLo = newRank < partner ? mid : lo;
            final int sendHi = newRank < partner ? hi : mid;
            final long keepElems = d[keepHi] - d[keepLo];
            final MemorySegment kept = a.slice(work, d[keepLo], keepElems);
            final MemorySegment got = from == work ? a.slice(tmp, d[keepLo], keepElems) : kept;
            final int peer = oldRank(partner, rem);
            b.recv(peer, got, a.type());
            b.send(peer, a.slice(from, d[sendLo], d[sendHi] - d[sendLo]), a.type());
            b.reduce(a.reduceOp(), a.type(), from == work ? got : a.slice(from, d[keepLo], keepElems), kept,
                (int) keepElems);
            b.endRound();
            lo = keepLo;
            hi = keepHi;
            from = work;
        }
    }
}
