package dev.tutti.coll;

import dev.tutti.CollectiveHandle;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.coll.slot.SlotPart;
import dev.tutti.coll.slot.SlotPlan;
import dev.tutti.coll.slot.SlotRounds;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * One execution of a {@link Schedule}: the request returned by a nonblocking collective, and waited on by a
 * blocking one.
 *
 * <p>Implementation notes. The run advances round by round: post the round's receives then sends, run its
 * {@code meanwhile} steps, and once all messages are complete check them (exact sizes: a size difference means the
 * ranks passed different counts or types), run the round's local steps, start the next round. Whoever waits advances
 * it: the thread waiting on this request ({@link #progressSelf()}), or, for nonblocking runs, any thread of the rank
 * waiting on anything (the run is an agent of the engine while active), so that a rank blocked in an unrelated receive
 * still moves its outstanding collectives on, as MPI's progress rule requires. {@code busy} makes advancing
 * single-threaded: the fields {@code round}, {@code parts} and {@code pending} are only touched by the thread holding
 * it (its CAS and release store order successive holders). Parts wake this run's waiter on completion
 * ({@code wakeOnComplete}).
 *
 * <p>Cost per run: the run itself and one array of part requests (sized to the widest round, reused by every
 * round; lent by the cache entry for a cached schedule), besides the parts. A run of a cached schedule rearms the
 * entry's reusable part requests instead of making new ones (safe: the previous leaseholder gave the lease back
 * only once every part had completed successfully, and within a run a round starts only when the previous one's
 * parts have), and a blocking one ({@link #runBlocking}) is itself reused by the entry's next blocking call: such
 * a call allocates nothing. A nonblocking run is added to the
 * engine's {@link ActiveRuns} only if its first advance did not complete it (see there for the add/remove race),
 * and removed when it finishes or fails; a blocking run never is; a persistent request's run is registered once for
 * the request's life ({@code permanent}), complete (inactive) between its starts. A run of a cached schedule
 * ({@link ScheduleCache}) gives its lease back after its last step, before it completes, so the caller's next
 * identical call finds the schedule free; a failed run keeps the lease (its memory may still be written by
 * messages in flight).
 *
 * <p>Roads. {@link Road} decides whether the run's messages go through the message layer or through slots of
 * shared memory ({@code coll.slot}); the run keeps its decisions in its own fields ({@code direct}, {@code alone},
 * {@code lean}, {@code leanNow}), so that its hot path reads them with no indirection. On the slot road a part of
 * a round is a {@link SlotPart} in place of a message, and a round that waits only for messages through slots
 * names the first of them in {@code watch}: advances skip the lock until it has arrived. On the lean road a start
 * goes through {@link SlotRounds} alone. Why a waiting run can never complete, {@link StallChecks} finds.
 *
 * <p>Every message of a run carries the schedule's {@link CollHeader} (the call's kind and roots) in its type code,
 * and every receive refuses a message whose header disagrees: a receive that met one (its own message, or another
 * message of the same call from another source, see {@code Matcher}) fails the run at once, naming both calls,
 * even while other parts of the round still wait (they may wait for messages the other call never sends).
 */
public final class ScheduleRun extends AbstractRequest implements CollectiveHandle {
    private static final AbstractRequest[] NONE = new AbstractRequest[0];
    /**
     * Reads of an awaited direct message's sequence word per idle pass of its wait (see {@code watch}), while the
     * idle strategy spins ({@link #progressSelf()}).
     */
    private static final int WATCH_SPINS = 32;
    /** A wait on a run that needs no transport runs the engine once in this many idle iterations (a power of two). */
    private static final int ALONE_ENGINE_EVERY = 64;
    private static final VarHandle BUSY;
    private static final VarHandle NOTIFIED;
    private static final VarHandle WATCH;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(ScheduleRun.class, "busy", int.class);
            NOTIFIED = MethodHandles.lookup().findVarHandle(ScheduleRun.class, "notified", int.class);
            WATCH = MethodHandles.lookup().findVarHandle(ScheduleRun.class, "watch", SlotPart.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Schedule schedule;
    private final CollComm comm;
    private final int context;
    private int tag; // changes only when an idle run is restarted (restart), by its owner
    /**
     * The call's number in the communicator's on-host region when the call takes the message layer there, else 0:
     * set by the owner before the run is begun (published with it), read by the stall checks.
     */
    private long hostCall;
    private final CollKind taggedKind;
    private final int userTag;
    private final long deadlineNs;
    private final boolean registered;
    private final ScheduleCache.Entry lease;
    @SuppressWarnings("unused") // accessed through BUSY
    private volatile int busy;
    /** The failure checks of waits, and what they remember ({@link #blockingFailure()}). */
    private final StallChecks stalls = new StallChecks(this);
    private volatile CollHook afterHook;
    private CollCall afterCall;
    @SuppressWarnings("unused") // accessed through NOTIFIED
    private volatile int notified;
    private int round = -1;
    /** What the run waits for before its first round ({@link CollGate}), null once passed (holder of busy only). */
    private CollGate gate;
    /**
     * A persistent run's messages through shared-memory slots ({@link SlotPlan}, made by {@link Road#plan}): agreed
     * in the first run, before its first round; null when none of them goes direct ({@link Road#agreed}) (holder of
     * busy, or the owner of an inactive run).
     */
    private SlotPlan direct;
    /** The plan as made (kept when {@code direct} is dropped), for {@link #releaseDirect()}. */
    private SlotPlan plan;
    /**
     * The direct receive that the current round waits for first when it waits for nothing else, or null: written by
     * the holder of busy (release), read by {@link #advance()} (acquire) to skip the CAS while that message has not
     * arrived.
     */
    @SuppressWarnings("unused") // accessed through WATCH
    private SlotPart watch;
    /**
     * Whether every message of this persistent run goes through shared-memory slots, so that its own advances
     * complete it without the engine's transports ({@link #engineEvery()}): set once, by the holder of busy, when
     * its plan is agreed; read racily by waits (a stale false only costs the engine's passes).
     */
    private boolean alone;
    /** The lean form of an agreed plan whose every message is direct ({@link Road#leanRounds}), or null. */
    private SlotRounds lean;
    /**
     * Whether the current start goes the lean way ({@link Road#lean}): set by the owner at a start, read by the
     * holder of busy.
     */
    private boolean leanNow;
    /** A persistent request's run: registered in {@link ActiveRuns} for the request's life, not per start. */
    private boolean permanent;
    private AbstractRequest[] parts = NONE;
    private int pending;
    /** Progress priority ({@link ActiveRuns}); changed only while the run is not registered (persistent runs). */
    private volatile int priority;
    /** Whether {@link ActiveRuns} counted this run as prioritized when it added it. */
    private volatile boolean counted;

    private ScheduleRun(final Schedule schedule, final CollComm comm, final int context, final int tag,
        final CollKind taggedKind, final int userTag, final long timeoutNs, final boolean registered,
        final ScheduleCache.Entry lease) {
        super(comm.engine());
        this.schedule = schedule;
        this.comm = comm;
        this.context = context;
        this.tag = tag;
        this.taggedKind = taggedKind;
        this.userTag = userTag;
        this.deadlineNs = 0 == timeoutNs ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
        this.registered = registered;
        this.lease = lease;
    }

    /**
     * Starts a run of an ordinary (call-ordered) collective.
     *
     * @param schedule    the schedule
     * @param comm        the communicator
     * @param nonblocking true if the caller returns before completion (the run then progresses in any wait)
     * @return the started run
     */
    public static ScheduleRun start(final Schedule schedule, final CollComm comm, final boolean nonblocking) {
        return start(schedule, comm, nonblocking, null, null, 0);
    }

    /**
     * Starts a run of an ordinary (call-ordered) collective whose schedule may be leased from the communicator's
     * {@link ScheduleCache}.
     *
     * @param schedule    the schedule
     * @param comm        the communicator
     * @param nonblocking true if the caller returns before completion (the run then progresses in any wait)
     * @param lease       the cache entry of {@code schedule} leased to this run, or null if it is not cached
     * @param gate        what holds the run's data back ({@link CollGate}), or null
     * @param hostCall    the call's number in the communicator's on-host region ({@link CollCall#hostCall()}), or 0
     * @return the started run
     */
    static ScheduleRun start(final Schedule schedule, final CollComm comm, final boolean nonblocking,
        final ScheduleCache.Entry lease, final CollGate gate, final long hostCall) {
        return start(schedule, comm, comm.nextTag(schedule.header()), nonblocking, lease, gate, hostCall);
    }

    private static ScheduleRun start(final Schedule schedule, final CollComm comm, final int tag,
        final boolean nonblocking, final ScheduleCache.Entry lease, final CollGate gate, final long hostCall) {
        final ScheduleRun run = new ScheduleRun(schedule, comm, comm.context(), tag, null, -1, 0, nonblocking, lease)
            .gatedBy(gate);
        run.hostCall = hostCall;
        return begin(run);
    }

    /**
     * Starts a nonblocking run of an ordinary collective under the tag drawn at its start, for a call whose ranks
     * agreed its road after the start ({@link MessageFallback}).
     *
     * @param schedule the schedule
     * @param comm     the communicator
     * @param lease    the cache entry of {@code schedule} leased to this run, or null
     * @param gate     what holds the run's data back ({@link CollGate}), or null
     * @param tag      the tag drawn at the call's start
     * @param hostCall the call's number in the communicator's on-host region
     * @return the started run
     */
    public static ScheduleRun startDrawn(final Schedule schedule, final CollComm comm, final ScheduleCache.Entry lease,
        final CollGate gate, final int tag, final long hostCall) {
        return start(schedule, comm, tag, true, lease, gate, hostCall);
    }

    private ScheduleRun gatedBy(final CollGate g) {
        this.gate = g; // published to other threads by begin()'s registration, like the rest of the run
        return this;
    }

    /**
     * Starts a tagged two-phase collective: its messages are keyed by (kind, user tag, n-th use of that key) in the
     * communicator's tagged context, so ranks may begin tagged collectives in any order. A run that has not
     * completed within the setting {@link dev.tutti.internal.Settings#COLL_TAGGED_TIMEOUT_MS} fails with
     * {@link ErrorClass#TIMEOUT} naming the kind, the tag and the ranks it still waits for (a begin that can never
     * match).
     *
     * @param schedule the schedule
     * @param comm     the communicator
     * @param kind     the operation
     * @param userTag  the user's tag
     * @param lease    the cache entry of {@code schedule} leased to this run, or null if it is not cached
     * @param gate     what holds the run's data back ({@link CollGate}), or null
     * @return the started run
     */
    public static ScheduleRun startTagged(final Schedule schedule, final CollComm comm, final CollKind kind,
        final int userTag, final ScheduleCache.Entry lease, final CollGate gate) {
        return begin(new ScheduleRun(schedule, comm, comm.taggedContext(), comm.nextTaggedTag(kind, userTag), kind,
            userTag, comm.taggedTimeoutMs() * 1_000_000L, true, lease).gatedBy(gate));
    }

    /**
     * Runs an ordinary (call-ordered) collective whose schedule is leased from the communicator's
     * {@link ScheduleCache} and waits for it: the blocking call. The entry keeps the finished run for the next
     * blocking call, and the run reuses the entry's part requests ({@link ScheduleCache.Entry#recvPart}), so that a
     * repeated blocking collective allocates nothing. A run that fails is dropped with its lease.
     *
     * @param schedule the leased schedule
     * @param comm     the communicator
     * @param lease    the cache entry of {@code schedule}, leased to this call
     * @param hostCall the call's number in the communicator's on-host region ({@link CollCall#hostCall()}), or 0
     * @return a completed request
     * @throws TuttiException if the collective failed
     */
    public static Request runBlocking(final Schedule schedule, final CollComm comm, final ScheduleCache.Entry lease,
        final long hostCall) {
        ScheduleRun run = lease.takeSpareRun();
        if (null == run) { // a spare is a run of this entry's schedule on this communicator
            run = new ScheduleRun(schedule, comm, comm.context(), comm.nextTag(schedule.header()), null, -1, 0, false,
                lease);
        } else {
            run.restart(comm.nextTag(schedule.header()));
        }
        run.hostCall = hostCall;
        begin(run);
        run.waitForInCall(); // inside a blocking call, whose own event (if any) spans the wait
        // Only this thread advanced the run (it is not registered), and it is complete: nothing references it.
        lease.giveSpareRun(run);
        return CollDone.DONE;
    }

    /**
     * A persistent request's run, not started: {@link #startPersistent} starts it, and again each time after it
     * has completed. It reuses the part requests of {@code lease}, an entry of its own.
     *
     * @param schedule the schedule, built once
     * @param comm     the communicator
     * @param lease    the request's own entry ({@link ScheduleCache.Entry#standalone})
     * @param idle     tells whether the request has no run in flight (for its shared-memory lanes)
     * @return the run
     */
    static ScheduleRun persistent(final Schedule schedule, final CollComm comm, final ScheduleCache.Entry lease,
        final java.util.function.BooleanSupplier idle) {
        final ScheduleRun run = new ScheduleRun(schedule, comm, comm.context(), -1, null, -1, 0, true, lease);
        run.plan = Road.plan(schedule, comm, idle);
        run.direct = run.plan;
        run.permanent = true; // published by the registration (PersistentRun), before any other thread sees the run
        run.completeByHolder(Status.EMPTY); // inactive until its first start: the registered runs' scans skip it
        return run;
    }

    /** Tells a persistent run's shared-memory lanes that its request is freed (inactive). */
    void releaseDirect() {
        if (null != plan) {
            plan.release();
        }
    }

    /** @return how a persistent run's messages travel ({@link SlotPlan#toString}), or null for the message layer */
    String directPlan() {
        final SlotPlan d = direct;
        return null == d ? null : d.toString();
    }

    /**
     * Starts a persistent request's run under the communicator's next collective tag (so starts match in call
     * order with the other collectives). The caller guarantees the run is not active: never started, or complete
     * and seen complete.
     *
     * @param g    what the run waits for before its data moves, or null
     * @param hook the hook to tell at completion, or null
     * @param call the call the hook is told about
     * @return this run
     */
    ScheduleRun startPersistent(final CollGate g, final CollHook hook, final CollCall call) {
        return startPersistentRun(g, hook, call, -1, call.hostCall());
    }

    /**
     * Starts a persistent request's run, under the communicator's next collective tag ({@code drawn} -1), or under
     * the tag drawn at a start through the region that fell back ({@link MessageFallback}), never lean then.
     *
     * @param hostCall the start's number in the communicator's on-host region, if it published its words there
     */
    private ScheduleRun startPersistentRun(final CollGate g, final CollHook hook, final CollCall call,
        final int drawn, final long hostCall) {
        if (null != direct) {
            direct.nextRun();
        }
        if (null != afterHook) { // volatile stores are fences: none on the path of a start without a hook
            afterHook = null;
            notified = 0;
        }
        this.hostCall = hostCall;
        leanNow = drawn < 0 && Road.lean(lean, g, hook, this);
        if (leanNow) {
            return startLean();
        }
        gate = g; // before the re-arming store, which publishes the run to the threads that may then advance it
        if (null != hook) {
            afterCall = call;
            afterHook = hook;
        }
        restart(drawn < 0 ? comm.nextTag(schedule.header()) : drawn);
        return begin(this);
    }

    /**
     * Starts a persistent request's run under the tag drawn at the start, for a start whose ranks agreed its road
     * after it ({@link MessageFallback}): as {@link #startPersistent}, without a hook (a start through the region has
     * none) and never lean.
     *
     * @param g        what the run waits for before its data moves, or null
     * @param call     the request's call
     * @param tag      the tag drawn at the start
     * @param hostCall the start's number in the communicator's on-host region
     * @return this run
     */
    ScheduleRun startPersistentDrawn(final CollGate g, final CollCall call, final int tag, final long hostCall) {
        return startPersistentRun(g, null, call, tag, hostCall);
    }

    /**
     * A lean start ({@link SlotRounds}). The run is still complete from its last start, so no other thread
     * advances it: its first round's sends go out before anything else, and the start's fences (the tag's atomic
     * increment, the re-arming store) come after them, off the path from the peers' last messages to this one. A
     * run that completes at once (its peers' messages were there) is never re-armed.
     */
    private ScheduleRun startLean() {
        lean.begin();
        TuttiException failure = null;
        boolean done;
        try {
            done = lean.advance();
        } catch (final RuntimeException e) {
            failure = stepFailure(e);
            done = true;
        }
        // Every start draws its place in the call order, as the other ranks do.
        final int next = comm.nextTag(schedule.header());
        if (done && null == failure) {
            tag = next;
            lease.release();
            return this;
        }
        restart(next); // the re-arming store publishes the lean state to threads that then advance the run
        if (null != failure) {
            finishWith(failure);
        } else {
            WATCH.setRelease(this, lean.awaited());
        }
        return this;
    }

    /** Makes a finished, successful blocking run pending again under a new tag (its owner only). */
    private void restart(final int newTag) {
        tag = newTag;
        stalls.reset();
        round = -1;
        pending = 0;
        rearm();
    }

    private static ScheduleRun begin(final ScheduleRun run) {
        run.advance();
        if (run.registered && !run.permanent && !run.isDone()) {
            final ActiveRuns active = run.comm.activeRuns();
            active.add(run);
            if (run.isDone()) { // finished by another thread before the add: its remove may have missed the run
                active.remove(run);
            }
        }
        return run;
    }

    /**
     * Starts a run under a tag the caller chose: one reserved with {@link CollComm#reserveTag()} (several
     * schedules run one after another under one key: the messages between two ranks still match in order), or a
     * tag agreed otherwise on a context that ordinary collectives do not use.
     *
     * @param schedule    the schedule
     * @param comm        the communicator
     * @param tag         the tag of every message of the run
     * @param nonblocking true if the caller returns before completion (the run then progresses in any wait)
     * @return the started run
     */
    public static ScheduleRun start(final Schedule schedule, final CollComm comm, final int tag,
        final boolean nonblocking) {
        return begin(new ScheduleRun(schedule, comm, comm.context(), tag, null, -1, 0, nonblocking, null));
    }

    @Override
    protected int progressSelf() {
        final ActiveRuns active = comm.activeRuns();
        final SlotPart w = (SlotPart) WATCH.getAcquire(this);
        // Only a direct message is awaited: watch it closely before the wait's other duties, unless the idle
        // strategy does not spin (ranks outnumber cores, or this core is shared now): then the rank that writes it
        // may need this core, and the wait's yield must come at once.
        if (null != w && !w.arrived() && engine.idleStrategy().spinsOnly(0)) {
            for (int i = 0; i < WATCH_SPINS && !w.arrived(); i++) {
                Thread.onSpinWait();
            }
        }
        return (active.outranks(priority) ? active.advanceAbove(priority) : 0) + advance();
    }

    /** Spins on its own advances between the engine's passes when no message of it needs a transport. */
    @Override
    protected int engineEvery() {
        return alone ? ALONE_ENGINE_EVERY : 1;
    }

    /** @return the run's progress priority: 0 unless set on its persistent request */
    int priority() {
        return priority;
    }

    boolean counted() {
        return counted;
    }

    void counted(final boolean c) {
        counted = c;
    }

    /** Sets the progress priority of a persistent run that is not active (see {@link ActiveRuns#prioritize}). */
    void priority(final int level) {
        if (permanent) {
            comm.activeRuns().prioritize(this, level);
        } else {
            priority = level;
        }
    }

    /** Stores the priority ({@link ActiveRuns#prioritize}, under its lock). */
    void storePriority(final int level) {
        priority = level;
    }

    /** @return the communicator */
    CollComm comm() {
        return comm;
    }

    /**
     * Advances the run as far as completed messages allow.
     *
     * @return the work done, 0 if nothing could move
     */
    int advance() {
        if (isDone()) {
            return 0;
        }
        final SlotPart w = (SlotPart) WATCH.getAcquire(this);
        if ((null != w && !w.arrived()) || !BUSY.compareAndSet(this, 0, 1)) {
            return 0; // a CAS is a fence: a wait for a direct message that has not arrived makes none
        }
        try {
            // Seen pending before the CAS, it may have completed since, and its owner be starting it again without
            // the lock (a lean start, or a restart's plain stores): a complete run is not this thread's to step.
            return isDone() ? 0 : step();
        } catch (final RuntimeException e) {
            finishWith(stalls.explained(stepFailure(e)));
            return 1;
        } finally {
            BUSY.setRelease(this, 0); // hands round/parts/pending to the next holder's CAS (a lock's release)
        }
    }

    /** @return how a step's exception fails the run: a Tutti failure as it is, anything else as an internal one */
    private TuttiException stepFailure(final RuntimeException e) {
        return e instanceof TuttiException t ? t : Failures.failed(ErrorClass.INTERN, schedule.op(), comm.describe(),
            "local step failed", e);
    }

    private int step() {
        int work = 0;
        if (null != gate) {
            if (!gate.pass(this)) {
                return 0;
            }
            gate = null;
            work++;
        }
        if (null != direct && !direct.ready()) {
            if (!direct.agree(this, tag)) {
                return work;
            }
            direct = Road.agreed(direct); // null: every lane declined slots
            if (null != direct) {
                alone = direct.all();
                lean = Road.leanRounds(schedule, direct); // from the next start on
            }
            work++;
        }
        if (leanNow) {
            return work + leanStep();
        }
        final Schedule.Round[] rounds = schedule.rounds();
        while (true) {
            if (round >= 0) {
                final AbstractRequest[] ps = parts;
                final int n = pending;
                if (null == direct) {
                    for (int i = 0; i < n; i++) {
                        if (!ps[i].isDone()) {
                            RoundChecks.failIfRefused(schedule, comm, ps, n);
                            return work;
                        }
                    }
                } else if (!SlotPart.pollAll(ps, n)) {
                    RoundChecks.failIfRefused(schedule, comm, ps, n);
                    WATCH.setRelease(this, SlotPart.awaited(ps, n));
                    return work;
                } else if (null != watch) {
                    WATCH.setRelease(this, null);
                }
                RoundChecks.checkParts(schedule, comm, rounds[round], ps, n);
                pending = 0;
                for (final Runnable r : rounds[round].local()) {
                    r.run();
                }
                work++;
            }
            round++;
            if (round == rounds.length) {
                if (null != schedule.finish()) {
                    schedule.finish().run();
                }
                if (null != lease) {
                    lease.release();
                }
                finishWith(null);
                return work + 1;
            }
            yieldToHigher();
            post(rounds[round]);
            for (final Runnable r : rounds[round].meanwhile()) {
                r.run();
            }
        }
    }

    /** A step of a lean start ({@link SlotRounds}): the run's rounds through its slots, nothing else. */
    private int leanStep() {
        yieldToHigher();
        final SlotRounds d = lean;
        final int round0 = d.round();
        final long mask0 = d.mask();
        if (!d.advance()) {
            WATCH.setRelease(this, d.awaited());
            return round0 != d.round() || mask0 != d.mask() ? 1 : 0;
        }
        if (null != watch) {
            WATCH.setRelease(this, null);
        }
        if (null != lease) {
            lease.release();
        }
        finishWith(null);
        return 1;
    }

    /**
     * Before this run posts a round: advances the registered runs of higher priority (see {@link ActiveRuns}), so
     * that a higher run whose round became ready no later than this one's posts first. Checking them here, after
     * this run's round was found ready, and not only before this run is advanced, closes the window in which both
     * runs' messages arrive between the two checks (a sender posts the higher run's first, so they arrive first).
     */
    private void yieldToHigher() {
        final ActiveRuns active = comm.activeRuns();
        if (active.outranks(priority)) {
            active.advanceAbove(priority);
        }
    }

    /** Posts a round's receives, then its sends, into {@link #parts}; sets {@link #pending}. */
    private void post(final Schedule.Round r) {
        final Schedule.CommStep[] steps = r.comm();
        if (0 == steps.length) {
            return;
        }
        if (parts.length < steps.length) {
            parts = null != lease ? lease.parts(comm.engine()) : new AbstractRequest[schedule.widest()];
        }
        final AbstractRequest[] parts = this.parts;
        final P2pEngine engine = comm.engine();
        final ScheduleCache.Entry reuse = lease; // leased: its part requests are this run's, and idle
        final int header = schedule.header().bits();
        final SlotPlan d = direct;
        for (int i = 0; i < steps.length; i++) {
            final Schedule.CommStep s = steps[i];
            final SlotPart dp = null == d ? null : d.part(round, i);
            if (null != dp) {
                parts[i] = dp.post();
            } else if (!s.send()) {
                parts[i] = engine.irecvCoded(null == reuse ? null : reuse.recvPart(i), context,
                    comm.world(s.peer()), tag, header | s.type().ordinal(), s.segment(), comm.view());
                parts[i].wakeOnComplete(this);
            }
        }
        for (int i = 0; i < steps.length; i++) {
            final Schedule.CommStep s = steps[i];
            if (s.send() && (null == d || null == d.part(round, i))) {
                parts[i] = engine.isendCoded(null == reuse ? null : reuse.sendPart(i), context,
                    comm.world(s.peer()), tag, header | s.type().ordinal(), s.segment());
                parts[i].wakeOnComplete(this);
            }
        }
        pending = steps.length;
    }

    private void finishWith(final TuttiException failure) {
        if (null == failure) {
            complete(Status.EMPTY, null);
        } else {
            callFailed();
            complete(null, failure);
        }
        if (registered && !permanent) {
            comm.activeRuns().remove(this);
        }
        notifyHook();
    }

    /**
     * Has {@code hook.after(call, ...)} called once this run has completed (at once if it already has): how a
     * nonblocking or tagged call that passed a hook at the door ({@link dev.tutti.coll.door.CollDoor}) reports its
     * completion. The first of the completing thread and this call to see both the hook and the completion calls it,
     * once.
     *
     * @param hook the hook
     * @param call the call's descriptor
     */
    public void notifyOnCompletion(final CollHook hook, final CollCall call) {
        afterCall = call;
        afterHook = hook; // volatile store after the call: notifyHook reads the hook, then the call
        if (isDone()) {
            notifyHook();
        }
    }

    private void notifyHook() {
        final CollHook hook = afterHook;
        if (null != hook && NOTIFIED.compareAndSet(this, 0, 1)) {
            hook.after(afterCall, failureResult());
        }
    }

    @Override
    protected void onFailedByBlocking() {
        notifyHook();
    }

    @Override
    protected void onBlockingFailure() {
        if (registered) {
            comm.activeRuns().remove(this);
        }
        callFailed();
    }

    /** The program is told this call failed: its messages that no call received are not reported again at close. */
    private void callFailed() {
        if (null == taggedKind && context == comm.context()) {
            comm.callFailed(tag);
        }
    }

    /** @return the context this run's messages travel on */
    int context() {
        return context;
    }

    /** @return the tag of this run's messages (its current start's) */
    int tag() {
        return tag;
    }

    /** @return whether this is a tagged two-phase run */
    boolean tagged() {
        return null != taggedKind;
    }

    /** @return the call's number in the communicator's on-host region, or 0 ({@link #hostCall}) */
    long hostCall() {
        return hostCall;
    }

    /** @return the schedule */
    Schedule schedule() {
        return schedule;
    }

    /** @return when a tagged run times out ({@link System#nanoTime()}), {@link Long#MAX_VALUE} for never */
    long deadlineNs() {
        return deadlineNs;
    }

    /*
     * The round state, for the failure checks of waits (StallChecks): read by the holder of busy (tryHold), or racily
     * for messages only.
     */

    /** @return the current round, from 0 (-1 before the first) */
    int round() {
        return round;
    }

    /** @return the part requests of the current round, the first {@link #pending()} of them its own */
    AbstractRequest[] parts() {
        return parts;
    }

    /** @return the parts of the current round */
    int pending() {
        return pending;
    }

    /** @return the agreed or agreeing plan of slots, or null when every message goes through the message layer */
    SlotPlan direct() {
        return direct;
    }

    /** @return the lean rounds when the current start goes the lean way ({@link Road#lean}), else null */
    SlotRounds leanNow() {
        return leanNow ? lean : null;
    }

    /** @return whether this thread took {@code busy} (then it must {@link #letGo()}) */
    boolean tryHold() {
        return BUSY.compareAndSet(this, 0, 1);
    }

    /** Gives {@code busy} back after {@link #tryHold()}. */
    void letGo() {
        BUSY.setRelease(this, 0); // as in advance()
    }

    /** @return the tagged key for messages ({@code allreduce tag=5}), or null for an ordinary collective */
    String key() {
        return null == taggedKind ? null : taggedKind.mpiName() + " tag=" + userTag;
    }

    /** Why a wait on this run can never complete, or null ({@link StallChecks}). */
    @Override
    protected TuttiException blockingFailure() {
        return stalls.blockingFailure();
    }

    @Override
    public void cancel() {
        // MPI: collectives cannot be cancelled.
    }

    @Override
    protected String traceName() {
        return schedule.op();
    }

    @Override
    public String toString() {
        return (null == taggedKind ? schedule.op() : key()) + "(" + comm.describe() + ", round="
            + (leanNow ? lean.round() : round) + "/" + schedule.rounds().length + ")";
    }
}
