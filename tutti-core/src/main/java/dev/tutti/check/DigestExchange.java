package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollGate;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SendRequest;

import java.lang.foreign.MemorySegment;

/**
 * One checked collective call on one rank: what it says about the call sent to every other rank of the group,
 * theirs received, and the verdict of {@link DigestRules} once all are in. A request: a blocking call waits for it
 * in the checker's {@code before}; a nonblocking or tagged call's run waits for it as its gate ({@link CollGate}), so
 * the call's initiation stays local and its data moves only after the verdict.
 *
 * <p>Two phases. An ordinary (untagged) call first sends only a 64-bit hash of its digest ({@link CallDigest#hash()},
 * everything but the call's number, rank and call site) and receives its peers' hashes into one {@code long[]}. If
 * every hash equals this rank's, every rank's digest equals this rank's up to its rank, so this rank judges the call
 * alone: the rules applied to {@code n} copies of its own digest, a verdict cached per communicator for the last
 * hash that passed (a loop of the same call checks nothing after its first). Every rank holds every hash, so all
 * reach the same decision: pass, or go to the second phase, where every rank sends its full digest with its call
 * site (the v-forms, whose counts differ per rank, and every mismatch) and the verdict comes from all of them, with
 * the report naming each rank's call. A tagged call has only the second phase. The call site of a blocking call is
 * found only when something needs it (the second phase, a report, a peer's question): the calling thread waits in
 * the call, so its stack still holds it ({@link #mine()}); a nonblocking call's is captured when it starts.
 *
 * <p>The fast path: a regular blocking intracommunicator call (no v-form) runs on its communicator's
 * {@link #reusable} exchange, {@link #restart}ed per call: its hash is computed from the call
 * ({@link CallDigest#hashOf}), its digest made only if something needs it (a hash not passed before, the second
 * phase, a report, a peer's question), and its receives, sends and buffers are the exchange's, so a repeated checked
 * call allocates nothing. Its first phase also does the call's work where it can. A barrier: once this rank holds
 * every peer's hash of this call, every peer has entered it, which is all a barrier promises, so the barrier's own
 * schedule does not run. A small allreduce, allgather, alltoall or bcast: the hashes carry the data
 * ({@link SmallDataWithDigest}), delivered into the user's memory only when every hash equals this rank's, so wrong
 * data never reaches it. A larger alltoall or allreduce (up to {@link LargeDataWithDigest}'s limits): its first
 * messages go out with the hashes into the exchange's slots and the checker moves the rest of its data once the hashes
 * agree ({@link LargeDataWithDigest}), so it pays no round for the check. The decisions are the same on every rank,
 * since they depend only on what the hash covers, the group's size and the hashes, which every rank holds. (The
 * alternative, a hash stamped on the schedule's own first messages, would need every algorithm to hear from every rank
 * in its first round, which the logarithmic ones do not: a rank of a binomial bcast would learn of a mismatch only
 * after wrong data had reached it.)
 *
 * <p>Implementation notes. All-to-all: every rank sends to each of the {@code n - 1} others on the communicator's
 * checker context and receives theirs, one hop of latency; fine for the groups of a node, quadratic in messages for
 * large ones, where recursive doubling of the hashes' minimum and maximum ({@code log n} hops) would be the better
 * trade. The messages are keyed by the call's number on the communicator (the first phase under the number's low 30
 * bits, the second under {@link #FULL} and its low 29), or by the tagged call's (kind, tag, use), so calls that do
 * not match still meet and are compared, and never wait on each other. The phase change and the verdict happen in
 * {@link #progressSelf()}, under this object's lock (the calling thread and a run's waiter may both progress it).
 *
 * <p>A peer that never sends its part: if it left the job or failed, the wait fails at once naming it; if it waits
 * in another checked collective for longer than the threshold, which this rank learns by asking it
 * ({@link Checker#ask}), the wait fails naming what it waits in (a deadlock between collectives, or calls in another
 * order); if it computes or waits in point-to-point, this rank keeps waiting.
 */
