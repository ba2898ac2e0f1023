package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A nonblocking operation. {@link #Wait()} and a successful {@link #Test()} complete it, return its
 * {@link Status} and turn it into a null request ({@link #Is_null()}); waiting on a null request returns
 * {@code MPI.EMPTY_STATUS}. {@link #Cancel()} cancels a receive that has not matched a message yet.
 *
 * <p>Implementation note: a request wraps a Tutti request and a completion step that runs once the Tutti request
 * has completed (spreading received data into the caller's array, deserialising objects) and makes the status. A
 * request that completed when it was started (a buffered send) holds its status instead. The static waits poll
 * with a spin, yield, park backoff, as Tutti's own {@code Request.waitAny} does.
 */
public class Request {
    /** MPJ Express's device request; Tutti keeps its state elsewhere, so this is always null. */
    public mpjdev.Request req;

    private dev.tutti.Request inner;
    private Completion completion;
    private Status done;

    /** What turns a completed Tutti request into the MPJ status. */
    @FunctionalInterface
    interface Completion {
        Status complete(dev.tutti.Status s);
    }

    /**
     * A null request (MPJ Express wraps a device request here; a program has none to give).
     *
     * @param req ignored device request
     */
    public Request(final mpjdev.Request req) {
        this.req = req;
    }

    Request(final dev.tutti.Request inner, final Completion completion) {
        this.inner = inner;
        this.completion = completion;
    }

    /** @return a request that is already complete with the given status */
    static Request completed(final Status s) {
        final Request r = new Request((mpjdev.Request) null);
        r.done = s;
        return r;
    }

    /** Makes this (persistent) request active again. */
    final synchronized void activate(final Request started) {
        this.inner = started.inner;
        this.completion = started.completion;
        this.done = started.done;
    }

    /**
     * Blocks until the operation completes.
     *
     * @return its status ({@code MPI.EMPTY_STATUS} for a null request)
     * @throws MPIException if the operation failed
     */
    public Status Wait() throws MPIException {
        final dev.tutti.Request r;
        final Completion c;
        synchronized (this) {
            if (null != done) {
                final Status s = done;
                done = null;
                return s;
            }
            if (null == inner) {
                return MPI.EMPTY_STATUS;
            }
            r = inner;
            c = completion;
        }
        final Status s;
        try {
            s = c.complete(r.waitFor());
        } catch (final RuntimeException e) {
            clear();
            throw Fail.wrap("Request.Wait", e);
        }
        clear();
        return s;
    }

    private synchronized void clear() {
        inner = null;
        completion = null;
    }

    /**
     * Completes the operation if it has completed.
     *
     * @return its status, or null if it has not completed yet
     * @throws MPIException if the operation failed
     */
    public Status Test() throws MPIException {
        return ready() ? Wait() : null;
    }

    /** @return whether Wait would return at once, the request not being null */
    final boolean ready() {
        final dev.tutti.Request r;
        synchronized (this) {
            if (null != done) {
                return true;
            }
            r = inner;
        }
        if (null == r) {
            return false;
        }
        try {
            return r.test();
        } catch (final RuntimeException e) {
            return true; // Wait throws the failure
        }
    }

    /**
     * @return whether this is a null request (completed, or never started)
     * @throws MPIException never; declared as in MPJ Express
     */
    public boolean Is_null() throws MPIException {
        synchronized (this) {
            return null == inner && null == done;
        }
    }

    /**
     * Cancels the operation: a receive that has not matched a message completes as cancelled
     * ({@link Status#Test_cancelled()}); a send, or a receive that matched, completes normally. Wait or Test
     * still completes the request.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    public void Cancel() throws MPIException {
        final dev.tutti.Request r;
        synchronized (this) {
            r = inner;
        }
        if (null != r) {
            r.cancel();
        }
    }

    /**
     * Nothing to release.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    @Override
    @SuppressWarnings({"removal", "deprecation"})
    public void finalize() throws MPIException {
        // nothing held outside the Java heap
    }

    /**
     * Completes one request that has completed, if any.
     *
     * @param r the requests
     * @return the status with {@code index} set, or null if none has completed
     * @throws MPIException if the completed request failed
     */
    public static Status Testany(final Request[] r) throws MPIException {
        for (int i = 0; i < r.length; i++) {
            if (null != r[i] && r[i].ready()) {
                return indexed(r[i].Wait(), i);
            }
        }
        return null;
    }

    /**
     * Waits for every request.
     *
     * @param r the requests
     * @return one status per request (null for a null element)
     * @throws MPIException if a request failed
     */
    public static Status[] Waitall(final Request[] r) throws MPIException {
        final Status[] s = new Status[r.length];
        for (int i = 0; i < r.length; i++) {
            s[i] = null == r[i] ? null : r[i].Wait();
        }
        return s;
    }

    /**
     * Waits until one of the requests completes and completes it.
     *
     * @param r the requests
     * @return its status with {@code index} set; if every request is null, an empty status with {@code index}
     *         {@link MPI#UNDEFINED}
     * @throws MPIException if the completed request failed
     */
    public static Status Waitany(final Request[] r) throws MPIException {
        for (long round = 0;; round++) {
            boolean any = false;
            for (int i = 0; i < r.length; i++) {
                if (null == r[i] || r[i].Is_null()) {
                    continue;
                }
                any = true;
                if (r[i].ready()) {
                    return indexed(r[i].Wait(), i);
                }
            }
            if (!any) {
                return indexed(new Status(MPI.EMPTY_STATUS), MPI.UNDEFINED);
            }
            backoff(round);
        }
    }

    /**
     * Completes every request if all have completed.
     *
     * @param r the requests
     * @return one status per request, or null if some have not completed (none is completed then)
     * @throws MPIException if a request failed
     */
    public static Status[] Testall(final Request[] r) throws MPIException {
        for (final Request q : r) {
            if (null != q && !q.Is_null() && !q.ready()) {
                return null;
            }
        }
        return Waitall(r);
    }

    /**
     * Waits until at least one request completes, and completes every one that has.
     *
     * @param r the requests
     * @return the statuses of the completed requests, {@code index} set; empty if every request is null
     * @throws MPIException if a completed request failed
     */
    public static Status[] Waitsome(final Request[] r) throws MPIException {
        for (long round = 0;; round++) {
            final Status[] s = Testsome(r);
            if (s.length > 0 || allNull(r)) {
                return s;
            }
            backoff(round);
        }
    }

    /**
     * Completes every request that has completed.
     *
     * @param r the requests
     * @return their statuses with {@code index} set, possibly none
     * @throws MPIException if a completed request failed
     */
    public static Status[] Testsome(final Request[] r) throws MPIException {
        final List<Status> out = new ArrayList<>();
        for (int i = 0; i < r.length; i++) {
            if (null != r[i] && r[i].ready()) {
                out.add(indexed(r[i].Wait(), i));
            }
        }
        return out.toArray(new Status[0]);
    }

    private static boolean allNull(final Request[] r) {
        for (final Request q : r) {
            if (null != q && !q.Is_null()) {
                return false;
            }
        }
        return true;
    }

    private static Status indexed(final Status s, final int index) {
        final Status c = s == MPI.EMPTY_STATUS ? new Status(s) : s;
        c.index = index;
        return c;
    }

    private static void backoff(final long round) {
        if (round < 100) {
            Thread.onSpinWait();
        } else if (round < 110) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 1_000L << Math.min(10, round - 110)));
        }
    }
}
