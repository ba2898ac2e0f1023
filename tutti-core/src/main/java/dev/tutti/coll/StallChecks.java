package dev.tutti.coll;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.coll.slot.SlotPart;
import dev.tutti.coll.slot.SlotPlan;
import dev.tutti.coll.slot.SlotRounds;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;

import java.util.Arrays;
import java.util.List;

/**
 * Why a waiting {@link ScheduleRun} can never complete, asked by its wait on the idle passes that found no work
 * ({@code blockingFailure}): a failure of the engine, a peer the run still waits for that left or failed, a message of
 * another call at the run's place in the call order (ranks that called different collectives), a peer whose call
 * published in the communicator's on-host region is another, or this one taken through the region
 * ({@link HostState#stalled}), a peer that sends the call's data as messages where this rank agrees slots with it,
 * or a tagged call's timeout. Each verdict names the call, the communicator and the peer. It also remembers when a
 * peer's departure was first seen (the run fails only once it has lasted {@link #DEPARTURE_GRACE_NS}), when a run
 * with messages through shared-memory slots was first seen stalled (it looks for another call's message on its tag
 * only after {@link #DIRECT_STALL_NS}, on one idle pass in {@link #DIRECT_CHECK_EVERY}), and when an ordinary run
 * was first seen stalled (it looks for a message of another call at its place in the call order, and at the peers'
 * calls published in the on-host region, after {@link #CONFLICT_STALL_NS}, on one idle pass in
 * {@link #CONFLICT_CHECK_EVERY}).
 *
 * <p>Implementation notes. Why the grace: a wait that the departure really blocks lasts forever, so 100 ms cost it
 * nothing that matters; the grace keeps a window that CollTaggedTest hit about once in ten runs (a tagged
 * alltoallw's receive from a rank that had completed its own run and returned, still pending at that instant, never
 * explained) from failing a healthy collective. The checks that pair a round's parts with its steps hold the run's
 * {@code busy} flag, so that both are of the same round; when another thread is advancing the run they find nothing,
 * and the wait asks again on its next idle pass. State: the run's, touched by the holder of its {@code busy} flag
 * (the idle-pass counter racily: a sampling counter), cleared at each start ({@link #reset()}). Cost: a clock
 * reading per check, and checks run only on idle passes of a wait.
 */
final class StallChecks {
    /** Idle passes between two looks of a stalled direct run for a conflicting message (a power of two). */
    static final int DIRECT_CHECK_EVERY = 4096;
    /** How long a direct run waits before it looks for a conflicting message: 1 s. */
    static final long DIRECT_STALL_NS = 1_000_000_000L;
    /** How long a departure must last before a run that waits for the departed peer fails: 100 ms. */
    static final long DEPARTURE_GRACE_NS = 100_000_000L;

    /**
     * Idle passes between two clock readings of a stalled ordinary run (a power of two): few enough that a parked
     * wait (up to {@code tutti.idle.maxParkUs} a pass) looks about every {@code 64} ms once it is due, many enough
     * that a spinning wait reads the clock rarely.
     */
    static final int CONFLICT_CHECK_EVERY = 64;
    /** How long an ordinary run waits before it looks for a message that shows a mismatch: 200 ms. */
    static final long CONFLICT_STALL_NS = 200_000_000L;

    private final ScheduleRun run;
    private long departureSeenNs;
    private long directStallNs;
    private int directChecks;
    private long conflictStallNs;
    private int conflictChecks;

    /** @param run the run whose waits these checks serve */
    StallChecks(final ScheduleRun run) {
        this.run = run;
    }

    /** Forgets the last start's sightings (its owner, at a start). */
    void reset() {
        departureSeenNs = 0;
        directStallNs = 0;
        conflictStallNs = 0;
    }