final class DigestExchange extends AbstractRequest implements CollGate {
    /** Tag bit of the second phase of an ordinary call. */
    static final int FULL = 0x4000_0000;
    private static final int FULL_SEQ_MASK = 0x1FFF_FFFF;
    private final Checker checker;
    private final Checker.CommState state;
    private final CollComm comm;
    private final int context;
    private int tag;
    private Thread caller;
    private long hash;
    private long startNs;
    /**
     * This rank's digest, or null while only its call knows it (a blocking call's, made when first needed:
     * {@link #mine()}); its call site is filled in when first needed.
     */
    private volatile CallDigest mine;
    /** The blocking call whose digest {@link #mine} is made from when needed, or null. */
    private volatile CollCall call;
    private long seq;
    /** The receives of the current phase, by group rank (null at this rank). */
    private volatile RecvRequest[] recvs;
    /** The peers' hashes (first phase), by group rank. */
    private long[] hashes;
    private CallDigest[] got;
    private LatePeerInquiry inquiry; // guarded by this
    /** Whom the receives wake: this request, or the run that holds it as its gate. */
    private volatile AbstractRequest wakes;
    /** When a departed peer was first seen, or 0 (see {@link #departureSettled()}). */
    private long departureSeenNs;
    /** How long a departure must last before the call fails: 100 ms. */
    private static final long DEPARTURE_GRACE_NS = 100_000_000L;
    /** The first phase's messages, kept for the next call (a reusable exchange, {@link #reusable}), or null. */
    private final Round round;
    /** Whether this exchange is in {@link Checker#pending()} (a reusable one is found through its communicator). */
    private final boolean listed;
    /** The bytes of data this rank's first-phase messages carry ({@link SmallDataWithDigest}), or -1. */
    private int carried = -1;
    /** Whether every rank's first-phase hash was this rank's (the verdict came from the first phase). */
    private boolean allSame;
    /** Whether the first-phase receives are allocating: a peer's message may carry data (general path). */
    private boolean allocating;
    /** Whether this call's data moves with the hashes through the round's {@link LargeDataWithDigest}. */
    private boolean spreading;

    private DigestExchange(final Checker checker, final Checker.CommState state, final CollComm comm,
        final int context, final boolean reusable) {
        super(comm.engine());
        this.checker = checker;
        this.state = state;
        this.comm = comm;
        this.context = context;
        this.wakes = this;
        this.round = reusable ? new Round(comm) : null;
        this.listed = !reusable;
        if (reusable) {
            for (final RecvRequest r : round.recvs) {
                if (null != r) {
                    r.wakeOnComplete(this); // for every call: a reusable receive keeps whom it wakes
                }
            }
        }
    }

    /**
     * Starts the exchange of a call: the first phase of an ordinary call, the second of a tagged one.
     *
     * @param checker the rank's checker
     * @param state   the checker's state of the communicator
     * @param comm    the communicator
     * @param context the checker context to use
     * @param tag     the call's key
     * @param mine    this rank's digest (its call site may be null: found when needed)
     * @return the exchange, started
     */
    static DigestExchange start(final Checker checker, final Checker.CommState state, final CollComm comm,
        final int context, final int tag, final CallDigest mine) {
        final DigestExchange x = new DigestExchange(checker, state, comm, context, false);
        x.tag = tag;
        x.mine = mine;
        x.seq = mine.seq();
        x.caller = Thread.currentThread();
        x.hash = mine.hash();
        x.startNs = System.nanoTime();
        checker.pending().add(x);
        synchronized (x) {
            if (CollCall.Variant.TAGGED == mine.variant()) {
                x.sendDigests(tag);
            } else {
                x.sendHashes();
            }
            x.progressSelf();
        }
        return x;
    }

    /**
     * Makes an exchange for the regular blocking calls of a communicator, which each {@link #restart} in turn: its
     * first phase's receives, sends and arrays are made once.
     *
     * @param checker the rank's checker
     * @param state   the checker's state of the communicator
     * @param comm    the communicator
     * @param context the checker context of its ordinary calls
     * @return the exchange, idle
     */
    static DigestExchange reusable(final Checker checker, final Checker.CommState state, final CollComm comm,
        final int context) {
        return new DigestExchange(checker, state, comm, context, true);
    }

