package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollGate;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;

/**
 * One checked collective call on one rank: its digest sent to every other rank of the group, theirs received, and
 * the verdict of {@link DigestRules} once all are in. A request: a blocking call waits for it in the checker's
 * {@code before}; a nonblocking or tagged call's run waits for it as its gate ({@link CollGate}), so the call's
 * initiation stays local and its data moves only after the verdict.
 *
 * <p>Implementation notes. All-to-all: every rank sends its digest to each of the {@code n - 1} others on the
 * communicator's checker context and receives theirs, so each rank holds every digest and reaches the same verdict
 * with no second round (a mismatch is reported on every rank at once, naming every rank's call). Cost per call and
 * rank: {@code n - 1} small messages each way (about 60 bytes plus the call site), one hop of latency, a stack walk
 * and {@code n} decodings; fine for the groups of a node, quadratic in messages for large ones, where gathering the
 * digests at rank 0 and broadcasting its verdict (two hops, {@code 2(n - 1)} messages in all) would be the better
 * trade. The messages are keyed by the call's number on the communicator (ordinary calls, which MPI orders) or by
 * the tagged call's (kind, tag, use), so calls that do not match still meet and are compared, and never wait on
 * each other.
 *
 * <p>A peer that never sends its digest: if it left the job or failed, the wait fails at once naming it; if it waits
 * in another checked collective for longer than the threshold, which this rank learns by asking it
 * ({@link Checker#ask}), the wait fails naming what it waits in (a deadlock between collectives, or calls in another
 * order); if it computes or waits in point-to-point, this rank keeps waiting.
 */
final class DigestExchange extends AbstractRequest implements CollGate {
    private final Checker checker;
    private final CollComm comm;
    private final int context;
    private final int tag;
    private final CallDigest mine;
    private final String commName;
    private final RecvRequest[] recvs;
    private final long startNs;
    private final CallDigest[] got;
    private final Inquiry inquiry;
    private volatile boolean forwarded;
    /** When a departed peer was first seen, or 0 (see {@link #departureSettled()}). */
    private long departureSeenNs;
    /** How long a departure must last before the call fails: 100 ms. */
    private static final long DEPARTURE_GRACE_NS = 100_000_000L;

    private DigestExchange(final Checker checker, final CollComm comm, final int context, final int tag,
        final CallDigest mine) {
        super(comm.engine());
        this.checker = checker;
        this.comm = comm;
        this.context = context;
        this.tag = tag;
        this.mine = mine;
        this.commName = Reports.commName(comm.describe());
        this.recvs = new RecvRequest[comm.size()];
        this.got = new CallDigest[comm.size()];
        this.startNs = System.nanoTime();
        this.inquiry = new Inquiry(checker, this);
    }

    /**
     * Sends this rank's digest to every peer and posts the receives of theirs.
     *
     * @param checker the rank's checker
     * @param comm    the communicator
     * @param context the checker context to use
     * @param tag     the call's key
     * @param mine    this rank's digest
     * @return the exchange, pending unless the group has one rank
     */
    static DigestExchange start(final Checker checker, final CollComm comm, final int context, final int tag,
        final CallDigest mine) {
        final DigestExchange x = new DigestExchange(checker, comm, context, tag, mine);
        final P2pEngine engine = comm.engine();
        final int me = comm.rank();
        x.got[me] = mine;
        for (int r = 0; r < comm.size(); r++) {
            if (r != me) {
                x.recvs[r] = engine.irecvAllocating(context, comm.world(r), tag, Datatype.BYTE, comm.view());
                x.recvs[r].wakeOnComplete(x);
            }
        }
        final MemorySegment bytes = MemorySegment.ofArray(mine.encode());
        for (int r = 0; r < comm.size(); r++) {
            if (r != me) {
                engine.isend(context, comm.world(r), tag, Datatype.BYTE, bytes);
            }
        }
        checker.pending().add(x);
        x.progressSelf();
        return x;
    }

