package dev.tutti.coll;

import dev.tutti.Datatype;

import java.lang.foreign.MemorySegment;

/**
 * A collective algorithm written once: rounds of nonblocking sends and receives, each followed by local steps
 * (reductions, copies) that run once the round's messages are complete. Immutable once built; runs are started
 * by {@link ScheduleRun}. Built by {@link ScheduleBuilder}.
 *
 * @param op     the operation name, for error messages (e.g. {@code allreduce})
 * @param rounds the rounds in order
 * @param finish a local step after the last round (e.g. unstaging a boolean buffer), or null
 * @param header the kind and root(s) every message of a run carries and every receive checks
 *               ({@link CollHeader#NONE}: none)
 */
public record Schedule(String op, Round[] rounds, Runnable finish, CollHeader header) {

    /**
     * Returns this schedule with another header (the header of the call it is built for).
     *
     * @param h the header
     * @return the schedule
     */
    public Schedule withHeader(final CollHeader h) {
        return new Schedule(op, rounds, finish, h);
    }

    /**
     * Returns this schedule with {@code step} run after its own finish step, if any (same header).
     *
     * @param step the step
     * @return the schedule
     */
    public Schedule thenFinally(final Runnable step) {
        final Runnable own = finish;
        return new Schedule(op, rounds, null == own ? step : () -> {
            own.run();
            step.run();
        }, header);
    }

    /** @return the most messages of any round (the part requests a run of it needs at once) */
    public int widest() {
        int w = 0;
        for (final Round r : rounds) {
            w = Math.max(w, r.comm().length);
        }
        return w;
    }

    /**
     * One round: its messages (receives are posted before sends), the local steps that run while they are in
     * flight, and the local steps that follow them.
     *
     * @param comm      the messages
     * @param meanwhile local steps run once the messages are posted (a send may already have gone), before the
     *                  round waits for them; they touch none of the messages' bytes (e.g. the copy of a rank's own
     *                  block, which would otherwise lengthen the round by its time)
     * @param local     the local steps that follow the messages, in order
     */
    public record Round(CommStep[] comm, Runnable[] meanwhile, Runnable[] local) {
        private static final Runnable[] NONE = new Runnable[0];

        /**
         * A round with nothing run while its messages are in flight.
         *
         * @param comm  the messages
         * @param local the local steps that follow them
         */
        public Round(final CommStep[] comm, final Runnable[] local) {
            this(comm, NONE, local);
        }
    }

    /**
     * One message of a round.
     *
     * @param send    true for a send, false for a receive
     * @param peer    the peer's rank in the communicator's group
     * @param segment the bytes sent, or where received bytes go (exactly the expected size)
     * @param type    the datatype label (checked against the peer's)
     */
    public record CommStep(boolean send, int peer, MemorySegment segment, Datatype type) {
    }
}
