package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A nonblocking operation (MPI_Request) over a Tutti {@link dev.tutti.Request}. Completing it (a wait, or a test that
 * returns true) makes the handle null ({@link #isNull()}), except for a {@link Prequest}, which goes back to inactive.
 * The request keeps its buffers reachable until it completes. Errors go to the error handler of the communicator
 * the operation was started on.
 */
public class Request implements Freeable {
    /** The operation in progress, or null (completed, freed, never started, or inactive persistent). */
    private volatile dev.tutti.Request op;
    /** Where errors go; null for REQUEST_NULL. */
    private final Comm comm;
    /** Buffers the operation uses, kept reachable until it completes. */
    private volatile Object keep;
    /** Run once after completion (e.g. to publish an iDup's communicator), or null. */
    private volatile Runnable after;

    Request(final Comm comm, final dev.tutti.Request op, final Object keep) {
        this.comm = comm;
        this.op = op;
        this.keep = keep;
    }

    /** @return a null request (MPI.REQUEST_NULL) */
    static Request nullRequest() {
        return new Request(null, null, null);
    }

    /**
     * Sets what to run once the operation completes.
     *
     * @param r the action
     * @return this
     */
    Request after(final Runnable r) {
        after = r;
        return this;
    }

    /**
     * Makes this request run another operation (a persistent request's start).
     *
     * @param next the operation
     * @param buffers the buffers to keep reachable
     */
    final void activate(final dev.tutti.Request next, final Object buffers) {
        op = next;
        keep = buffers;
    }

    /** @return whether the request is persistent and not freed (stays non-null when inactive) */
    boolean persistent() {
        return false;
    }

    /**
     * Releases the handle; an operation in progress goes on to completion in the background.
     */
    @Override
    public void free() throws MPIException {
        MPI.check();
        op = null;
        keep = null;
    }

    /** Asks to cancel the operation; completing it then reports {@link Status#isCancelled()}. */
    public final void cancel() throws MPIException {
        MPI.check();
        final dev.tutti.Request o = op;
        if (null != o) {
            try {
                o.cancel();
            } catch (final RuntimeException e) {
                throw fail("MPI_Cancel", e);
            }
        }
    }

    /** @return whether the handle is null: REQUEST_NULL, completed or freed */
    public final boolean isNull() {
        return null == op && !persistent();
    }

    /** @return the status once the operation has completed (blocks until then); the handle becomes null */
    public final Status waitStatus() throws MPIException {
        MPI.check();
        return complete("MPI_Wait", true);
    }

    /** Blocks until the operation completes; the handle becomes null. */
    public final void waitFor() throws MPIException {
        MPI.check();
        complete("MPI_Wait", true);
    }

    /** @return the status if the operation has completed (the handle becomes null), else null */
    public final Status testStatus() throws MPIException {
        MPI.check();
        return complete("MPI_Test", false);
    }

    /** @return the status if the operation has completed, else null; the request stays as it is */
    public final Status getStatus() throws MPIException {
        MPI.check();
        final dev.tutti.Request o = op;
        if (null == o) {
            return Status.empty();
        }
        try {
            return o.test() ? Status.of(o.waitFor()) : null;
        } catch (final RuntimeException e) {
            throw fail("MPI_Request_get_status", e);
        }
    }

    /** @return whether the operation has completed (the handle then becomes null) */
    public final boolean test() throws MPIException {
        MPI.check();
        return null != complete("MPI_Test", false);
    }

    /**
     * Waits or tests, and on completion clears the handle and runs the completion action.
     *
     * @param call  the MPI function, for errors
     * @param block whether to wait
     * @return the status, or null if not complete
     */
    private Status complete(final String call, final boolean block) throws MPIException {
        try {
            return completeOrThrow(block);
        } catch (final RuntimeException e) {
            throw fail(call, e);
        }
    }

    /**
     * Waits or tests, and on completion clears the handle and runs the completion action; a failed operation
     * clears the handle too and throws its failure as it is (the caller applies the error handler).
     *
     * @param block whether to wait
     * @return the status, or null if not complete
     */
    private Status completeOrThrow(final boolean block) {
        final dev.tutti.Request o = op;
        if (null == o) {
            return Status.empty();
        }
        final dev.tutti.Status s;
        try {
            if (!block && !o.test()) {
                return null;
            }
            s = o.waitFor();
        } catch (final RuntimeException e) {
            op = null;
            keep = null;
            throw e;
        }
        op = null;
        keep = null;
        final Runnable r = after;
        if (null != r) {
            after = null;
            r.run();
        }
        return Status.of(s);
    }

    /** @return whether the request is active (has an operation in progress or completed but not yet waited) */
    final boolean active() {
        return null != op;
    }

    final MPIException fail(final String call, final RuntimeException e) {
        return null == comm ? MpiErrors.handle(MPI.ERRORS_ARE_FATAL, call, "MPI_COMM_WORLD", e)
            : comm.fail(call, e);
    }

    // ----------------------------------------------------------------------------------------- array forms

    /** @param requests the requests @return the status of one that completed, its index in {@link Status#getIndex} */
    public static Status waitAnyStatus(final Request[] requests) throws MPIException {
        MPI.check();
        for (int round = 0;; round++) {
            boolean any = false;
            for (int i = 0; i < requests.length; i++) {
                final Request r = requests[i];
                if (null != r && r.active()) {
                    any = true;
                    final Status s = r.complete("MPI_Waitany", false);
                    if (null != s) {
                        return s.index(i);
                    }
                }
            }
            if (!any) {
                return Status.empty();
            }
            idle(round);
        }
    }

    /** @param requests the requests @return the index of one that completed, or MPI.UNDEFINED if none is active */
    public static int waitAny(final Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    /**
     * Tests the requests for one that has completed (MPI_Testany).
     *
     * @param requests the requests
     * @return the status of one that has completed (index set); null if some are active and none has completed;
     *         the empty status with index {@code MPI.UNDEFINED} if none is active (MPI's flag true, as with
     *         an empty array)
     */
    public static Status testAnyStatus(final Request[] requests) throws MPIException {
        MPI.check();
        boolean any = false;
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (null != r && r.active()) {
                any = true;
                final Status s = r.complete("MPI_Testany", false);
                if (null != s) {
                    return s.index(i);
                }
            }
        }
        return any ? null : Status.empty();
    }

    /** @param requests the requests @return the index of one that has completed, or MPI.UNDEFINED */
    public static int testAny(final Request[] requests) throws MPIException {
        final Status s = testAnyStatus(requests);
        return null == s ? MPI.UNDEFINED : s.getIndex();
    }

    /**
     * Waits for all requests (MPI_Waitall). A failed request does not stop the others: every request completes,
     * then the first failure goes to its communicator's handler (ERRORS_ARE_FATAL ends the job with its code), and
     * under ERRORS_RETURN the call throws MPI_ERR_IN_STATUS, as Open MPI does.
     *
     * @param requests the requests
     * @return the statuses of all, once all have completed
     */
    public static Status[] waitAllStatus(final Request[] requests) throws MPIException {
        MPI.check();
        final Status[] out = new Status[requests.length];
        final Failure f = new Failure();
        for (int i = 0; i < requests.length; i++) {
            out[i] = f.complete(requests[i], true);
        }
        f.report("MPI_Waitall");
        return out;
    }

    /**
     * The first failure of an array call that completes requests one by one and reports errors at the end
     * (MPI_ERR_IN_STATUS).
     */
    private static final class Failure {
        private Request request;
        private RuntimeException failure;

        /** Completes one request (null: the empty status); a failure is kept and its status is empty. */
        Status complete(final Request r, final boolean block) {
            if (null == r) {
                return Status.empty();
            }
            try {
                return r.completeOrThrow(block);
            } catch (final RuntimeException e) {
                if (null == failure) {
                    request = r;
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                return Status.empty();
            }
        }

        /** Applies the first failed request's handler; under ERRORS_RETURN throws MPI_ERR_IN_STATUS. */
        void report(final String call) throws MPIException {
            if (null != failure) {
                final MPIException e = request.fail(call, failure);
                throw new MPIException(MPI.ERR_IN_STATUS, MpiErrors.string(MPI.ERR_IN_STATUS), e);
            }
        }
    }

    /** @param requests the requests; returns once all have completed */
    public static void waitAll(final Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    /**
     * Tests whether all requests have completed (MPI_Testall); if so, completes them all, reporting failures as
     * {@link #waitAllStatus} does.
     *
     * @param requests the requests
     * @return the statuses if all have completed (then all are completed), else null
     */
    public static Status[] testAllStatus(final Request[] requests) throws MPIException {
        MPI.check();
        for (final Request r : requests) {
            final dev.tutti.Request o = null == r ? null : r.op;
            boolean done;
            try {
                done = null == o || o.test();
            } catch (final RuntimeException e) {
                done = true; // failed: complete, and let the completion report it
            }
            if (!done) {
                return null;
            }
        }
        final Status[] out = new Status[requests.length];
        final Failure f = new Failure();
        for (int i = 0; i < requests.length; i++) {
            out[i] = f.complete(requests[i], true);
        }
        f.report("MPI_Testall");
        return out;
    }

    /** @param requests the requests @return whether all have completed (then all are completed) */
    public static boolean testAll(final Request[] requests) throws MPIException {
        return null != testAllStatus(requests);
    }

    /** @param requests the requests @return statuses (index set) of all that completed, at least one; null if none is active */
    public static Status[] waitSomeStatus(final Request[] requests) throws MPIException {
        MPI.check();
        for (int round = 0;; round++) {
            final Status[] s = testSome("MPI_Waitsome", requests);
            if (null == s || s.length > 0) {
                return s;
            }
            idle(round);
        }
    }

    /** @param requests the requests @return indices of all that completed, at least one; null if none is active */
    public static int[] waitSome(final Request[] requests) throws MPIException {
        return indices(waitSomeStatus(requests));
    }

    /**
     * Tests the requests and completes all that have completed (MPI_Testsome); failures are reported as by
     * {@link #waitAllStatus}.
     *
     * @param requests the requests
     * @return statuses (index set) of all that have completed, maybe none; null if none is active
     */
    public static Status[] testSomeStatus(final Request[] requests) throws MPIException {
        MPI.check();
        return testSome("MPI_Testsome", requests);
    }

    private static Status[] testSome(final String call, final Request[] requests) throws MPIException {
        final List<Status> done = new ArrayList<>();
        final Failure f = new Failure();
        boolean any = false;
        for (int i = 0; i < requests.length; i++) {
            final Request r = requests[i];
            if (null != r && r.active()) {
                any = true;
                final Status s = f.complete(r, false); // a failed request completes with the empty status
                if (null != s) {
                    done.add(s.index(i));
                }
            }
        }
        f.report(call);
        return any ? done.toArray(new Status[0]) : null;
    }

    /** @param requests the requests @return indices of all that have completed, maybe none; null if none is active */
    public static int[] testSome(final Request[] requests) throws MPIException {
        return indices(testSomeStatus(requests));
    }

    private static int[] indices(final Status[] s) {
        if (null == s) {
            return null;
        }
        final int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getIndex();
        }
        return out;
    }

    /* Polling several requests: spin, then yield, then park up to 1 ms, so a completion is seen promptly. */
    private static void idle(final int round) {
        if (round < 100) {
            Thread.onSpinWait();
        } else if (round < 110) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 1_000L << Math.min(10, round - 110)));
        }
    }
}
