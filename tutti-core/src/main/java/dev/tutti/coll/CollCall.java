package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * One collective call as it enters the engine through {@link dev.tutti.coll.door.CollDoor}: which operation, on which
 * communicator, how it starts (blocking, nonblocking, tagged, persistent), its root(s), its buffers with their element
 * types and counts, and its reduction. The API layer fills one in after validating the arguments; the door selects,
 * builds (or takes from the cache) and starts the schedule from it; the hooks ({@link CollHook}) read it.
 *
 * <p>Shape. Identity: {@link #kind()}, {@link #variant()}, {@link #tag()}, {@link #isInter()},
 * {@link #where()}. Arguments, for either communicator kind: {@link #root()}, {@link #remoteRoot()},
 * {@link #op()}, {@link #sendType()}/{@link #sendCount()}, {@link #recvType()}/{@link #recvCount()}. Engine side:
 * an intracommunicator call holds its memory and counts flat, in {@link CollArgs}' conventions (so that a cached
 * schedule is found without building anything), or whole {@link CollArgs} for the v-collectives; an
 * intercommunicator call holds its {@link InterArgs}.
 *
 * <p>Implementation note. Mutable and reused: a thread's blocking intracommunicator calls share one descriptor
 * ({@link BlockingCallReuse}), so a repeated small blocking collective allocates nothing for it; every
 * nonblocking, tagged or intercommunicator call gets its own, which lives as long as its run (a hook's
 * {@code after} may read it then). Not thread-safe: one call, one thread at a time.
 */
public final class CollCall {
    /** How a call runs its schedule. */
    public enum Variant {
        /** Started and waited for by the call. */
        BLOCKING,
        /** Started; the caller waits on the request. */
        NONBLOCKING,
        /** A two-phase {@code ...Begin(..., tag)}: matched by (kind, tag) instead of call order. */
        TAGGED,
        /** Built once, started many times ({@code ...Init}). */
        PERSISTENT
    }

    private CollKind kind;
    private CollStart start;
    private CollComm comm;
    private String where;
    // intracommunicator, regular: CollArgs' conventions
    private MemorySegment send;
    private MemorySegment recv;
    private Datatype type;
    private int count;
    private int root;
    private Op op;
    // intracommunicator, v-collectives and alltoallw: their counts and displacements as the caller passed them, and
    // their argument record, made when first asked for (a call that the on-host region runs needs none)
    private boolean vector;
    private int[] sendCounts;
    private int[] sendDispls;
    private int[] recvCounts;
    private int[] recvDispls;
    private CollArgs args;
    private long selectBytes;
    private long selectCount;
    private List<Runnable> finish;
    // intercommunicator
    private InterComm inter;
    private InterArgs interArgs;
    // the algorithm the door selected for this call (intracommunicator), once per call
    private AlgorithmId algorithm;
    // what the door built for this call: the schedule, and the cache entry it is leased from (or null)
    private Schedule schedule;
    private ScheduleCache.Entry lease;
    // what a hook made the call wait for before its data moves (nonblocking and tagged calls), or null
    private CollGate gate;
    // whether the hook's exchange did all the call has to do (a checked blocking barrier): the door skips its schedule
    private boolean doneByHook;
    // the call's number in its communicator's on-host region when it takes the message layer there, else 0
    private long hostCall;

    /** A descriptor to fill in. */
    public CollCall() {
    }

    /**
     * Fills in a regular intracommunicator call (every collective but the v-forms and alltoallw), in
     * {@link CollArgs}' conventions.
     *
     * @param comm        the communicator
     * @param where       its description, for messages
     * @param kind        the operation
     * @param start       how it starts
     * @param send        send memory, or null (in place, not significant)
     * @param recv        receive memory, or null (not significant)
     * @param type        element type
     * @param count       element count (per block where the operation has blocks)
     * @param root        the root, or -1
     * @param op          the reduction, or null
     * @param selectBytes bytes that select the algorithm
     * @param selectCount elements that select the algorithm
     * @param finish      steps after the schedule (boolean staging), empty if none
     * @return this
     */
    public CollCall intra(final CollComm comm, final String where, final CollKind kind, final CollStart start,
        final MemorySegment send, final MemorySegment recv, final Datatype type, final int count, final int root,
        final Op op, final long selectBytes, final long selectCount, final List<Runnable> finish) {
        this.comm = comm;
        this.where = where;
        this.kind = kind;
        this.start = start;
        this.send = send;
        this.recv = recv;
        this.type = type;
        this.count = count;
        this.root = root;
        this.op = op;
        vectors(false, null, null, null, null);
        this.args = null;
        this.selectBytes = selectBytes;
        this.selectCount = selectCount;
        this.finish = finish;
        this.algorithm = null;
        this.inter = null;
        this.interArgs = null;
        this.gate = null;
        this.doneByHook = false;
        this.hostCall = 0;
        return this;
    }

    /**
     * Fills in an intracommunicator v-collective or alltoallw, whose arguments the schedule cache cannot key.
     *
     * @param comm        the communicator
     * @param where       its description
     * @param kind        the operation
     * @param start       how it starts
     * @param args        the arguments
     * @param selectBytes bytes that select the algorithm
     * @param selectCount elements that select the algorithm
     * @param finish      steps after the schedule, empty if none
     * @return this
     */
    public CollCall intra(final CollComm comm, final String where, final CollKind kind, final CollStart start,
        final CollArgs args, final long selectBytes, final long selectCount, final List<Runnable> finish) {
        intra(comm, where, kind, start, args.send(), args.recv(), args.type(), args.count(), args.root(),
            args.reduceOp(), selectBytes, selectCount, finish);
        vectors(true, args.sendCounts(), args.sendDispls(), args.recvCounts(), args.recvDispls());
        this.args = args;
        return this;
    }

    /**
     * Fills in an intracommunicator v-collective (gatherv, scatterv, allgatherv, alltoallv, reduce_scatter) in
     * {@link CollArgs}' conventions, its counts and displacements as the caller passed them: its argument record is
     * made only when a schedule is built for it ({@link #args()}), so that a call the on-host region runs allocates
     * nothing.
     *
     * @param comm        the communicator
     * @param where       its description, for messages
     * @param kind        the operation
     * @param start       how it starts
     * @param send        send memory, or null (in place, not significant)
     * @param recv        receive memory, or null (not significant)
     * @param type        element type
     * @param count       element count (this rank's block, see {@link CollArgs})
     * @param root        the root, or -1
     * @param op          the reduction, or null
     * @param sendCounts  per-peer send counts, or null
     * @param sendDispls  per-peer send displacements, or null
     * @param recvCounts  per-peer receive counts, or null
     * @param recvDispls  per-peer receive displacements, or null
     * @param selectBytes bytes that select the algorithm
     * @param selectCount elements that select the algorithm
     * @param finish      steps after the schedule, empty if none
     * @return this
     */
    public CollCall intraVector(final CollComm comm, final String where, final CollKind kind, final CollStart start,
        final MemorySegment send, final MemorySegment recv, final Datatype type, final int count, final int root,
        final Op op, final int[] sendCounts, final int[] sendDispls, final int[] recvCounts, final int[] recvDispls,
        final long selectBytes, final long selectCount, final List<Runnable> finish) {
        intra(comm, where, kind, start, send, recv, type, count, root, op, selectBytes, selectCount, finish);
        vectors(true, sendCounts, sendDispls, recvCounts, recvDispls);
        return this;
    }

    private void vectors(final boolean v, final int[] sc, final int[] sd, final int[] rc, final int[] rd) {
        this.vector = v;
        this.sendCounts = sc;
        this.sendDispls = sd;
        this.recvCounts = rc;
        this.recvDispls = rd;
    }

    /**
     * Fills in an intercommunicator call (standard or symmetric form).
     *
     * @param ic     the intercommunicator
     * @param where  its description
     * @param kind   the operation
     * @param start  how it starts
     * @param a      the arguments (roots as this rank's group sees them), or null for a barrier
     * @param finish steps after the schedule, empty if none
     * @return this
     */
    public CollCall inter(final InterComm ic, final String where, final CollKind kind, final CollStart start,
        final InterArgs a, final List<Runnable> finish) {
        this.comm = ic.union();
        this.where = where;
        this.kind = kind;
        this.start = start;
        this.inter = ic;
        this.interArgs = a;
        this.finish = finish;
        this.algorithm = null;
        this.send = null == a ? null : a.send();
        this.recv = null == a ? null : a.recv();
        this.type = null == a ? Datatype.BYTE : a.sendType();
        this.count = null == a ? 0 : a.sendCount();
        this.root = null == a ? -1 : a.root();
        this.op = null == a ? null : a.reduceOp();
        vectors(false, null, null, null, null);
        this.args = null;
        this.selectBytes = null == a ? 0 : Math.max((long) a.sendCount() * a.sendType().sizeBytes(),
            (long) a.recvCount() * a.recvType().sizeBytes());
        this.selectCount = 0;
        this.gate = null;
        this.doneByHook = false;
        this.hostCall = 0;
        return this;
    }

    /** @return the operation */
    public CollKind kind() {
        return kind;
    }

    /** @return how the call runs */
    public Variant variant() {
        return start.variant();
    }

    /** @return the user tag of a tagged call, else -1 */
    public int tag() {
        return start.tag();
    }

    /** @return whether the call is on an intercommunicator */
    public boolean isInter() {
        return null != inter;
    }

    /** @return the communicator and rank, as error messages name them ({@code comm=WORLD, rank=2}) */
    public String where() {
        return where;
    }

    /** @return the root (for an intercommunicator: this rank's group's root as this rank names it), or -1 */
    public int root() {
        return root;
    }

    /** @return the remote group's root of an intercommunicator call, -1 if none; an intracommunicator's root */
    public int remoteRoot() {
        return null != inter ? (null == interArgs ? -1 : interArgs.remoteRoot()) : root;
    }

    /** @return the reduction, or null */
    public Op op() {
        return op;
    }

    /** @return the element type of what this rank sends */
    public Datatype sendType() {
        return type;
    }

    /** @return the element count this rank sends (per block, for operations with blocks; see {@link CollArgs}) */
    public int sendCount() {
        return count;
    }

    /** @return the element type of what this rank receives */
    public Datatype recvType() {
        return null != interArgs ? interArgs.recvType() : type;
    }

    /** @return the element count this rank receives (per block, as {@link #sendCount()}) */
    public int recvCount() {
        return null != interArgs ? interArgs.recvCount() : count;
    }

    /**
     * Returns whether this rank passed {@code IN_PLACE} (intracommunicator calls; where MPI allows it: at the root
     * of gather, scatter and reduce and their v-forms, at every rank of the others but bcast and barrier).
     *
     * @return whether the call is in place
     */
    public boolean inPlace() {
        if (null != inter) {
            return false;
        }
        return switch (kind) {
            case BARRIER, BCAST -> false;
            case SCATTER, SCATTERV -> root == comm.rank() && null == recv;
            case GATHER, GATHERV, REDUCE -> root == comm.rank() && null == send;
            case ALLTOALLW -> false;
            default -> null == send;
        };
    }

    /** @return the communicator (for an intercommunicator, the union of its groups) */
    public CollComm communicator() {
        return comm;
    }

    /** @return whether this is an intracommunicator v-collective or alltoallw (its arguments: {@link #args()}) */
    public boolean isVector() {
        return vector;
    }

    /** @return a v-collective's per-peer send counts, or null */
    public int[] sendCounts() {
        return sendCounts;
    }

    /** @return a v-collective's per-peer send displacements, or null */
    public int[] sendDispls() {
        return sendDispls;
    }

    /** @return a v-collective's per-peer receive counts, or null */
    public int[] recvCounts() {
        return recvCounts;
    }

    /** @return a v-collective's per-peer receive displacements, or null */
    public int[] recvDispls() {
        return recvDispls;
    }

    /** @return the intercommunicator of an intercommunicator call, else null */
    public InterComm interCommunicator() {
        return inter;
    }

    /** @return the arguments of an intercommunicator call (null for its barrier), else null */
    public InterArgs interArguments() {
        return interArgs;
    }

    /**
     * Makes a nonblocking, tagged or persistent call wait, after it has started and before any of its data moves,
     * until {@code g} passes it (the correctness checker's comparison with the peers' calls). Called by a hook's
     * {@link CollHook#before}; a blocking call ignores it (its hook may wait in {@code before} itself).
     *
     * @param g the gate, or null for none
     */
    public void gate(final CollGate g) {
        this.gate = g;
    }

    /**
     * Tells the door that the hook's {@link CollHook#before} has done everything a blocking call does, so that its
     * schedule is not run: the checker's exchange of a blocking barrier, in which every rank has heard from every
     * other rank of the group in this call, is itself a barrier; the exchange of a small allreduce, allgather,
     * alltoall or bcast carries its data too. Every rank of the group must decide the same (the checker does so only
     * once every rank's call is known to be the same). Ignored by the other variants.
     */
    public void doneByHook() {
        this.doneByHook = true;
    }

    /**
     * Returns the send memory of a regular intracommunicator call, in {@link CollArgs}' conventions (null when in
     * place or where the operation sends from the receive memory): for a hook that moves the call's data itself
     * ({@link #doneByHook()}).
     *
     * @return the memory, or null
     */
    public MemorySegment sendMemory() {
        return send;
    }

    /**
     * Returns the receive memory of a regular intracommunicator call (bcast's buffer), in {@link CollArgs}'
     * conventions: for a hook that moves the call's data itself ({@link #doneByHook()}).
     *
     * @return the memory, or null
     */
    public MemorySegment recvMemory() {
        return recv;
    }

    /**
     * Has a regular intracommunicator call receive into other memory, and run a step after its schedule, before its
     * request completes: the checker's watch of a nonblocking or tagged call's buffers, which lets the library write
     * only a shadow of the receive memory while the call runs, and copies it in at that step. Called by a hook's
     * {@link CollHook#before}, before the schedule is built; such a call is not taken from the schedule cache.
     * Not for calls that stage their memory ({@link #staged()}), whose steps it would replace.
     *
     * @param memory the memory to receive into, laid out as the receive memory ({@link #recvMemory()})
     * @param last   the step
     */
    public void receiveInto(final MemorySegment memory, final Runnable last) {
        this.recv = memory;
        this.finish = List.of(last);
    }

    /** @return whether the call stages its memory and copies it back when done (boolean buffers) */
    public boolean staged() {
        return null != finish && !finish.isEmpty();
    }

    // ---------------------------------------------------------------------------------------- engine side

    /**
     * Records that the call takes the message layer on a communicator with an on-host region, which published it
     * under number {@code k} ({@link HostState#stalled}).
     *
     * @param k the call's number in the region, from 1
     */
    public void hostCall(final long k) {
        this.hostCall = k;
    }

    /** @return the call's number in its communicator's on-host region if it takes the message layer there, else 0 */
    public long hostCall() {
        return hostCall;
    }

    /** @return whether the hook did the whole call ({@link #doneByHook()}) */
    public boolean isDoneByHook() {
        return doneByHook;
    }

    public CollGate gate() {
        return gate;
    }

    public CollStart start() {
        return start;
    }

    public CollComm comm() {
        return comm;
    }

    public MemorySegment send() {
        return send;
    }

    public MemorySegment recv() {
        return recv;
    }

    /** @return the whole arguments of a v-collective or alltoallw (made at the first call), else null */
    public CollArgs args() {
        if (vector && null == args) {
            args = new CollArgs(kind.mpiName(), send, recv, type, count, root, op, sendCounts, sendDispls, recvCounts,
                recvDispls, null, null, null, null);
        }
        return args;
    }

    public long selectBytes() {
        return selectBytes;
    }

    public long selectCount() {
        return selectCount;
    }

    public List<Runnable> finish() {
        return finish;
    }

    public InterComm interComm() {
        return inter;
    }

    public InterArgs interArgs() {
        return interArgs;
    }

    public AlgorithmId algorithm() {
        return algorithm;
    }

    public void algorithm(final AlgorithmId id) {
        this.algorithm = id;
    }

    /** Records what the door built for this call. */
    public void built(final Schedule theSchedule, final ScheduleCache.Entry theLease) {
        this.schedule = theSchedule;
        this.lease = theLease;
    }

    public Schedule schedule() {
        return schedule;
    }

    public ScheduleCache.Entry lease() {
        return lease;
    }

    @Override
    public String toString() {
        return kind.mpiName() + "(" + where + ", " + start.variant() + (start.tag() >= 0 ? " tag=" + start.tag() : "")
            + (isInter() ? ", inter" : "") + ", root=" + root() + (isInter() ? ", remoteRoot=" + remoteRoot() : "")
            + ", send=" + sendCount() + "x" + sendType() + ", recv=" + recvCount() + "x" + recvType()
            + (null == op ? "" : ", op=" + op.name()) + ")";
    }
}
