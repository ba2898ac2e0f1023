package dev.tutti.coll;

/**
 * How a collective call starts its schedule: blocking, nonblocking, or as a tagged two-phase collective keyed by
 * (kind, tag). Immutable; the api layer threads one through its validation code down to the start.
 */
public final class CollStart {
    /** A blocking call: run, then the caller waits. */
    public static final CollStart BLOCKING = new CollStart(false, null, -1);
    /** A nonblocking call: the run progresses in any wait of the rank. */
    public static final CollStart NONBLOCKING = new CollStart(true, null, -1);

    private final boolean nonblocking;
    private final CollKind kind;
    private final int tag;

    private CollStart(final boolean nonblocking, final CollKind kind, final int tag) {
        this.nonblocking = nonblocking;
        this.kind = kind;
        this.tag = tag;
    }

    /**
     * A tagged two-phase start (nonblocking, matched by kind and tag). The tag must already be validated.
     *
     * @param kind the operation
     * @param tag  the user tag, 0..{@link CollComm#TAGGED_TAG_UB}
     * @return the start
     */
    public static CollStart tagged(final CollKind kind, final int tag) {
        return new CollStart(true, kind, tag);
    }

    /**
     * Starts a schedule this way.
     *
     * @param schedule the schedule
     * @param comm     the communicator (for an intercommunicator, the union of its groups)
     * @return the run
     */
    public ScheduleRun start(final Schedule schedule, final CollComm comm) {
        return null == kind ? ScheduleRun.start(schedule, comm, nonblocking)
            : ScheduleRun.startTagged(schedule, comm, kind, tag);
    }
}