    /**
     * Starts the exchange of a regular blocking call on a {@link #reusable} exchange, idle ({@link #idle()}): only
     * the hash, computed from the call without making its digest ({@link CallDigest#hashOf}), until something
     * needs the digest (a hash never passed before, the second phase, a report, a peer's question).
     *
     * @param key     the call's key
     * @param theCall the call: blocking, on an intracommunicator, without v-arguments
     * @param number  its number on the communicator
     */
    void restart(final int key, final CollCall theCall, final long number) {
        rearm();
        tag = key;
        call = theCall;
        seq = number;
        mine = null;
        got = null;
        inquiry = null;
        departureSeenNs = 0;
        allSame = false;
        caller = Thread.currentThread();
        hash = CallDigest.hashOf(theCall);
        carried = SmallDataWithDigest.bytes(theCall, comm.size());
        spreading = LargeDataWithDigest.applies(theCall, comm.size());
        startNs = System.nanoTime();
        synchronized (this) {
            sendHashes();
            progressSelf();
        }
    }

    /** @return whether this reusable exchange may {@link #restart}: its last call passed and its sends are done */
    boolean idle() {
        return isDone() && null == failureResult() && null == got && round.sent()
            && (null == round.spread || round.spread.idle());
    }

    /** @return whether this exchange is a call's that has not completed yet (for the answers to peers) */
    boolean active() {
        return null != caller && !isDone();
    }

    private void sendHashes() {
        final P2pEngine engine = comm.engine();
        final int me = comm.rank();
        final int n = comm.size();
        if (null != round) {
            hashes = round.hashes;
            hashes[me] = hash;
            final RecvRequest[] rs = round.recvs;
            for (int r = 0; r < n; r++) {
                if (r != me) {
                    engine.irecv(rs[r], context, comm.world(r), tag, Datatype.LONG, round.slots[r], comm.view());
                }
            }
            recvs = rs;
            final CollCall c = call;
            if (spreading) {
                round.spread(comm, context).post(c, seq);
            }
            for (int r = 0; r < n; r++) {
                if (r != me) {
                    round.outs[r][0] = hash;
                    int length = Long.BYTES;
                    if (carried >= 0 && SmallDataWithDigest.sends(c, me)) {
                        SmallDataWithDigest.write(c, carried, me, r, round.outSegments[r]);
                        length += SmallDataWithDigest.padded(carried);
                    }
                    engine.isend(round.sends[r], context, comm.world(r), tag, Datatype.LONG, round.outSlice(r, length));
                }
            }
            if (spreading) {
                round.spread.send(c, seq);
            }
            return;
        }
        hashes = new long[n];
        hashes[me] = hash;
        final RecvRequest[] rs = new RecvRequest[n];
        // A peer's regular blocking call may carry its data: receive whatever length comes (SmallDataWithDigest).
        allocating = SmallDataWithDigest.capacity(n) > 0;
        final MemorySegment into = MemorySegment.ofArray(hashes);
        for (int r = 0; r < n; r++) {
            if (r != me) {
                rs[r] = allocating ? engine.irecvAllocating(context, comm.world(r), tag, Datatype.LONG, comm.view())
                    : engine.irecv(context, comm.world(r), tag, Datatype.LONG, into.asSlice((long) r * Long.BYTES,
                        Long.BYTES), comm.view());
                rs[r].wakeOnComplete(wakes);
            }
        }
        recvs = rs;
        final MemorySegment bytes = MemorySegment.ofArray(new long[] {hash});
        for (int r = 0; r < n; r++) {
            if (r != me) {
                engine.isend(context, comm.world(r), tag, Datatype.LONG, bytes);
            }
        }
    }

    private void sendDigests(final int key) {
        final P2pEngine engine = comm.engine();
        final int me = comm.rank();
        final int n = comm.size();
        final CallDigest full = mine();
        got = new CallDigest[n];
        got[me] = full;
        final RecvRequest[] rs = new RecvRequest[n];
        for (int r = 0; r < n; r++) {
            if (r != me) {
                rs[r] = engine.irecvAllocating(context, comm.world(r), key, Datatype.BYTE, comm.view());
                rs[r].wakeOnComplete(wakes);
            }
        }
        recvs = rs;
        final MemorySegment bytes = MemorySegment.ofArray(full.encode());
        for (int r = 0; r < n; r++) {
            if (r != me) {
                engine.isend(context, comm.world(r), key, Datatype.BYTE, bytes);
            }
        }
    }

