package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHook;
import dev.tutti.coll.CollHooks;
import dev.tutti.coll.CollKind;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.runtime.Agent;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The correctness checker of one rank: the hook of the collective engine's door ({@link CollHook}) that compares
 * every collective call with its peers' calls before its data moves ({@link DigestExchange}, {@link DigestRules}),
 * and the agent that answers the peers' questions about what this rank waits in ({@link LatePeerInquiry}).
 *
 * <p>Keys. An ordinary call is the n-th on its communicator (n from 1, this checker's count of the calls that pass
 * the door, blocking and nonblocking together, as MPI orders them); its digests travel on the communicator's checker
 * context ({@link ContextIdAllocator#CHECK}) under the tag {@code n mod 2^30}. A tagged call is the n-th use of its
 * (kind, tag) and travels on {@link ContextIdAllocator#CHECK_TAGGED} under the tag that packs the three as the engine
 * does. Questions and answers use the world's checker context under the two tags above {@code 2^30}, which digests
 * never use.
 *
 * <p>Implementation notes. A blocking call waits for the verdict in {@link #before} (MPI lets any blocking
 * collective synchronize, and a correct program must allow it); a nonblocking or tagged call only starts the
 * exchange and leaves it as its run's gate, so its initiation stays local. The per-communicator counts live in a
 * synchronized weak map (a freed communicator's entry goes with it); {@link #doWork} is guarded by a flag, so one
 * of the rank's waiting threads at a time serves questions; at most once a millisecond it also reads the peers'
 * site announcements ({@link SiteTable}) and runs the {@link DeadlockDetector}. The point-to-point part (signatures,
 * blocked waits, leaks) is the engine's hook, {@link CheckerP2pHook}. A call given up because a peer waits elsewhere
 * stays in this rank's answers until its next checked call, and a rank that leaves first serves questions until each
 * peer it learned waits for it has been told ({@link #linger}, bounded): else the peer would see only a departure.
 * With the checker off none of this exists: the
 * door's hook and the engine's are null.
 */
public final class Checker implements CollHook, Agent {
    /** The world's checker context: questions and answers. */
    static final int WORLD_CHECK = ContextIdAllocator.base(0) + ContextIdAllocator.CHECK;
    /** Tag of a question. */
    static final int QUERY_TAG = 0x7FFF_FFFE;
    /** Tag of an answer. */
    static final int REPLY_TAG = 0x7FFF_FFFF;
    /** Tag of a site announcement ({@link SiteTable}). */
    static final int SITE_TAG = 0x7FFF_FFFD;
    /** Tag of the deadlock detector's question ({@link DeadlockDetector}). */
    static final int SNAP_QUERY_TAG = 0x7FFF_FFFC;
    /** Tag of an answer to it. */
    static final int SNAP_REPLY_TAG = 0x7FFF_FFFB;
    /** Tag of the deadlock detector's verdict. */
    static final int VERDICT_TAG = 0x7FFF_FFFA;
    private static final int SEQ_MASK = 0x3FFF_FFFF;
    private static final int TAGGED_SEQ_BITS = 10;
    private static final int TAGGED_TAG_BITS = 16;

    private final P2pEngine engine;
    private final long thresholdMs;
    private final Map<CollComm, CommState> comms = Collections.synchronizedMap(new WeakHashMap<>());
    private final Set<DigestExchange> pending = ConcurrentHashMap.newKeySet();
    /** Calls this rank gave up because a peer waits elsewhere ({@link LatePeerInquiry}), as peers are told of them. */
    private final List<PeerState.Pending> abandoned = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Peers blocked in a call that waits for this rank, which will ask it ({@link #owe}). */
    private final Set<Integer> owed = ConcurrentHashMap.newKeySet();
    /** Peers this rank has answered with a call it has waited in for the threshold. */
    private final Set<Integer> told = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean serving = new AtomicBoolean();
    private final CommView worldView;
    private RecvRequest question; // guarded by serving
    private SiteTable sites;
    private DeadlockDetector detector; // guarded by serving
    private long nextHousekeepingNs; // guarded by serving
    /** Of how many calls of {@link #doWork} one does its work (a power of two). */
    private static final int WORK_EVERY = 64;
    private int ticks;
    /** How often a waiting rank reads site announcements and runs the deadlock detector: every 1 ms. */
    private static final long HOUSEKEEPING_NS = 1_000_000L;
    /** The JSON report ({@code tutti.check.report}), or null. */
    private JsonReport json;
    private LeakTracker leaks;
    /** Whether findings that do not stop a call only warn ({@code --check=warn}): the rank does not fail for them. */
    private final boolean warn;
    /** Findings reported without stopping a call (leaks, buffers in use), by kind: the rank fails at close for them. */
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> reported = new java.util.TreeMap<>();
    /** The nonblocking calls between {@link #before} and {@link #started}, with their call site and watch. */
    private final Map<CollCall, Starting> starting = new ConcurrentHashMap<>();

    /** A nonblocking call that passed {@link #before}: where it was made, and the watch of its buffers or null. */
    private record Starting(String site, OwnedBuffers buffers) {
    }

    private Checker(final P2pEngine engine, final long thresholdMs, final boolean warn) {
        this.engine = engine;
        this.thresholdMs = thresholdMs;
        this.warn = warn;
        this.worldView = CommView.ofWorldRanks("checker, rank=" + engine.worldRank());
    }

    /**
     * Turns the checker on for a rank: every later collective call of the rank is checked.
     *
     * @param engine      the rank's engine
     * @param thresholdMs how long a call waits for a peer's digest before it asks the peer what it is doing
     * @param strict      whether every blocking send is unbuffered ({@code --check=strict}: a synchronous send,
     *                    {@link dev.tutti.p2p.SyncSend})
     * @return the checker
     */
    public static Checker install(final P2pEngine engine, final long thresholdMs, final boolean strict) {
        return install(engine, thresholdMs, strict, false);
    }

    /**
     * Turns the checker on for a rank, failing the rank at close for what it only reported or not.
     *
     * @param engine      the rank's engine
     * @param thresholdMs how long a call waits for a peer's digest before it asks the peer what it is doing
     * @param strict      whether every blocking send is unbuffered ({@code --check=strict})
     * @param warn        whether findings that do not stop a call (leaks, buffers in use) only warn
     *                    ({@code --check=warn}); else the rank's close fails with
     *                    {@link dev.tutti.CheckFailedException}
     * @return the checker
     */
    public static Checker install(final P2pEngine engine, final long thresholdMs, final boolean strict,
        final boolean warn) {
        final Checker c = new Checker(engine, thresholdMs, warn);
        final String report = dev.tutti.internal.Settings.CHECK_REPORT.text();
        if (null != report && !report.isBlank()) {
            c.json = new JsonReport(java.nio.file.Path.of(report), engine.worldRank());
        }
        final WaitRegistry waits = new WaitRegistry();
        c.sites = new SiteTable(engine, c.worldView);
        c.detector = new DeadlockDetector(engine, c.worldView, waits, thresholdMs, c::found);
        c.leaks = new LeakTracker(engine, c.sites, c::reported);
        engine.hook(new CheckerP2pHook(c.sites, waits, c.leaks, c::found, c::linger, strict, c::bufferInUse,
            c::verdict));
        engine.addAgent(c);
        CollHooks.install(engine, c);
        return c;
    }

    @Override
    public void before(final CollCall call) {
        final CollComm comm = call.communicator();
        if (ContextIdAllocator.COLL != comm.context() % ContextIdAllocator.IDS_PER_BLOCK) {
            return; // not a communicator's collective context: nothing to compare on
        }
        final int base = comm.context() - ContextIdAllocator.COLL;
        if (!abandoned.isEmpty()) {
            abandoned.clear(); // the rank has moved on: it no longer waits in the calls it gave up
        }
        final CommState state = state(comm);
        if (CollCall.Variant.BLOCKING == call.variant() && !call.isInter() && !call.isVector()
            && state.roundBusy.compareAndSet(false, true)) {
            checkRegular(call, state, base);
            return;
        }
        // A blocking call's site is found only if needed, on its thread, which waits here (DigestExchange#mine).
        final String site = CollCall.Variant.BLOCKING == call.variant() ? null : CallSite.capture();
        final long seq;
        final int context;
        final int tag;
        if (CollCall.Variant.TAGGED == call.variant()) {
            final int key = call.kind().ordinal() << TAGGED_TAG_BITS | call.tag();
            seq = state.tagged.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
            context = base + ContextIdAllocator.CHECK_TAGGED;
            tag = key << TAGGED_SEQ_BITS | (int) ((seq - 1) & ((1 << TAGGED_SEQ_BITS) - 1));
        } else {
            seq = state.calls.incrementAndGet();
            context = base + ContextIdAllocator.CHECK;
            tag = (int) (seq & SEQ_MASK);
        }
        final DigestExchange x = DigestExchange.start(this, state, comm, context, tag, CallDigest.of(call, seq, site));
        if (CollCall.Variant.BLOCKING == call.variant()) {
            x.waitFor();
            return;
        }
        call.gate(x);
        if (CollCall.Variant.PERSISTENT != call.variant()) {
            final OwnedBuffers owned = OwnedBuffers.watch(call, site, this::bufferInUse);
            starting.put(call, new Starting(site, owned));
        }
    }

    @Override
    public dev.tutti.Request started(final CollCall call, final dev.tutti.Request request) {
        return owned(call, request, "nonblocking collective never completed", "started");
    }

    @Override
    public dev.tutti.CollectiveHandle begun(final CollCall call, final dev.tutti.CollectiveHandle handle) {
        return owned(call, handle, "tagged handle never ended", "created");
    }

    /** @return the program's request for a started call: listed at close if the program never saw it complete */
    private OwnedRequest owned(final CollCall call, final dev.tutti.Request request, final String leak,
        final String made) {
        final Starting s = starting.remove(call);
        final OwnedRequest r = new OwnedRequest(request, null == s ? null : s.buffers());
        final String what = CallDigest.of(call, 0, null).describe() + " on '" + Reports.commName(call.communicator()
            .describe()) + "'";
        leaks.opened(() -> leak, r, () -> what, r::observed, made, null == s ? CallSite.capture() : s.site());
        return r;
    }

    /**
     * Checks a regular blocking intracommunicator call on the communicator's reusable exchange, which the caller
     * holds ({@link CommState#roundBusy}; while another thread's call holds it, a call takes the general path): its
     * first phase allocates nothing. A barrier that passes is done: its exchange, in which this rank heard from every
     * other rank of the group in this call, synchronized the group ({@link CollCall#doneByHook()}); so is a small
     * allreduce, allgather, alltoall or bcast, whose data came with the hashes ({@link SmallDataWithDigest}), and a
     * larger alltoall or allreduce, whose data the checker moved itself once the hashes agreed ({@link
     * LargeDataWithDigest}).
     */
    private void checkRegular(final CollCall call, final CommState state, final int base) {
        try {
            final long seq = state.calls.incrementAndGet();
            DigestExchange x = state.round;
            if (null == x || !x.idle()) { // the first call, or the last one failed or has not sent yet
                x = DigestExchange.reusable(this, state, call.communicator(), base + ContextIdAllocator.CHECK);
                state.round = x;
            }
            x.restart((int) (seq & SEQ_MASK), call, seq);
            try {
                x.waitFor();
            } catch (final TuttiException e) {
                x.abandon();
                throw e;
            }
            if (x.deliver(call) || CollKind.BARRIER == call.kind()) {
                call.doneByHook();
            }
        } finally {
            state.roundBusy.set(false);
        }
    }

    @Override
    public void after(final CollCall call, final TuttiException failure) {
        // Nothing: a call is checked before its data moves.
    }

    @Override
    public void opened(final String leak, final Object resource, final java.util.function.Supplier<String> what,
        final java.util.function.BooleanSupplier released) {
        leaks.opened(leak, resource, what, released);
    }

    @Override
    public void openedBy(final String leak, final CollCall call, final Object resource,
        final java.util.function.BooleanSupplier released) {
        final String what = CallDigest.of(call, 0, null).describe() + " on '" + Reports.commName(call.communicator()
            .describe()) + "'";
        if (resource instanceof dev.tutti.PersistentRequest p) {
            // An active request cannot be freed: its leak is that it was left active (started, never completed).
            leaks.opened(() -> p.isActive() ? "persistent request left active (started, never waited or tested to "
                + "completion)" : leak, resource, () -> what, released, "created", CallSite.capture());
            return;
        }
        leaks.opened(leak, resource, () -> what, released);
    }

    /**
     * Serves one question of a peer, if one has arrived. Called on every progress of every waiting thread, so
     * it first looks, without a lock or the clock, whether a question, answer or verdict may have arrived; if none,
     * only one call in {@link #WORK_EVERY} goes on to the clock and the housekeeping. Unthrottled, it would make the
     * rank's polling loop several times slower, and every wait's reaction with it.
     */
    @Override
    public int doWork() {
        final RecvRequest asked = question; // a hint: read outside the lock
        if (0 != (++ticks & (WORK_EVERY - 1)) && null != asked && !asked.isDone() && !detector.mayHaveMessages()) {
            return 0; // a racy count: threads that lose increments only make the housekeeping come later
        }
        if (!serving.compareAndSet(false, true)) {
            return 0;
        }
        try {
            int found = detector.readVerdict();
            final long now = System.nanoTime();
            if (now - nextHousekeepingNs >= 0) {
                nextHousekeepingNs = now + HOUSEKEEPING_NS;
                sites.drain();
                found = detector.doWork();
            }
            if (null == question) {
                question = engine.irecvAllocating(WORLD_CHECK, P2pEngine.ANY, QUERY_TAG, Datatype.BYTE, worldView);
            }
            if (!question.isDone()) {
                return found;
            }
            final RecvRequest q = question;
            question = null;
            final int asker = q.waitFor().source();
            final byte[] b = q.receivedBytes();
            final int context = null != b && b.length >= Integer.BYTES
                ? java.nio.ByteBuffer.wrap(b).getInt() : -1;
            final PeerState a = answer(context);
            engine.isend(WORLD_CHECK, asker, REPLY_TAG, Datatype.BYTE, MemorySegment.ofArray(a.encode()));
            if (a.pending().stream().anyMatch(p -> p.waitedMs() >= thresholdMs)) {
                told.add(asker); // what it needs for its verdict
            }
            return 1;
        } catch (final TuttiException e) {
            return 0; // the asker is gone, or this rank is closing: no one to answer
        } finally {
            serving.set(false);
        }
    }

    /**
     * Asks a peer what it waits in.
     *
     * @param worldRank the peer
     * @param context   the collective context of the communicator the question is about
     * @return the receive of its answer ({@link PeerState})
     */
    RecvRequest ask(final int worldRank, final int context) {
        final RecvRequest reply = engine.irecvAllocating(WORLD_CHECK, worldRank, REPLY_TAG, Datatype.BYTE, worldView);
        engine.isend(WORLD_CHECK, worldRank, QUERY_TAG, Datatype.BYTE,
            MemorySegment.ofArray(java.nio.ByteBuffer.allocate(Integer.BYTES).putInt(context).array()));
        return reply;
    }

    /** @return this rank's answer about the communicator of collective context {@code context} */
    private PeerState answer(final int context) {
        final List<PeerState.Pending> waits = new ArrayList<>();
        for (final DigestExchange x : pending) {
            waits.add(x.asPending());
        }
        waits.addAll(abandoned);
        String last = "";
        synchronized (comms) {
            for (final Map.Entry<CollComm, CommState> e : comms.entrySet()) {
                final DigestExchange round = e.getValue().round;
                if (null != round && round.active()) {
                    waits.add(round.asPending());
                }
                final CallDigest d = e.getValue().last();
                if (e.getKey().context() == context && null != d) {
                    last = Reports.callLabel(d) + " " + d;
                }
            }
        }
        return new PeerState(waits, last);
    }

    /**
     * Notes a finding that does not stop a call (a leak, a buffer in use): in the JSON report, and in the count the
     * rank fails for at close ({@link #verdict()}).
     *
     * @param kind    its kind ({@link JsonReport})
     * @param message its report
     */
    void reported(final String kind, final String message) {
        synchronized (reported) {
            reported.computeIfAbsent(kind, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        }
        found(kind, message);
    }

    /**
     * Reports a buffer written while an operation owned it ({@link OwnedBuffers}), on standard error at once.
     *
     * @param kind    {@code buffer-in-use}
     * @param message the report
     */
    void bufferInUse(final String kind, final String message) {
        Reports.print("tutti check: rank " + engine.worldRank() + ": " + message);
        reported(kind, message);
    }

    /**
     * @return the failure the rank's close ends with: null if it reported nothing that did not stop a call, or if
     *         the checker only warns
     */
    dev.tutti.TuttiException verdict() {
        synchronized (reported) {
            if (warn || reported.isEmpty()) {
                return null;
            }
            return Reports.checkFailed(engine.worldRank(), reported);
        }
    }

    /**
     * Notes a finding in the JSON report, if there is one.
     *
     * @param kind    its kind ({@link JsonReport})
     * @param message its report
     */
    void found(final String kind, final String message) {
        final JsonReport j = json;
        if (null != j) {
            j.add(kind, message);
        }
    }

    /**
     * Notes a call this rank gave up because a peer waits in another collective: the peers that wait for its digest
     * learn of it from this rank's answers, until the rank makes its next checked call.
     *
     * @param call the call
     */
    void abandon(final DigestExchange call) {
        abandoned.add(call.asPending());
    }

    /**
     * Notes a peer blocked for the threshold in a call that waits for this rank: it will ask this rank what it does,
     * and this rank answers before it leaves ({@link #linger}).
     *
     * @param worldRank the peer
     */
    void owe(final int worldRank) {
        owed.add(worldRank);
    }

    /**
     * Before the rank leaves: serves questions until every peer blocked in a call that waits for this rank has been
     * told what this rank waited in (so that it reports the calls that never meet, not this rank's departure), for
     * at most two thresholds and a half (a peer asks again every threshold).
     */
    void linger() {
        final long deadline = System.nanoTime() + thresholdMs * 2_500_000L;
        while (!told.containsAll(owed) && System.nanoTime() - deadline < 0) {
            if (0 == engine.progress()) {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000L);
            }
        }
    }

    /** @return the checked calls of this rank that wait for their peers' digests */
    Set<DigestExchange> pending() {
        return pending;
    }

    /** @return the threshold of {@link LatePeerInquiry} (ms) */
    long thresholdMs() {
        return thresholdMs;
    }

    private CommState state(final CollComm comm) {
        synchronized (comms) {
            return comms.computeIfAbsent(comm, c -> new CommState());
        }
    }

    /** The checker's counts of one communicator on this rank, and what its calls left for the next ones. */
    static final class CommState {
        final AtomicLong calls = new AtomicLong();
        final Map<Integer, AtomicLong> tagged = new ConcurrentHashMap<>();
        /** The exchange its regular blocking calls reuse, or null before the first; held by {@link #roundBusy}. */
        volatile DigestExchange round;
        final AtomicBoolean roundBusy = new AtomicBoolean();
        /** The last call that completed with its digest made, or null (see {@link #last()}). */
        private volatile CallDigest last;
        /** The number of the last call that completed. */
        private volatile long lastSeq;
        /** The last hash whose call passed the rules with every rank making it ({@link DigestExchange}). */
        private volatile long passedHash;
        /** That call's digest (its number and site those of the first call that had it). */
        private volatile CallDigest passedDigest;

        /**
         * @param hash a call's hash ({@link CallDigest#hash()})
         * @return whether the call of that hash, made by every rank, is known to pass the rules
         */
        boolean passed(final long hash) {
            return null != passedDigest && passedHash == hash;
        }

        /**
         * Notes that the call of {@code hash}, made by every rank, passes the rules.
         *
         * @param hash   its hash
         * @param digest its digest
         */
        void pass(final long hash, final CallDigest digest) {
            passedHash = hash;
            passedDigest = digest;
        }

        /**
         * Notes that a call completed.
         *
         * @param digest its digest, or null if it was never made (a repeated blocking call that passed: the digest
         *               of the hash that passed describes it)
         * @param seq    its number
         */
        void finished(final CallDigest digest, final long seq) {
            last = digest;
            lastSeq = seq;
        }

        /**
         * @param seq a call's number
         * @return the digest of the call that last passed, under that number and without a call site, or null
         */
        CallDigest lastDigest(final long seq) {
            final CallDigest d = passedDigest;
            return null == d ? null : d.withSeq(seq);
        }

        /** @return the last call that completed, for the answers to peers' questions, or null */
        CallDigest last() {
            final CallDigest d = last;
            final long seq = lastSeq;
            return null != d && d.seq() == seq ? d : lastDigest(seq);
        }
    }
}
