package dev.tutti.comm;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;

import java.lang.foreign.MemorySegment;

/**
 * The agreement on a context-id block among the ranks of a collective communicator: a request that completes
 * with {@link #block()} once every member has claimed the same block (see {@link ContextIdAllocator}).
 *
 * <p>Implementation notes. One attempt is a recursive-doubling allreduce (bitwise and) of the members'
 * proposals, {@link ContextIdAllocator#PROPOSAL_WORDS} longs (264 bytes), run as a nonblocking schedule; its
 * last local step claims the lowest common block or decides to retry (the same decision at every member, since
 * the result is the same). Every attempt of one agreement runs under one tag (reserved from the communicator's
 * collective sequence by the caller, or a user tag on a management context), one after the other, so messages of
 * successive attempts between two ranks match in order, and the agreement as a whole takes exactly one slot in
 * the communicator's collective call order: a nonblocking {@code idup} is ordered where it was started, however
 * late its retries run. Retries start from the rank's progress loop, never nested inside the schedule that
 * decided them. {@code current} and {@code block} are written by the thread that runs the deciding step and read
 * after completion (the release/acquire of {@link AbstractRequest}'s state).
 */
public final class Agreement extends AbstractRequest {
    private final ContextIdAllocator allocator;
    private final CollComm comm;
    private final int tag;
    private final long key;
    private final String op;
    private final boolean member;
    private volatile int block = ContextIdAllocator.RETRY;
    private int attempts;

    private Agreement(final ContextIdAllocator allocator, final CollComm comm, final int tag, final String op,
        final boolean member) {
        super(comm.engine());
        this.member = member;
        this.allocator = allocator;
        this.comm = comm;
        this.tag = tag;
        this.key = ContextIdAllocator.key(comm.context(), tag);
        this.op = op;
    }

    /**
     * Starts an agreement among the ranks of {@code comm}; every rank must start it with the same tag.
     *
     * @param allocator this rank's context ids
     * @param comm      the ranks that agree, and the context their messages use
     * @param tag       the tag of the agreement's messages (see the class notes)
     * @param op        the creating operation, for messages (e.g. {@code dup})
     * @param member    whether this rank will be a member of the new communicator (see
     *                  {@link ContextIdAllocator#propose})
     * @return the started agreement
     */
    public static Agreement start(final ContextIdAllocator allocator, final CollComm comm, final int tag,
        final String op, final boolean member) {
        final Agreement a = new Agreement(allocator, comm, tag, op, member);
        a.attempt();
        return a;
    }

    /**
     * Runs an agreement to the end.
     *
     * @param allocator this rank's context ids
     * @param comm      the ranks that agree
     * @param tag       the tag
     * @param op        the creating operation
     * @param member    whether this rank will be a member of the new communicator
     * @return the agreed block
     * @throws TuttiException if no block is free at every member, or a member failed
     */
    public static int run(final ContextIdAllocator allocator, final CollComm comm, final int tag, final String op,
        final boolean member) {
        final Agreement a = start(allocator, comm, tag, op, member);
        a.waitFor();
        return a.block();
    }

    /** @return the agreed block; valid once the request completed successfully */
    public int block() {
        return block;
    }

    /** @return how many attempts the agreement took (1 unless creations on this rank contended) */
    public int attempts() {
        return attempts;
    }

    private void attempt() {
        attempts++;
        try {
            final long[] mine = new long[ContextIdAllocator.PROPOSAL_WORDS];
            final long[] common = new long[ContextIdAllocator.PROPOSAL_WORDS];
            allocator.propose(key, mine, member);
            CollDoor.internal(AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING, comm, CollArgs.of(op,
                MemorySegment.ofArray(mine), MemorySegment.ofArray(common), Datatype.LONG, mine.length, -1,
                Op.BAND), tag, () -> decide(common));
        } catch (final TuttiException e) {
            allocator.abandon(key);
            complete(null, e);
        }
    }

    private void decide(final long[] common) {
        final int b;
        try {
            b = allocator.claim(key, common, op + " (" + comm.describe() + ")", member);
        } catch (final TuttiException e) {
            complete(null, e);
            throw e;
        }
        if (ContextIdAllocator.RETRY == b) {
            allocator.scheduleRetry(this::attempt);
        } else {
            block = b;
            complete(Status.EMPTY, null);
        }
    }

    @Override
    protected TuttiException blockingFailure() {
        final TuttiException f = engine.failureAffecting(P2pEngine.ANY);
        return null == f ? null : Failures.wrap(f, op, comm.describe(), "cannot agree on a context id");
    }

    @Override
    protected void onBlockingFailure() {
        allocator.abandon(key);
    }

    @Override
    public void cancel() {
        // Communicator creation cannot be cancelled (MPI).
    }

    @Override
    public String toString() {
        return op + "-agreement(" + comm.describe() + ", attempts=" + attempts + ")";
    }
}
