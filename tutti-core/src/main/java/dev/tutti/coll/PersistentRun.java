package dev.tutti.coll;

import dev.tutti.ErrorClass;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.trace.CollectiveEvent;
import dev.tutti.trace.Trace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A persistent collective request: one call's descriptor, its schedule built once ({@link dev.tutti.coll.door.CollDoor#init}), and one
 * run started again for each {@link #start()}.
 *
 * <p>Implementation notes. The schedule is the request's own (never shared through the communicator's cache), so
 * its scratch is used by one run at a time; its own {@link ScheduleCache.Entry} lends that run reusable part
 * requests and is leased by each start and released by the run after its last step. A start therefore costs the
 * hook's branch, a CAS on the entry and the run's rearm: no allocation. {@code active} is a flag written with
 * release stores, no fence on the start's path. A run that failed keeps its lease (messages
 * may still land in its memory), so the request cannot start again. State: {@code active} is set by
 * {@link #start()} and cleared by a {@link #test()} or {@link #waitFor()} that sees the run complete (MPI-4's
 * inactive state); the owner thread drives starts, any thread may test or wait, one at a time (as for every
 * request). On a communicator with an on-host region a start may go there instead ({@link HostState#start}, as
 * {@link Road#onHost} decides): then the schedule's run is not started, its lease goes back at once, and the test or
 * wait asks the region's run ({@code onHost}, reused by the next start); a start whose road its ranks agree after it
 * ({@link Road#agreedLater}) and that turns out to take messages leases it again for its run ({@link MessageFallback}).
 */
public final class PersistentRun implements PersistentRequest {
    private static final VarHandle ACTIVE;

    static {
        try {
            ACTIVE = MethodHandles.lookup().findVarHandle(PersistentRun.class, "active", boolean.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CollCall call;
    private final ScheduleCache.Entry entry;
    private final ScheduleRun run;
    /** Release stores and acquire loads ({@link #active(boolean)}): a state flag, no fence on a start's path. */
    @SuppressWarnings("unused") // accessed through ACTIVE
    private boolean active;
    private volatile boolean freed;
    private boolean started;
    /** The current start's run through the on-host region, or null when {@code run} carries it. */
    private RegionRun onHost;
    /** The last run through the region, kept for the next start to reuse. */
    private RegionRun lastOnHost;
    /**
     * How a start whose road its ranks agree after it ({@link Road#agreedLater}) goes to the message layer: this
     * request's run, under the tag drawn at the start.
     */
    private final MessageFallback fallback;

    public PersistentRun(final CollCall call, final Schedule schedule) {
        this.call = call;
        this.entry = ScheduleCache.Entry.standalone(schedule);
        this.run = ScheduleRun.persistent(schedule, call.comm(), entry, () -> freed || !isActive());
        this.fallback = this::startMessages;
        call.comm().activeRuns().addPersistent(run);
    }

    @Override
    public void start() {
        final CollectiveEvent ev = Trace.ON ? Trace.collective() : null;
        startUntraced();
        if (null != ev && Trace.end(ev)) {
            Trace.commit(ev, new CollTrace(call, null != onHost ? CollTrace.REGION : null != run.directPlan()
                ? CollTrace.SLOTS : CollTrace.MESSAGES), run);
        }
    }

    private void startUntraced() {
        if (freed) {
            throw Errors.invalid(ErrorClass.REQUEST, op("start"), call.where(), "the persistent request is freed, expected "
                + "a live request");
        }
        if (isActive()) {
            throw Errors.invalid(ErrorClass.REQUEST, op("start"), call.where(), "the persistent request is active, expected "
                + "it inactive: wait for (or test) its previous start first");
        }
        if (call.comm().view().isFreed()) {
            throw Errors.invalid(ErrorClass.COMM, op("start"), call.where(), "its communicator is freed, expected a "
                + "request of a live communicator (free persistent requests before their communicator)");
        }
        final CollHook hook = call.comm().rankState().hook();
        if (null != hook) {
            hook.before(call);
        }
        if (!entry.tryClaimOwned()) {
            throw Errors.invalid(ErrorClass.REQUEST, op("start"), call.where(), "an earlier start failed, so its memory may "
                + "still be written; expected a request whose runs succeeded (free it and init a new one)");
        }
        started = true;
        final HostState host = null == hook ? call.comm().hostState() : null;
        onHost = null;
        if (null != host) {
            entry.release(); // a run through the region leases no schedule; one that falls back takes the lease
            onHost = host.start(call, lastOnHost, fallback);
            if (null != onHost) {
                lastOnHost = onHost;
                active(true);
                return;
            }
            entry.tryClaimOwned(); // free: this thread gave it back above, and no run of this request has it
        }
        active(true);
        run.startPersistent(call.gate(), hook, call);
    }

    /**
     * Starts this request's run on the message layer for a start through the region whose ranks found a rank that
     * offered no cells ({@link MessageFallback}): the run takes the schedule's lease back, which the start gave up.
     */
    private Request startMessages(final CollCall c, final int tag, final long hostCall) {
        if (!entry.tryClaimOwned()) {
            throw Failures.internal(op("start"), c.where(), "the persistent request's schedule is leased");
        }
        return run.startPersistentDrawn(c.gate(), c, tag, hostCall);
    }

    /** @return the operation named in messages (built only for one) */
    private String op(final String what) {
        return call.kind().mpiName() + " " + what;
    }

    @Override
    public boolean isActive() {
        return (boolean) ACTIVE.getAcquire(this);
    }

    private void active(final boolean a) {
        ACTIVE.setRelease(this, a);
    }

    @Override
    public boolean test() {
        if (!started) {
            return true;
        }
        final RegionRun h = onHost;
        final boolean done = null != h ? h.test() : run.test();
        if (done) {
            active(false);
        }
        return done;
    }

    @Override
    public Status waitFor() {
        if (!started) {
            return Status.EMPTY;
        }
        try {
            final RegionRun h = onHost;
            return null != h ? h.waitFor() : run.waitFor();
        } finally {
            active(false);
        }
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        if (!started) {
            return Status.EMPTY;
        }
        final RegionRun h = onHost;
        final Status s = null != h ? h.waitFor(timeout, unit) : run.waitFor(timeout, unit);
        if (null != s) {
            active(false);
        }
        return s;
    }

    /** Cancelling a collective is not possible (MPI); this does nothing. */
    @Override
    public void cancel() {
    }

    @Override
    public void setPriority(final int level) {
        if (level < 0) {
            throw Errors.argument(ErrorClass.ARG, op("setPriority"), call.where(), "level", level, ">= 0");
        }
        if (isActive()) {
            throw Errors.invalid(ErrorClass.REQUEST, op("setPriority"), call.where(), "the persistent request is "
                + "active, expected it inactive: wait for (or test) its last start first");
        }
        run.priority(level);
    }

    @Override
    public int priority() {
        return run.priority();
    }

    @Override
    public void free() {
        if (isActive()) {
            throw Errors.invalid(ErrorClass.REQUEST, op("free"), call.where(), "the "
                + "persistent request is active, expected it inactive: wait for (or test) its last start first");
        }
        if (!freed) {
            run.releaseDirect();
            call.comm().activeRuns().removePersistent(run);
        }
        freed = true;
    }

    /** @return whether {@link #free()} was called */
    public boolean isFreed() {
        return freed;
    }

    @Override
    public String toString() {
        final String direct = run.directPlan();
        return "PersistentRequest(" + call + (isActive() ? ", active" : "") + (freed ? ", freed" : "")
            + (null != onHost ? ", last start through the on-host region" : null == direct ? "" : ", " + direct) + ")";
    }
}
