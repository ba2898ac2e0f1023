package dev.tutti.coll.algo;

import dev.tutti.Datatype;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * Linear (flat) algorithms: the root talks to every rank directly, or every rank to every rank at once. They are
 * the reference implementations the other algorithms are tested against, and the right choice for the
 * irregular (v/w) operations.
 *
 * <p>Cost (p ranks, n bytes): bcast/scatter/gather {@code (p-1)α + (p-1)nβ} at the root; alltoall
 * {@code (p-1)α + (p-1)mβ} with all messages in flight; reductions combine in rank order
 * {@code x0 op (x1 op (... op x(p-1)))}, so they are correct for non-commutative operations. Reduce holds all
 * p-1 contributions at the root at once (memory {@code (p-1)n}).
 */
public final class Linear {
    static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private Linear() {
    }

    /** @param c comm @param a args @return barrier schedule: fan-in to rank 0, fan-out */
    public static Schedule barrier(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        if (0 == c.rank()) {
            for (int i = 1; i < p; i++) {
                b.recv(i, EMPTY, Datatype.BYTE);
            }
            b.endRound();
            for (int i = 1; i < p; i++) {
                b.send(i, EMPTY, Datatype.BYTE);
            }
        } else {
            b.send(0, EMPTY, Datatype.BYTE).endRound();
            b.recv(0, EMPTY, Datatype.BYTE);
        }
        return b.build();
    }

