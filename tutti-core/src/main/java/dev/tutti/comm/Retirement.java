package dev.tutti.comm;

import dev.tutti.Datatype;
import dev.tutti.coll.CollHooks;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One freed communicator's block on its way back to this rank's pool (see {@link ContextIdAllocator}): the FIN
 * exchange of its members and the question whether every FIN has arrived.
 *
 * <p>Implementation notes. A FIN is an empty message on the block's {@link ContextIdAllocator#RETIRE} context,
 * tag 0, that every member sends to every member (itself included) when it frees the communicator; transports
 * deliver one sender's messages to one destination in order, so a member's FIN arrives after everything that
 * member sent on the block before freeing. This rank posts a receive for each member's FIN at its own free (a FIN
 * that came earlier waits in the unexpected queue). A FIN receive from a member that failed or left counts as
 * arrived (that member sends nothing more) and is cancelled, so that it holds no context of the block. A member's
 * FINs wait ({@link #awaitingRuns()}) while a nonblocking, tagged or persistent collective of its own on the block
 * is still running, since its later rounds send after the free; the allocator sends them ({@link #sendFins}) once
 * those runs are done, so the rule above (a FIN comes after everything its sender sent on the block) holds. A drain
 * refused because a receive on the block is still posted is tried again after 1, 2, 4, ... 1024 reaps. Not
 * thread-safe: the allocator calls it under its lock.
 */
final class Retirement {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);
    private static final int MAX_BACKOFF = 1024;

    private final int block;
    private final int[] members;
    private final RecvRequest[] fins;
    private int backoff;
    private int skip;
    /** Whether the FINs are still to be sent: set at creation, cleared by the one caller that sends them. */
    private boolean awaitingRuns = true;

    private Retirement(final int block, final int[] members, final RecvRequest[] fins) {
        this.block = block;
        this.members = members;
        this.fins = fins;
    }

    /**
     * Posts this rank's FIN receives; the FINs themselves go out with {@link #sendFins}.
     *
     * @param engine  the rank's engine
     * @param block   the freed block
     * @param members the communicator's members as world ranks, each once (both groups of an intercommunicator)
     * @param view    the communicator, for the receives' messages
     * @return the retirement
     */
    static Retirement start(final P2pEngine engine, final int block, final int[] members, final CommView view) {
        final RecvRequest[] fins = new RecvRequest[members.length];
        for (int i = 0; i < members.length; i++) {
            fins[i] = engine.irecv(finContext(block), members[i], 0, Datatype.BYTE, EMPTY, view);
        }
        return new Retirement(block, members, fins);
    }

    private static int finContext(final int block) {
        return ContextIdAllocator.base(block) + ContextIdAllocator.RETIRE;
    }

    /**
     * Whether this rank's FINs are still to be sent, and if none of its collectives on the block is running any more,
     * claims the sending (the caller then calls {@link #sendFins} outside the allocator's lock).
     *
     * @param engine the rank's engine
     * @return whether the caller is to send the FINs now
     */
    boolean claimFins(final P2pEngine engine) {
        if (!awaitingRuns) {
            return false;
        }
        final int from = ContextIdAllocator.base(block);
        if (CollHooks.inFlight(engine, from, from + ContextIdAllocator.IDS_PER_BLOCK)) {
            return false;
        }
        awaitingRuns = false;
        return true;
    }

    /** @return whether the FINs wait for a collective of this rank on the block */
    boolean awaitingRuns() {
        return awaitingRuns;
    }

    /**
     * Sends this rank's FIN to every member (itself included, so the block cannot be due before this ran).
     *
     * @param engine the rank's engine
     */
    void sendFins(final P2pEngine engine) {
        for (final int m : members) {
            engine.isend(finContext(block), m, 0, Datatype.BYTE, EMPTY);
        }
    }

    /** @return the block */
    int block() {
        return block;
    }

    /** @return whether the block may be drained now: every FIN is in, and no back-off after a refusal is running */
    boolean due() {
        if (skip > 0) {
            skip--;
            return false;
        }
        return finsIn();
    }

    /** Notes that the drain was refused (a receive on the block is posted): wait twice as long, at most 1024. */
    void refused() {
        backoff = Math.min(Math.max(1, 2 * backoff), MAX_BACKOFF);
        skip = backoff;
    }

    /** @return whether every member's FIN has arrived (or the member failed or left) */
    private boolean finsIn() {
        for (final RecvRequest f : fins) {
            if (!f.isDone()) {
                if (null == f.blockedBy()) {
                    return false;
                }
                f.cancel();
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "retirement(block=" + block + ", members=" + Arrays.toString(members) + ")";
    }
}
