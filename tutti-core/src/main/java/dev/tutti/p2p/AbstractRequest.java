package dev.tutti.p2p;

import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.trace.Trace;
import dev.tutti.trace.WaitEvent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Base of every request: a one-shot completion with a status or an error, and the wait loop.
 *
 * <p>Implementation notes. {@code result} goes from null to the status or the failure by one CAS
 * ({@link #complete}): the one completer wins, and the CAS publishes the result and everything written before it
 * to whoever reads {@code result} non-null. One atomic instruction per completion: a fence more would make the
 * completing thread wait for its earlier stores (e.g. a ring record it just zeroed) to reach other cores.
 * Lost wake-ups are avoided Dekker-style: the completer CASes {@code result} then loads {@code waiter}; the
 * waiter stores {@code waiter} then loads {@code result} (all volatile), so at least one sees the other. The waiter
 * publishes itself only before it parks, and clears the field only if it did, so a wait that never parks writes
 * no volatile field.
 * Parks are bounded anyway, so a waiter also notices an engine failure (dead peer, aborted job), which completes
 * nothing.
 *
 * <p>The waiting thread drives progress: each idle iteration first advances the request itself
 * ({@link #progressSelf()}), then polls the engine's transports (on one iteration in {@link #engineEvery()} for a
 * request that completes without them). A wait with a long
 * timeout (1 ms or more: a channel's poll slice) reads the clock on only every 64th idle iteration that merely spins
 * ({@link IdleStrategy#spinsOnly}), and on every one that yields or parks, and starts its timeout at the first
 * reading, so that one completed within a few microseconds of spinning reads no clock at all (a reading costs about
 * as much as an empty poll, tens of nanoseconds on a virtual machine's clock); it may last those microseconds longer
 * than asked. Shorter timeouts read the clock at the start and on every idle iteration.
 */
public abstract class AbstractRequest implements Request {
    private static final VarHandle RESULT;
    /** A timed wait reads the clock on every this-many idle iterations (a power of two), and before each park. */
    private static final int CLOCK_EVERY = 64;
    /** Timeouts from this long (1 ms) on start at the first clock reading, not at the call. */
    private static final long LAZY_CLOCK_NS = 1_000_000L;

    static {
        try {
            RESULT = MethodHandles.lookup().findVarHandle(AbstractRequest.class, "result", Object.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The engine whose failures and progress this request depends on. */
    protected final P2pEngine engine;
    /** Null while pending, then the {@link Status} or the {@link TuttiException}. */
    private volatile Object result;
    private volatile Thread waiter;
    private volatile AbstractRequest wakeTarget;

    /**
     * Creates a pending request.
     *
     * @param engine the engine of the rank that owns the request
     */
    protected AbstractRequest(final P2pEngine engine) {
        this.engine = engine;
    }

    /**
     * Completes the request once; later calls are ignored.
     *
     * @param result the status on success
     * @param error  the failure, or null on success
     * @return true if this call completed the request
     */
    protected final boolean complete(final Status result, final TuttiException error) {
        final Object outcome = null != error ? error : null != result ? result : Status.EMPTY;
        if (!RESULT.compareAndSet(this, null, outcome)) {
            return false;
        }
        wake(); // after the CAS: the Dekker pairing with the waiter's store of waiter then load of result
        final AbstractRequest parent = wakeTarget;
        if (null != parent) {
            parent.wake();
        }
        return true;
    }

    /**
     * Completes successfully a request that only one thread can complete, the caller (a collective's part that only
     * the holder of its run's advance lock polls and fails, and nobody waits on; a blocking receive that its own
     * waiting thread matched and filled, {@link RecvRequest#receiveNow}): a release store, where
     * {@link #complete} makes a CAS, which on x86 is a fence that waits for this thread's earlier stores to reach
     * other cores (a message just written into a peer's memory). Wakes nobody: such a request has no other waiter.
     *
     * @param status the status
     */
    protected final void completeByHolder(final Status status) {
        RESULT.setRelease(this, status);
    }

    /**
     * Makes a request that completed successfully pending again, for reuse by its owner (see
     * {@link RecvRequest#reusable}, {@link SendRequest#reusable}, and collective runs); the plain store is published
     * to other threads with the request itself (the matcher's lock, a transport's queue). Only a request that
     * nothing references any more may be rearmed: every transport lets go of a message once it has called
     * {@code delivered}/{@code sent}; a late {@link #wake()} of the old use is a harmless spurious unpark.
     */
    protected final void rearm() {
        // A volatile store, fence included, not a release store: with a release store a persistent alltoall between
        // two processes over shm hangs now and then (a receive re-armed after its message had matched), for a cause
        // not found yet. The fence stays until it is.
        RESULT.set(this, null);
    }

    /**
     * Makes pending again a request that only one thread completes, re-arms and reads, the caller (see
     * {@link #completeByHolder}): a release store, no fence, so that re-arming a collective's part does not wait for
     * a message this thread just wrote into a peer's memory.
     */
    protected final void rearmByHolder() {
        RESULT.setRelease(this, null);
    }

    /** Unparks the thread waiting on this request, if any. */
    protected final void wake() {
        final Thread w = waiter;
        if (null != w) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Makes the completion of this request also wake the waiter of {@code parent} (a collective waiting for its
     * parts).
     *
     * @param parent the request to wake
     */
    public final void wakeOnComplete(final AbstractRequest parent) {
        if (wakeTarget != parent) { // a reused part of a persistent run has its parent already: no fence
            wakeTarget = parent;
        }
        if (isDone()) {
            parent.wake();
        }
    }

    /**
     * Work the waiting thread does for this request itself on every idle iteration, before the engine's agents;
     * a collective advances its schedule here.
     *
     * @return the work done
     */
    protected int progressSelf() {
        return 0;
    }

    /**
     * How often a wait on this request runs the engine's progress (its transports and agents) and looks for a
     * failure: on one idle iteration in this many (a power of two). 1, every iteration, for every request that needs
     * the engine to complete; more only for one that {@link #progressSelf()} completes alone (a persistent
     * collective whose messages all go through shared-memory slots), which then spins on its own progress between
     * two of the engine's passes, so that the others still progress and a failure is still seen within microseconds
     * (only while the idle strategy would spin: a wait that yields or parks runs the engine on every iteration).
     *
     * @return the interval, a power of two
     */
    protected int engineEvery() {
        return 1;
    }

    /**
     * Returns the world ranks this pending request waits for, for the checker's wait-for graph: all of them (a
     * receive from one source, a send, a collective's missing peers), or null for any one of the communicator's
     * ranks (a wildcard receive) or when not known.
     *
     * @return the world ranks, or null
     */
    public int[] waitsOn() {
        return null;
    }

    /**
     * Describes this pending request for the checker's deadlock report, e.g. {@code recv from rank 3, tag 7
     * (comm=WORLD, rank=0)}.
     *
     * @return the description
     */
    public String describeWait() {
        return toString();
    }

    /** @return whether the request completed (successfully or not) */
    public final boolean isDone() {
        return null != result;
    }

    /**
     * Returns the failure that will prevent this request from ever completing (a dead peer, an aborted job), or
     * null. Called by the wait loop.
     *
     * @return the failure or null
     */
    protected abstract TuttiException blockingFailure();

    @Override
    public final boolean test() {
        if (!isDone()) {
            final P2pHook hook = engine.hook();
            final long startNs = null == hook ? 0L : System.nanoTime();
            progressSelf();
            engine.progress();
            if (!isDone() && !failIfBlocked()) {
                if (null != hook) {
                    hook.polled(this, startNs);
                }
                return false;
            }
        }
        throwIfFailed();
        return true;
    }

    @Override
    public final Status waitFor() {
        return await(Long.MAX_VALUE);
    }

    @Override
    public final Status waitFor(final long timeout, final TimeUnit unit) {
        final long ns = unit.toNanos(timeout);
        return await(ns <= 0 ? 0 : ns);
    }

    /**
     * Waits as {@link #waitFor()}, as the inside of a blocking call whose own trace event spans the wait (a blocking
     * collective's): records no {@link WaitEvent}, which would only repeat that event's time.
     *
     * @return the status
     * @throws TuttiException as {@link #waitFor()}
     */
    public final Status waitForInCall() {
        if (!isDone()) {
            awaitSlowPath(Long.MAX_VALUE, false);
        }
        throwIfFailed();
        return (Status) result;
    }

    private Status await(final long timeoutNs) {
        if (!isDone()) {
            awaitSlowPath(timeoutNs, true);
            if (!isDone()) {
                return null;
            }
        }
        throwIfFailed();
        return (Status) result;
    }

    /*
     * The stored failure was created on the completing thread; rethrow a copy so that the stack trace shows the
     * caller's wait, with the original as cause.
     */
    private void throwIfFailed() {
        if (result instanceof dev.tutti.CollectiveMismatchException m) {
            throw new dev.tutti.CollectiveMismatchException(m); // keeps the checker's type
        }
        if (result instanceof dev.tutti.DeadlockException d) {
            throw new dev.tutti.DeadlockException(d);
        }
        if (result instanceof TuttiException f) {
            throw Failures.rethrown(f);
        }
    }

    /** @param traced whether the wait is a {@link WaitEvent} of its own when Tutti records */
    private void awaitSlowPath(final long timeoutNs, final boolean traced) {
        final P2pHook hook = engine.hook();
        final Object token = null == hook ? null : hook.blocked(this);
        final WaitEvent ev = Trace.ON && traced ? Trace.await() : null;
        try {
            awaitLoop(timeoutNs);
        } finally {
            if (null != ev) {
                Trace.waited(ev, this, traceName(), engine.worldRank(), tracePeer(), traceTag());
            }
            if (null != token) {
                hook.unblocked(token);
            }
        }
    }

    /** @return what this request does, for its wait's trace event: {@code send}, {@code recv}, an operation */
    protected String traceName() {
        return "request";
    }

    /** @return the world rank this request waits for, for its wait's trace event; -1 for any or several */
    protected int tracePeer() {
        return -1;
    }

    /** @return this request's tag, for its wait's trace event; -1 for none or any */
    protected int traceTag() {
        return -1;
    }

    private void awaitLoop(final long timeoutNs) {
        final IdleStrategy idle = engine.idleStrategy();
        final boolean timed = Long.MAX_VALUE != timeoutNs;
        final boolean lazy = timed && timeoutNs >= LAZY_CLOCK_NS;
        long deadline = timed && !lazy ? System.nanoTime() + timeoutNs : Long.MAX_VALUE;
        int iteration = 0;
        int idlePasses = 0;
        final int alone = engineEvery() - 1;
        int spins = 0;
        boolean published = false;
        try {
            while (!isDone()) {
                final int own = progressSelf();
                if (isDone()) {
                    return; // the engine's pass can wait for the next wait
                }
                if (0 != (++spins & alone) && idle.spinsOnly(iteration)) { // never instead of a yield or a park
                    if (0 == own) {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                if (own + engine.progress() > 0) {
                    iteration = 0;
                    continue;
                }
                if (failIfBlocked()) {
                    return;
                }
                if (timed && (!lazy || !idle.spinsOnly(iteration) || 0 == (++idlePasses & (CLOCK_EVERY - 1)))) {
                    final long now = System.nanoTime();
                    if (Long.MAX_VALUE == deadline) { // a long timeout's clock starts at its first reading
                        deadline = now + timeoutNs;
                    } else if (now - deadline >= 0) {
                        return;
                    }
                }
                if (idle.mayPark(iteration)) {
                    waiter = Thread.currentThread();
                    published = true;
                    // Re-check after publishing the waiter: a part that completed just before (a collective's
                    // message, which wakes this request's waiter) must not leave this thread parked.
                    if (isDone()) {
                        return;
                    }
                    if (progressSelf() + engine.progressBeforePark() > 0) {
                        continue;
                    }
                }
                idle.idle(iteration++);
                if ((0 == (iteration & 255) || idle.mayPark(iteration)) && Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw Failures.interrupted("wait", toString(), "waiting", null);
                }
            }
        } finally {
            if (published) {
                waiter = null;
            }
        }
    }

    private boolean failIfBlocked() {
        TuttiException blocked = blockingFailure();
        if (null != blocked && ErrorClass.PROC_FAILED == blocked.errorClass()) {
            // What a peer sent before it left or failed (this request's message, a checker's verdict) may have
            // arrived since the last progress: in-process, a departure is seen at once, not after the peer's earlier
            // messages. Read them first, and fail the request only if it still cannot complete.
            progressSelf();
            engine.progress();
            if (isDone()) {
                return true;
            }
            blocked = blockingFailure();
        }
        if (null != blocked) {
            onBlockingFailure();
            if (complete(null, blocked)) {
                onFailedByBlocking();
            }
            return true;
        }
        return false;
    }

    /**
     * Returns the failure that will prevent this pending request from ever completing (its peer left or failed, the
     * job was aborted), or null; a collective asks its pending parts this while it waits.
     *
     * @return the failure, or null
     */
    public final TuttiException blockedBy() {
        return isDone() ? null : blockingFailure();
    }

    /** Called once after a request was failed by {@link #blockingFailure()} (it is complete then). */
    protected void onFailedByBlocking() {
    }

    /** Called once before a request is failed by {@link #blockingFailure()}; removes it from queues. */
    protected void onBlockingFailure() {
    }

    /**
     * Returns the failure of a completed request, for subclasses that report it.
     *
     * @return the failure, or null if it succeeded (or is pending)
     */
    protected final TuttiException failureResult() {
        return result instanceof TuttiException f ? f : null;
    }

    /**
     * Returns the status, for subclasses that complete in steps.
     *
     * @return the status, valid once done
     */
    protected final Status status() {
        return result instanceof Status s ? s : null;
    }
}
