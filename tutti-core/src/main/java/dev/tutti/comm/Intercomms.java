package dev.tutti.comm;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollComm;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Creates an intercommunicator from two groups and a peer communicator that holds both leaders
 * (MPI_Intercomm_create): the leaders swap their groups over the peer, each leader shares the remote group with its
 * own group, and the two groups agree on a context block free at every member of both.
 *
 * <p>Implementation notes. Phase 0: the leaders swap (group size, agreement key), then the groups' world ranks, on
 * the peer's management context with the user's tag; each leader broadcasts what it received to its group. Phase
 * 1: each group and-reduces its members' free-block bitmaps, the leaders swap and combine the two, and each leader
 * broadcasts the result; every member claims the lowest common block, retrying under contention (see
 * {@link ContextIdAllocator}). The agreement key is the smaller of the two groups' keys, so both groups use the
 * same one. Cost: two leader exchanges and two group broadcasts, then per attempt a group allreduce of the bitmap,
 * a leader exchange and a broadcast.
 */
public final class Intercomms {
    /**
     * The leader's side of the peer communicator.
     *
     * @param engine       the rank's engine
     * @param context      the peer communicator's management context
     * @param remoteLeader the remote leader's world rank
     * @param remoteRank   the remote leader's rank in the peer communicator, for messages
     * @param view         the peer communicator's view, for messages
     * @param where        the peer communicator's description, for messages
     */
    public record Peer(P2pEngine engine, int context, int remoteLeader, int remoteRank, CommView view, String where) {
    }

    private Intercomms() {
    }

    /**
     * Creates the intercommunicator's groups and block. Collective over the local group.
     *
     * @param ids         this rank's context ids
     * @param local       the local group's collective communicator
     * @param mine        the local group as world ranks
     * @param localLeader the local leader's rank in the local group
     * @param peer        the peer side at the local leader, null elsewhere
     * @param tag         the user's tag for the leaders' messages
     * @param op          the operation, for messages
     * @param where       the local communicator's description, for messages
     * @return the child: local group {@code mine}, remote group as the remote leader sent it
     * @throws TuttiException if the groups overlap, the leaders disagree on the call, or a peer fails
     */
    public static Creation.Child create(final ContextIdAllocator ids, final CollComm local, final int[] mine,
        final int localLeader, final Peer peer, final int tag, final String op, final String where) {
        final boolean leader = null != peer;
        final long[] head = {mine.length, ContextIdAllocator.key(local.context(), local.reserveTag())};
        final long[] remoteHead = new long[2];
        if (leader) {
            exchange(peer, tag, head, remoteHead, op);
        }
        Creation.bcast(local, remoteHead, localLeader, op);
        if (remoteHead[0] < 1) {
            throw Errors.invalid(ErrorClass.INTERN, op, where, "remote group size=" + remoteHead[0]);
        }
        final long[] remote = new long[(int) remoteHead[0]];
        if (leader) {
            exchange(peer, tag, Arrays.stream(mine).asLongStream().toArray(), remote, op);
        }
        Creation.bcast(local, remote, localLeader, op);
        final int[] others = Arrays.stream(remote).mapToInt(x -> (int) x).toArray();
        for (final int w : others) {
            for (final int m : mine) {
                if (w == m) {
                    throw Errors.invalid(ErrorClass.ARG, op, where, "world rank=" + w + " is in both groups, "
                        + "expected disjoint groups");
                }
            }
        }
        final long key = Math.min(head[1], remoteHead[1]);
        while (true) {
            final long[] proposal = new long[ContextIdAllocator.PROPOSAL_WORDS];
            final long[] common = new long[ContextIdAllocator.PROPOSAL_WORDS];
            ids.propose(key, proposal, true);
            try {
                Creation.and(local, proposal, common, op);
                if (leader) {
                    final long[] theirs = new long[common.length];
                    exchange(peer, tag, common.clone(), theirs, op);
                    for (int i = 0; i < common.length; i++) {
                        common[i] &= theirs[i];
                    }
                }
                Creation.bcast(local, common, localLeader, op);
            } catch (final TuttiException e) {
                ids.abandon(key);
                throw e;
            }
            final int b = ids.claim(key, common, op + " (" + where + ")", true);
            if (ContextIdAllocator.RETRY != b) {
                return new Creation.Child(b, mine, others);
            }
        }
    }

    /** Swaps {@code out} for {@code in} with the remote leader; both must have the same length. */
    private static void exchange(final Peer peer, final int tag, final long[] out, final long[] in,
        final String op) {
        final AbstractRequest r = peer.engine().irecv(peer.context(), peer.remoteLeader(), tag, Datatype.LONG,
            MemorySegment.ofArray(in), peer.view());
        final AbstractRequest s = peer.engine().isend(peer.context(), peer.remoteLeader(), tag, Datatype.LONG,
            MemorySegment.ofArray(out));
        final Status st = Request.waitAll(r, s)[0];
        if (st.bytes() != (long) in.length * Long.BYTES) {
            throw Errors.invalid(ErrorClass.ARG, op, peer.where(), "the remote leader (rank=" + peer.remoteRank()
                + ") sent bytes=" + st.bytes() + ", expected " + (long) in.length * Long.BYTES + ": the two groups "
                + "disagree on the call (tag=" + tag + ")");
        }
    }
}
