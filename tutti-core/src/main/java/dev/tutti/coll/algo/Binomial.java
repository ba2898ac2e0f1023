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
 * Binomial-tree broadcast, gather, scatter and reduce.
 *
 * <p>Implementation notes. The tree is MPICH's ({@code MPIR_Bcast_intra_binomial} and relatives), built on the
 * relative rank {@code v = (rank - root) mod p}: a rank {@code v > 0} has parent {@code v - lowbit(v)}, and
 * children {@code v + m} for {@code m = 1, 2, 4, ... < lowbit(v)} (the root: every power of two below p) with
 * {@code v + m < p}. The subtree of {@code v} is the contiguous relative range {@code [v, v + min(lowbit(v),
 * p - v))}, which is what makes gather and scatter forward whole subtrees as one message. Any p works: the tree
 * of the next power of two is cut at p. Each ordered pair of ranks exchanges at most one message per call, so
 * the non-overtaking rule is never exercised. Depth {@code L = ceil(lg p)}.
 * <ul>
 * <li>bcast: receive from the parent, then send to every child, largest subtree first.
 *     Cost {@code L(α + nβ)} on the critical path.</li>
 * <li>gather: an inner node receives its children's subtrees into one scratch buffer of its subtree's blocks
 *     in relative-rank order (its own block first), then sends it to its parent; leaves send their block
 *     directly. The root receives a child's subtree straight into {@code recv} when its ranks do not wrap past
 *     p - 1, else into scratch and un-rotates it with two copies. Cost {@code Lα + ((p-1)/p)·p·mβ} at the root
 *     for blocks of m bytes; an inner node of subtree size s holds {@code s·m} bytes of scratch.</li>
 * <li>scatter: the mirror: the root sends each child its subtree's blocks (straight from {@code send}, or
 *     packed into scratch when the ranks wrap), inner nodes receive their subtree into scratch and forward the
 *     children's parts; leaves receive straight into {@code recv}.</li>
 * <li>reduce: each rank folds its children's partial results into its own, child by child (one round each,
 *     two alternating scratch buffers), then sends the result to its parent. With the relative ranks of a
 *     commutative op the tree is rooted at the root. A non-commutative op needs the ranks in natural order, so
 *     the tree is rooted at rank 0 (a rank's subtree is then the rank range {@code [r, r + s)}, and folding
 *     its children in increasing order as {@code acc = acc (op) child} keeps the order x0 op x1 op ... op
 *     x(p-1)); rank 0 then sends the result to the root if the root is not 0 (one more step, MPICH's approach).
 *     Cost {@code L(α + nβ + nγ)} (+ {@code α + nβ} for that last step).</li>
 * </ul>
 * Source: MPICH {@code MPIR_*_intra_binomial}; REFERENCE.md §1.1.
 */
public final class Binomial {
    private Binomial() {
    }

    /**
     * Returns the number of ranks in the subtree of relative rank {@code v}.
     *
     * @param v relative rank
     * @param p group size
     * @return the subtree size, {@code p} for the root
     */
    static int subtree(final int v, final int p) {
        return 0 == v ? p : Math.min(Integer.lowestOneBit(v), p - v);
    }

    /**
     * Returns the largest child distance (a power of two) that relative rank {@code v} may have, before cutting
     * at p; its children are {@code v + m} for powers of two {@code m < limit}.
     *
     * @param v relative rank
     * @param p group size
     * @return the exclusive bound on child distances
     */
    static int childLimit(final int v, final int p) {
        return 0 == v ? (1 == p ? 1 : Integer.highestOneBit(p - 1) << 1) : Integer.lowestOneBit(v);
    }

    /** @param c comm @param a args @return bcast schedule: receive from the parent, send to the children */
    public static Schedule bcast(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int root = a.root();
        final int v = Math.floorMod(c.rank() - root, p);
        final MemorySegment buf = a.slice(a.recv(), 0, a.count());
        if (0 != v) {
            b.recv(actual(v - Integer.lowestOneBit(v), root, p), buf, a.type()).endRound();
        }
        for (int m = childLimit(v, p) >> 1; m > 0; m >>= 1) {
            if (v + m < p) {
                b.send(actual(v + m, root, p), buf, a.type());
            }
        }
        return b.build();
    }

    /** @param c comm @param a args @return gather schedule: subtrees forwarded up, un-rotated at the root */
    public static Schedule gather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int root = a.root();
        final int v = Math.floorMod(c.rank() - root, p);
        final int count = a.count();
        final Datatype type = a.type();
        if (0 == v) {
            for (int m = 1; m < p; m <<= 1) {
                final int first = (root + m) % p;
                final int n = Math.min(m, p - m);
                if (first + n <= p) {
                    b.recv(actual(m, root, p), a.slice(a.recv(), (long) first * count, (long) n * count), type);
                } else {
                    // The subtree's ranks wrap past p - 1: receive, then un-rotate into recv in two pieces.
                    final int head = p - first;
                    final MemorySegment tmp = Scratch.allocate((long) n * a.bytes());
                    b.recv(actual(m, root, p), tmp, type);
                    b.copy(a.slice(tmp, 0, (long) head * count), a.slice(a.recv(), (long) first * count,
                        (long) head * count));
                    b.copy(a.slice(tmp, (long) head * count, (long) (n - head) * count), a.slice(a.recv(), 0,
                        (long) (n - head) * count));
                }
            }
            if (!a.inPlace()) {
                b.copy(a.slice(a.send(), 0, count), a.block(a.recv(), root));
            }
            return b.build();
        }
        final MemorySegment mine = a.slice(a.send(), 0, count);
        final int parent = actual(v - Integer.lowestOneBit(v), root, p);
        final int s = subtree(v, p);
        if (1 == s) {
            return b.send(parent, mine, type).build();
        }
        final MemorySegment tmp = Scratch.allocate((long) s * a.bytes());
        for (int m = 1; m < s; m <<= 1) {
            b.recv(actual(v + m, root, p), a.slice(tmp, (long) m * count, (long) Math.min(m, s - m) * count), type);
        }
        b.copy(mine, tmp);
        b.endRound();
        return b.send(parent, tmp, type).build();
    }

    /** @param c comm @param a args @return scatter schedule: subtrees forwarded down from the root */
    public static Schedule scatter(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int root = a.root();
        final int v = Math.floorMod(c.rank() - root, p);
        final int count = a.count();
        final Datatype type = a.type();
        if (0 == v) {
            final MemorySegment[] parts = new MemorySegment[childLimit(v, p)];
            for (int m = childLimit(v, p) >> 1; m > 0; m >>= 1) {
                final int first = (root + m) % p;
                final int n = Math.min(m, p - m);
                if (first + n <= p) {
                    parts[m] = a.slice(a.send(), (long) first * count, (long) n * count);
                } else {
                    // The subtree's ranks wrap past p - 1: pack its blocks in relative order first.
                    final int head = p - first;
                    parts[m] = Scratch.allocate((long) n * a.bytes());
                    b.copy(a.slice(a.send(), (long) first * count, (long) head * count), parts[m]);
                    b.copy(a.slice(a.send(), 0, (long) (n - head) * count),
                        a.slice(parts[m], (long) head * count, (long) (n - head) * count));
                }
            }
            for (int m = childLimit(v, p) >> 1; m > 0; m >>= 1) {
                b.send(actual(m, root, p), parts[m], type);
            }
            if (null != a.recv()) {
                b.copy(a.block(a.send(), root), a.slice(a.recv(), 0, count));
            }
            return b.build();
        }
        final MemorySegment out = a.slice(a.recv(), 0, count);
        final int parent = actual(v - Integer.lowestOneBit(v), root, p);
        final int s = subtree(v, p);
        if (1 == s) {
            return b.recv(parent, out, type).build();
        }
        final MemorySegment tmp = Scratch.allocate((long) s * a.bytes());
        b.recv(parent, tmp, type).endRound();
        for (int m = Integer.highestOneBit(s - 1); m > 0; m >>= 1) {
            b.send(actual(v + m, root, p), a.slice(tmp, (long) m * count, (long) Math.min(m, s - m) * count), type);
        }
        b.copy(a.slice(tmp, 0, count), out);
        return b.build();
    }

    /** @param c comm @param a args @return reduce schedule, rank-ordered for non-commutative ops */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int root = a.root();
        final Op o = a.reduceOp();
        final boolean ordered = !o.isCommutative();
        final int treeRoot = ordered ? 0 : root;
        final int v = Math.floorMod(me - treeRoot, p);
        final int count = a.count();
        final Datatype type = a.type();
        final boolean isRoot = me == root;
        final MemorySegment result = isRoot ? a.slice(a.recv(), 0, count) : null;
        final MemorySegment mine = a.inPlace() && isRoot ? result : a.slice(a.send(), 0, count);
        final int limit = childLimit(v, p);
        // acc holds the reduction of [v, v + m) so far; children are folded in increasing order as the right
        // operand. Scratch alternates so a receive never lands on the current accumulator.
        MemorySegment acc = mine;
        final MemorySegment[] spare = new MemorySegment[2];
        int flip = 0;
        for (int m = 1; m < limit && v + m < p; m <<= 1) {
            final boolean last = (m << 1) >= limit || v + (m << 1) >= p;
            final MemorySegment target;
            if (last && 0 == v && isRoot && acc != result) {
                target = result;
            } else {
                if (null == spare[flip]) {
                    spare[flip] = Scratch.allocate(a.bytes(), a.type());
                }
                target = spare[flip];
                flip ^= 1;
            }
            b.recv(actual(v + m, treeRoot, p), target, type);
            b.reduce(o, type, acc, target, count);
            b.endRound();
            acc = target;
        }
        if (0 != v) {
            b.send(actual(v - Integer.lowestOneBit(v), treeRoot, p), acc, type).endRound();
            if (ordered && isRoot) {
                b.recv(0, result, type);
            }
        } else if (isRoot) {
            b.copy(acc, result);
        } else {
            b.send(root, acc, type);
        }
        return b.build();
    }

    /**
     * Returns the rank of relative rank {@code v} in a tree rooted at {@code root}.
     *
     * @param v    relative rank
     * @param root the root
     * @param p    group size
     * @return the rank
     */
    static int actual(final int v, final int root, final int p) {
        return (v + root) % p;
    }
}