    @Override
    protected int progressSelf() {
        if (isDone()) {
            return 0;
        }
        for (final RecvRequest r : recvs) {
            if (null != r && !r.isDone()) {
                return 0;
            }
        }
        TuttiException verdict;
        try {
            for (int r = 0; r < recvs.length; r++) {
                if (null != recvs[r]) {
                    recvs[r].waitFor(); // done: throws its failure, if any
                    got[r] = CallDigest.decode(recvs[r].receivedBytes(), commName, r);
                }
            }
            final DigestRules.Mismatch m = DigestRules.compare(got);
            verdict = null == m ? null : Reports.mismatch(commName, got, m);
        } catch (final TuttiException e) {
            verdict = e;
        }
        finish(verdict);
        return 1;
    }

    private void finish(final TuttiException verdict) {
        if (complete(null == verdict ? dev.tutti.Status.EMPTY : null, verdict)) {
            if (verdict instanceof dev.tutti.CollectiveMismatchException) {
                checker.found("collective-mismatch", verdict.getMessage());
            }
            checker.pending().remove(this);
            checker.record(comm, mine);
            inquiry.close();
        }
    }

    @Override
    protected TuttiException blockingFailure() {
        for (int r = 0; r < recvs.length; r++) {
            if (null != recvs[r] && !recvs[r].isDone()) {
                final TuttiException f = recvs[r].blockedBy();
                if (f instanceof dev.tutti.DeadlockException d) {
                    return d; // the deadlock detector's verdict: the report names this call already
                }
                if (null != f && departureSettled()) {
                    final TuttiException told = inquiry.answered();
                    if (null != told) {
                        return told; // the peer said what it waited in before it left
                    }
                    return Reports.departed(commName, mine, Reports.rankLabel(got, comm.rank()), peerLabel(r),
                        f.getMessage());
                }
            }
        }
        return inquiry.verdict(waitedMs());
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

    @Override
    public void cancel() {
        // A collective's check cannot be cancelled (MPI: collectives cannot be).
    }

    @Override
    public String toString() {
        return "check(" + Reports.callLabel(mine) + " " + mine + " on '" + commName + "')";
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
        checker.pending().remove(this);
        inquiry.close();
    }

    @Override
    public boolean pass(final AbstractRequest run) {
        if (!forwarded) {
            forwarded = true;
            for (final RecvRequest r : recvs) {
                if (null != r) {
                    r.wakeOnComplete(run); // the run's waiter wakes when a digest arrives
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
        return mine.describe() + " on '" + commName + "' (" + Reports.callLabel(mine) + ") at " + mine.site()
            + ", waiting for world rank(s) " + java.util.Arrays.toString(missingWorldRanks());
    }

    /** @return how long this rank has waited for the digests (ms) */
    long waitedMs() {
        return (System.nanoTime() - startNs) / 1_000_000L;
    }

    /** @return the ranks whose digests have not arrived, as world ranks */
    int[] missingWorldRanks() {
        return java.util.stream.IntStream.range(0, recvs.length).filter(r -> null != recvs[r] && !recvs[r].isDone())
            .map(comm::world).toArray();
    }

    /** @return the context and tag of this call, as one key */
    long key() {
        return (long) context << Integer.SIZE | (tag & 0xFFFF_FFFFL);
    }

    /** @return this rank's digest */
    CallDigest mine() {
        return mine;
    }

    /** @return the communicator's name */
    String commName() {
        return commName;
    }

    /** @return the communicator */
    CollComm comm() {
        return comm;
    }

    /** @return how a message names group rank {@code r} (with its world rank where they differ) */
    String peerLabel(final int r) {
        final String label = mine.isInter() ? "union rank " + r : "rank " + r;
        return comm.world(r) == r ? label : label + " (world rank " + comm.world(r) + ")";
    }

    /** @return the label of this rank */
    String myLabel() {
        return Reports.rankLabel(got, comm.rank());
    }

    /** @return this pending call as a peer's answer lists it ({@link PeerState}) */
    PeerState.Pending asPending() {
        return new PeerState.Pending(key(), waitedMs(), describePending(), missingWorldRanks());
    }

    /**
     * Describes this pending call for a peer's report, e.g. {@code call #2 barrier() on 'SUB' at Solver.java:9,
     * waiting 1200 ms for world ranks [0]}.
     *
     * @return the description
     */
    String describePending() {
        return Reports.callLabel(mine) + " " + mine + " on '" + commName + "', waiting " + waitedMs()
            + " ms for world rank(s) " + java.util.Arrays.toString(missingWorldRanks());
    }
}
