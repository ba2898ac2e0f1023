package dev.tutti.coll.algo;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * Recursive doubling: allreduce, allgather, scan and exscan in about {@code lg p} rounds.
 *
 * <p>Implementation notes. In round k a rank exchanges with the rank whose (virtual) rank differs in bit k, so
 * after round k it holds the result of its aligned group of {@code 2^(k+1)} ranks. Each group is a contiguous
 * range of ranks and the partner's group lies wholly below or above, so keeping the lower group's data as the
 * left operand of every combination preserves the rank order x0 op x1 op ... op x(p-1): all four operations
 * are correct for non-commutative ops. Which buffer holds the accumulator is decided when the schedule is
 * built ({@code inout = in op inout} writes the right operand, so "partner above" reduces into the received
 * buffer and the two buffers swap roles instead of being copied).
 * <ul>
 * <li>allreduce (MPICH {@code MPIR_Allreduce_intra_recursive_doubling}). Non-powers of two fold: with
 *     {@code p' = 2^floor(lg p)} and {@code r = p - p'}, among the first 2r ranks each even rank hands its vector
 *     to the odd rank above it (which combines it as the left operand) and sits out; the p' remaining ranks
 *     (virtual rank {@code i} is rank {@code 2i+1} for {@code i < r}, else {@code i + r}, so virtual order is
 *     rank order) run recursive doubling; the odd ranks hand the result back. Cost
 *     {@code lg p'·(α + nβ + nγ)}, plus {@code 2(α + nβ) + nγ} when p is not a power of two. Memory: one
 *     scratch vector.</li>
 * <li>allgather. The same fold, in the receive buffer itself: an even rank of the first 2r sends its block to
 *     the odd rank above, which then stands for both; in round k each of the p' ranks sends its group's blocks
 *     (a contiguous range of ranks, so of {@code recv}) and receives the partner group's; at the end the odd
 *     ranks send the whole buffer back. Cost {@code lg p'·α + ((p-1)/p)·p·mβ} for blocks of m bytes (a power
 *     of two: the classic algorithm), plus {@code 2α + (m + p·m)β} otherwise. No scratch, no local rotation
 *     (unlike Bruck, which is the better choice for non-powers of two with large p: it has
 *     {@code ceil(lg p)} rounds and no hand-back of the whole buffer).</li>
 * <li>scan / exscan (MPICH {@code MPIR_Scan_intra_recursive_doubling}, {@code MPIR_Exscan_intra_recursive_doubling}).
 *     Every rank keeps the partial result of its group and its own prefix; in round k it exchanges partials with
 *     {@code rank XOR 2^k} (skipped if that is {@code >= p}, which handles any p without a fold); a partial from
 *     below is folded into both, a partial from above only into the partial. The partial is not updated in a
 *     rank's last exchange. Cost {@code ceil(lg p)·(α + nβ)} and up to {@code 2nγ} per round. Exscan leaves rank
 *     0's receive buffer untouched (MPI: undefined) and receives its first lower partial straight into it.</li>
 * </ul>
 * Sources: REFERENCE.md §1.1 (recursive doubling; fold/unfold); Thakur, Rabenseifner, Gropp, "Optimization of
 * Collective Communication Operations in MPICH", IJHPCA 2005.
 */
public final class RecursiveDoubling {
    private RecursiveDoubling() {
    }

    /** @param c comm @param a args @return allgather schedule: recursive doubling, fold for non-powers of two */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int pof2 = Integer.highestOneBit(p);
        final int rem = p - pof2;
        final long count = a.count();
        final Datatype type = a.type();
        final MemorySegment whole = a.slice(a.recv(), 0, p * count);
        final MemorySegment mine = a.inPlace() ? a.block(a.recv(), me) : a.slice(a.send(), 0, count);
        if (me < 2 * rem && 0 == (me & 1)) {
            b.send(me + 1, mine, type).endRound();
            return b.recv(me + 1, whole, type).build();
        }
        b.copy(mine, a.block(a.recv(), me));
        if (me < 2 * rem) {
            b.recv(me - 1, a.block(a.recv(), me - 1), type).endRound();
        }
        final int v = me < 2 * rem ? me >> 1 : me - rem;
        for (int mask = 1; mask < pof2; mask <<= 1) {
            final int group = v & -mask;
            final int partnerGroup = group ^ mask;
            final int dst = real(v ^ mask, rem);
            b.recv(dst, blocks(a, firstRank(partnerGroup, rem), firstRank(partnerGroup + mask, rem)), type);
            b.send(dst, blocks(a, firstRank(group, rem), firstRank(group + mask, rem)), type);
            b.endRound();
        }
        if (me < 2 * rem) {
            b.send(me - 1, whole, type);
        }
        return b.build();
    }

    /** @param c comm @param a args @return allreduce schedule: recursive doubling with fold, order-preserving */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int pof2 = Integer.highestOneBit(p);
        final int rem = p - pof2;
        final int count = a.count();
        final Datatype type = a.type();
        final Op o = a.reduceOp();
        final MemorySegment result = a.slice(a.recv(), 0, count);
        final MemorySegment input = a.inPlace() ? result : a.slice(a.send(), 0, count);
        if (me < 2 * rem && 0 == (me & 1)) {
            b.send(me + 1, input, type).endRound();
            return b.recv(me + 1, result, type).build();
        }
        // acc: the reduction so far; it may be the read-only input until something is reduced into it.
        final Acc s = new Acc(b, o, type, count, input, a.inPlace(), result,
            p > 1 ? Scratch.allocate(a.bytes(), type) : null);
        if (me < 2 * rem) {
            b.recv(me - 1, s.spare, type);
            s.foldBelow();
            b.endRound();
        }
        final int v = me < 2 * rem ? me >> 1 : me - rem;
        for (int mask = 1; mask < pof2; mask <<= 1) {
            final int dst = real(v ^ mask, rem);
            b.recv(dst, s.spare, type);
            b.send(dst, s.acc, type);
            if (dst < me) {
                s.foldBelow();
            } else {
                s.foldAbove();
            }
            b.endRound();
        }
        b.copy(s.acc, result);
        if (me < 2 * rem) {
            b.endRound();
            b.send(me - 1, result, type);
        }
        return b.build();
    }

    /** @param c comm @param a args @return scan schedule: recursive doubling, order-preserving */
    public static Schedule scan(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int count = a.count();
        final Datatype type = a.type();
        final Op o = a.reduceOp();
        final MemorySegment result = a.slice(a.recv(), 0, count);
        if (!a.inPlace()) {
            b.copy(a.slice(a.send(), 0, count), result);
        }
        if (1 == p) {
            return b.build();
        }
        MemorySegment partial = Scratch.allocate(a.bytes(), a.type());
        MemorySegment tmp = Scratch.allocate(a.bytes(), a.type());
        b.copy(a.inPlace() ? result : a.slice(a.send(), 0, count), partial);
        for (int mask = 1; mask < p; mask <<= 1) {
            final int dst = me ^ mask;
            if (dst >= p) {
                continue;
            }
            final boolean keep = hasLaterPartner(me, mask, p);
            b.recv(dst, tmp, type);
            b.send(dst, partial, type);
            if (dst < me) {
                if (keep) {
                    b.reduce(o, type, tmp, partial, count);
                }
                b.reduce(o, type, tmp, result, count);
            } else if (keep) {
                b.reduce(o, type, partial, tmp, count);
                final MemorySegment t = partial;
                partial = tmp;
                tmp = t;
            }
            b.endRound();
        }
        return b.build();
    }

    /** @param c comm @param a args @return exscan schedule: recursive doubling; rank 0's recv untouched */
    public static Schedule exscan(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int count = a.count();
        final Datatype type = a.type();
        final Op o = a.reduceOp();
        final MemorySegment result = a.slice(a.recv(), 0, count);
        if (1 == p) {
            return b.build();
        }
        MemorySegment partial = Scratch.allocate(a.bytes(), a.type());
        MemorySegment tmp = Scratch.allocate(a.bytes(), a.type());
        b.copy(a.inPlace() ? result : a.slice(a.send(), 0, count), partial);
        boolean haveLower = false;
        for (int mask = 1; mask < p; mask <<= 1) {
            final int dst = me ^ mask;
            if (dst >= p) {
                continue;
            }
            final boolean keep = hasLaterPartner(me, mask, p);
            if (dst < me) {
                // The first partial from below is this rank's prefix so far: receive it straight into recv.
                final MemorySegment from = haveLower ? tmp : result;
                b.recv(dst, from, type);
                b.send(dst, partial, type);
                if (keep) {
                    b.reduce(o, type, from, partial, count);
                }
                if (haveLower) {
                    b.reduce(o, type, tmp, result, count);
                }
                haveLower = true;
            } else {
                b.recv(dst, tmp, type);
                b.send(dst, partial, type);
                if (keep) {
                    b.reduce(o, type, partial, tmp, count);
                    final MemorySegment t = partial;
                    partial = tmp;
                    tmp = t;
                }
            }
            b.endRound();
        }
        return b.build();
    }

    /** @return whether {@code me} exchanges with someone in a round after the one of {@code mask} */
    private static boolean hasLaterPartner(final int me, final int mask, final int p) {
        for (long m = (long) mask << 1; m < p; m <<= 1) {
            if ((me ^ m) < p) {
                return true;
            }
        }
        return false;
    }

    /** @return the rank standing for virtual rank {@code v} in the fold: the odd one of a pair, else v + rem */
    private static int real(final int v, final int rem) {
        return v < rem ? 2 * v + 1 : v + rem;
    }

    /** @return the first rank whose block virtual rank {@code v} holds after the fold: {@code 2v} in a pair */
    private static int firstRank(final int v, final int rem) {
        return v < rem ? 2 * v : v + rem;
    }

    /** @return the blocks of ranks {@code [from, to)} of {@code recv} */
    private static MemorySegment blocks(final CollArgs a, final int from, final int to) {
        return a.slice(a.recv(), (long) from * a.count(), (long) (to - from) * a.count());
    }

    /**
     * The accumulator of an allreduce while its schedule is built: which segment holds the reduction so far and
     * which one is free to receive into. The accumulator starts as the caller's input, which may be read-only
     * (the send buffer); the first fold from below then copies it into {@code result}.
     */
    private static final class Acc {
        private final ScheduleBuilder b;
        private final Op o;
        private final Datatype type;
        private final int count;
        private final MemorySegment result;
        private MemorySegment acc;
        private MemorySegment spare;
        private boolean readOnly;

        Acc(final ScheduleBuilder b, final Op o, final Datatype type, final int count, final MemorySegment input,
            final boolean inPlace, final MemorySegment result, final MemorySegment scratch) {
            this.b = b;
            this.o = o;
            this.type = type;
            this.count = count;
            this.result = result;
            this.acc = input;
            this.spare = scratch;
            this.readOnly = !inPlace;
        }

        /** The partner's data in {@code spare} is from lower ranks: {@code acc = spare op acc}. */
        void foldBelow() {
            if (readOnly) {
                b.copy(acc, result);
                acc = result;
                readOnly = false;
            }
            b.reduce(o, type, spare, acc, count);
        }

        /** The partner's data in {@code spare} is from higher ranks: {@code spare = acc op spare}, then swap. */
        void foldAbove() {
            b.reduce(o, type, acc, spare, count);
            final MemorySegment old = acc;
            acc = spare;
            spare = readOnly ? result : old;
            readOnly = false;
        }
    }
}
