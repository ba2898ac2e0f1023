package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.TuttiException;
import dev.tutti.coll.algo.Algorithms;
import dev.tutti.coll.inter.InterAlgorithms;
import dev.tutti.coll.inter.InterArgs;
import dev.tutti.coll.inter.InterComm;
import dev.tutti.internal.Errors;

import java.util.List;

/**
 * The one door into the collective engine: every collective call of the api, on both communicator kinds and in
 * every variant, enters here as a validated {@link CollCall}. The door passes it to the rank's hook
 * ({@link CollHook#before}) before any data moves, selects the algorithm, takes the schedule from the
 * communicator's cache or builds it, starts it as the call's variant says, and has the hook told when it has
 * completed ({@link CollHook#after}).
 *
 * <p>Implementation notes. Without a hook the door costs one volatile load and one predictable branch per call.
 * Intracommunicator calls of the regular collectives reuse a schedule from {@link ScheduleCache} when the memory,
 * type, count, root and op repeat (up to 16 MiB per rank, no boolean staging): together with the thread's reused
 * descriptor ({@link CallSlot}) and the cache's reused runs, a repeated small blocking collective allocates
 * nothing. Intercommunicator schedules are built per call ({@link InterAlgorithms}). With a hook, a blocking call is
 * waited for here (so {@code after} follows its completion on the calling thread); a nonblocking or tagged run
 * tells the hook itself when it completes ({@link ScheduleRun#notifyOnCompletion}).
 */
public final class CollDoor {
    private CollDoor() {
    }

    /**
     * Runs a validated call: the hook's {@code before}, then the schedule, started as {@link CollCall#variant()}
     * says.
     *
     * @param call the call
     * @return the request (a blocking call's is complete, or completes when waited on)
     * @throws TuttiException if the hook refuses the call, or for an algorithm that cannot take the op (before
     *                        anything is sent)
     */
    public static Request enter(final CollCall call) {
        final CollHook hook = call.comm().rankState().hook();
        if (null == hook) {
            return run(call, null);
        }
        if (!call.isInter()) {
            select(call); // a call refused by a local check is no call: the hook must not see it
        }
        hook.before(call);
        if (CollCall.Variant.BLOCKING != call.variant()) {
            return run(call, hook);
        }
        final Request r;
        try {
            r = run(call, null);
            r.waitFor();
        } catch (final TuttiException e) {
            hook.after(call, e);
            throw e;
        }
        hook.after(call, null);
        return r;
    }

    private static Request run(final CollCall c, final CollHook after) {
        final CollComm comm = c.comm();
        final Request r;
        if (c.isInter()) {
            // The intercommunicator builders append the finish steps themselves.
            r = c.start().start(buildInter(c.interComm(), c.kind(), c.interArgs(), c.finish()), comm, null,
                c.gate());
        } else if (null != c.args()) {
            r = c.start().start(withFinish(Algorithms.build(select(c), comm, c.args()), c.finish()), comm, null,
                c.gate());
        } else {
            r = runCached(c, select(c));
        }
        if (null != after && r instanceof ScheduleRun run) {
            run.notifyOnCompletion(after, c);
        }
        return r;
    }

    /**
     * A regular intracommunicator collective: its schedule comes from the communicator's cache when this call's
     * memory and arguments match a recent call, else it is built (and cached if it may be).
     */
    private static Request runCached(final CollCall c, final AlgorithmId id) {
        final CollComm comm = c.comm();
        final Datatype type = c.sendType();
        final boolean cacheable = Datatype.BOOLEAN != type && c.finish().isEmpty()
            && ScheduleCache.covers(c.selectBytes());
        final ScheduleCache cache = comm.schedules();
        ScheduleCache.Entry lease = cacheable
            ? cache.claim(id, type, c.sendCount(), c.root(), c.op(), c.send(), c.recv()) : null;
        final Schedule s;
        if (null != lease) {
            s = lease.schedule();
        } else {
            s = Algorithms.build(id, comm, CollArgs.of(c.kind().mpiName(), c.send(), c.recv(), type, c.sendCount(),
                c.root(), c.op()));
            lease = cacheable ? cache.add(id, type, c.sendCount(), c.root(), c.op(), c.send(), c.recv(), s) : null;
        }
        return c.start().start(withFinish(s, c.finish()), comm, lease, c.gate());
    }

    private static AlgorithmId select(final CollCall c) {
        final dev.tutti.Op o = c.op();
        final boolean commutative = null == o || o.isCommutative();
        final CollComm comm = c.comm();
        final AlgorithmId id = comm.selection().select(c.kind(), comm.size(), c.selectBytes(), c.selectCount(),
            commutative);
        if (id.commutativeOnly() && !commutative) {
            throw Errors.invalid(ErrorClass.OP, c.kind().mpiName(), c.where(), "algorithm=" + id.shortName()
                + " reorders operands but op=" + o.name() + " is not commutative; expected a commutative op or an "
                + "order-preserving algorithm (e.g. linear, binomial, recursive_doubling)");
        }
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
            default -> throw new TuttiException(ErrorClass.INTERN, kind.mpiName() + " (" + ic.union().view()
                .describe() + "): no intercommunicator schedule for this operation");
        };
    }

    /** @return the schedule followed by the staging steps of {@code finish} (copying booleans back), if any */
    private static Schedule withFinish(final Schedule schedule, final List<Runnable> finish) {
        return finish.isEmpty() ? schedule : schedule.thenFinally(() -> finish.forEach(Runnable::run));
    }
}
