package dev.tutti;

/**
 * The handle of a tagged two-phase collective, returned by a {@code ...Begin(..., tag)} method of
 * {@link Communicator}: the collective runs (and progresses whenever the rank waits on anything) until
 * {@link #end()}. The handle owns the buffers passed to the begin call until {@code end()} returns.
 *
 * <p>Tagged collectives are matched by (communicator, kind of operation, tag), not by call order: ranks may
 * begin them in different orders, several may be outstanding on one communicator, and several threads of a rank
 * may run them at once. The n-th use of one (kind, tag) on each rank meet each other. They never meet untagged
 * collectives, point-to-point messages, or collectives of another communicator. A begin whose partners never
 * begin the same kind with the same tag (or begin it with another count) fails at {@code end()}: with
 * {@link ErrorClass#COUNT} naming both counts, or after the setting {@code tutti.coll.tagged.timeoutMs} (default
 * 5 minutes) with {@link ErrorClass#TIMEOUT} naming the kind, the tag and the ranks still awaited.
 *
 * <p>Memory consistency effects: as for {@link Request}.
 */
public interface CollectiveHandle extends Request {

    /**
     * Completes the collective: waits until this rank's part is done; the buffers are then the caller's again.
     *
     * @return {@link Status#EMPTY}
     * @throws TuttiException if the collective failed (count mismatch, failed peer, timeout)
     */
    default Status end() {
        return waitFor();
    }
}