    /**
     * Returns the failure that keeps the run from ever completing, or null while it may still complete: what its
     * {@code blockingFailure} answers.
     *
     * @return the failure, or null
     */
    TuttiException blockingFailure() {
        final CollComm comm = run.comm();
        final Schedule schedule = run.schedule();
        final TuttiException f = comm.engine().failureAffecting(P2pEngine.ANY);
        if (null != f) {
            return Failures.wrap(f, schedule.op(), comm.describe(), "cannot complete");
        }
        final TuttiException departed = departedPeer();
        if (null != departed) {
            return explained(departed);
        }
        final int context = run.context();
        final SlotPlan direct = run.direct();
        if (null == direct && (context == comm.context() || context == comm.taggedContext()) && conflictCheckDue()) {
            // Each side may only send (a bcast against a reduce to the same root, messages too large to go
            // eagerly): no receive meets the other call's message, and the sends wait for ever.
            final TuttiException conflict = CollLeftovers.conflict(comm, run.tagged(), run.tag(),
                schedule.header().bits());
            if (null != conflict) {
                return conflict;
            }
            // A peer that took the on-host region for this call (a bcast's root, a reduce's non-root) sends no
            // message and may not wait, but it published its call there.
            final HostState host = 0 == run.hostCall() ? null : comm.hostState();
            final TuttiException crossed = null == host ? null : host.stalled(run.hostCall(), schedule.header(),
                schedule.op());
            if (null != crossed) {
                return crossed;
            }
        }
        if (null != direct && directCheckDue()) {
            final TuttiException conflict = directConflict();
            if (null != conflict) {
                return conflict;
            }
        }
        final long deadlineNs = run.deadlineNs();
        if (Long.MAX_VALUE != deadlineNs && System.nanoTime() - deadlineNs > 0) {
            return Failures.timeout(run.key(), comm.describe(), "not matched", comm.taggedTimeoutMs(), "still waiting "
                + "for rank(s) " + waitingFor() + " in round " + run.round() + " of " + schedule.rounds().length
                + "; did they begin " + run.key() + " with the same count? (setting "
                + dev.tutti.internal.Settings.COLL_TAGGED_TIMEOUT_MS.name() + ")", null);
        }
        return null;
    }

    /**
     * @return the failure of a call whose peer is gone, explained by a mismatch if this rank holds a message that
     *         shows one ({@link CollLeftovers#explain}); any other failure as it is
     */
    TuttiException explained(final TuttiException failure) {
        final CollComm comm = run.comm();
        final int context = run.context();
        return context == comm.context() || context == comm.taggedContext() ? CollLeftovers.explain(comm,
            run.tagged(), run.tag(), run.schedule().header().bits(), failure) : failure;
    }

    /**
     * Returns why a receive of the current round can never complete (its peer left the job or failed), or null. A
     * peer that left after doing its part of this collective is no reason: only a receive still pending from it is
     * (every transport delivers a peer's messages before its goodbye, so such a receive can only be one the peer
     * never sent). Sends are not asked: the transport fails a send to a peer that is gone. Holds the run's
     * {@code busy} (see the class note).
     */
    private TuttiException departedPeer() {
        final CollComm comm = run.comm();
        if (!comm.engine().anyPeerGone() || !run.tryHold()) { // no CAS while every peer is here
            return null;
        }
        try {
            final Schedule schedule = run.schedule();
            final Schedule.Round[] rounds = schedule.rounds();
            final SlotRounds lean = run.leanNow();
            if (null != lean && !run.isDone()) {
                final SlotPart p = lean.blockedBy();
                return null == p || !departureSettled() ? null : waitsFor(p.blockingFailure(), schedule.op(), comm,
                    comm.groupRank(p.peerWorld()), lean.round(), rounds.length);
            }
            final int round = run.round();
            final SlotPlan direct = run.direct();
            if (!run.isDone() && round < 0 && null != direct && !direct.ready()) {
                final SlotPlan.Blocked b = direct.blockedBy(); // the agreement of its shared-memory slots
                return null == b || !departureSettled() ? null : agreeingWith(b.failure(), schedule.op(), comm,
                    b.peer());
            }
            if (run.isDone() || round < 0 || round >= rounds.length) {
                return null;
            }
            final Schedule.CommStep[] steps = rounds[round].comm();
            final AbstractRequest[] parts = run.parts();
            for (int i = 0; i < run.pending(); i++) {
                if (steps[i].send()) {
                    // A send's completion may trail the receiver's (inproc: the sender's thread finishes a copy the
                    // receiver already took), so a peer that did its part may leave while the send is pending.
                    continue;
                }
                final TuttiException f = parts[i].blockedBy();
                if (null != f) {
                    return !departureSettled() ? null : waitsFor(f, run.tagged() ? run.key() : schedule.op(), comm,
                        steps[i].peer(), round, rounds.length);
                }
            }
            return null;
        } finally {
            run.letGo();
        }
    }

    /**
     * Returns the mismatch that keeps a stalled run with direct parts waiting, or null: a message on this run's tag
     * from a peer that this run reaches through shared-memory slots can only come from a different call at the same
     * place in the call order (the peer's messages of this very call go through the slots), which the message layer
     * would have refused by its header. Looked for only once the run has stalled long enough: a probe per peer of
     * the round. Holds the run's {@code busy}, as {@link #departedPeer()} does.
     */
    private TuttiException directConflict() {
        if (!directStalledLong() || !run.tryHold()) {
            return null;
        }
        try {
            final SlotPlan d = run.direct(); // dropped by an advance that found no lane direct
            if (null == d) {
                return null;
            }
            final CollComm comm = run.comm();
            final String op = run.schedule().op();
            final int round = run.round();
            final SlotRounds lean = run.leanNow();
            if (!run.isDone() && round < 0 && !d.ready()) {
                final int peer = d.stalledBy(run.tag());
                return peer < 0 ? null : settingsDiffer(op, comm, peer);
            }
            if (run.isDone() || (round < 0 && null == lean)) {
                return null;
            }
            final List<? extends AbstractRequest> waiting = null != lean ? lean.pending()
                : Arrays.asList(run.parts()).subList(0, run.pending());
            for (final AbstractRequest part : waiting) {
                if (part instanceof SlotPart dp && (null != lean || !dp.isDone())
                    && null != comm.engine().iprobe(run.context(), dp.peerWorld(), run.tag(), comm.view())) {
                    return otherCall(op, comm, comm.groupRank(dp.peerWorld()));
                }
            }
            return null;
        } finally {
            run.letGo();
        }
    }

