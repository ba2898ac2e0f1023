package dev.tutti.coll.inter;

import dev.tutti.Datatype;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.InterComm;
import dev.tutti.coll.Schedule;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds one schedule over the union of an intercommunicator's groups from phases: rounds of messages to and
 * from the remote group ({@link #sendRemote}, {@link #recvRemote}, closed by {@link #endRound()}), and whole
 * intracommunicator schedules built for the local group ({@link #inGroup}), whose peers are re-addressed to union
 * ranks. Phases run in the order added; a phase's messages are posted when the previous phase has completed on
 * this rank.
 *
 * <p>Implementation notes. All phases share the run's one tag. That is safe because messages between one pair
 * of ranks are matched in the order they are sent: a pair inside a group only exchanges messages in in-group
 * phases, which every member of the group runs in the same order, each to completion before the next; a pair
 * across the groups only in remote rounds, which both sides add in the same order. Deadlock freedom: a remote
 * round depends only on the remote group's phases before its own matching round, never on a later phase, so as
 * long as both groups build matching remote rounds in the same order (every algorithm in
 * {@link InterAlgorithms} does) no cycle can form. Every message, in-group or across, carries the call's one
 * intercommunicator header ({@link CollHeader#inter}), which both groups compute alike; the intracommunicator
 * schedules of the in-group phases lend their rounds only, not their own headers.
 */
final class UnionScheduleBuilder {
    private static final Schedule.CommStep[] NO_COMM = new Schedule.CommStep[0];
    private static final Runnable[] NO_LOCAL = new Runnable[0];

    private final InterComm ic;
    private final String op;
    private final CollHeader header;
    private final List<Schedule.Round> rounds = new ArrayList<>();
    private final List<Schedule.CommStep> comm = new ArrayList<>();
    private final List<Runnable> local = new ArrayList<>();

    /**
     * Starts the schedule of one call.
     *
     * @param ic         the intercommunicator
     * @param kind       the operation
     * @param op         its name, for messages
     * @param root       this group's root, or -1 (none, or not known to this rank)
     * @param remoteRoot the remote group's root, or -1
     * @param count      the call's send count (reports only), or -1
     */
    UnionScheduleBuilder(final InterComm ic, final CollKind kind, final String op, final int root, final int remoteRoot,
        final int count) {
        this.ic = ic;
        this.op = op;
        this.header = CollHeader.inter(kind, root, remoteRoot, ic.isLocalFirst(),
            ic.isLocalFirst() ? ic.localSize() : ic.remoteSize(), count);
    }

    UnionScheduleBuilder sendRemote(final int remoteRank, final MemorySegment segment, final Datatype type) {
        flushLocal();
        comm.add(new Schedule.CommStep(true, ic.remoteToUnion(remoteRank), segment, type));
        return this;
    }

    UnionScheduleBuilder recvRemote(final int remoteRank, final MemorySegment segment, final Datatype type) {
        flushLocal();
        comm.add(new Schedule.CommStep(false, ic.remoteToUnion(remoteRank), segment, type));
        return this;
    }

    /** Adds a local step after the current round's messages. */
    UnionScheduleBuilder step(final Runnable r) {
        local.add(r);
        return this;
    }

    UnionScheduleBuilder endRound() {
        if (!comm.isEmpty() || !local.isEmpty()) {
            rounds.add(new Schedule.Round(comm.isEmpty() ? NO_COMM : comm.toArray(NO_COMM),
                local.isEmpty() ? NO_LOCAL : local.toArray(NO_LOCAL)));
            comm.clear();
            local.clear();
        }
        return this;
    }

    private void flushLocal() {
        if (!local.isEmpty()) {
            endRound();
        }
    }

    /** Appends an intracommunicator schedule built on {@link InterComm#local()}, as the next phase. */
    UnionScheduleBuilder inGroup(final Schedule s) {
        endRound();
        for (final Schedule.Round r : s.rounds()) {
            final Schedule.CommStep[] steps = new Schedule.CommStep[r.comm().length];
            for (int i = 0; i < steps.length; i++) {
                final Schedule.CommStep c = r.comm()[i];
                steps[i] = new Schedule.CommStep(c.send(), ic.localToUnion(c.peer()), c.segment(), c.type());
            }
            rounds.add(new Schedule.Round(steps, r.meanwhile(), r.local()));
        }
        if (null != s.finish()) {
            rounds.add(new Schedule.Round(NO_COMM, new Runnable[] {s.finish()}));
        }
        return this;
    }

    Schedule build(final List<Runnable> finish) {
        endRound();
        final Runnable fin = null == finish || finish.isEmpty() ? null : () -> finish.forEach(Runnable::run);
        return new Schedule(op, rounds.toArray(new Schedule.Round[0]), fin, header);
    }
}
