package dev.tutti.p2p;

import dev.tutti.transport.Inbound;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * MPI matching for one rank: the posted-receive queue (PRQ) and the unexpected-message queue (UMQ).
 *
 * <p>Implementation notes. Invariant: no message in the UMQ matches a receive in the PRQ; each operation keeps it
 * by searching the other queue before appending to its own, both under the one lock of this matcher (one lock
 * per rank, not per process, so ranks never contend with each other's matching). Arrivals are searched against
 * the PRQ in posting order and receives against the UMQ in arrival order, which together with per-pair in-order
 * transports gives MPI's non-overtaking rule. The matched pair is returned and the data moved outside the lock.
 * Cost: O(queue length) per operation; collectives keep their own context, so their traffic is matched exactly.
 */
final class Matcher {
    private final ArrayDeque<RecvRequest> posted = new ArrayDeque<>();
    private final ArrayDeque<Inbound> unexpected = new ArrayDeque<>();

    /** Matches an arrival to the oldest matching posted receive (removed), or queues it and returns null. */
    synchronized RecvRequest arrive(final Inbound m) {
        for (final Iterator<RecvRequest> it = posted.iterator(); it.hasNext();) {
            final RecvRequest r = it.next();
            if (r.matches(m)) {
                it.remove();
                return r;
            }
        }
        unexpected.addLast(m);
        return null;
    }

    /** Matches a receive to the oldest matching unexpected message (removed), or posts it and returns null. */
    synchronized Inbound post(final RecvRequest r) {
        for (final Iterator<Inbound> it = unexpected.iterator(); it.hasNext();) {
            final Inbound m = it.next();
            if (r.matches(m)) {
                it.remove();
                return m;
            }
        }
        posted.addLast(r);
        return null;
    }

    /** Finds, without removing, the oldest unexpected message that {@code r} would match. */
    synchronized Inbound peek(final RecvRequest r) {
        for (final Inbound m : unexpected) {
            if (r.matches(m)) {
                return m;
            }
        }
        return null;
    }

    /** Removes a posted receive that has not matched; returns whether it was still posted. */
    synchronized boolean cancel(final RecvRequest r) {
        return posted.removeFirstOccurrence(r);
    }

    /** @return the number of posted receives plus unexpected messages (for leak checks in tests) */
    synchronized int pendingCount() {
        return posted.size() + unexpected.size();
    }
}
