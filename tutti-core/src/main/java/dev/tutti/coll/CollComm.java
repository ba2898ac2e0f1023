package dev.tutti.coll;

import dev.tutti.coll.slot.SlotLanes;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RankLayout;
import dev.tutti.runtime.Agent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The collective side of one communicator: its collective context id, its group (as world ranks) and the
 * sequence number that gives each ordinary collective call its own message key.
 *
 * <p>Implementation notes. Ordinary collectives are matched by call order (MPI's rule): every rank calls them in
 * the same order on a communicator, so the n-th call on each rank draws the same {@code seq}. Messages of that
 * call carry the tag {@code seq mod 2^31} in the collective context, which p2p traffic (another context) can never
 * match. Within one call, the messages from one rank to another are matched in the order they are sent
 * (non-overtaking), so every algorithm must send them in the order its peer receives them; no per-round tag is
 * needed, which lets asymmetric schedules (a tree's root has more rounds than its leaves) line up.
 * Wrap-around is harmless unless 2^31 calls are outstanding at once.
 *
 * <p>Tagged two-phase collectives use the next context id ({@link #taggedContext()}) and a key per
 * (kind, user tag): the message tag packs the kind (5 bits), the user tag (16 bits) and the number of earlier uses
 * of that key on this rank (10 bits), so the n-th reduce with tag 5 on each rank meet, whatever order the ranks
 * begin other keys in; up to 1024 uses of one key may be outstanding at once.
 *
 * <p>Hosts. The communicator's {@link HostMap} (null unless it spans hosts with more than one rank on some) is
 * derived when it is made from the job's host of each world rank; the world's once more at {@code init}, on the
 * thread that makes it, before the program holds it. After that it is only read (a plain field: publication of
 * the communicator orders it), once per call by the selection.
 */
public final class CollComm {
    private static final int SEQ_MASK = Integer.MAX_VALUE;
    /** The largest user tag of a tagged two-phase collective (16 bits of the message tag). */
    public static final int TAGGED_TAG_UB = 0xFFFF;
    private static final int TAGGED_SEQ_BITS = 10;
    private static final int TAGGED_TAG_BITS = 16;
    /** How many of its latest ordinary calls a communicator remembers, for reports ({@link #recentCall}). */
    private static final int RECENT_CALLS = 64;
    /** What {@link #recentCall} answers for a call whose failure reached the program. */
    static final long FAILED_CALL = Long.MIN_VALUE + 1;

    private final P2pEngine engine;
    private final int context;
    private final int rank;
    private final int size;
    private final int[] worldRanks;
    private final CommView view;
    private final AtomicInteger seq = new AtomicInteger();
    /** {@link CollHeader#record()} of the latest calls, by tag modulo {@link #RECENT_CALLS}: one plain store a call. */
    private final long[] recentCalls = new long[RECENT_CALLS];
    private final java.util.concurrent.ConcurrentHashMap<Integer, AtomicInteger> taggedSeq =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final SelectionTable selection;
    private final int taggedTimeoutMs = dev.tutti.internal.Settings.COLL_TAGGED_TIMEOUT_MS.intValue();
    private volatile CollHooks rankState;
    private final ScheduleCache schedules = new ScheduleCache();
    /** The shared-memory lanes of its persistent collectives ({@link SlotLanes}), made on first use. */
    private volatile SlotLanes slotLanes;
    /** The on-host layer's state ({@link HostState}), made at the first collective call; null before. */
    private volatile HostState hostState;
    /** Its hosts when it spans several with more than one rank on some: null (the usual case) means flat. */
    private HostMap hosts;
    /** Whether some of its ranks reach each other over a network, not through direct memory. */
    private boolean network;

    /**
     * Creates the collective state of a communicator.
     *
     * @param engine     the rank's engine
     * @param context    the collective context id (distinct from the point-to-point one)
     * @param rank       this rank in the group
     * @param worldRanks world rank of each group rank, or null if the group is the world in order
     * @param view       the communicator, for statuses and messages
     * @param selection  the algorithm selection in force
     */
    public CollComm(final P2pEngine engine, final int context, final int rank, final int[] worldRanks,
        final CommView view, final SelectionTable selection) {
        this.engine = engine;
        this.context = context;
        this.rank = rank;
        this.worldRanks = worldRanks;
        this.size = null == worldRanks ? engine.worldSize() : worldRanks.length;
        this.view = view;
        this.selection = selection;
        refreshLayout();
    }

    /**
     * The communicator is freed here: gives the lanes' slots back to the arena where no request is using them, and
     * forgets the runs of persistent requests that the program did not free.
     */
    public void freed() {
        final SlotLanes lanes = slotLanes;
        if (null != lanes) {
            lanes.close();
        }
        if (null != rankState) {
            rankState.runs().removePersistent(this);
        }
    }

    /**
     * Returns this communicator's lanes of slots, made on first use (at the init of a persistent call that has a
     * peer in direct memory, see {@link Road#plan}).
     */
    SlotLanes slotLanes() {
        SlotLanes lanes = slotLanes;
        if (null == lanes) {
            synchronized (this) {
                lanes = slotLanes;
                if (null == lanes) {
                    lanes = new SlotLanes(engine, context, view);
                    slotLanes = lanes;
                }
            }
        }
        return lanes;
    }

    /**
     * The communicator's context block is retired on this rank (every member's FIN is in): gives back its on-host
     * region, which no member reads any more.
     */
    void retired() {
        final HostState h = hostState;
        if (null != h) {
            h.retired();
        }
    }

    /**
     * Returns the on-host layer's state of this communicator, or null before its first collective call: a volatile
     * read, once per call.
     *
     * @return the state, or null
     */
    public HostState hostState() {
        return hostState;
    }

    /**
     * Records the on-host layer's state of this communicator: what it may be at its first collective call, its
     * region (or none) at the call that agrees it.
     *
     * @param state the state
     */
    public void hostState(final HostState state) {
        this.hostState = state;
    }

    /**
     * Returns a view of a subgroup of this communicator for building the phases of a composed schedule: its rank
     * and size are the subgroup's, and a schedule built on it names subgroup ranks as peers (the caller maps them
     * back). It is never used to run anything.
     *
     * @param me      this rank's index in {@code members}
     * @param members ranks of this communicator, in the subgroup's order
     * @return the view
     */
    public CollComm subgroup(final int me, final int[] members) {
        final int[] w = new int[members.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = world(members[i]);
        }
        return new CollComm(engine, context, me, w, view, selection);
    }

    /**
     * Returns this communicator's host map, or null when it is on one host or no host holds more than one of its
     * ranks (then the flat algorithms are used). Read on every call's selection: a field read.
     *
     * @return the map or null
     */
    public HostMap hosts() {
        return hosts;
    }

    /**
     * Tells whether some ranks of this communicator reach each other over a network (tcp), not through direct
     * memory: the algorithms chosen for it are those for a network's costs. Every rank of the communicator sees the
     * same, since the engine's direct-memory groups are the job's. Read on every call's selection: a field read.
     *
     * @return true over a network
     */
    public boolean network() {
        return network;
    }

    /**
     * Derives the host map and whether the communicator spans a network from the engine's layouts: at its making,
     * and again for the world communicator, whose job learns them only after the world is made, before the world
     * is handed to the program. A view made only to build schedules (a simulator's) may have no engine: then it
     * has neither.
     */
    public void refreshLayout() {
        final RankLayout layout = null == engine ? RankLayout.ONE_HOST : engine.layout();
        hosts = null == engine ? null : HostMap.of(layout.hosts(), worldRanks, size);
        network = spansGroups(layout.direct());
    }

    private boolean spansGroups(final int[] direct) {
        if (null == direct) {
            return false;
        }
        final int first = direct[world(0)];
        for (int r = 1; r < size; r++) {
            if (direct[world(r)] != first) {
                return true;
            }
        }
        return false;
    }

    /** @return this rank */
    public int rank() {
        return rank;
    }

    /** @return the group size */
    public int size() {
        return size;
    }

    /** @return the engine */
    public P2pEngine engine() {
        return engine;
    }

    /** @return the collective context id */
    public int context() {
        return context;
    }

    /** @return the communicator view */
    public CommView view() {
        return view;
    }

    /** @return the algorithm selection */
    public SelectionTable selection() {
        return selection;
    }

    /**
     * Translates a group rank to a world rank.
     *
     * @param groupRank the rank in this group
     * @return its world rank
     */
    public int world(final int groupRank) {
        return null == worldRanks ? groupRank : worldRanks[groupRank];
    }

    /**
     * Translates a world rank back to a rank of this group (for error messages: a linear search).
     *
     * @param worldRank a world rank
     * @return its rank in this group, or -1 if it is not a member
     */
    public int groupRank(final int worldRank) {
        if (null == worldRanks) {
            return worldRank < size ? worldRank : -1;
        }
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] == worldRank) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Draws the tag of the next ordinary collective call and remembers what the call was (its kind, roots and
     * count), so that a message of this call that no call of this rank consumes can be reported with both calls
     * ({@link CollLeftovers}).
     *
     * @param header the call's header
     * @return its tag
     */
    int nextTag(final CollHeader header) {
        final int tag = seq.getAndIncrement() & SEQ_MASK;
        recentCalls[tag & (RECENT_CALLS - 1)] = header.record();
        return tag;
    }

    /**
     * Draws the tag of the next ordinary collective call that sends no message (one through the on-host region), so
     * that every call-ordered call of the communicator keeps its number on every rank whichever road it takes, and
     * remembers it as {@link #nextTag} does, from the call's header bits: no header object per call.
     *
     * @param bits  the call's header bits ({@link CollHeader#bits()})
     * @param count its count argument
     * @return its tag
     */
    public int drawTag(final int bits, final int count) {
        final int tag = seq.getAndIncrement() & SEQ_MASK;
        recentCalls[tag & (RECENT_CALLS - 1)] = (long) bits << Integer.SIZE | (count & 0xFFFF_FFFFL);
        return tag;
    }

    /**
     * Returns the tag the next ordinary call will draw, without drawing it: a call whose road its ranks agree only
     * once they see each other's calls (the on-host region's vector forms) looks for a peer's messages under it
     * while it waits, and then draws it on the region or leaves it to the message layer.
     *
     * @return the next call's tag
     */
    public int peekTag() {
        return seq.get() & SEQ_MASK;
    }

    /**
     * Returns what this rank remembers of its ordinary call {@code tag}: its {@link CollHeader#record()}, or
     * {@link Long#MIN_VALUE} if this rank has not made that call, {@link Long#MAX_VALUE} if it is too old to be
     * remembered, or {@link #FAILED_CALL} if it failed. Read after the calls are done (a report), so plain reads
     * suffice.
     *
     * @param tag the call's tag
     * @return the record, or one of the two markers
     */
    long recentCall(final int tag) {
        final int made = seq.get() & SEQ_MASK;
        if (tag >= made) {
            return Long.MIN_VALUE;
        }
        return made - tag > RECENT_CALLS ? Long.MAX_VALUE : recentCalls[tag & (RECENT_CALLS - 1)];
    }

    /**
     * Marks ordinary call {@code tag} failed (its failure reached the program): {@link #recentCall} then answers
     * {@link #FAILED_CALL} for it.
     *
     * @param tag the call's tag
     */
    void callFailed(final int tag) {
        recentCalls[tag & (RECENT_CALLS - 1)] = FAILED_CALL;
    }

    /**
     * Tells whether a message tag on the collective context is a slot agreement's ({@code SlotLane.agreementTag}),
     * not a call's: such a message is left unreceived by a peer that runs the call without slots.
     *
     * @param tag the message's tag
     * @return true for an agreement's
     */
    boolean isAgreementTag(final int tag) {
        return (tag ^ (seq.get() & SEQ_MASK)) >= 1 << 30;
    }

    /** @return how many ordinary calls this rank has made on the communicator (modulo 2^31) */
    int callsMade() {
        return seq.get() & SEQ_MASK;
    }

    /**
     * Makes this communicator known to its rank's collective state by its context, until its block is retired
     * ({@link CollLeftovers#retired}): the close of the rank then looks for its messages that no call consumed.
     * Communicators made only to build schedules (no engine) are not registered.
     */
    public void register() {
        if (null != engine) {
            rankState().comms().put(context, this);
        }
    }

    /**
     * Returns the context of tagged two-phase collectives: the next id of the communicator's block, so tagged
     * traffic never meets ordinary collectives or point-to-point messages.
     *
     * @return the context id
     */
    public int taggedContext() {
        return context + 1;
    }

    /** @return how long a tagged collective may stay unmatched (ms, 0 = forever), read when this was created */
    int taggedTimeoutMs() {
        return taggedTimeoutMs;
    }

    /**
     * Returns the message tag of the next tagged collective with this (kind, user tag) on this rank: the n-th use
     * of a key on every rank gets the same tag, whatever else ran in between.
     *
     * @param kind    the operation
     * @param userTag the user's tag, 0..{@link #TAGGED_TAG_UB}
     * @return {@code kind << 26 | userTag << 10 | (n mod 1024)}
     */
    int nextTaggedTag(final CollKind kind, final int userTag) {
        final int key = kind.ordinal() << TAGGED_TAG_BITS | userTag;
        final int n = taggedSeq.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
        return key << TAGGED_SEQ_BITS | (n & ((1 << TAGGED_SEQ_BITS) - 1));
    }

    /** @return the kind's ordinal in a tagged collective's message tag ({@link #nextTaggedTag}) */
    static int taggedKind(final int tag) {
        return tag >>> (TAGGED_SEQ_BITS + TAGGED_TAG_BITS);
    }

    /** @return the user's tag in a tagged collective's message tag */
    static int taggedUserTag(final int tag) {
        return tag >>> TAGGED_SEQ_BITS & TAGGED_TAG_UB;
    }

    /** @return the use of its (kind, tag) key, modulo 1024, in a tagged collective's message tag */
    static int taggedUse(final int tag) {
        return tag & ((1 << TAGGED_SEQ_BITS) - 1);
    }

    /**
     * Takes the key of the next ordinary collective call for an operation that runs several schedules one after
     * another under that one key (communicator creation retries its context-id agreement this way). Like any
     * ordinary collective, every rank of the group must reserve in the same call order.
     *
     * @return the tag to pass to {@link ScheduleRun#start(Schedule, CollComm, int, boolean)}
     */
    public int reserveTag() {
        return nextTag(CollHeader.NONE);
    }

    /**
     * Returns the engine's nonblocking runs in flight, looked up once per communicator (the engine's lookup is
     * synchronized; racing first calls get the same instance).
     *
     * @return the runs
     */
    ActiveRuns activeRuns() {
        return rankState().runs();
    }

    /**
     * Tells whether a collective of a higher progress priority than {@code level} is in flight on this rank
     * ({@link dev.tutti.PersistentRequest#setPriority}): what moves data past the engine runs the rank's progress
     * first, which advances that collective first.
     *
     * @param level a priority
     * @return true if such a run is registered and not complete
     */
    public boolean outranked(final int level) {
        return activeRuns().outranks(level);
    }

    /**
     * Makes work that is not a schedule take part in this rank's priority order ({@link PrioritizedWork}), until the
     * returned handle runs.
     *
     * @param work the work, whose priority is at least 1
     * @return what ends the registration (harmless to run twice)
     */
    public Runnable rank(final PrioritizedWork work) {
        final ActiveRuns runs = activeRuns();
        runs.addRanked(work);
        return () -> runs.removeRanked(work);
    }

    /**
     * Makes work of the on-host layer part of every pass of this rank's progress (a region's calls that wait for a
     * peer before they can be published or completed), until the returned handle runs.
     *
     * @param work the work: cheap when it has nothing to do
     * @return what ends the registration (harmless to run twice)
     */
    public Runnable addHostWork(final Agent work) {
        final ActiveRuns runs = activeRuns();
        runs.addHost(work);
        return () -> runs.removeHost(work);
    }

    /** @return the rank's collective state, looked up once per communicator (see {@link #activeRuns()}) */
    public CollHooks rankState() {
        final CollHooks h = rankState;
        if (null != h) {
            return h;
        }
        final CollHooks created = CollHooks.of(engine);
        rankState = created;
        return created;
    }

    /** @return the schedules of recent small collectives on this communicator */
    public ScheduleCache schedules() {
        return schedules;
    }

    /** @return a description for messages */
    public String describe() {
        return view.describe();
    }

    /** @return the communicator's name, for trace events */
    public String name() {
        return view.name();
    }
}
