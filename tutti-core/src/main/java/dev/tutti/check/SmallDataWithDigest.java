package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;

/**
 * The data of a small regular blocking collective, carried by the checker's first-phase messages after the hash
 * ({@link DigestExchange}): a checked allreduce, allgather, alltoall or bcast of at most {@link #LIMIT} bytes per
 * message, on a group of at most {@link #MAX_RANKS}, then needs no round of its own. The first phase already sends
 * a message from every rank to every other; this adds what the call's own schedule would have sent, so that once
 * the hashes agree each rank has all it needs: allgather and alltoall the peers' blocks, bcast the root's buffer,
 * allreduce every rank's operand, folded in rank order ({@code x0 op (x1 op (... op x(n-1)))}, MPI's canonical order,
 * so non-commutative operations are right and every rank computes the same bits).
 *
 * <p>Soundness. Nothing reaches the user's memory before the verdict: the payloads land in the exchange's own
 * buffers and are copied out ({@link #deliver}) only when every rank's hash equals this rank's, that is when every
 * rank made this same call (same operation, counts, types, root, op, in-place use) and so decided the same, to carry
 * its data and skip the schedule; when the hashes differ the payloads are ignored, and a call that then passes the
 * second phase runs its schedule as usual. Every first-phase receive, this rank's call carrying data or not, can
 * hold a message with the largest payload, so a peer whose call differs is reported, never seen as a truncation.
 * The payload is padded to whole 8-byte words (the messages are labelled {@code long}).
 *
 * <p>Implementation notes. What is sent to each peer is written into that peer's out buffer (a peer's block
 * differs per peer in alltoall); the fold of allreduce runs in a scratch buffer of the exchange. No allocation:
 * segments are made once per communicator, copies go through {@link MemorySegment#copy} with offsets. Costs
 * {@code (n - 1)} messages of the payload per rank, what the linear algorithms send, so it stops at
 * {@link #MAX_RANKS}, where the call's own logarithmic schedule is the better trade.
 */
final class SmallDataWithDigest {
    /** The largest payload per message, in bytes. */
    static final int LIMIT = 1024;
    /** The largest group whose calls carry data. */
    static final int MAX_RANKS = 8;

    private SmallDataWithDigest() {
    }

    /**
     * @param groupSize the communicator's size
     * @return the payload capacity of a first-phase message on a group of that size: {@link #LIMIT} or 0
     */
    static int capacity(final int groupSize) {
        return groupSize <= MAX_RANKS ? LIMIT : 0;
    }

    /**
     * Returns the bytes a call carries per message, or -1 if it carries none: a regular blocking allreduce,
     * allgather, alltoall (not in place) or bcast whose block fits the capacity, not staged (boolean buffers). A
     * function of what the call's hash covers and of the group's size only: every rank that made the same call
     * decides the same.
     *
     * @param call      the call
     * @param groupSize the communicator's size
     * @return the payload bytes, or -1
     */
    static int bytes(final CollCall call, final int groupSize) {
        if (groupSize < 2 || call.staged() || Datatype.BOOLEAN == call.sendType()) {
            return -1;
        }
        final long b = (long) call.sendCount() * call.sendType().sizeBytes();
        if (b > capacity(groupSize)) {
            return -1;
        }
        return switch (call.kind()) {
            case ALLREDUCE, ALLGATHER, BCAST -> (int) b;
            case ALLTOALL -> call.inPlace() ? -1 : (int) b;
            default -> -1;
        };
    }

    /**
     * Writes what this rank sends to peer {@code r} after the hash in its out buffer.
     *
     * @param call  the call ({@link #bytes} is {@code n >= 0})
     * @param n     the payload bytes
     * @param me    this rank
     * @param r     the peer
     * @param out   the peer's out buffer (the payload goes at byte 8)
     */
    static void write(final CollCall call, final int n, final int me, final int r, final MemorySegment out) {
        if (0 == n) {
            return;
        }
        switch (call.kind()) {
            case ALLREDUCE -> SegmentCopy.copy(operand(call), 0, out, Long.BYTES, n);
            case ALLGATHER -> {
                if (call.inPlace()) {
                    SegmentCopy.copy(call.recvMemory(), (long) me * n, out, Long.BYTES, n);
                } else {
                    SegmentCopy.copy(call.sendMemory(), 0, out, Long.BYTES, n);
                }
            }
            case ALLTOALL -> SegmentCopy.copy(call.sendMemory(), (long) r * n, out, Long.BYTES, n);
            case BCAST -> {
                if (call.root() == me) {
                    SegmentCopy.copy(call.recvMemory(), 0, out, Long.BYTES, n);
                }
            }
            default -> throw Failures.badState("no payload for " + call.kind());
        }
    }

    /**
     * @param call a bcast, or another call
     * @param me   this rank
     * @return whether this rank sends its payload: all do, but in bcast only the root
     */
    static boolean sends(final CollCall call, final int me) {
        return CollKind.BCAST != call.kind() || call.root() == me;
    }

    /**
     * Completes the call from the peers' payloads, after every rank's hash was found equal to this rank's.
     *
     * @param call     the call
     * @param n        the payload bytes
     * @param me       this rank
     * @param payloads each peer's received payload (from its byte 8), null at {@code me}
     * @param scratch  a buffer of at least {@code n} bytes (allreduce's fold)
     */
    static void deliver(final CollCall call, final int n, final int me, final MemorySegment[] payloads,
        final MemorySegment scratch) {
        if (0 == n) {
            return;
        }
        final int size = payloads.length;
        final MemorySegment recv = call.recvMemory();
        switch (call.kind()) {
            case ALLREDUCE -> {
                final MemorySegment mine = operand(call);
                final Op op = call.op();
                final Datatype type = call.sendType();
                final int count = call.sendCount();
                SegmentCopy.copy(size - 1 == me ? mine : payloads[size - 1], 0, scratch, 0, n);
                for (int r = size - 2; r >= 0; r--) {
                    LocalReduction.reduce(op, type, r == me ? mine : payloads[r], scratch, count);
                }
                SegmentCopy.copy(scratch, 0, recv, 0, n);
            }
            case ALLGATHER, ALLTOALL -> {
                for (int r = 0; r < size; r++) {
                    if (r != me) {
                        SegmentCopy.copy(payloads[r], 0, recv, (long) r * n, n);
                    }
                }
                if (!call.inPlace()) {
                    final long from = CollKind.ALLTOALL == call.kind() ? (long) me * n : 0;
                    SegmentCopy.copy(call.sendMemory(), from, recv, (long) me * n, n);
                }
            }
            case BCAST -> {
                if (call.root() != me) {
                    SegmentCopy.copy(payloads[call.root()], 0, recv, 0, n);
                }
            }
            default -> throw Failures.badState("no payload for " + call.kind());
        }
    }

    /** @return allreduce's operand of this rank: its send memory, or its receive memory in place */
    private static MemorySegment operand(final CollCall call) {
        return call.inPlace() ? call.recvMemory() : call.sendMemory();
    }

    /** @return {@code n} rounded up to whole 8-byte words */
    static int padded(final int n) {
        return (n + Long.BYTES - 1) & -Long.BYTES;
    }
}
