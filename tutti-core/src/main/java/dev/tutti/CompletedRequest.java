package dev.tutti;

import java.util.concurrent.TimeUnit;

/** A request that is complete from the start (operations on {@link Communicator#PROC_NULL}). */
final class CompletedRequest implements Request {
    static final CompletedRequest NULL_PEER =
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
