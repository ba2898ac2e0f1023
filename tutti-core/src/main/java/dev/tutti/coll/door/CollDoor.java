package dev.tutti.coll.door;

import dev.tutti.CollectiveHandle;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.BlockingCallReuse;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollDone;
import dev.tutti.coll.CollHook;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollTrace;
import dev.tutti.coll.HostState;
import dev.tutti.coll.InterArgs;
import dev.tutti.coll.InterComm;
import dev.tutti.coll.MessageFallback;
import dev.tutti.coll.Operands;
import dev.tutti.coll.PersistentRun;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleCache;
import dev.tutti.coll.ScheduleRun;
import dev.tutti.coll.algo.Algorithms;
import dev.tutti.coll.host.HostCollectives;
import dev.tutti.coll.inter.InterAlgorithms;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.trace.CollectiveEvent;
import dev.tutti.trace.Trace;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one door into the collective engine: every collective call of the api, on both communicator kinds and in
 * every variant, enters here as a validated {@link CollCall}; the library's own collectives enter by
 * {@link #internal}. The door passes it to the rank's hook
 * ({@link CollHook#before}) before any data moves, selects the algorithm, takes the schedule from the
 * communicator's cache or builds it, starts it as the call's variant says, and has the hook told when it has
 * completed ({@link CollHook#after}). Three entries, one per way a call runs: {@link #enter} (blocking and
 * nonblocking calls, matched by call order; {@link #run} is {@code enter} and the wait of a blocking call),
 * {@link #begin} (tagged calls, matched by kind and tag) and
 * {@link #init} (persistent calls: the schedule is built once here, and each start of the returned
 * {@link PersistentRun} tells the hook and runs it again). Which road the data of a call takes (a communicator's
 * on-host region for a blocking call that no hook sees, through {@link HostCollectives}; messages; or slots of
 * memory shared with a peer for a persistent call's runs) is decided in one place, {@code coll.Road}.
 *
 * <p>Implementation notes. Without a hook the door costs one volatile load and one predictable branch per call.
 * Intracommunicator calls of the regular collectives reuse a schedule from {@link ScheduleCache} when the memory,
 * type, count, root and op repeat (up to 16 MiB per rank, no boolean staging): together with the thread's reused
 * descriptor ({@link BlockingCallReuse}) and the cache's reused runs, a repeated small blocking collective allocates
 * nothing. Intercommunicator calls of the regular collectives are cached the same way, keyed also by the receive
 * type and count and the remote root ({@link InterAlgorithms} builds them). With a hook, a blocking call is
 * waited for here (so {@code after} follows its completion on the calling thread); a nonblocking or tagged run
 * tells the hook itself when it completes ({@link ScheduleRun#notifyOnCompletion}). Each call of the program is one
 * Flight Recorder event ({@code dev.tutti.trace.CollectiveEvent}: a blocking call with its wait, which is no wait
 * event of its own, another its start) when Tutti records; else the flag {@code Trace.ON} folds the recording away.
 */
public final class CollDoor {
    /** How a nonblocking call whose road its ranks agree after its start goes to the message layer. */
    private static final MessageFallback LATER = CollDoor::startDrawn;

    private CollDoor() {
    }

    /**
     * Runs a validated call-ordered call (blocking or nonblocking): the hook's {@code before}, then the schedule,
     * started as {@link CollCall#variant()} says. A tagged call is passed on to {@link #begin}.
     *
     * @param call the call
     * @return the request (a blocking call's is complete, or completes when waited on)
     * @throws TuttiException if the hook refuses the call, or for an algorithm that cannot take the op (before
     *                        anything is sent), or, for a blocking call with a hook, if the collective failed
     */
    public static Request enter(final CollCall call) {
        if (CollCall.Variant.TAGGED == call.variant()) {
            return begin(call);
        }
        if (Trace.ON) {
            final CollectiveEvent ev = Trace.collective();
            final Request r = enterUntraced(call);
            traced(ev, call, r, CollDone.road(r));
            return r;
        }
        return enterUntraced(call);
    }

    /**
     * Runs a validated blocking call and waits for it: {@link #enter}, then the wait, recorded as one
     * {@link CollectiveEvent} when Tutti records.
     *
     * @param call the call, of variant {@link CollCall.Variant#BLOCKING}
     * @throws TuttiException as {@link #enter} and the wait
     */
    public static void run(final CollCall call) {
        if (Trace.ON) {
            final CollectiveEvent ev = Trace.collective();
            final Request r = enterUntraced(call);
            waitInCall(r);
            traced(ev, call, null, CollDone.road(r));
            return;
        }
        enterUntraced(call).waitFor();
    }

    /**
     * Waits for the request of a blocking call: when Tutti records, without a wait event of its own (the call's
     * {@link CollectiveEvent} spans the wait).
     */
    private static void waitInCall(final Request r) {
        if (Trace.ON && r instanceof AbstractRequest a) {
            a.waitForInCall();
        } else {
            r.waitFor();
        }
    }

    /** Commits a collective's trace event with what its call's descriptor holds now, and its data's road. */
    private static void traced(final CollectiveEvent ev, final CollCall call, final Request request,
        final String road) {
        if (Trace.end(ev)) {
            Trace.commit(ev, new CollTrace(call, road), request);
        }
    }

    private static Request enterUntraced(final CollCall call) {
        final CollHook hook = call.comm().rankState().hook();
        if (null == hook) {
            if (!call.isInter()) {
                select(call); // a call refused by a local check is no call: its number must not be published
                final Request r = HostCollectives.take(call, LATER);
                if (null != r) {
                    return r;
                }
            }
            return start(build(call));
        }
        if (!call.isInter()) {
            select(call); // a call refused by a local check is no call: the hook must not see it
        }
        hook.before(call);
        if (CollCall.Variant.BLOCKING != call.variant()) {
            return hook.started(call, notify(start(build(call)), hook, call));
        }
        if (call.isDoneByHook()) {
            hook.after(call, null);
            return CollDone.BY_HOOK;
        }
        final Request r;
        try {
            r = start(build(call));
            waitInCall(r);
        } catch (final TuttiException e) {
            hook.after(call, e);
            throw e;
        }
        hook.after(call, null);
        return r;
    }

    /**
     * Begins a validated tagged two-phase call: the hook's {@code before}, then the schedule, keyed by the call's
     * kind and tag instead of call order.
     *
     * @param call the call, of variant {@link CollCall.Variant#TAGGED}
     * @return the handle that {@code end()} completes
     * @throws TuttiException if the hook refuses the call, or for an algorithm that cannot take the op (before
     *                        anything is sent)
     */
    public static CollectiveHandle begin(final CollCall call) {
        if (Trace.ON) {
            final CollectiveEvent ev = Trace.collective();
            final CollectiveHandle h = beginUntraced(call);
            traced(ev, call, h, CollTrace.MESSAGES);
            return h;
        }
        return beginUntraced(call);
    }

    private static CollectiveHandle beginUntraced(final CollCall call) {
        final CollHook hook = call.comm().rankState().hook();
        if (null != hook) {
            if (!call.isInter()) {
                select(call); // a call refused by a local check is no call: the hook must not see it
            }
            hook.before(call);
        }
        build(call);
        final ScheduleRun run = ScheduleRun.startTagged(call.schedule(), call.comm(), call.kind(), call.tag(),
            call.lease(), call.gate());
        if (null == hook) {
            return run;
        }
        return hook.begun(call, notify(run, hook, call));
    }

    /**
     * Builds a validated persistent call ({@code ...Init}): selects the algorithm and builds the call's own
     * schedule once; each {@link PersistentRun#start()} then tells the hook and runs it again.
     *
     * @param call the call, of variant {@link CollCall.Variant#PERSISTENT}; the request keeps it
     * @return the inactive request
     * @throws TuttiException for an algorithm that cannot take the op, or for boolean buffers (staged through
     *                        bytes when a call is made, which a persistent call is only once)
     */
    public static PersistentRun init(final CollCall call) {
        if (Datatype.BOOLEAN == call.sendType() || Datatype.BOOLEAN == call.recvType() || !call.finish().isEmpty()) {
            throw Errors.invalid(ErrorClass.TYPE, call.kind().mpiName() + "Init", call.where(), "type=BOOLEAN, "
                + "expected another element type: boolean buffers are staged through bytes per call, so a "
                + "persistent collective cannot see their later contents (use byte 0/1)");
        }
        final AlgorithmId id = call.isInter() ? null : select(call);
        final PersistentRun run = new PersistentRun(call, withFinish(schedule(call, id), call));
        final CollHook hook = call.comm().rankState().hook();
        if (null != hook) {
            hook.openedBy("persistent request never freed", call, run, run::isFreed);
        } else if (null != id) {
            final HostState host = call.comm().hostState();
            if (null != host) {
                host.persistentMade(call);
            }
        }
        return run;
    }

    /**
     * A communicator's blocking creation has made it on this rank (every member of it does, in the same place of its
     * order, before any call on it): agrees its on-host region with the other members, if they share memory
     * ({@link HostCollectives#agreeAtCreation}), so that every call on it can take the region from its first.
     *
     * @param comm  the new intracommunicator
     * @param among its group on a context of its own that none of its calls use (the agreement's messages take no
     *              number of its calls)
     * @throws dev.tutti.TuttiException if a peer is gone
     */
    public static void created(final CollComm comm, final CollComm among) {
        HostCollectives.agreeAtCreation(comm, among);
    }

    /**
     * Starts one of the library's own collectives (a communicator's creation, a context-id agreement), call-ordered on
     * the communicator: an algorithm the caller chose, on arguments it gave. It passes no hook (the checker judges the
     * program's calls, inside which these run) and no cache.
     *
     * @param id   the algorithm
     * @param comm the communicator
     * @param args the arguments
     * @return the started run, which the caller waits for
     */
    public static ScheduleRun internal(final AlgorithmId id, final CollComm comm, final CollArgs args) {
        return ScheduleRun.start(Algorithms.build(id, comm, args), comm, false);
    }

    /**
     * Starts one of the library's own collectives under a tag the caller reserved, nonblocking, with a last local step
     * once its data has moved; as {@link #internal(AlgorithmId, CollComm, CollArgs)} otherwise.
     *
     * @param id   the algorithm
     * @param comm the communicator
     * @param args the arguments
     * @param tag  the tag of every message of the run
     * @param last the step run when the schedule has completed on this rank
     * @return the started run
     */
    public static ScheduleRun internal(final AlgorithmId id, final CollComm comm, final CollArgs args, final int tag,
        final Runnable last) {
        return ScheduleRun.start(Algorithms.build(id, comm, args).thenFinally(last), comm, tag, true);
    }

    private static Request start(final CollCall c) {
        return c.start().start(c.schedule(), c.comm(), c.lease(), c.gate(), c.hostCall());
    }

    /**
     * Starts a nonblocking call whose ranks agreed its road after its start on the message layer, under the tag
     * drawn at the start ({@link MessageFallback}).
     */
    private static Request startDrawn(final CollCall c, final int tag, final long hostCall) {
        build(c);
        return ScheduleRun.startDrawn(c.schedule(), c.comm(), c.lease(), c.gate(), tag, hostCall);
    }

    private static <R extends Request> R notify(final R r, final CollHook hook, final CollCall c) {
        if (r instanceof ScheduleRun run) {
            run.notifyOnCompletion(hook, c);
        }
        return r;
    }

    /**
     * Selects the algorithm and takes the call's schedule from its communicator's cache, or builds it (and caches
     * it when the cache covers it); records both in the call.
     */
    private static CollCall build(final CollCall c) {
        final AlgorithmId id = c.isInter() ? null : select(c);
        final boolean cacheable = !c.isVector() && c.finish().isEmpty() && Datatype.BOOLEAN != c.sendType()
            && (!c.isInter() || null == c.interArgs() || c.interArgs().isRegular())
            && ScheduleCache.covers(c.selectBytes());
        final ScheduleCache cache = c.comm().schedules();
        ScheduleCache.Entry lease = cacheable ? cache.claim(id, c) : null;
        final Schedule s;
        if (null != lease) {
            s = lease.schedule();
        } else {
            s = withFinish(schedule(c, id), c);
            lease = cacheable ? cache.add(id, c, s) : null;
        }
        c.built(s, lease);
        return c;
    }

    private static Schedule schedule(final CollCall c, final AlgorithmId id) {
        if (c.isInter()) {
            return buildInter(c.interComm(), c.kind(), c.interArgs(), c.finish());
        }
        final CollComm comm = c.comm();
        return Algorithms.build(id, comm, c.isVector() ? c.args() : CollArgs.of(c.kind().mpiName(), c.send(),
            c.recv(), c.sendType(), c.sendCount(), c.root(), c.op()));
    }

    /** @return the call's algorithm, selected once per call (a hook's local check and the build share it) */
    private static AlgorithmId select(final CollCall c) {
        final AlgorithmId chosen = c.algorithm();
        if (null != chosen) {
            return chosen;
        }
        final dev.tutti.Op o = c.op();
        final boolean free = Operands.free(o);
        final CollComm comm = c.comm();
        final AlgorithmId id = comm.selection().select(c.kind(), comm.size(), c.selectBytes(), c.selectCount(),
            free, comm.hosts(), comm.network());
        if (id.commutativeOnly() && !free) {
            final String why = o.isCommutative()
                ? " combines items of " + o.itemElements() + " elements, which it may cut; expected an op whose item "
                    + "is one element or an "
                : " is not commutative; expected a commutative op or an ";
            throw Errors.invalid(ErrorClass.OP, c.kind().mpiName(), c.where(), "algorithm=" + id.shortName()
                + " reorders operands but op=" + o.name() + why
                + "order-preserving algorithm (e.g. linear, binomial, recursive_doubling)");
        }
        c.algorithm(id);
        return id;
    }

    /** The intercommunicator schedule of a call (standard and symmetric forms share them). */
    private static Schedule buildInter(final InterComm ic, final CollKind kind, final InterArgs a,
        final List<Runnable> fin) {
        return switch (kind) {
            case BARRIER -> InterAlgorithms.barrier(ic, "barrier");
            case BCAST -> InterAlgorithms.bcast(ic, a, fin);
            case SCATTER -> InterAlgorithms.scatter(ic, a, fin);
            case SCATTERV -> InterAlgorithms.scatterv(ic, a, fin);
            case GATHER -> InterAlgorithms.gather(ic, a, fin);
            case GATHERV -> InterAlgorithms.gatherv(ic, a, fin);
            case REDUCE -> InterAlgorithms.reduce(ic, a, fin);
            case ALLGATHER -> InterAlgorithms.allgather(ic, a, fin);
            case ALLGATHERV -> InterAlgorithms.allgatherv(ic, a, fin);
            case ALLREDUCE -> InterAlgorithms.allreduce(ic, a, fin);
            case REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> InterAlgorithms.reduceScatter(ic, a, fin);
            case ALLTOALL -> InterAlgorithms.alltoall(ic, a, fin);
            case ALLTOALLV -> InterAlgorithms.alltoallv(ic, a, fin);
            case ALLTOALLW -> InterAlgorithms.alltoallw(ic, a, fin);
            default -> throw Failures.internal(kind.mpiName(), ic.union().view().describe(),
                "no intercommunicator schedule for this operation");
        };
    }

    /**
     * @return the schedule followed by the call's staging steps (copying booleans back), if any; the
     *         intercommunicator builders append theirs themselves
     */
    private static Schedule withFinish(final Schedule schedule, final CollCall c) {
        final List<Runnable> finish = c.finish();
        return c.isInter() || finish.isEmpty() ? schedule
            : schedule.thenFinally(() -> finish.forEach(Runnable::run));
    }
}
