package dev.tutti.coll;

/**
 * How a collective call starts its schedule: blocking, nonblocking, or as a tagged two-phase collective keyed by
 * (kind, tag). Immutable; the api layer threads one through its validation code into the call's descriptor
 * ({@link CollCall}), and the door ({@code coll.door.CollDoor}) starts the schedule accordingly: {@code enter} for
 * the call-ordered variants, {@code begin} for a tagged one. The variant ({@link CollCall.Variant}) is held here.
 */
public final class CollStart {
    /** A blocking call: run, then the caller waits. */
    public static final CollStart BLOCKING = new CollStart(CollCall.Variant.BLOCKING, -1);
    /** A nonblocking call: the run progresses in any wait of the rank. */
    public static final CollStart NONBLOCKING = new CollStart(CollCall.Variant.NONBLOCKING, -1);
    /** A persistent call ({@code ...Init}): built once by the door's {@code init}, each start nonblocking. */
    public static final CollStart PERSISTENT = new CollStart(CollCall.Variant.PERSISTENT, -1);

    /** The call's variant: held here only, {@link CollCall#variant()} reads it. */
    private final CollCall.Variant variant;
    private final int tag;

    private CollStart(final CollCall.Variant variant, final int tag) {
        this.variant = variant;
        this.tag = tag;
    }

    /**
     * A tagged two-phase start (nonblocking, matched by the call's kind and this tag). The tag must already be
     * validated.
     *
     * @param tag the user tag, 0..{@link CollComm#TAGGED_TAG_UB}
     * @return the start
     */
    public static CollStart tagged(final int tag) {
        return new CollStart(CollCall.Variant.TAGGED, tag);
    }

    /**
     * @param nonblocking whether the caller returns before completion
     * @return {@link #NONBLOCKING} or {@link #BLOCKING}
     */
    public static CollStart of(final boolean nonblocking) {
        return nonblocking ? NONBLOCKING : BLOCKING;
    }

    /** @return the variant this start gives a call */
    public CollCall.Variant variant() {
        return variant;
    }

    /** @return the user tag of a tagged start, else -1 */
    public int tag() {
        return tag;
    }

    /**
     * Starts a call-ordered schedule this way (a tagged call starts through the door's {@code begin}).
     *
     * @param schedule the schedule
     * @param comm     the communicator (for an intercommunicator, the union of its groups)
     * @param lease    the cache entry the schedule is leased from, or null
     * @param gate     what a nonblocking or tagged run waits for before its data moves ({@link CollGate}), or null
     * @param hostCall the call's number in the communicator's on-host region ({@link CollCall#hostCall()}), or 0
     * @return the run, or for a blocking call of a leased schedule a completed request
     */
    public dev.tutti.Request start(final Schedule schedule, final CollComm comm, final ScheduleCache.Entry lease,
        final CollGate gate, final long hostCall) {
        final boolean nonblocking = CollCall.Variant.BLOCKING != variant;
        if (!nonblocking && null != lease) {
            // waits here; every blocking caller waits at once
            return ScheduleRun.runBlocking(schedule, comm, lease, hostCall);
        }
        return ScheduleRun.start(schedule, comm, nonblocking, lease, nonblocking ? gate : null, hostCall);
    }
}
