package dev.tutti.coll.slot;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The slots of direct memory between this rank and one peer for one shape of persistent collective: every
 * persistent request of a communicator whose messages with that peer have this shape (the call's kind and roots, the
 * sizes of its messages to the peer and from it, in schedule order) moves them through this lane's slots
 * ({@link SlotPart}), once the two ranks have agreed on it. Direct memory ({@link DirectMemory}) is the shm
 * transport's shared arena between processes, the heap between ranks that are threads of one JVM.
 *
 * <p>Why per peer and shape, not per request: what pairs a start on one rank with a start on another is the
 * communicator's call order, not the request object (an alltoall channel starts whichever of its requests holds the
 * buffers at hand, and the ranks' choices differ). In a correct program the k-th start that exchanges messages of
 * this shape with the peer is, on both ranks, the same collective call; so runs are numbered per lane
 * ({@link #nextRun()}), and both ranks see the same numbers whichever requests they start.
 *
 * <p>Agreement: the lane's first run (number 1) sends the peer one message ({@link #agreementTag}): {@code [offer,
 * sends, receives, block name, block bytes, send sizes..., receive sizes..., slot offsets in the block...]} (the block
 * holds this rank's slots for the peer's messages), and receives the peer's. The lane goes direct when both offered
 * (every message at most the direct limit, and room for the slots); sizes that disagree fail the run on both ranks as a
 * count mismatch, before a byte is written into a slot (a sender writes into a slot its receiver sized). Runs of other
 * requests that reach the lane before it is agreed wait. State changes under the lane's lock; {@code state} is volatile
 * so that runs read it without the lock once agreed.
 *
 * <p>Lifetime: the lane lives as long as its communicator on this rank, so that both ranks keep it equally long
 * (which keeps their run numbers in step). Its slots are given back when the communicator is freed ({@link #close()})
 * if no request that uses it is active then: a peer writes into them only during a run this rank takes part in, so
 * once every such run here has completed, nothing writes them any more; otherwise they stay until the job ends.
 * Cost: one block of {@link SlotPart#slotBytes} per incoming message of the shape.
 */
final class SlotLane {
    private static final int NEW = 0;
    private static final int POSTED = 1;
    private static final int AGREED = 2;
    /** Longs before the sizes in an agreement message: offer, sends, receives, block name, block bytes. */
    private static final int HEAD = 5;

    /** A lane's identity on this rank: the peer (group rank) and the shape. */
    record Key(int peer, int header, long[] sends, long[] recvs) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof Key k && peer == k.peer && header == k.header && Arrays.equals(sends, k.sends)
                && Arrays.equals(recvs, k.recvs);
        }

        @Override
        public int hashCode() {
            return (31 * (31 * peer + header) + Arrays.hashCode(sends)) * 31 + Arrays.hashCode(recvs);
        }

        @Override
        public String toString() {
            return "peer " + peer + ": " + sends.length + " out " + Arrays.toString(sends) + ", " + recvs.length
                + " in " + Arrays.toString(recvs);
        }
    }

    private final Key key;
    private final P2pEngine engine;
    private final int context;
    private final CommView view;
    private final int peerWorld;
    private final DirectMemory memory;
    private final long limit;
    /** Runs started on this lane so far: the owner threads' (starts on a communicator are ordered by MPI). */
    private long runs;
    private volatile int state = NEW;
    private TuttiException failure;
    private boolean direct;
    private MemorySegment block;
    private MemorySegment[] recvSlots;
    private MemorySegment[] sendSlots;
    /** The last acknowledgement read per send slot ({@link SlotPart}): shared by the lane's requests. */
    private long[] credits;
    private long[] out;
    private long[] in;
    private RecvRequest inReq;
    private AbstractRequest outReq;
    /** The requests using the lane: each tells whether it is idle (inactive or freed), for {@link #close()}. */
    private final List<BooleanSupplier> users = new ArrayList<>();
    private boolean closed;

    /**
     * @param key       the peer (group rank) and the shape
     * @param engine    the engine of this rank
     * @param context   the communicator's collective context, on which the agreement travels
     * @param view      the communicator, for messages
     * @param peerWorld the peer's world rank
     * @param memory    the direct memory this rank shares with the peer
     * @param limit     the largest message the lane may take through a slot (0: it declines slots)
     */
    SlotLane(final Key key, final P2pEngine engine, final int context, final CommView view, final int peerWorld,
        final DirectMemory memory, final long limit) {
        this.key = key;
        this.engine = engine;
        this.context = context;
        this.view = view;
        this.peerWorld = peerWorld;
        this.memory = memory;
        this.limit = limit;
    }

    /** Registers a request that uses the lane; {@code idle} tells whether it has no run in flight. */
    synchronized void addUser(final BooleanSupplier idle) {
        users.add(idle);
    }

    /** Forgets a request that was freed. */
    synchronized void removeUser(final BooleanSupplier idle) {
        users.removeIf(u -> u == idle);
    }

    /**
     * Gives the slots back to the arena, its communicator being freed, unless a request using the lane is still
     * active (then they stay, see the class note). Later agreements decline.
     */
    synchronized void close() {
        closed = true;
        for (final BooleanSupplier u : users) {
            if (!u.getAsBoolean()) {
                return;
            }
        }
        if (null != block) {
            memory.freeDirect(block);
            block = null;
            recvSlots = null;
        }
    }

    /** @return the next run's number on this lane, from 1 (called once per start of a request using it) */
    long nextRun() {
        return ++runs;
    }

    /** @return whether the lane is agreed and goes direct (read by runs that found it agreed) */
    boolean direct() {
        return direct;
    }

    /** @return the slot of this rank for the peer's j-th message (agreed, direct lanes only) */
    MemorySegment recvSlot(final int j) {
        return recvSlots[j];
    }

    /** @return the peer's slot for this rank's j-th message (agreed, direct lanes only) */
    MemorySegment sendSlot(final int j) {
        return sendSlots[j];
    }

    /**
     * Returns why the agreement can never complete (the peer left or failed before sending its message), or null.
     *
     * @return the failure, or null
     */
    synchronized TuttiException blockedBy() {
        return POSTED == state && null != inReq ? inReq.blockedBy() : null;
    }

    /** @return the last acknowledgement read per send slot (agreed, direct lanes only) */
    long[] credits() {
        return credits;
    }

    /** @return the peer's world rank */
    int peerWorld() {
        return peerWorld;
    }

    /**
     * Agrees the lane with the peer, or tells whether it is agreed: the run numbered 1 posts the messages, and any
     * run checks them; runs of other numbers wait for the first one's.
     *
     * @param owner the asking run (woken by the messages, if it posted them)
     * @param tag   its tag
     * @param run   its number on this lane
     * @param op    the operation, for messages
     * @return true once agreed
     * @throws TuttiException if the peer's shape disagrees with this rank's, or a message failed
     */
    boolean agree(final AbstractRequest owner, final int tag, final long run, final String op) {
        if (AGREED == state) {
            return true;
        }
        synchronized (this) {
            if (null != failure) {
                throw failure;
            }
            if (AGREED == state) {
                return true;
            }
            if (NEW == state) {
                if (1 != run) {
                    return false;
                }
                post(owner, tag);
                state = POSTED;
            }
            if (!inReq.isDone() || !outReq.isDone()) {
                return false;
            }
            try {
                decide(op);
            } catch (final TuttiException e) {
                failure = e;
                throw e;
            }
            state = AGREED;
            return true;
        }
    }

    /**
     * The tag of the agreement messages of a run: its own with bit 30 flipped, which no run in flight uses (that
     * would take 2^30 calls outstanding at once). Never the run's own: a peer that makes no plan for the call (its
     * {@code tutti.coll.directLimit} is 0) must not take the agreement as the call's data; it leaves it unreceived,
     * and this rank finds the peer's data on the run's tag instead ({@link #stalledBy}).
     */
    static int agreementTag(final int tag) {
        return tag ^ 1 << 30;
    }

    /**
     * Tells, for a run waiting for this lane's agreement, whether the peer sent the call's data through the message
     * layer instead: it makes no plan for the call, and never will agree.
     *
     * @param tag the run's tag
     * @return true if such a message waits
     */
    boolean stalledBy(final int tag) {
        return POSTED == state && null != engine.iprobe(context, peerWorld, tag, view);
    }

    private void post(final AbstractRequest owner, final int tag) {
        boolean offer = true;
        long total = 0;
        for (final long s : key.sends) {
            offer &= s <= limit;
        }
        for (final long s : key.recvs) {
            offer &= s <= limit;
            total += SlotPart.slotBytes(s);
        }
        offer &= !closed;
        block = offer && total > 0 ? memory.tryAllocateSlots(total) : null;
        offer &= total == 0 || null != block;
        final int ns = key.sends.length;
        final int nr = key.recvs.length;
        out = new long[HEAD + ns + 2 * nr];
        out[0] = offer ? 1 : 0;
        out[1] = ns;
        out[2] = nr;
        out[3] = null == block ? 0 : memory.nameDirect(block);
        out[4] = total;
        System.arraycopy(key.sends, 0, out, HEAD, ns);
        System.arraycopy(key.recvs, 0, out, HEAD + ns, nr);
        long at = 0;
        for (int j = 0; j < nr; j++) { // each slot's offset in the block
            out[HEAD + ns + nr + j] = at;
            at += SlotPart.slotBytes(key.recvs[j]);
        }
        // The peer's message: its sends are this rank's receives and the other way round. One long more, so that
        // a longer message shows as a wrong length rather than a truncation.
        in = new long[HEAD + nr + 2 * ns + 1];
        final int code = key.header | Datatype.LONG.ordinal();
        final int agreeTag = agreementTag(tag);
        inReq = engine.irecvCoded(null, context, peerWorld, agreeTag, code, MemorySegment.ofArray(in), view);
        inReq.wakeOnComplete(owner);
        outReq = engine.isendCoded(null, context, peerWorld, agreeTag, code, MemorySegment.ofArray(out));
        outReq.wakeOnComplete(owner);
    }

    private void decide(final String op) {
        try {
            outReq.waitFor();
            inReq.waitFor();
        } catch (final TuttiException e) {
            if (ErrorClass.TRUNCATE != e.errorClass()) {
                throw Failures.wrap(e, op, view.describe(), "agreeing with rank=" + key.peer + " failed");
            }
            throw shapes(op, "more messages");
        }
        final int ns = key.sends.length;
        final int nr = key.recvs.length;
        final long got = inReq.matchedLength() / Long.BYTES;
        if (got != in.length - 1 || in[1] != nr || in[2] != ns) {
            throw shapes(op, got < HEAD ? "no messages" : in[1] + " message(s) to this rank and " + in[2]
                + " from it");
        }
        // Both directions: a sender writes into a slot its receiver sized, so each side checks the other's sizes.
        for (int j = 0; j < nr; j++) {
            if (in[HEAD + j] != key.recvs[j]) {
                throw count(op, "sent", in[HEAD + j], "expected", key.recvs[j]);
            }
        }
        for (int j = 0; j < ns; j++) {
            if (in[HEAD + nr + j] != key.sends[j]) {
                throw count(op, "expects", in[HEAD + nr + j], "sends", key.sends[j]);
            }
        }
        direct = 1 == in[0] && 1 == out[0];
        if (direct) {
            recvSlots = new MemorySegment[nr];
            for (int j = 0; j < nr; j++) {
                recvSlots[j] = block.asSlice(out[HEAD + ns + nr + j], SlotPart.slotBytes(key.recvs[j]));
            }
            sendSlots = new MemorySegment[ns];
            credits = new long[ns];
            final MemorySegment theirs = 0 == ns ? null : memory.resolveDirect(peerWorld, in[3], in[4]);
            for (int j = 0; j < ns; j++) {
                sendSlots[j] = theirs.asSlice(in[HEAD + nr + ns + j], SlotPart.slotBytes(key.sends[j]));
            }
        } else if (null != block) {
            memory.freeDirect(block);
            block = null;
        }
        out = null;
        in = null;
        inReq = null;
        outReq = null;
    }

    private TuttiException shapes(final String op, final String theirs) {
        return Errors.mismatch(ErrorClass.COUNT, op, view.describe(), key.peer, theirs, "has " + key.sends.length
            + " message(s) to it and " + key.recvs.length + " from it", "the ranks passed different counts, types "
            + "or roots");
    }

    private TuttiException count(final String op, final String theyDo, final long theirs, final String weDo,
        final long ours) {
        return Errors.invalid(ErrorClass.COUNT, op, view.describe(), "rank=" + key.peer + " " + theyDo + " bytes="
            + theirs + " but this rank " + weDo + " bytes=" + ours + ": the ranks passed different counts or types");
    }

    @Override
    public String toString() {
        return "SlotLane(" + key + ", " + (AGREED == state ? direct ? "direct" : "message layer" : "not agreed")
            + ", " + runs + " runs)";
    }
}