    /** @param c comm @param a args @return bcast schedule: root sends to each */
    public static Schedule bcast(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final MemorySegment buf = a.slice(a.recv(), 0, a.count());
        if (c.rank() == a.root()) {
            for (int i = 0; i < c.size(); i++) {
                if (i != a.root()) {
                    b.send(i, buf, a.type());
                }
            }
        } else {
            b.recv(a.root(), buf, a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return gather schedule: root receives from each */
    public static Schedule gather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        if (c.rank() == a.root()) {
            for (int i = 0; i < c.size(); i++) {
                if (i != a.root()) {
                    b.recv(i, a.block(a.recv(), i), a.type());
                }
            }
            if (!a.inPlace()) {
                b.copy(a.slice(a.send(), 0, a.count()), a.block(a.recv(), a.root()));
            }
        } else {
            b.send(a.root(), a.slice(a.send(), 0, a.count()), a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return gatherv schedule */
    public static Schedule gatherv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        if (c.rank() == a.root()) {
            for (int i = 0; i < c.size(); i++) {
                if (i != a.root()) {
                    b.recv(i, a.slice(a.recv(), a.recvDispls()[i], a.recvCounts()[i]), a.type());
                }
            }
            if (!a.inPlace()) {
                b.copy(a.slice(a.send(), 0, a.count()),
                    a.slice(a.recv(), a.recvDispls()[a.root()], a.recvCounts()[a.root()]));
            }
        } else {
            b.send(a.root(), a.slice(a.send(), 0, a.count()), a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return scatter schedule: root sends to each */
    public static Schedule scatter(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        if (c.rank() == a.root()) {
            for (int i = 0; i < c.size(); i++) {
                if (i != a.root()) {
                    b.send(i, a.block(a.send(), i), a.type());
                }
            }
            if (null != a.recv()) {
                b.copy(a.block(a.send(), a.root()), a.slice(a.recv(), 0, a.count()));
            }
        } else {
            b.recv(a.root(), a.slice(a.recv(), 0, a.count()), a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return scatterv schedule */
    public static Schedule scatterv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        if (c.rank() == a.root()) {
            for (int i = 0; i < c.size(); i++) {
                if (i != a.root()) {
                    b.send(i, a.slice(a.send(), a.sendDispls()[i], a.sendCounts()[i]), a.type());
                }
            }
            if (null != a.recv()) {
                b.copy(a.slice(a.send(), a.sendDispls()[a.root()], a.sendCounts()[a.root()]),
                    a.slice(a.recv(), 0, a.count()));
            }
        } else {
            b.recv(a.root(), a.slice(a.recv(), 0, a.count()), a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return allgather schedule: gather to 0, then 0 sends the whole to each */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final MemorySegment whole = a.slice(a.recv(), 0, (long) p * a.count());
        final MemorySegment mine = a.inPlace() ? a.block(a.recv(), me) : a.slice(a.send(), 0, a.count());
        if (0 == me) {
            b.copy(mine, a.block(a.recv(), 0));
            for (int i = 1; i < p; i++) {
                b.recv(i, a.block(a.recv(), i), a.type());
            }
            b.endRound();
            for (int i = 1; i < p; i++) {
                b.send(i, whole, a.type());
            }
        } else {
            b.send(0, mine, a.type()).endRound();
            b.recv(0, whole, a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return allgatherv schedule: gatherv to 0, then 0 sends each block to all */
    public static Schedule allgatherv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int[] counts = a.recvCounts();
        final int[] displs = a.recvDispls();
        if (0 == me) {
            if (!a.inPlace()) {
                b.copy(a.slice(a.send(), 0, counts[0]), a.slice(a.recv(), displs[0], counts[0]));
            }
            for (int i = 1; i < p; i++) {
                b.recv(i, a.slice(a.recv(), displs[i], counts[i]), a.type());
            }
            b.endRound();
            for (int i = 1; i < p; i++) {
                for (int j = 0; j < p; j++) {
                    b.send(i, a.slice(a.recv(), displs[j], counts[j]), a.type());
                }
            }
        } else {
            final MemorySegment mine = a.inPlace() ? a.slice(a.recv(), displs[me], counts[me])
                : a.slice(a.send(), 0, counts[me]);
            b.send(0, mine, a.type()).endRound();
            for (int j = 0; j < p; j++) {
                b.recv(0, a.slice(a.recv(), displs[j], counts[j]), a.type());
            }
        }
        return b.build();
    }

    /** @param c comm @param a args @return alltoall schedule: all messages at once */
    public static Schedule alltoall(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final MemorySegment send = a.inPlace() ? b.snapshot(a.slice(a.recv(), 0, (long) p * a.count()))
            : a.send();
        for (int i = 0; i < p; i++) {
            if (i != me) {
                b.recv(i, a.block(a.recv(), i), a.type());
                b.send(i, a.block(send, i), a.type());
            }
        }
        b.copyMeanwhile(a.block(send, me), a.block(a.recv(), me));
        return b.build();
    }

    /** @param c comm @param a args @return alltoallv schedule: all messages at once */
    public static Schedule alltoallv(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int[] sc = a.inPlace() ? a.recvCounts() : a.sendCounts();
        final int[] sd = a.inPlace() ? a.recvDispls() : a.sendDispls();
        final MemorySegment send = a.inPlace() ? b.snapshot(a.recv()) : a.send();
        for (int i = 0; i < p; i++) {
            if (i != me) {
                b.recv(i, a.slice(a.recv(), a.recvDispls()[i], a.recvCounts()[i]), a.type());
                b.send(i, a.slice(send, sd[i], sc[i]), a.type());
            }
        }
        b.copyMeanwhile(a.slice(send, sd[me], sc[me]), a.slice(a.recv(), a.recvDispls()[me], a.recvCounts()[me]));
        return b.build();
    }

    /** @param c comm @param a args @return alltoallw schedule: all messages at once, a type per peer */
    public static Schedule alltoallw(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int me = c.rank();
        for (int i = 0; i < c.size(); i++) {
            if (i != me) {
                b.recv(i, a.recvBlocks()[i], a.recvTypes()[i]);
                b.send(i, a.sendBlocks()[i], a.sendTypes()[i]);
            }
        }
        b.copy(a.sendBlocks()[me], a.recvBlocks()[me]);
        return b.build();
    }

    /**
     * Adds to {@code b} the receive of every rank's vector at {@code root} and the rank-ordered combination into
     * {@code result}; non-roots send {@code mine}.
     */
    static void reduceTo(final ScheduleBuilder b, final CollComm c, final CollArgs a, final int root,
        final MemorySegment mine, final MemorySegment result, final long elems) {
        final int p = c.size();
        if (c.rank() != root) {
            b.send(root, mine, a.type());
            return;
        }
        final long bytes = elems * a.elem();
        final MemorySegment[] parts = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            if (i == root) {
                parts[i] = mine;
            } else {
                parts[i] = Scratch.allocate(bytes, a.type());
                b.recv(i, parts[i], a.type());
            }
        }
        final MemorySegment acc = 0 == p - 1 - root ? Scratch.allocate(bytes, a.type()) : parts[p - 1];
        foldInRankOrder(b, a, parts, acc, (int) elems);
        b.copy(acc, result);
    }

    /**
     * Adds the local steps {@code acc = x0 op (x1 op (... op x(p-1)))} over {@code parts}: accumulated from the
     * right, lower ranks as left operands, so correct for non-commutative operations. {@code acc} may be
     * {@code parts[p-1]} (no copy) but no other part.
     */
    private static void foldInRankOrder(final ScheduleBuilder b, final CollArgs a, final MemorySegment[] parts,
        final MemorySegment acc, final int elems) {
        b.copy(parts[parts.length - 1], acc);
        for (int i = parts.length - 2; i >= 0; i--) {
            b.reduce(a.reduceOp(), a.type(), parts[i], acc, elems);
        }
    }

    /** @param c comm @param a args @return reduce schedule, rank-ordered at the root */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final boolean root = c.rank() == a.root();
        final MemorySegment mine = a.inPlace() && root ? b.snapshot(a.slice(a.recv(), 0, a.count()))
            : a.slice(a.send(), 0, a.count());
        reduceTo(b, c, a, a.root(), mine, root ? a.slice(a.recv(), 0, a.count()) : null, a.count());
        return b.build();
    }

    /** @param c comm @param a args @return allreduce schedule: linear reduce to 0, then 0 sends to each */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final MemorySegment result = a.slice(a.recv(), 0, a.count());
        final MemorySegment mine = a.inPlace() ? b.snapshot(result) : a.slice(a.send(), 0, a.count());
        reduceTo(b, c, a, 0, mine, result, a.count());
        b.endRound();
        if (0 == c.rank()) {
            for (int i = 1; i < c.size(); i++) {
                b.send(i, result, a.type());
            }
        } else {
            b.recv(0, result, a.type());
        }
        return b.build();
    }

    /**
     * Allgather-reduce (Open MPI's "allgather reduce"): every rank sends its vector to every other rank in one
     * round, then combines the p vectors in rank order, {@code x0 op (x1 op (... op x(p-1)))}, the same on every
     * rank. Cost {@code α + (p-1)nβ} with all messages in flight, against recursive doubling's {@code lg p} rounds
     * of {@code α + nβ}: fewer waits for short vectors on few ranks (and, with more ranks than cores, fewer
     * hand-offs of a core); memory {@code (p-1)n}, and {@code (p-1)} reductions on every rank.
     *
     * @param c comm
     * @param a args
     * @return allreduce schedule
     */
    public static Schedule allreduceAllgather(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        final int count = a.count();
        final MemorySegment result = a.slice(a.recv(), 0, count);
        final MemorySegment input = a.inPlace() ? result : a.slice(a.send(), 0, count);
        final MemorySegment[] parts = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            if (i != me) {
                parts[i] = Scratch.allocate(a.bytes(), a.type());
                b.send(i, input, a.type());
                b.recv(i, parts[i], a.type());
            }
        }
        // Local steps run once the round's messages are done (its sends have read the input): in place, this
        // rank's vector is set aside before the result, which holds it, is overwritten (unless it is x(p-1)).
        parts[me] = a.inPlace() && me != p - 1 ? b.snapshot(input) : input;
        foldInRankOrder(b, a, parts, result, count);
        return b.build();
    }

    /** @param c comm @param a args @return reduce_scatter_block schedule: reduce to 0, then scatter */
    public static Schedule reduceScatterBlock(final CollComm c, final CollArgs a) {
        final int p = c.size();
        final int[] counts = new int[p];
        java.util.Arrays.fill(counts, a.count());
        return reduceScatter(c, a, counts);
    }

    /** @param c comm @param a args @return reduce_scatter schedule: reduce to 0, then scatterv */
    public static Schedule reduceScatter(final CollComm c, final CollArgs a) {
        return reduceScatter(c, a, a.recvCounts());
    }

    private static Schedule reduceScatter(final CollComm c, final CollArgs a, final int[] counts) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        long total = 0;
        final long[] displs = new long[p];
        for (int i = 0; i < p; i++) {
            displs[i] = total;
            total += counts[i];
        }
        final MemorySegment input = a.inPlace() ? a.slice(a.recv(), 0, total) : a.slice(a.send(), 0, total);
        final MemorySegment mine = a.inPlace() ? b.snapshot(input) : input;
        final MemorySegment reduced = 0 == me ? Scratch.allocate(total * a.elem(), a.type()) : null;
        reduceTo(b, c, a, 0, mine, reduced, total);
        b.endRound();
        final MemorySegment out = a.slice(a.recv(), 0, counts[me]);
        if (0 == me) {
            for (int i = 1; i < p; i++) {
                b.send(i, a.slice(reduced, displs[i], counts[i]), a.type());
            }
            b.copy(a.slice(reduced, 0, counts[0]), out);
        } else {
            b.recv(0, out, a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return scan schedule: a chain from rank 0 up */
    public static Schedule scan(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int me = c.rank();
        final MemorySegment out = a.slice(a.recv(), 0, a.count());
        if (!a.inPlace()) {
            b.copy(a.slice(a.send(), 0, a.count()), out);
        }
        if (me > 0) {
            final MemorySegment prefix = Scratch.allocate(a.bytes(), a.type());
            b.recv(me - 1, prefix, a.type());
            b.reduce(a.reduceOp(), a.type(), prefix, out, a.count());
        }
        b.endRound();
        if (me < c.size() - 1) {
            b.send(me + 1, out, a.type());
        }
        return b.build();
    }

    /** @param c comm @param a args @return exscan schedule: a chain; rank 0's result is left unchanged */
    public static Schedule exscan(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int me = c.rank();
        final int p = c.size();
        final MemorySegment out = a.slice(a.recv(), 0, a.count());
        final MemorySegment mine = b.snapshot(a.inPlace() ? out : a.slice(a.send(), 0, a.count()));
        if (me > 0) {
            b.recv(me - 1, out, a.type());
            if (me < p - 1) {
                b.reduce(a.reduceOp(), a.type(), out, mine, a.count());
            }
        }
        b.endRound();
        if (me < p - 1) {
            b.send(me + 1, mine, a.type());
        }
        return b.build();
    }
}
