package dev.tutti.p2p;

import dev.tutti.Status;
import dev.tutti.transport.Inbound;
import dev.tutti.type.TypeCode;

import java.util.List;

/**
 * MPI matching for one rank: the posted-receive queue (PRQ) and the unexpected-message queue (UMQ).
 *
 * <p>Implementation notes. Invariant: no message in the UMQ matches a receive in the PRQ; each operation keeps it
 * by searching the other queue before appending to its own, both under the one lock of this matcher (one lock
 * per rank, not per process, so ranks never contend with each other's matching). Arrivals are searched against
 * the PRQ in posting order and receives against the UMQ in arrival order, which together with per-pair in-order
 * transports gives MPI's non-overtaking rule. The matched pair is returned and the data moved outside the lock.
 * Cost: an arrival searches the posted receives by position ({@link RingQueue}: no iterator object); a receive
 * searches the unexpected messages from the oldest, and once such searches run deep, only those of its context and
 * tag ({@link UnexpectedQueue}): collectives, whose calls each draw a tag of their own context, then search just the
 * messages of their own call. A receive for any tag searches them all.
 *
 * <p>While searching, both operations also look for a collective receive that a message of its own call refuses
 * ({@link RecvRequest#refuses}: same context and tag, another source, a header that disagrees): such a message is
 * never received by that receive, yet proves that the ranks called different collectives or roots, and the
 * receive's real message may never come. The receive is then failed (outside the lock) instead of left waiting;
 * the message stays queued. A matching receive or message, if any, wins over a refusing one.
 */
final class Matcher {
    private final RingQueue<RecvRequest> posted = new RingQueue<>();
    private final UnexpectedQueue unexpected = new UnexpectedQueue();
    /*
     * A test-and-test-and-set spin lock rather than a monitor: the critical sections are a few dozen instructions,
     * and two threads (a sender matching and a receiver posting) contend constantly; a monitor inflates under that
     * contention and hands over through the OS, which costs microseconds. Waiters spin briefly and then yield, so a
     * preempted holder (more ranks than cores) gets the CPU back.
     */
    private final java.util.concurrent.atomic.AtomicBoolean locked = new java.util.concurrent.atomic.AtomicBoolean();

    private void lock() {
        int spins = 0;
        while (locked.get() || !locked.compareAndSet(false, true)) {
            if (++spins < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private void unlock() {
        locked.setRelease(false); // release store: the queues happen-before the next lock()'s winning CAS
    }

    /**
     * Matches an arrival to the oldest matching posted receive (removed), or queues it and returns null (after
     * failing the oldest posted receive it refuses, if any).
     */
    RecvRequest arrive(final Inbound m) {
        RecvRequest refused = null;
        lock();
        try {
            for (int i = 0; i < posted.size(); i++) {
                final RecvRequest r = posted.get(i);
                if (r.matches(m)) {
                    return posted.removeAt(i);
                }
                if (null == refused && r.refuses(m)) {
                    refused = r;
                }
            }
            if (null != refused) {
                posted.remove(refused);
            }
            unexpected.add(m);
        } finally {
            unlock();
        }
        if (null != refused) {
            refused.refuse(m);
        }
        return null;
    }

    /**
     * Takes the oldest posted receive that a message with this envelope matches, without queueing anything.
     *
     * @return the receive (removed), or null if none is posted (the caller then queues the message by {@link #arrive})
     */
    RecvRequest takePosted(final int context, final int source, final int tag) {
        lock();
        try {
            for (int i = 0; i < posted.size(); i++) {
                if (posted.get(i).matches(context, source, tag)) {
                    return posted.removeAt(i);
                }
            }
            return null;
        } finally {
            unlock();
        }
    }

    /**
     * Matches a receive to the oldest matching unexpected message (removed), or posts it and returns null; or, if
     * no message matches and one refuses it, fails it without posting it and returns null.
     */
    Inbound post(final RecvRequest r) {
        Inbound refusal = null;
        final int tag = r.tag;
        lock();
        try {
            for (int n = unexpected.oldest(r.context, tag); n >= 0; n = unexpected.next(n, tag)) {
                final Inbound m = unexpected.message(n);
                if (r.matches(m)) {
                    return unexpected.remove(n);
                }
                if (null == refusal && r.refuses(m)) {
                    refusal = m;
                }
            }
            if (null == refusal) {
                posted.addLast(r);
                return null;
            }
        } finally {
            unlock();
        }
        r.refuse(refusal);
        return null;
    }

    /**
     * Describes, without removing it, the oldest unexpected message that {@code r} would match: read under the lock,
     * since once received (by another thread) a message may be recycled by its transport.
     *
     * @return its status, or null if none has arrived
     */
    Status peek(final RecvRequest r, final CommView view) {
        final int tag = r.tag;
        lock();
        try {
            for (int n = unexpected.oldest(r.context, tag); n >= 0; n = unexpected.next(n, tag)) {
                final Inbound m = unexpected.message(n);
                if (r.matches(m)) {
                    return new Status(view.toLocal(m.source), m.tag, m.lengthBytes, TypeCode.datatype(m.typeCode),
                        false);
                }
            }
            return null;
        } finally {
            unlock();
        }
    }

    /**
     * Tells whether an unexpected message with this context, source and tag (no wildcards) waits for its receive,
     * allocating nothing.
     */
    boolean holds(final int context, final int source, final int tag) {
        lock();
        try {
            for (int n = unexpected.oldest(context, tag); n >= 0; n = unexpected.next(n, tag)) {
                final Inbound m = unexpected.message(n);
                if (m.context == context && m.source == source && m.tag == tag) {
                    return true;
                }
            }
            return false;
        } finally {
            unlock();
        }
    }

    /** Removes a posted receive that has not matched; returns whether it was still posted. */
    boolean cancel(final RecvRequest r) {
        lock();
        try {
            return posted.remove(r);
        } finally {
            unlock();
        }
    }

    /**
     * Takes every unexpected message with a context in {@code [from, to)}, unless a receive on one of those contexts
     * is still posted (retirement of a freed communicator's contexts, see {@link P2pEngine#retireContexts}).
     *
     * @return the messages removed (possibly none), or null if a receive is posted and nothing was removed
     */
    List<Inbound> retire(final int from, final int to) {
        lock();
        try {
            for (int i = 0; i < posted.size(); i++) {
                final int context = posted.get(i).context;
                if (context >= from && context < to) {
                    return null;
                }
            }
            return unexpected.removeContexts(from, to);
        } finally {
            unlock();
        }
    }

    /** @return the messages that have arrived and not been received, oldest first (a copy) */
    java.util.List<Inbound> unexpected() {
        lock();
        try {
            return unexpected.toList();
        } finally {
            unlock();
        }
    }

    /** @return the number of posted receives plus unexpected messages (for leak checks in tests) */
    int pendingCount() {
        lock();
        try {
            return posted.size() + unexpected.size();
        } finally {
            unlock();
        }
    }
}
