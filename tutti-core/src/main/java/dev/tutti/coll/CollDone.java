package dev.tutti.coll;

import dev.tutti.Request;
import dev.tutti.Status;

import java.util.concurrent.TimeUnit;

/**
 * The request of a collective that completed before its call returned: what a blocking call of a cached schedule
 * returns ({@link ScheduleRun#runBlocking}), and the door for a call that the communicator's on-host region ran or
 * the rank's hook did itself. One instance per road, so that the door's trace event can say which road the call's
 * data took; stateless otherwise, so no such call allocates.
 */
public final class CollDone implements Request {
    /** A call whose data went by messages. */
    public static final Request DONE = new CollDone("messages");
    /** A call that the communicator's on-host region ran ({@code coll.host}). */
    public static final Request REGION = new CollDone("region");
    /** A call whose data the rank's hook moved itself (the checker's exchange). */
    public static final Request BY_HOOK = new CollDone("hook");

    private final String road;

    private CollDone(final String road) {
        this.road = road;
    }

    /**
     * @param r a collective's request
     * @return the road its data took, as trace events name it: {@code region}, {@code hook} or {@code messages}
     */
    public static String road(final Request r) {
        return r instanceof CollDone d ? d.road : r instanceof RegionRun ? ((CollDone) REGION).road
            : ((CollDone) DONE).road;
    }

    @Override
    public boolean test() {
        return true;
    }

    @Override
    public Status waitFor() {
        return Status.EMPTY;
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        return Status.EMPTY;
    }

    @Override
    public void cancel() {
        // Complete already.
    }

    @Override
    public String toString() {
        return "collective(complete, " + road + ")";
    }
}
