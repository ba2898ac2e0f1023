package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * Rabenseifner's reduction: reduce-scatter by recursive halving, then allgather by recursive doubling
 * (allreduce) or a binomial gather to the root (reduce). R. Rabenseifner, "Optimization of collective reduction
 * operations", ICCS 2004; Thakur, Rabenseifner &amp; Gropp, IJHPCA 2005. MPICH
 * {@code MPIR_Allreduce_intra_reduce_scatter_allgather}, {@code MPIR_Reduce_intra_reduce_scatter_gather}.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Non-powers of two: the fold of {@link RecursiveHalving} (the first {@code 2·rem} ranks pair up, each even
 *     rank hands its whole vector to the odd rank above and waits), {@code p'} the largest power of two
 *     {@code <= p}. At the end the odd rank returns the whole result to its even partner (allreduce), or only
 *     the root's partner does (reduce). Extra cost {@code 2α + 2nβ + nγ} on the folded pairs.</li>
 * <li>The vector of {@code count} elements is cut into {@code p'} blocks of {@code count/p'} elements, the
 *     first {@code count mod p'} one larger. Recursive halving ({@link RecursiveHalving#halve}, distances
 *     {@code p'/2 .. 1}) leaves new rank {@code i} with the reduced block {@code i}.</li>
 * <li>Allreduce: recursive doubling with distances {@code 1 .. p'/2}: at distance {@code m} a rank holds the
 *     aligned run of {@code m} blocks containing its own and swaps it with its partner's run, straight into
 *     the result. Cost {@code 2 lg p'·α + 2((p'-1)/p')nβ + ((p'-1)/p')nγ}; scratch {@code n} (receive area).</li>
 * <li>Reduce: binomial gather in new ranks relative to the root's new rank ({@code v = newRank XOR newRoot}):
 *     at distance {@code m} a rank with bit {@code m} of {@code v} set sends its run of {@code m} blocks to
 *     {@code newRank XOR m} and is done; the others receive the adjacent run, so every message is one
 *     contiguous range. A root that was folded away (even, {@code < 2·rem}) is represented by its odd partner,
 *     which sends it the whole result at the end. Cost {@code 2 lg p'·α + 2((p'-1)/p')nβ + ((p'-1)/p')nγ};
 *     scratch {@code 2n} on non-root working ranks.</li>
 * <li>{@code count < p'} falls back to {@link Linear#allreduce} / {@link Linear#reduce} (every rank sees the same
 *     count and group size, so all take the same branch). The blocked pattern would still be correct with empty
 *     blocks, but such vectors are latency-bound, and its {@code 2 lg p' + 2} rounds are slower than the linear
 *     algorithm's two. The selection table sends these calls to recursive doubling / binomial anyway; the fallback
 *     only serves forced use.</li>
 * <li>Operands are combined in the order partners meet, not rank order: commutative operations only.</li>
 * </ul>
 */
public final class Rabenseifner {
    private Rabenseifner() {
    }

    /**
     * Rabenseifner reduce (reduce-scatter, then binomial gather to the root). Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int root = a.root();
        final int n = a.count();
        final boolean isRoot = me == root;
        final MemorySegment result = isRoot ? a.slice(a.recv(), 0, n) : null;
        final MemorySegment mine = a.inPlace() && isRoot ? result : a.slice(a.send(), 0, n);
        if (1 == p || 0 == n) {
            if (isRoot) {
                b.copy(mine, result);
            }
            return b.build();
        }
        final int pof2 = Integer.highestOneBit(p);
        if (n < pof2) {
            return Linear.reduce(c, a);
        }
        final int rem = p - pof2;
        if (me < 2 * rem && 0 == (me & 1)) {
            b.send(me + 1, mine, a.type()).endRound();
            if (isRoot) {
                b.recv(me + 1, result, a.type());
            }
            return b.build();
        }
        final MemorySegment work = isRoot ? result : Scratch.allocate(a.bytes(), a.type());
        final MemorySegment tmp = Scratch.allocate(a.bytes(), a.type());
        final boolean inWork = mine == work;
        final int newRank = fold(b, a, me, rem, inWork ? null : mine, work, tmp);
        final long[] d = Ring.evenBlocks(n, pof2);
        RecursiveHalving.halve(b, a, inWork || me < 2 * rem ? null : mine, work, tmp, d, newRank, rem);
        final int newRoot = root < 2 * rem ? root / 2 : root - rem;
        final int v = newRank ^ newRoot;
        for (int mask = 1; mask < pof2; mask <<= 1) {
            final int partner = newRank ^ mask;
            final int peer = RecursiveHalving.oldRank(partner, rem);
            if (0 != (v & mask)) {
                b.send(peer, run(a, work, d, newRank, mask), a.type());
                b.endRound();
                break;
            }
            b.recv(peer, run(a, work, d, partner, mask), a.type());
            b.endRound();
        }
        if (newRank == newRoot && !isRoot) {
            b.send(root, work, a.type());
        }
        return b.build();
    }

    /**
     * Rabenseifner allreduce (reduce-scatter by recursive halving, allgather by recursive doubling).
     * Commutative operations only.
     *
     * @param c the communicator
     * @param a the arguments
     * @return this rank's schedule
     */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int n = a.count();
        final MemorySegment result = a.slice(a.recv(), 0, n);
        final MemorySegment mine = a.inPlace() ? result : a.slice(a.send(), 0, n);
        if (1 == p || 0 == n) {
            b.copy(mine, result);
            return b.build();
        }
        final int pof2 = Integer.highestOneBit(p);
        if (n < pof2) {
            return Linear.allreduce(c, a);
        }
        final int rem = p - pof2;
        if (me < 2 * rem && 0 == (me & 1)) {
            b.send(me + 1, mine, a.type()).endRound();
            b.recv(me + 1, result, a.type());
            return b.build();
        }
        final MemorySegment tmp = Scratch.allocate(a.bytes(), a.type());
        final boolean inWork = a.inPlace();
        final int newRank = fold(b, a, me, rem, inWork ? null : mine, result, tmp);
        final long[] d = Ring.evenBlocks(n, pof2);
        RecursiveHalving.halve(b, a, inWork || me < 2 * rem ? null : mine, result, tmp, d, newRank, rem);
        for (int mask = 1; mask < pof2; mask <<= 1) {
            final int partner = newRank ^ mask;
            final int peer = RecursiveHalving.oldRank(partner, rem);
            b.recv(peer, run(a, result, d, partner, mask), a.type());
            b.send(peer, run(a, result, d, newRank, mask), a.type());
            b.endRound();
        }
        if (me < 2 * rem) {
            b.send(me - 1, result, a.type());
        }
        return b.build();
    }

    /**
     * Adds the receiving half of the fold (odd ranks below {@code 2·rem} take their even neighbour's vector) and
     * returns this rank's new rank. With {@code input} (this rank's vector, which {@code work} does not hold) the
     * neighbour's vector goes straight into {@code work} and the input is reduced into it; without, it goes into
     * {@code tmp} and is reduced into {@code work}.
     */
    private static int fold(final ScheduleBuilder b, final CollArgs a, final int me, final int rem,
        final MemorySegment input, final MemorySegment work, final MemorySegment tmp) {
        if (me >= 2 * rem) {
            return me - rem;
        }
        b.recv(me - 1, null == input ? tmp : work, a.type());
        b.reduce(a.reduceOp(), a.type(), null == input ? tmp : input, work, a.count());
        b.endRound();
        return me / 2;
    }

    /** @return the aligned run of {@code m} blocks containing block {@code i}, as a slice of {@code s} */
    private static MemorySegment run(final CollArgs a, final MemorySegment s, final long[] d, final int i,
        final int m) {
        final int first = i & -m;
        return a.slice(s, d[first], d[first + m] - d[first]);
    }
}
