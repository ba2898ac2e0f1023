package dev.tutti.check;

import dev.tutti.CollectiveHandle;
import dev.tutti.Request;
import dev.tutti.Status;

import java.util.concurrent.TimeUnit;

/**
 * What the user gets for a nonblocking or tagged collective or a nonblocking send with the checker on: the engine's
 * request ({@link #end()} of a tagged call is its wait), and the moment the user sees it complete (a wait that
 * returns, a test that returns true, or either of them throwing the request's failure). Then the buffers the
 * operation owned are compared ({@link OwnedBuffers#observed()}) before the user gets them back, and the request
 * counts as completed for the leak report ({@link #observed()}): a nonblocking collective started and never waited
 * or tested to completion is listed at close even if its run finished in the background.
 *
 * <p>Implementation note. Once seen, the engine's request (and through it the call's schedule and the watch's
 * copies) is let go, and later waits and tests answer from the status kept: the leak report holds this object until
 * close or its next purge. Thread-safe as the request it wraps: the first thread to see the completion does the
 * comparison, once ({@code synchronized}, off the engine's path: only under the checker).
 */
final class OwnedRequest implements CollectiveHandle {
    private Request request; // guarded by this; null once seen
    private OwnedBuffers buffers; // guarded by this
    private Status status; // guarded by this: the status seen, or null if the request failed
    private RuntimeException failure; // guarded by this

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
        final Request r = pending();
        if (null == r) {
            return answer() != null;
        }
        final boolean done;
        try {
            done = r.test();
        } catch (final RuntimeException e) {
            failed(e);
            throw e;
        }
        if (done) {
            see(Status.EMPTY);
        }
        return done;
    }

    @Override
    public Status waitFor() {
        final Request r = pending();
        if (null == r) {
            return answer();
        }
        final Status s;
        try {
            s = r.waitFor();
        } catch (final RuntimeException e) {
            failed(e);
            throw e;
        }
        return see(s);
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        final Request r = pending();
        if (null == r) {
            return answer();
        }
        final Status s;
        try {
            s = r.waitFor(timeout, unit);
        } catch (final RuntimeException e) {
            failed(e);
            throw e;
        }
        return null == s ? null : see(s);
    }

    @Override
    public void cancel() {
        final Request r = pending();
        if (null != r) {
            r.cancel();
        }
    }

    /** @return whether the user has seen the request complete */
    synchronized boolean observed() {
        return null == request;
    }

    private synchronized Request pending() {
        return request;
    }

    /** @return the status seen; throws the failure seen */
    private synchronized Status answer() {
        if (null != failure) {
            throw failure;
        }
        return status;
    }

    /** The user saw the request fail: its buffers are theirs again, with no defined contents. */
    private synchronized void failed(final RuntimeException e) {
        if (null != request) {
            request = null;
            buffers = null;
            failure = e;
        }
    }

    private synchronized Status see(final Status s) {
        if (null != request) {
            request = null;
            status = s;
            if (null != buffers) {
                buffers.observed();
                buffers = null;
            }
        }
        return status;
    }

    @Override
    public synchronized String toString() {
        return null == request ? "request(complete)" : request.toString();
    }
}