    /** The peers whose messages of the current round are still outstanding (read racily: for messages only). */
    private String waitingFor() {
        final AbstractRequest[] ps = run.parts();
        final int n = run.pending();
        final int round = run.round();
        final Schedule.Round[] rounds = run.schedule().rounds();
        final StringBuilder sb = new StringBuilder();
        if (round >= 0 && round < rounds.length) {
            final Schedule.CommStep[] steps = rounds[round].comm();
            for (int i = 0; i < n && i < ps.length && i < steps.length; i++) {
                if (null != ps[i] && !ps[i].isDone()) {
                    sb.append(sb.isEmpty() ? "" : ", ").append(steps[i].peer());
                }
            }
        }
        return sb.isEmpty() ? "(none)" : sb.toString();
    }

    /**
     * @return true on one idle pass in {@link #CONFLICT_CHECK_EVERY} once the run has been seen stalled for
     *         {@link #CONFLICT_STALL_NS}: time to look for a message of another call ({@link CollLeftovers#conflict})
     */
    private boolean conflictCheckDue() {
        if (0 != (++conflictChecks & (CONFLICT_CHECK_EVERY - 1))) {
            return false;
        }
        final long now = System.nanoTime();
        if (0 == conflictStallNs) {
            conflictStallNs = now;
            return false;
        }
        return now - conflictStallNs >= CONFLICT_STALL_NS;
    }

    /** @return true on one idle pass in {@link #DIRECT_CHECK_EVERY} */
    private boolean directCheckDue() {
        return 0 == (++directChecks & (DIRECT_CHECK_EVERY - 1));
    }

    /** @return whether the departure seen now was first seen at least {@link #DEPARTURE_GRACE_NS} ago */
    private boolean departureSettled() {
        final long now = System.nanoTime();
        if (0 == departureSeenNs) {
            departureSeenNs = now;
            return false;
        }
        return now - departureSeenNs > DEPARTURE_GRACE_NS;
    }

    /** @return whether the run, seen stalled now, was first seen stalled at least {@link #DIRECT_STALL_NS} ago */
    private boolean directStalledLong() {
        final long now = System.nanoTime();
        if (0 == directStallNs) {
            directStallNs = now;
            return false;
        }
        return now - directStallNs >= DIRECT_STALL_NS;
    }

    /** @return the failure of a run that waits for rank {@code peer} (group rank), which is gone */
    private static TuttiException waitsFor(final TuttiException gone, final String op, final CollComm comm,
        final int peer, final int round, final int rounds) {
        return Failures.wrap(gone, op, comm.describe(), "cannot complete, it waits for rank " + peer + " (round "
            + (round + 1) + " of " + rounds + ")");
    }

    /** @return the failure of a run whose slots' agreement waits for rank {@code peer}, which is gone */
    private static TuttiException agreeingWith(final TuttiException gone, final String op, final CollComm comm,
        final int peer) {
        return Failures.wrap(gone, op, comm.describe(), "cannot complete, it waits for rank " + peer + " (agreeing on "
            + "shared-memory slots, before round 1)");
    }

    /** @return the error of a run whose peer sent this call's data as messages while this rank agrees on slots */
    private static TuttiException settingsDiffer(final String op, final CollComm comm, final int peer) {
        return Errors.invalid(ErrorClass.ARG, op, comm.describe(), "rank=" + peer + " sent this call's data through "
            + "the message layer while this rank waits to agree shared-memory slots with it: the ranks run with "
            + "different settings " + dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name());
    }

    /** @return the error of a run whose peer, reached through slots, sent a message of another call on its tag */
    private static TuttiException otherCall(final String op, final CollComm comm, final int peer) {
        return Errors.invalid(ErrorClass.ARG, op, comm.describe(), "rank=" + peer + " sent a message of another "
            + "collective call at this place in the call order, where this rank started a persistent " + op
            + " whose messages with it go through shared-memory slots: the ranks called different collectives, or "
            + "with different counts or roots");
    }
}
