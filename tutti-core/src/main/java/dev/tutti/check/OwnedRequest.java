package dev.tutti.check;

import dev.tutti.CollectiveHandle;
import dev.tutti.Request;
import dev.tutti.Status;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the user gets for a nonblocking or tagged collective or a nonblocking send with the checker on: the engine's
 * request ({@link #end()} of a tagged call is its wait), and the moment
 * the user sees it complete (a wait that returns, a test that returns true, or either of them throwing the request's
 * failure). Then the buffers the operation owned are compared ({@link OwnedBuffers#observed()}) before the user gets
 * them back, and the request counts as completed for the leak report ({@link #observed()}): a nonblocking collective
 * started and never waited or tested to completion is listed at close even if its run finished in the background.
 *
 * <p>Thread-safe as the request it wraps: the first thread to see the completion does the comparison, once.
 */
final class OwnedRequest implements CollectiveHandle {
    private final Request request;
    private final OwnedBuffers buffers;
    private final AtomicBoolean seen = new AtomicBoolean();

    /**
     * @param request the engine's request
     * @param buffers the watch over its buffers, or null if none
     */
    OwnedRequest(final Request request, final OwnedBuffers buffers) {
        this.request = request;
        this.buffers = buffers;
    }

    @Override
    public boolean test() {
        final boolean done;
        try {
            done = request.test();
        } catch (final RuntimeException e) {
            seen.set(true); // the user saw the failure: the buffers are theirs again, with no defined contents
            throw e;
        }
        if (done) {
            see();
        }
        return done;
    }

    @Override
    public Status waitFor() {
        final Status s;
        try {
            s = request.waitFor();
        } catch (final RuntimeException e) {
            seen.set(true);
            throw e;
        }
        see();
        return s;
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        final Status s;
        try {
            s = request.waitFor(timeout, unit);
        } catch (final RuntimeException e) {
            seen.set(true);
            throw e;
        }
        if (null != s) {
            see();
        }
        return s;
    }

    @Override
    public void cancel() {
        request.cancel();
    }

    /** @return whether the user has seen the request complete */
    boolean observed() {
        return seen.get();
    }

    private void see() {
        if (seen.compareAndSet(false, true) && null != buffers) {
            buffers.observed();
        }
    }

    @Override
    public String toString() {
        return request.toString();
    }
}
