package dev.tutti.coll.inter;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.InterArgs;
import dev.tutti.coll.InterComm;
import dev.tutti.coll.Operands;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.Scratch;
import dev.tutti.coll.algo.Algorithms;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The intercommunicator collectives, each one schedule over the union of the groups (see {@link UnionScheduleBuilder}).
 *
 * <p>Implementation notes. MPICH's approach for the rooted and reducing operations: the data crosses between
 * the groups in <em>one</em> message per direction, between a group's root (or its rank 0, the "relay") and the
 * other group's relay (or root), and is spread or collected inside each group by the intracommunicator
 * algorithms (chosen by the selection table for the group's size; order-preserving for non-commutative
 * operations, so reductions combine in rank order). For group sizes a (local) and b (remote), n elements:
 * <ul>
 * <li>bcast: root to remote relay, then an in-group bcast: {@code α + nβ} plus a tree of the receiving
 *     group. Symmetric: both directions at once, so the cost is that of the slower direction, not the sum.</li>
 * <li>scatter: root sends all b blocks to the remote relay, which scatters them; gather: in-group gather to the
 *     relay, which sends all a blocks to the remote root. reduce: in-group reduce to the relay, then one
 *     message to the remote root.</li>
 * <li>allgather / allreduce / reduce_scatter(_block): in-group gather or reduce to the relay, the two relays
 *     exchange, then an in-group bcast or scatter(v).</li>
 * <li>alltoall(v,w), allgatherv and the one-way gatherv/scatterv: direct messages between the ranks of the two
 *     groups, all in one round (counts of the v forms are known only where MPI gives them).</li>
 * <li>barrier: in-group barrier, relays exchange an empty message, in-group barrier.</li>
 * </ul>
 * Every direction of a rooted or reducing operation always sends its one crossing message, even when empty, so
 * that a direction one group thinks is empty and the other does not ends in a size-mismatch error instead of a
 * hang or silent loss; in-group phases of an empty direction are skipped. MPI's one-way forms are these
 * symmetric schedules with one direction empty (the API layer translates them), costing one empty message more
 * than a dedicated one-way schedule.
 */
public final class InterAlgorithms {
    static final MemorySegment EMPTY = InterArgs.EMPTY;

    private InterAlgorithms() {
    }

