package dev.tutti.coll;

import java.util.ArrayList;
import java.util.List;

/**
 * The lean way through a persistent run whose every message goes through shared-memory slots ({@link DirectPlan}
 * agreed, all of its messages direct): the rounds as flat arrays of {@link DirectPart}s, sends first, each round's
 * outstanding parts in one bit mask. A start of such a run moves its messages here instead of through
 * {@link ScheduleRun}'s general round machinery (part requests re-armed and completed, their outcomes and lengths
 * checked, a watch kept): a slot's message cannot fail or differ in size once the lane is agreed, so none of that
 * is needed, and the path from one message's arrival to the next message's send is a few loads and stores.
 *
 * <p>Implementation notes. Built once, when the plan is agreed; used only by the thread holding the run's advance lock
 * ({@code ScheduleRun.busy}), so the fields are that thread's. {@link #begin()} aims the first round's parts at the
 * lanes' current run numbers (drawn by the owner at the start, before the lock's CAS publishes them);
 * {@link #advance()} moves what it can, runs a round's local steps once its mask is empty, and aims the next round
 * (moving its parts once before running its {@code meanwhile} steps). A send waiting for room (its receiver has not
 * read the cell's previous use) keeps its bit; the run's wait finds a departed peer through {@link #pending()} (as
 * {@code ScheduleRun} does for its part requests). Used only when every round has at most 64 messages. Cost per
 * message: the part's copy and one release store ({@link DirectPart#move()}); per round: one pass over its parts per
 * advance.
 */
final class DirectRounds {
    private final DirectPart[][] parts;
    private final long[] all;
    private final Runnable[][] meanwhile;
    private final Runnable[][] local;
    private final Runnable finish;
    private int round;
    private long mask;

    private DirectRounds(final DirectPart[][] parts, final long[] all, final Runnable[][] meanwhile,
        final Runnable[][] local, final Runnable finish) {
        this.parts = parts;
        this.all = all;
        this.meanwhile = meanwhile;
        this.local = local;
        this.finish = finish;
    }

    /**
     * Returns the lean form of an agreed plan whose every message is direct, or null if a round has more than 64
     * messages.
     *
     * @param schedule the run's schedule
     * @param plan     its plan, agreed, every message direct
     * @return the rounds, or null
     */
    static DirectRounds of(final Schedule schedule, final DirectPlan plan) {
        final Schedule.Round[] rounds = schedule.rounds();
        final DirectPart[][] parts = new DirectPart[rounds.length][];
        final long[] all = new long[rounds.length];
        final Runnable[][] meanwhile = new Runnable[rounds.length][];
        final Runnable[][] local = new Runnable[rounds.length][];
        for (int r = 0; r < rounds.length; r++) {
            final Schedule.CommStep[] steps = rounds[r].comm();
            if (steps.length > Long.SIZE) {
                return null;
            }
            final List<DirectPart> sends = new ArrayList<>();
            final List<DirectPart> recvs = new ArrayList<>();
            for (int i = 0; i < steps.length; i++) {
                final DirectPart p = plan.part(r, i);
                (p.sends() ? sends : recvs).add(p);
            }
            sends.addAll(recvs); // a round's sends go out before it looks for its receives
            parts[r] = sends.toArray(new DirectPart[0]);
            all[r] = steps.length == Long.SIZE ? -1L : (1L << steps.length) - 1;
            meanwhile[r] = rounds[r].meanwhile();
            local[r] = rounds[r].local();
        }
        return new DirectRounds(parts, all, meanwhile, local, schedule.finish());
    }

    /** Starts a run at its first round (the lanes' run numbers are drawn). */
    void begin() {
        round = -1;
        mask = 0;
    }

    /**
     * Moves the run as far as its slots allow: every outstanding part of the round is tried (a send waiting for
     * room must not hold back a receive, nor the other way round), and each round whose parts are all done runs
     * its local steps and aims the next.
     *
     * @return true once the run's last local step (and its finish step) has run
     */
    boolean advance() {
        final DirectPart[][] parts = this.parts;
        while (true) {
            if (round >= 0) {
                mask = move(parts[round], mask);
                if (0 != mask) {
                    return false;
                }
                for (final Runnable r : local[round]) {
                    r.run();
                }
            }
            if (++round == parts.length) {
                if (null != finish) {
                    finish.run();
                }
                return true;
            }
            for (final DirectPart p : parts[round]) {
                p.aim();
            }
            mask = all[round];
            if (0 != meanwhile[round].length) {
                mask = move(parts[round], mask); // the sends go out first; the steps then overlap their flight
                for (final Runnable r : meanwhile[round]) {
                    r.run();
                }
            }
        }
    }

    /** @return {@code m} without the bits of the parts of {@code ps} that moved now */
    private static long move(final DirectPart[] ps, final long m) {
        long left = m;
        for (long b = m; 0 != b; b &= b - 1) {
            final int i = Long.numberOfTrailingZeros(b);
            if (ps[i].move()) {
                left &= ~(1L << i);
            }
        }
        return left;
    }

    /**
     * Returns the first outstanding receive of the round when no send of it is outstanding (what the run's waits
     * watch before they take its lock), else null.
     *
     * @return the receive, or null
     */
    DirectPart awaited() {
        DirectPart first = null;
        if (round >= 0 && round < parts.length) {
            final DirectPart[] ps = parts[round];
            for (long left = mask; 0 != left; left &= left - 1) {
                final DirectPart p = ps[Long.numberOfTrailingZeros(left)];
                if (p.sends()) {
                    return null;
                }
                if (null == first) {
                    first = p;
                }
            }
        }
        return first;
    }

    /** @return the outstanding parts of the current round (for the failure checks of a wait; allocates) */
    List<DirectPart> pending() {
        final List<DirectPart> out = new ArrayList<>();
        if (round >= 0 && round < parts.length) {
            for (long left = mask; 0 != left; left &= left - 1) {
                out.add(parts[round][Long.numberOfTrailingZeros(left)]);
            }
        }
        return out;
    }

    /** @return the current round, from 0 (-1 before the first) */
    int round() {
        return round;
    }

    /** @return the bits of the current round's outstanding parts */
    long mask() {
        return mask;
    }

    /**
     * Returns an outstanding part whose peer left or failed (its {@code blockedBy()} says how), or null.
     *
     * @return the part, or null
     */
    DirectPart blockedBy() {
        for (final DirectPart p : pending()) {
            if (null != p.blockingFailure()) {
                return p;
            }
        }
        return null;
    }
}
