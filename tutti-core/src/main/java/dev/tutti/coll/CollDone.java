package dev.tutti.coll;

import dev.tutti.Request;
import dev.tutti.Status;

import java.util.concurrent.TimeUnit;

/**
 * The request of a collective that completed before its call returned: what a blocking call of a cached schedule
 * returns ({@link ScheduleRun#runBlocking}), and the door for a call the rank's hook did itself. Stateless, so one
 * instance serves every such call and none allocates.
 */
public final class CollDone implements Request {
    /** The one instance. */
    public static final Request DONE = new CollDone();

    private CollDone() {
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
        return "collective(complete)";
    }
}
