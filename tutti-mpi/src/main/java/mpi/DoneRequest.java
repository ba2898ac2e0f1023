package mpi;

import java.util.concurrent.TimeUnit;

/**
 * A Tutti request that is complete when it is made: the receive of a message a matched probe already took
 * ({@link Message#imRecv}), a buffered-mode send whose message was copied ({@link Buffered}).
 *
 * @param status the status its completion reports
 */
record DoneRequest(dev.tutti.Status status) implements dev.tutti.Request {
    /** The completion of a send. */
    static final DoneRequest SENT = new DoneRequest(dev.tutti.Status.EMPTY);

    @Override
    public boolean test() {
        return true;
    }

    @Override
    public dev.tutti.Status waitFor() {
        return status;
    }

    @Override
    public dev.tutti.Status waitFor(final long timeout, final TimeUnit unit) {
        return status;
    }

    @Override
    public void cancel() {
        // complete: nothing to cancel
    }
}