    @Override
    protected synchronized int progressSelf() {
        if (isDone()) {
            return 0;
        }
        final RecvRequest[] rs = recvs;
        for (final RecvRequest r : rs) {
            if (null != r && !r.isDone()) {
                return 0;
            }
        }
        TuttiException verdict;
        try {
            for (final RecvRequest r : rs) {
                if (null != r) {
                    r.waitFor(); // done: throws its failure, if any
                }
            }
            if (null == got) {
                readHashes(rs);
                if (agreed()) {
                    allSame = true;
                    finish(null);
                } else {
                    sendDigests(FULL | (int) (seq & FULL_SEQ_MASK)); // the second phase
                    progressSelf();
                }
                return 1;
            }
            for (int r = 0; r < rs.length; r++) {
                if (null != rs[r]) {
                    got[r] = CallDigest.decode(rs[r].receivedBytes(), commName(), r);
                }
            }
            final DigestRules.Mismatch m = DigestRules.compare(got);
            verdict = null == m ? null : Reports.mismatch(commName(), got, m);
        } catch (final TuttiException e) {
            verdict = e;
        }
        finish(verdict);
        return 1;
    }

    /** Fills in the peers' hashes where they were not received into {@link #hashes} itself. */
    private void readHashes(final RecvRequest[] rs) {
        for (int r = 0; r < rs.length; r++) {
            if (null != round && null != rs[r]) {
                hashes[r] = round.slotWords[r][0];
            } else if (allocating && null != rs[r]) {
                final byte[] b = rs[r].receivedBytes();
                hashes[r] = b.length < Long.BYTES ? ~hash : MemorySegment.ofArray(b).get(
                    java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0); // too short: not this call's message
            }
        }
    }

    /**
     * After a {@link #restart}ed call passed: if its data came with the hashes ({@link SmallDataWithDigest}), writes it
     * into the call's memory, or if its first messages went with them ({@link LargeDataWithDigest}), completes the
     * call's data movement; then the call is done.
     *
     * @param c the call (this exchange let go of it when it completed)
     * @return whether the call's data has been delivered (its schedule must not run)
     */
    boolean deliver(final CollCall c) {
        if (null == round) {
            return false;
        }
        if (!allSame) {
            abandon(); // the call runs its schedule
            return false;
        }
        if (spreading) {
            round.spread.finish(c);
            return true;
        }
        if (carried < 0) {
            return false;
        }
        SmallDataWithDigest.deliver(c, carried, comm.rank(), round.payloads, round.scratch);
        return true;
    }

    /**
     * Withdraws what a {@link LargeDataWithDigest} call posted, after its call failed or did not pass with every hash
     * equal.
     */
    void abandon() {
        if (spreading && null != round && null != round.spread) {
            round.spread.abandon();
        }
    }

    /** @return whether every peer's hash is this rank's and the call passes the rules as this rank made it */
    private boolean agreed() {
        for (final long h : hashes) {
            if (h != hash) {
                return false;
            }
        }
        if (state.passed(hash)) {
            return true;
        }
        final CallDigest d = digest();
        final CallDigest[] same = new CallDigest[comm.size()];
        java.util.Arrays.fill(same, d);
        if (null != DigestRules.compare(same)) {
            return false; // every rank finds the same: the second phase reports it, with every call site
        }
        state.pass(hash, d);
        return true;
    }

    private void finish(final TuttiException verdict) {
        if (complete(null == verdict ? dev.tutti.Status.EMPTY : null, verdict)) {
            if (verdict instanceof dev.tutti.CollectiveMismatchException) {
                checker.found("collective-mismatch", verdict.getMessage());
            }
            if (listed) {
                checker.pending().remove(this);
            }
            state.finished(mine, seq);
            call = null; // a blocking call's descriptor is its thread's, reused by its next call
            closeInquiry();
        }
    }

    @Override
    protected TuttiException blockingFailure() {
        final RecvRequest[] rs = recvs;
        for (int r = 0; r < rs.length; r++) {
            if (null != rs[r] && !rs[r].isDone()) {
                final TuttiException f = rs[r].blockedBy();
                if (f instanceof dev.tutti.DeadlockException d) {
                    return d; // the deadlock detector's verdict: the report names this call already
                }
                if (null != f && departureSettled()) {
                    final TuttiException told = inquiry().answered();
                    if (null != told) {
                        return told; // the peer said what it waited in before it left
                    }
                    return Reports.departed(commName(), mine(), myLabel(), peerLabel(r), f.getMessage());
                }
            }
        }
        final long waited = waitedMs();
        return waited < checker.thresholdMs() ? null : inquiry().verdict(waited);
    }

