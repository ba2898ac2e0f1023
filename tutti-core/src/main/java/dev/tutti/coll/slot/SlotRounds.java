package dev.tutti.coll.slot;

import java.util.ArrayList;
import java.util.List;

/**
 * The lean way through a persistent run whose every message goes through shared-memory slots ({@link SlotPlan}
 * agreed, all of its messages direct): the rounds as flat arrays of {@link SlotPart}s, sends first, each round's
 * outstanding parts in one bit mask. A start of such a run moves its messages here instead of through
 * {@code ScheduleRun}'s general round machinery (part requests re-armed and completed, their outcomes and lengths
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
 * message: the part's copy and one release store ({@link SlotPart#move()}); per round: one pass over its parts per
 * advance.
 */
public final class SlotRounds {
    private final SlotPart[][] parts;
    private final long[] all;
    private final Runnable[][] meanwhile;
    private final Runnable[][] local;
    private final Runnable finish;
    private int round;
    private long mask;

    private SlotRounds(final SlotPart[][] parts, final long[] all, final Runnable[][] meanwhile,
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
     * @param plan      the run's plan, agreed, every message direct
     * @param meanwhile each round's steps run while its messages fly, by round
     * @param local     each round's steps run once its messages have moved, by round
     * @param finish    the step run after the last round, or null
     * @return the rounds, or null
     */
    public static SlotRounds of(final SlotPlan plan, final Runnable[][] meanwhile, final Runnable[][] local,
        final Runnable finish) {
        final int rounds = local.length;
        final SlotPart[][] parts = new SlotPart[rounds][];
        final long[] all = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            final int width = plan.width(r);
            if (width > Long.SIZE) {
                return null;
            }
            final List<SlotPart> sends = new ArrayList<>();
            final List<SlotPart> recvs = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                final SlotPart p = plan.part(r, i);
                (p.sends() ? sends : recvs).add(p);
            }
            sends.addAll(recvs); // a round's sends go out before it looks for its receives
            parts[r] = sends.toArray(new SlotPart[0]);
            all[r] = width == Long.SIZE ? -1L : (1L << width) - 1;
        }
        return new SlotRounds(parts, all, meanwhile, local, finish);
    }

    /** Starts a run at its first round (the lanes' run numbers are drawn). */
    public void begin() {
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
    public boolean advance() {
        final SlotPart[][] parts = this.parts;
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
            for (final SlotPart p : parts[round]) {
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
    private static long move(final SlotPart[] ps, final long m) {
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
    public SlotPart awaited() {
        SlotPart first = null;
        if (round >= 0 && round < parts.length) {
            final SlotPart[] ps = parts[round];
            for (long left = mask; 0 != left; left &= left - 1) {
                final SlotPart p = ps[Long.numberOfTrailingZeros(left)];
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
    public List<SlotPart> pending() {
        final List<SlotPart> out = new ArrayList<>();
        if (round >= 0 && round < parts.length) {
            for (long left = mask; 0 != left; left &= left - 1) {
                out.add(parts[round][Long.numberOfTrailingZeros(left)]);
            }
        }
        return out;
    }

    /** @return the current round, from 0 (-1 before the first) */
    public int round() {
        return round;
    }

    /** @return the bits of the current round's outstanding parts */
    public long mask() {
        return mask;
    }

    /**
     * Returns an outstanding part whose peer left or failed (its {@code blockedBy()} says how), or null.
     *
     * @return the part, or null
     */
    public SlotPart blockedBy() {
        for (final SlotPart p : pending()) {
            if (null != p.blockingFailure()) {
                return p;
            }
        }
        return null;
    }
}
