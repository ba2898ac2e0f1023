package dev.tutti.calls;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Request;
import dev.tutti.Status;

import java.util.concurrent.TimeUnit;

/** A request that is complete from the start (operations on {@link Communicator#PROC_NULL}). */
public final class CompletedRequest implements Request {
    public static final CompletedRequest NULL_PEER =
        new CompletedRequest(new Status(Communicator.PROC_NULL, Communicator.ANY_TAG, 0, Datatype.BYTE, false));

    private final Status status;

    private CompletedRequest(final Status status) {
        this.status = status;
    }

    @Override
    public boolean test() {
        return true;
    }

    @Override
    public Status waitFor() {
        return status;
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        return status;
    }

    @Override
    public void cancel() {
        // Already complete.
    }
}
