package dev.tutti.channel;

import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who may run a channel's operations, and how they exclude each other: a lock and its condition for a channel that
 * any thread may use, the owner's identity for a confined one ({@link ChannelQos#confined()}).
 *
 * <p>Implementation notes. Shared: {@link #enter} takes the lock ({@link #exit} and {@link #enter} again let other
 * threads in while one waits on an exchange's request), {@link #signal} wakes those waiting for a change, and
 * {@link #awaitChange} waits for one. Confined: {@link #enter} only compares the calling thread with the owner (the
 * thread that created the channel, a final field, so no fence), and the rest does nothing, because no other thread
 * can change the channel: a wait for a change that no request of this rank can bring would never end, so
 * {@link #awaitChange} refuses it at once. Buffer states then change by plain release stores instead of CASes
 * ({@link ChannelBuffer#take(boolean)}). That saves three lock round trips and two CASes per exchange, a visible
 * share of an exchange of small blocks.
 */
final class ChannelGuard {
    private final String where;
    /** The thread that may use a confined channel, or null for a shared one. */
    private final Thread owner;
    /** Shared only: guards the channel's state; null when confined. */
    private final ReentrantLock lock;
    private final Condition changed;

    /**
     * @param owner the thread that may use the channel, or null if any thread may
     * @param where the channel, for messages
     */
    ChannelGuard(final Thread owner, final String where) {
        this.owner = owner;
        this.where = where;
        this.lock = null == owner ? new ReentrantLock() : null;
        this.changed = null == owner ? lock.newCondition() : null;
    }

    /** @return whether only the owner thread may use the channel */
    boolean confined() {
        return null != owner;
    }

    /**
     * Enters an operation: takes the lock, or checks that the owner calls.
     *
     * @throws dev.tutti.TuttiException naming {@code op}, if a thread other than a confined channel's owner calls
     */
    void enter(final String op) {
        if (null == owner) {
            lock.lock();
        } else {
            check(op);
        }
    }

    /** Leaves an operation {@link #enter entered}. */
    void exit() {
        if (null == owner) {
            lock.unlock();
        }
    }

    /**
     * Checks that a confined channel's owner calls (an operation that does not {@link #enter}); nothing when shared.
     *
     * @throws dev.tutti.TuttiException naming {@code op}, if another thread calls
     */
    void check(final String op) {
        if (null != owner && Thread.currentThread() != owner) {
            throw Errors.invalid(ErrorClass.REQUEST, op, where, "called from thread \"" + Thread.currentThread()
                .getName() + "\", expected the thread that created this confined channel (\"" + owner.getName()
                + "\"): a channel of ChannelQos.confined() belongs to that thread");
        }
    }

    /** Wakes the threads that wait for a change (shared). */
    void signal() {
        if (null == owner) {
            changed.signalAll();
        }
    }

    /**
     * Waits for another thread to change the channel, for at most {@code nanos}. A confined channel has no other
     * thread: a wait without end is refused, a bounded one sleeps its time.
     *
     * @param forever whether the operation waits without a time limit
     * @throws dev.tutti.TuttiException if interrupted, or if a confined channel's wait would never end
     */
    void awaitChange(final String op, final long nanos, final boolean forever) {
        if (null != owner) {
            if (forever) {
                throw Errors.invalid(ErrorClass.REQUEST, op, where, "no exchange is in flight and no other thread "
                    + "may use this confined channel, so the wait would never end (take a receive buffer after "
                    + "submitting its exchange, and release receive buffers before submitting more exchanges than "
                    + "the ring holds)");
            }
            LockSupport.parkNanos(nanos);
            return;
        }
        try {
            changed.awaitNanos(nanos);
        } catch (final InterruptedException x) {
            Thread.currentThread().interrupt();
            throw Failures.interrupted(op, where, "waiting for the channel", x);
        }
    }

    /**
     * Waits for a change for at most {@code nanos}, holding the lock on return; for the clock thread of a shared
     * (time-driven) channel, which handles the interruption itself.
     */
    void awaitNanos(final long nanos) throws InterruptedException {
        changed.awaitNanos(nanos);
    }
}
