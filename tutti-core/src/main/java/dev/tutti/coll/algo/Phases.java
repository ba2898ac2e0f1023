package dev.tutti.coll.algo;

import dev.tutti.coll.CollHeader;
import dev.tutti.coll.Schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * Joins schedules built over subgroups of a communicator into one schedule over the communicator: each phase's
 * rounds, in order, with its peers (subgroup ranks) mapped to the communicator's ranks.
 *
 * <p>Implementation notes. A phase's finish step becomes a round of its own, so it runs before the next phase
 * starts. Two phases never share a round: each round of a schedule starts only when the previous one completed,
 * so a later phase cannot read memory an earlier one still fills. Messages between one pair of ranks keep their
 * order across phases because every rank lists its phases in the same order (MPI's non-overtaking rule matches
 * them as sent).
 */
final class Phases {
    private static final Schedule.CommStep[] NO_COMM = new Schedule.CommStep[0];

    private final String op;
    private final List<Schedule.Round> rounds = new ArrayList<>();

    Phases(final String op) {
        this.op = op;
    }

    /**
     * Appends a phase.
     *
     * @param phase   a schedule built on a subgroup view
     * @param members the communicator rank of each subgroup rank
     * @return this
     */
    Phases add(final Schedule phase, final int[] members) {
        for (final Schedule.Round r : phase.rounds()) {
            final Schedule.CommStep[] steps = new Schedule.CommStep[r.comm().length];
            for (int i = 0; i < steps.length; i++) {
                final Schedule.CommStep s = r.comm()[i];
                steps[i] = new Schedule.CommStep(s.send(), members[s.peer()], s.segment(), s.type());
            }
            rounds.add(new Schedule.Round(steps, r.meanwhile(), r.local()));
        }
        if (null != phase.finish()) {
            local(phase.finish());
        }
        return this;
    }

    /**
     * Appends a phase built on the communicator itself (its peers are the communicator's ranks).
     *
     * @param phase the schedule
     * @return this
     */
    Phases add(final Schedule phase) {
        rounds.addAll(java.util.Arrays.asList(phase.rounds()));
        if (null != phase.finish()) {
            local(phase.finish());
        }
        return this;
    }

    /**
     * Appends a round of local steps.
     *
     * @param steps the steps, in order
     * @return this
     */
    Phases local(final Runnable... steps) {
        if (steps.length > 0) {
            rounds.add(new Schedule.Round(NO_COMM, steps.clone()));
        }
        return this;
    }

    /** @return the joined schedule, without a header ({@link Algorithms#build} adds the call's) */
    Schedule build() {
        return new Schedule(op, rounds.toArray(new Schedule.Round[0]), null, CollHeader.NONE);
    }
}