    /**
     * Whether a peer's departure has lasted {@link #DEPARTURE_GRACE_NS}: the digest it sent before it left may still
     * be on its way to the matcher when the departure is already known (as the engine's runs allow for too).
     */
    private synchronized boolean departureSettled() {
        final long now = System.nanoTime();
        if (0 == departureSeenNs) {
            departureSeenNs = now;
            return false;
        }
        return now - departureSeenNs > DEPARTURE_GRACE_NS;
    }

    /** @return the questions of this call to its peers, made when it has waited the threshold */
    private synchronized LatePeerInquiry inquiry() {
        if (null == inquiry) {
            inquiry = new LatePeerInquiry(checker, this);
        }
        return inquiry;
    }

    private synchronized void closeInquiry() {
        if (null != inquiry) {
            inquiry.close();
        }
    }

    @Override
    public void cancel() {
        // A collective's check cannot be cancelled (MPI: collectives cannot be).
    }

    @Override
    public String toString() {
        final CallDigest d = digest();
        return "check(" + Reports.callLabel(d) + " " + d.describe() + " on '" + commName() + "')";
    }

    @Override
    protected void onFailedByBlocking() {
        final TuttiException f = failureResult();
        if (f instanceof dev.tutti.CollectiveMismatchException) {
            checker.found("collective-mismatch", f.getMessage());
        }
        if (dev.tutti.ErrorClass.TIMEOUT == f.errorClass()) {
            checker.abandon(this); // its peers that wait for it learn why it never comes
        }
        if (listed) {
            checker.pending().remove(this);
        }
        digest(); // made while the call is still there: later descriptions of this failed call need it
        call = null;
        closeInquiry();
    }

    @Override
    public boolean pass(final AbstractRequest run) {
        if (wakes != run) {
            synchronized (this) {
                wakes = run;
                for (final RecvRequest r : recvs) {
                    if (null != r) {
                        r.wakeOnComplete(run); // the run's waiter wakes when a peer's part arrives
                    }
                }
            }
        }
        progressSelf();
        if (!isDone()) {
            final TuttiException blocked = blockingFailure();
            if (null == blocked) {
                return false;
            }
            if (complete(null, blocked)) {
                onFailedByBlocking();
            }
        }
        final TuttiException f = failureResult();
        if (null != f) {
            throw f;
        }
        return true;
    }

    @Override
    public int[] waitsOn() {
        return missingWorldRanks();
    }

    @Override
    public String describeWait() {
        final CallDigest d = mine();
        return d.describe() + " on '" + commName() + "' (" + Reports.callLabel(d) + ") at " + d.site()
            + ", waiting for world rank(s) " + java.util.Arrays.toString(missingWorldRanks());
    }

    /** @return how long this rank has waited for the digests (ms) */
    long waitedMs() {
        return (System.nanoTime() - startNs) / 1_000_000L;
    }

    /** @return the ranks whose digests have not arrived, as world ranks */
    int[] missingWorldRanks() {
        final RecvRequest[] rs = recvs;
        return java.util.stream.IntStream.range(0, rs.length).filter(r -> null != rs[r] && !rs[r].isDone())
            .map(comm::world).toArray();
    }

    /** @return the context and tag of this call, as one key */
    long key() {
        return (long) context << Integer.SIZE | (tag & 0xFFFF_FFFFL);
    }

    /**
     * Returns this rank's digest with its call site, finding the site of a blocking call now if it is not known yet:
     * the calling thread waits in this call, so its stack holds the user's frame ({@link CallSite#of} reads it from
     * another thread).
     *
     * @return the digest
     */
    CallDigest mine() {
        CallDigest d = digest();
        if (null == d.site()) {
            final String site = Thread.currentThread() == caller ? CallSite.capture()
                : CallSite.of(caller.getStackTrace());
            d = d.withSite(site);
            mine = d;
        }
        return d;
    }

    /**
     * Returns this rank's digest, making it from the blocking call if it is not made yet (the call's descriptor is
     * intact while the call waits here; read from another thread just as the call completes, it may already hold
     * the thread's next call, which only a report's text would show).
     *
     * @return the digest, its site possibly unknown
     */
    private CallDigest digest() {
        CallDigest d = mine;
        if (null == d) {
            synchronized (this) {
                d = mine;
                final CollCall c = call;
                if (null == d && null != c) {
                    d = CallDigest.of(c, seq, null);
                    mine = d;
                } else if (null == d) {
                    d = state.lastDigest(seq); // completed and let go of its call
                }
            }
        }
        return d;
    }

