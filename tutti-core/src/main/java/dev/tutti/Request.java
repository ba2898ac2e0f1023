package dev.tutti;

import java.util.concurrent.TimeUnit;

/**
 * A nonblocking operation in progress. Obtained from {@code isend}, {@code irecv} and the nonblocking collectives;
 * completed by {@link #waitFor()} or observed by {@link #test()}.
 *
 * <p>Thread-safety: a request may be tested or waited on from any thread, but only one thread should wait on a
 * given request at a time.
 *
 * <p>Memory consistency effects: actions of the thread that completes the operation (the writes into a receive
 * buffer, for example) happen-before the return of a {@link #waitFor()} or a {@link #test()} that returns
 * {@code true}.
 */
public interface Request {

    /**
     * Returns whether the operation has completed, without blocking.
     *
     * @return true if complete
     * @throws TuttiException if the operation completed with an error (for example a truncated receive)
     */
    boolean test();

    /**
     * Blocks until the operation completes.
     *
     * @return the status of the completed operation ({@link Status#EMPTY} for sends and collectives)
     * @throws TuttiException if the operation failed: truncation, a failed peer, an aborted job
     */
    Status waitFor();

    /**
     * Blocks until the operation completes or the timeout elapses.
     *
     * @param timeout how long to wait
     * @param unit    the unit of {@code timeout}
     * @return the status, or null if the timeout elapsed first (the operation goes on)
     * @throws TuttiException if the operation failed
     */
    Status waitFor(long timeout, TimeUnit unit);

    /**
     * Tries to cancel the operation. A receive that has not yet matched a message is cancelled and completes with
     * {@link Status#cancelled()} true; a request that already matched, or a send, completes normally.
     */
    void cancel();

    /**
     * Waits for every request to complete. Requests that fail do not stop the wait for the others; the first
     * failure is then thrown with the later ones suppressed.
     *
     * @param requests the requests; null entries are ignored
     * @return the statuses, in the order of the requests
     * @throws TuttiException if any request failed
     */
    static Status[] waitAll(final Request... requests) {
        final Status[] statuses = new Status[requests.length];
        TuttiException first = null;
        for (int i = 0; i < requests.length; i++) {
            if (null == requests[i]) {
                continue;
            }
            try {
                statuses[i] = requests[i].waitFor();
            } catch (final TuttiException e) {
                if (null == first) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (null != first) {
            throw first;
        }
        return statuses;
    }

    /**
     * Waits until one of the requests completes and returns its index.
     *
     * @param requests the requests; null entries are ignored
     * @return the index of a completed request, or -1 if every entry is null
     * @throws TuttiException if the completed request failed
     */
    static int waitAny(final Request... requests) {
        return Requests.waitAny(requests);
    }

    /**
     * Returns whether every request has completed, without blocking.
     *
     * @param requests the requests; null entries count as complete
     * @return true if all are complete
     * @throws TuttiException if a completed request failed
     */
    static boolean testAll(final Request... requests) {
        boolean all = true;
        for (final Request r : requests) {
            if (null != r && !r.test()) {
                all = false;
            }
        }
        return all;
    }
}