    /** @param ic the intercommunicator @param op name @return barrier schedule */
    public static Schedule barrier(final InterComm ic, final String op) {
        final UnionScheduleBuilder c = new UnionScheduleBuilder(ic, CollKind.BARRIER, op, -1, -1, 0);
        final CollArgs none = CollArgs.of(op, null, null, Datatype.BYTE, 0, -1, null);
        if (ic.localSize() > 1) {
            c.inGroup(local(ic, CollKind.BARRIER, none, 0, 0, null));
        }
        if (0 == ic.rank()) {
            c.sendRemote(0, EMPTY, Datatype.BYTE).recvRemote(0, EMPTY, Datatype.BYTE).endRound();
        }
        if (ic.localSize() > 1) {
            c.inGroup(local(ic, CollKind.BARRIER, none, 0, 0, null));
        }
        return c.build(null);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule (unstaging), or null
     * @return bcast schedule
     */
    public static Schedule bcast(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.BCAST, a);
        final int me = ic.rank();
        final MemorySegment in = a.in(0, a.recvCount());
        if (me == a.root()) {
            c.sendRemote(0, a.out(0, a.sendCount()), a.sendType());
        }
        if (0 == me) {
            c.recvRemote(a.remoteRoot(), in, a.recvType());
        }
        c.endRound();
        if (a.recvCount() > 0 && ic.localSize() > 1) {
            c.inGroup(local(ic, CollKind.BCAST, CollArgs.of(a.op(), null, in, a.recvType(), a.recvCount(), 0,
                null), in.byteSize(), a.recvCount(), null));
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return scatter schedule
     */
    public static Schedule scatter(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.SCATTER, a);
        final int me = ic.rank();
        final int p = ic.localSize();
        final int n = a.recvCount();
        if (me == a.root()) {
            c.sendRemote(0, a.out(0, (long) ic.remoteSize() * a.sendCount()), a.sendType());
        }
        final MemorySegment mine = a.in(0, n);
        MemorySegment all = null;
        if (0 == me) {
            all = 1 == p ? mine : scratch((long) p * n, a.recvType());
            c.recvRemote(a.remoteRoot(), all, a.recvType());
        }
        c.endRound();
        if (n > 0 && p > 1) {
            c.inGroup(local(ic, CollKind.SCATTER, CollArgs.of(a.op(), all, mine, a.recvType(), n, 0, null),
                mine.byteSize(), n, null));
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return gather schedule
     */
    public static Schedule gather(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.GATHER, a);
        final MemorySegment gathered = gatherToRelay(ic, c, a);
        if (0 == ic.rank()) {
            c.sendRemote(a.remoteRoot(), gathered, a.sendType());
        }
        if (ic.rank() == a.root()) {
            c.recvRemote(0, a.in(0, (long) ic.remoteSize() * a.recvCount()), a.recvType());
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return reduce schedule
     */
    public static Schedule reduce(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.REDUCE, a);
        final MemorySegment reduced = reduceToRelay(ic, c, a);
        if (0 == ic.rank()) {
            c.sendRemote(a.remoteRoot(), reduced, a.sendType());
        }
        if (ic.rank() == a.root()) {
            c.recvRemote(0, a.in(0, a.recvCount()), a.recvType());
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return allgather schedule
     */
    public static Schedule allgather(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLGATHER, a);
        final MemorySegment gathered = gatherToRelay(ic, c, a);
        final long n = (long) ic.remoteSize() * a.recvCount();
        final MemorySegment all = a.in(0, n);
        if (0 == ic.rank()) {
            c.sendRemote(0, gathered, a.sendType()).recvRemote(0, all, a.recvType());
        }
        c.endRound();
        if (n > 0 && ic.localSize() > 1) {
            c.inGroup(local(ic, CollKind.BCAST, CollArgs.of(a.op(), null, all, a.recvType(), (int) n, 0, null),
                all.byteSize(), n, null));
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return allreduce schedule
     */
    public static Schedule allreduce(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLREDUCE, a);
        final MemorySegment reduced = reduceToRelay(ic, c, a);
        final MemorySegment result = a.in(0, a.recvCount());
        if (0 == ic.rank()) {
            c.sendRemote(0, reduced, a.sendType()).recvRemote(0, result, a.recvType());
        }
        c.endRound();
        if (a.recvCount() > 0 && ic.localSize() > 1) {
            c.inGroup(local(ic, CollKind.BCAST, CollArgs.of(a.op(), null, result, a.recvType(), a.recvCount(), 0,
                null), result.byteSize(), a.recvCount(), null));
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments ({@code recvCounts} per local rank for reduce_scatter, null for the block form)
     * @param finish local steps after the schedule, or null
     * @return reduce_scatter(_block) schedule
     */
    public static Schedule reduceScatter(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, null == a.recvCounts() ? CollKind.REDUCE_SCATTER_BLOCK
            : CollKind.REDUCE_SCATTER, a);
        final int p = ic.localSize();
        final int me = ic.rank();
        final MemorySegment reduced = reduceToRelay(ic, c, a);
        final int[] counts;
        if (null == a.recvCounts()) {
            counts = new int[p];
            java.util.Arrays.fill(counts, a.recvCount());
        } else {
            counts = a.recvCounts();
        }
        final int[] displs = new int[p];
        long total = 0;
        for (int i = 0; i < p; i++) {
            displs[i] = (int) total;
            total += counts[i];
        }
        final MemorySegment mine = a.in(0, counts[me]);
        MemorySegment all = null;
        if (0 == me) {
            all = 1 == p ? mine : scratch(total, a.recvType());
            c.sendRemote(0, reduced, a.sendType()).recvRemote(0, all, a.recvType());
        }
        c.endRound();
        if (total > 0 && p > 1) {
            c.inGroup(Algorithms.build(AlgorithmId.SCATTERV_LINEAR, ic.local(), new CollArgs(a.op(), all, mine,
                a.recvType(), counts[me], 0, null, counts, displs, null, null, null, null, null, null)));
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return alltoall schedule: every pair across the groups at once
     */
    public static Schedule alltoall(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLTOALL, a);
        for (int j = 0; j < ic.remoteSize(); j++) {
            c.recvRemote(j, a.in((long) j * a.recvCount(), a.recvCount()), a.recvType());
            c.sendRemote(j, a.out((long) j * a.sendCount(), a.sendCount()), a.sendType());
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments (all four count/displacement arrays, per remote rank)
     * @param finish local steps after the schedule, or null
     * @return alltoallv schedule
     */
    public static Schedule alltoallv(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLTOALLV, a);
        for (int j = 0; j < ic.remoteSize(); j++) {
            c.recvRemote(j, a.in(a.recvDispls()[j], a.recvCounts()[j]), a.recvType());
            c.sendRemote(j, a.out(a.sendDispls()[j], a.sendCounts()[j]), a.sendType());
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments (per-remote-rank blocks and types)
     * @param finish local steps after the schedule, or null
     * @return alltoallw schedule
     */
    public static Schedule alltoallw(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLTOALLW, a);
        for (int j = 0; j < ic.remoteSize(); j++) {
            c.recvRemote(j, a.recvBlocks()[j], a.recvTypes()[j]);
            c.sendRemote(j, a.sendBlocks()[j], a.sendTypes()[j]);
        }
        return c.build(finish);
    }

    /**
     * @param ic     the intercommunicator
     * @param a      the arguments ({@code recvCounts}/{@code recvDispls} per remote rank)
     * @param finish local steps after the schedule, or null
     * @return allgatherv schedule
     */
    public static Schedule allgatherv(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.ALLGATHERV, a);
        final MemorySegment mine = a.out(0, a.sendCount());
        for (int j = 0; j < ic.remoteSize(); j++) {
            c.recvRemote(j, a.in(a.recvDispls()[j], a.recvCounts()[j]), a.recvType());
            c.sendRemote(j, mine, a.sendType());
        }
        return c.build(finish);
    }

    /**
     * One-way gatherv: the root ({@code root == rank}) receives {@code recvCounts[j]} from each remote rank; the
     * remote group's ranks ({@code remoteRoot >= 0}) send to it; the root's group peers do nothing.
     *
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return gatherv schedule
     */
    public static Schedule gatherv(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.GATHERV, a);
        if (ic.rank() == a.root()) {
            for (int j = 0; j < ic.remoteSize(); j++) {
                c.recvRemote(j, a.in(a.recvDispls()[j], a.recvCounts()[j]), a.recvType());
            }
        } else if (a.remoteRoot() >= 0) {
            c.sendRemote(a.remoteRoot(), a.out(0, a.sendCount()), a.sendType());
        }
        return c.build(finish);
    }

    /**
     * One-way scatterv: the root sends {@code sendCounts[j]} to each remote rank; the remote group's ranks
     * ({@code remoteRoot >= 0}) receive; the root's group peers do nothing.
     *
     * @param ic     the intercommunicator
     * @param a      the arguments
     * @param finish local steps after the schedule, or null
     * @return scatterv schedule
     */
    public static Schedule scatterv(final InterComm ic, final InterArgs a, final List<Runnable> finish) {
        final UnionScheduleBuilder c = composer(ic, CollKind.SCATTERV, a);
        if (ic.rank() == a.root()) {
            for (int j = 0; j < ic.remoteSize(); j++) {
                c.sendRemote(j, a.out(a.sendDispls()[j], a.sendCounts()[j]), a.sendType());
            }
        } else if (a.remoteRoot() >= 0) {
            c.recvRemote(a.remoteRoot(), a.in(0, a.recvCount()), a.recvType());
        }
        return c.build(finish);
    }

    // ------------------------------------------------------------------------------------------------ phases

    /** In-group gather of every rank's out block to the relay; returns the relay's localSize blocks there. */
    private static MemorySegment gatherToRelay(final InterComm ic, final UnionScheduleBuilder c, final InterArgs a) {
        final int p = ic.localSize();
        final int n = a.sendCount();
        final MemorySegment mine = a.out(0, n);
        if (1 == p || 0 == n) {
            return mine;
        }
        final MemorySegment all = 0 == ic.rank() ? scratch((long) p * n, a.sendType()) : null;
        c.inGroup(local(ic, CollKind.GATHER, CollArgs.of(a.op(), mine, all, a.sendType(), n, 0, null),
            mine.byteSize(), n, null));
        return all;
    }

    /** In-group reduce (rank order) of the out vectors to the relay; returns the result there. */
    private static MemorySegment reduceToRelay(final InterComm ic, final UnionScheduleBuilder c, final InterArgs a) {
        final int n = a.sendCount();
        final MemorySegment mine = a.out(0, n);
        if (1 == ic.localSize() || 0 == n) {
            return mine;
        }
        final MemorySegment result = 0 == ic.rank() ? scratch(n, a.sendType()) : null;
        c.inGroup(local(ic, CollKind.REDUCE, CollArgs.of(a.op(), mine, result, a.sendType(), n, 0, a.reduceOp()),
            mine.byteSize(), n, a.reduceOp()));
        return result;
    }

    /** Starts the schedule of a call with its header: the kind and the roots in {@code a}. */
    private static UnionScheduleBuilder composer(final InterComm ic, final CollKind kind, final InterArgs a) {
        return new UnionScheduleBuilder(ic, kind, a.op(), a.root(), a.remoteRoot(), a.sendCount());
    }

    private static MemorySegment scratch(final long n, final Datatype t) {
        return 0 == n ? EMPTY : Scratch.allocate(n * t.sizeBytes());
    }

    /** Builds an in-group phase with the algorithm the selection table picks for the local group. */
    private static Schedule local(final InterComm ic, final CollKind kind, final CollArgs args, final long bytes,
        final long count, final Op o) {
        final boolean free = Operands.free(o);
        AlgorithmId id = ic.union().selection().select(kind, ic.localSize(), bytes, count, free,
            ic.local().network());
        if (id.commutativeOnly() && !free) {
            id = AlgorithmId.REDUCE_BINOMIAL;
        }
        return Algorithms.build(id, ic.local(), args);
    }
}