    /** @return the communicator's name */
    String commName() {
        return Reports.commName(comm.describe());
    }

    /** @return the communicator */
    CollComm comm() {
        return comm;
    }

    /** @return how a message names group rank {@code r} (with its world rank where they differ) */
    String peerLabel(final int r) {
        final String label = digest().isInter() ? "union rank " + r : "rank " + r;
        return comm.world(r) == r ? label : label + " (world rank " + comm.world(r) + ")";
    }

    /** @return the label of this rank */
    String myLabel() {
        final CallDigest d = digest();
        return d.isInter() ? "group " + d.side() + " rank " + d.localRank() : "rank " + comm.rank();
    }

    /** @return this pending call as a peer's answer lists it ({@link PeerState}) */
    PeerState.Pending asPending() {
        return new PeerState.Pending(key(), waitedMs(), describePending(), commName(), missingWorldRanks());
    }

    /**
     * Describes this pending call for a peer's report, e.g. {@code call #2 barrier() on 'SUB' at Solver.java:9,
     * waiting 1200 ms for world ranks [0]}.
     *
     * @return the description
     */
    String describePending() {
        final CallDigest d = mine();
        return Reports.callLabel(d) + " " + d + " on '" + commName() + "', waiting " + waitedMs()
            + " ms for world rank(s) " + java.util.Arrays.toString(missingWorldRanks());
    }

    /**
     * The first phase's messages of a {@link #reusable} exchange: made once per communicator, reused per call. Each
     * peer has its receive slot and its out buffer, the hash in word 0 and room for a {@link SmallDataWithDigest}
     * payload after it.
     */
    private static final class Round {
        final long[] hashes;
        final long[][] slotWords;
        final MemorySegment[] slots;
        final MemorySegment[] payloads;
        final RecvRequest[] recvs;
        final SendRequest[] sends;
        final long[][] outs;
        final MemorySegment[] outSegments;
        /** Per peer, the out buffer's first {@code outLengths[r]} bytes, as last sent. */
        final MemorySegment[] outSlices;
        final int[] outLengths;
        final MemorySegment scratch;
        /** The data of larger alltoall and allreduce calls, made when first needed, or null. */
        LargeDataWithDigest spread;

        Round(final CollComm comm) {
            final int n = comm.size();
            final P2pEngine engine = comm.engine();
            final int words = 1 + SmallDataWithDigest.capacity(n) / Long.BYTES;
            hashes = new long[n];
            slotWords = new long[n][];
            slots = new MemorySegment[n];
            payloads = new MemorySegment[n];
            recvs = new RecvRequest[n];
            sends = new SendRequest[n];
            outs = new long[n][];
            outSegments = new MemorySegment[n];
            outSlices = new MemorySegment[n];
            outLengths = new int[n];
            scratch = MemorySegment.ofArray(new long[words - 1]);
            for (int r = 0; r < n; r++) {
                if (r != comm.rank()) {
                    slotWords[r] = new long[words];
                    slots[r] = MemorySegment.ofArray(slotWords[r]);
                    payloads[r] = slots[r].asSlice(Long.BYTES);
                    recvs[r] = engine.reusableRecv();
                    sends[r] = engine.reusableSend();
                    outs[r] = new long[words];
                    outSegments[r] = MemorySegment.ofArray(outs[r]);
                }
            }
        }

        /** @return the round's {@link LargeDataWithDigest}, made on first use */
        LargeDataWithDigest spread(final CollComm comm, final int context) {
            if (null == spread) {
                spread = new LargeDataWithDigest(comm, context);
            }
            return spread;
        }

        /** @return the first {@code length} bytes of peer {@code r}'s out buffer (the same view as last time if it can) */
        MemorySegment outSlice(final int r, final int length) {
            if (outLengths[r] != length) {
                outSlices[r] = outSegments[r].asSlice(0, length);
                outLengths[r] = length;
            }
            return outSlices[r];
        }

        /** @return whether every send of the last call is done and succeeded (its payload may be rewritten) */
        boolean sent() {
            for (final SendRequest s : sends) {
                if (null != s) {
                    if (!s.isDone()) {
                        return false;
                    }
                    try {
                        s.test(); // done: throws its failure, if any
                    } catch (final TuttiException e) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
