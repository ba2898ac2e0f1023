package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SendRequest;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;

/**
 * The data of a larger regular blocking alltoall or allreduce (past {@link SmallDataWithDigest#LIMIT}), moved by the
 * checker itself, its first messages sent together with the hashes ({@link DigestExchange}) instead of after them:
 * without it such a call paid the hash round and then its schedule's rounds, and on oversubscribed cores every round
 * costs scheduler slices. Alltoall: each rank sends block {@code r} of its send memory to rank {@code r} (one round,
 * what the linear alltoall sends). Allreduce: a reduce-scatter then an allgather, both linear (two rounds, each rank
 * sends {@code 2 (n - 1) / n} of its operand, what Rabenseifner's and the ring's send): rank {@code r} receives block
 * {@code r} of every operand, folds it in rank order ({@code x0 op (x1 op (... op x(n-1)))}, MPI's canonical order,
 * so non-commutative operations are right and every rank gets the same bits) and sends the result to every rank.
 *
 * <p>Soundness. The first round's messages (tag {@link #DATA}) land in this object's slots, never in the user's
 * memory; an alltoall's blocks are copied out, and an allreduce's block folded and written, only once every rank's
 * hash equals this rank's, that is once every rank made this same call and so decided the same (a function of what
 * the hash covers and the group's size). An allreduce's results (tag {@link #RESULT}) are received straight into the
 * receive memory, their receives posted with the first round's (in place: after the first round's sends, which read
 * that memory): a peer sends its result only once it has found every rank's hash equal to its own, this rank's too,
 * so what arrives there is this call's result. When the hashes differ no result is sent, the call fails on every rank
 * (for these two operations every field the hash covers is one the rules compare), and its receives are withdrawn
 * ({@link #abandon}); the slots belong to an exchange the checker never reuses (a failed exchange is replaced), so a
 * late first-round message can land nowhere a later call reads (a first-round message no one receives stays held: a
 * mismatch ends a program).
 *
 * <p>Implementation notes. One per reusable exchange, used by one call at a time. The slots grow to the largest call
 * seen ({@code long[]}, so every element type is aligned) and are kept; the requests are reused; the views of the
 * user's memory are kept while a loop repeats the call, so a repeated call allocates nothing. Costs beyond the
 * schedule's messages: the alltoall's copy out of the slots, {@code (n - 1)} blocks. Where it pays (over shm, 4 ranks
 * on 2 cores): a checked allreduce up to 64 KiB is faster this way than with the hash round and then the schedule,
 * and no slower than unchecked; from 128 KiB (blocks past the shm eager limit, streamed) the linear exchange loses
 * to the schedule's pairwise rounds, hence {@link #ALLREDUCE_MAX_BLOCK}; a checked alltoall is faster this way from
 * 2 KiB to 256 KiB in one JVM and about even at 64 KiB over shm. On 2 ranks the hash round costs well under a
 * microsecond and the copies more, hence {@link #MIN_RANKS}. The runs: bench/history/RESULTS-diary.md.
 */
final class LargeDataWithDigest {
    /** Tag bits of the first round: above the first phase's tags ({@code < 2^30}) and the second's. */
    static final int DATA = 0x6000_0000;
    private static final int DATA_SEQ_MASK = 0x0FFF_FFFF;
    /** Tag bits of an allreduce's second round: below the checker's question tags ({@code 0x7FFF_FFF9} and up). */
    static final int RESULT = 0x7000_0000;
    private static final int RESULT_SEQ_MASK = 0x07FF_FFFF;
    /** The smallest group whose calls the checker moves: on 2 ranks the hash round costs less than the copies. */
    static final int MIN_RANKS = 3;
    /** The largest alltoall block, in bytes, that the checker moves itself. */
    static final int ALLTOALL_MAX_BLOCK = 64 * 1024;
    /** The largest allreduce block (the operand's n-th part), in bytes, that the checker moves itself. */
    static final int ALLREDUCE_MAX_BLOCK = 16 * 1024;

    private final CollComm comm;
    private final P2pEngine engine;
    private final int context;
    private final RecvRequest[] recvs;
    private final SendRequest[] sends;
    private final RecvRequest[] results;
    private final SendRequest[] resultSends;
    private final long[][] slotWords;
    private final MemorySegment[] slots;
    private long[] accWords = new long[0];
    private MemorySegment acc;
    private int resultTag;
    /** Views of the user's memory per peer, kept while a loop repeats the call (slices are objects). */
    private final Views sendViews;
    private final Views resultViews;
    /** Whether the results' receives are posted (an allreduce not in place posts them with the first round's). */
    private boolean resultsPosted;
    /** Between {@link #post} and the successful end of {@link #finish}: the requests may be under way. */
    private boolean busy;

    LargeDataWithDigest(final CollComm comm, final int context) {
        this.comm = comm;
        this.engine = comm.engine();
        this.context = context;
        final int n = comm.size();
        recvs = new RecvRequest[n];
        sends = new SendRequest[n];
        results = new RecvRequest[n];
        resultSends = new SendRequest[n];
        slotWords = new long[n][];
        slots = new MemorySegment[n];
        sendViews = new Views(n);
        resultViews = new Views(n);
        for (int r = 0; r < n; r++) {
            if (r != comm.rank()) {
                recvs[r] = engine.reusableRecv();
                sends[r] = engine.reusableSend();
                results[r] = engine.reusableRecv();
                resultSends[r] = engine.reusableSend();
                slotWords[r] = new long[0];
            }
        }
    }

    /**
     * Returns whether the checker moves a call's data itself: a regular blocking alltoall (not in place) of more than
     * {@link SmallDataWithDigest#LIMIT} and at most {@link #ALLTOALL_MAX_BLOCK} bytes per block, or allreduce of more
     * than {@link SmallDataWithDigest#LIMIT} bytes and at most {@link #ALLREDUCE_MAX_BLOCK} per rank's block, on a
     * group of {@link #MIN_RANKS} to {@link SmallDataWithDigest#MAX_RANKS}, not staged (boolean buffers). A function of
     * what the call's hash covers and of the group's size only: every rank that made the same call decides the same.
     * Never true where {@link SmallDataWithDigest#bytes} is {@code >= 0}.
     *
     * @param call      the call (regular, blocking, intracommunicator)
     * @param groupSize the communicator's size
     * @return whether it is spread
     */
    static boolean applies(final CollCall call, final int groupSize) {
        if (groupSize < MIN_RANKS || groupSize > SmallDataWithDigest.MAX_RANKS || call.staged()
            || Datatype.BOOLEAN == call.sendType()) {
            return false;
        }
        final long b = (long) call.sendCount() * call.sendType().sizeBytes();
        if (b <= SmallDataWithDigest.LIMIT) {
            return false;
        }
        return switch (call.kind()) {
            case ALLTOALL -> !call.inPlace() && b <= ALLTOALL_MAX_BLOCK;
            case ALLREDUCE -> ((long) call.sendCount() + groupSize - 1) / groupSize * call.sendType().sizeBytes()
                <= ALLREDUCE_MAX_BLOCK;
            default -> false;
        };
    }

    /**
     * Posts the first round's receives into the slots, before this rank's hashes go out (so that the peers' data,
     * sent with their hashes, finds them).
     *
     * @param call the call ({@link #applies})
     * @param seq  its number on the communicator
     */
    void post(final CollCall call, final long seq) {
        final int n = comm.size();
        final int me = comm.rank();
        final int tag = DATA | (int) (seq & DATA_SEQ_MASK);
        resultTag = RESULT | (int) (seq & RESULT_SEQ_MASK);
        busy = true;
        final long slotBytes = CollKind.ALLTOALL == call.kind() ? blockBytes(call)
            : (long) count(call, me) * call.sendType().sizeBytes();
        for (int r = 0; r < n; r++) {
            if (r != me) {
                engine.irecv(recvs[r], context, comm.world(r), tag, Datatype.BYTE, slot(r, slotBytes), comm.view());
            }
        }
        resultsPosted = false;
        if (CollKind.ALLREDUCE == call.kind() && !call.inPlace()) {
            postResults(call); // before the verdict: only a peer that found every hash equal sends its result
        }
    }

    /** Posts the receives of an allreduce's results, each peer's block into the receive memory. */
    private void postResults(final CollCall call) {
        final int n = comm.size();
        final int me = comm.rank();
        final int size = call.sendType().sizeBytes();
        final MemorySegment recv = call.recvMemory();
        for (int r = 0; r < n; r++) {
            if (r != me) {
                engine.irecv(results[r], context, comm.world(r), resultTag, Datatype.BYTE, resultViews.of(r, recv,
                    (long) first(call, r) * size, (long) count(call, r) * size), comm.view());
            }
        }
        resultsPosted = true;
    }

    /**
     * Withdraws the receives of a call that did not pass with every hash equal (it failed, or its schedule runs):
     * no result can come then (a peer sends one only once it found every hash equal, this rank's too), and a receive
     * into the user's memory must not stay posted.
     */
    void abandon() {
        if (resultsPosted) {
            for (final RecvRequest r : results) {
                if (null != r && !r.isDone()) {
                    r.cancel();
                }
            }
            resultsPosted = false;
        }
        for (final RecvRequest r : recvs) {
            if (null != r && !r.isDone()) {
                r.cancel();
            }
        }
    }

    /**
     * Sends the first round: to each peer {@code r}, block {@code r} of the send memory (alltoall) or of the operand
     * (allreduce). Read only from the user's memory, which the call may read from the start.
     *
     * @param call the call ({@link #applies}), after {@link #post}
     * @param seq  its number on the communicator
     */
    void send(final CollCall call, final long seq) {
        final int n = comm.size();
        final int me = comm.rank();
        final int tag = DATA | (int) (seq & DATA_SEQ_MASK);
        final boolean alltoall = CollKind.ALLTOALL == call.kind();
        final MemorySegment from = alltoall ? call.sendMemory() : operand(call);
        final long b = blockBytes(call);
        final int size = call.sendType().sizeBytes();
        for (int k = 1; k < n; k++) {
            final int r = (me + k) % n; // each rank starts with its next: not every rank at rank 0 first
            final MemorySegment block = alltoall ? sendViews.of(r, from, r * b, b)
                : sendViews.of(r, from, (long) first(call, r) * size, (long) count(call, r) * size);
            engine.isend(sends[r], context, comm.world(r), tag, Datatype.BYTE, block);
        }
    }

    /**
     * Completes the call once every rank's hash was found equal to this rank's: waits for the first round, then
     * writes the alltoall's blocks into the receive memory, or folds this rank's block of the allreduce, writes it
     * and exchanges the results; returns when every message of the call has gone (the user may then reuse its send
     * memory).
     *
     * @param call the call
     */
    void finish(final CollCall call) {
        final int n = comm.size();
        final int me = comm.rank();
        final MemorySegment recv = call.recvMemory();
        if (CollKind.ALLTOALL == call.kind()) {
            final long b = blockBytes(call);
            for (int r = 0; r < n; r++) {
                if (r != me) {
                    recvs[r].waitFor();
                    SegmentCopy.copy(slots[r], 0, recv, r * b, b);
                }
            }
            SegmentCopy.copy(call.sendMemory(), me * b, recv, me * b, b);
            waitAll(sends);
            busy = false;
            return;
        }
        final int size = call.sendType().sizeBytes();
        if (!resultsPosted) { // in place: the first round reads the receive memory, which the second round writes
            waitAll(sends);
            postResults(call);
        }
        final int k = count(call, me);
        final long bytes = (long) k * size;
        final MemorySegment mine = resultViews.of(me, operand(call), (long) first(call, me) * size, bytes);
        final MemorySegment into = acc(bytes);
        if (n - 1 != me) {
            recvs[n - 1].waitFor();
        }
        SegmentCopy.copy(n - 1 == me ? mine : slots[n - 1], 0, into, 0, bytes);
        final Op op = call.op();
        final Datatype type = call.sendType();
        for (int r = n - 2; r >= 0; r--) {
            if (r != me) {
                recvs[r].waitFor();
            }
            LocalReduction.reduce(op, type, r == me ? mine : slots[r], into, k);
        }
        SegmentCopy.copy(into, 0, recv, (long) first(call, me) * size, bytes);
        for (int j = 1; j < n; j++) {
            final int r = (me + j) % n;
            engine.isend(resultSends[r], context, comm.world(r), resultTag, Datatype.BYTE, into);
        }
        waitAll(results);
        waitAll(sends);
        waitAll(resultSends);
        busy = false;
    }

    private static void waitAll(final dev.tutti.p2p.AbstractRequest[] requests) {
        for (final dev.tutti.p2p.AbstractRequest r : requests) {
            if (null != r) {
                r.waitFor();
            }
        }
    }

    /** @return peer {@code r}'s slot, at least {@code bytes} long, as a segment of exactly that length */
    private MemorySegment slot(final int r, final long bytes) {
        final int words = (int) ((bytes + Long.BYTES - 1) / Long.BYTES);
        if (slotWords[r].length < words) {
            slotWords[r] = new long[words];
            slots[r] = null;
        }
        if (null == slots[r] || slots[r].byteSize() != bytes) {
            slots[r] = MemorySegment.ofArray(slotWords[r]).asSlice(0, bytes);
        }
        return slots[r];
    }

    /** @return the fold's buffer, exactly {@code bytes} long */
    private MemorySegment acc(final long bytes) {
        final int words = (int) ((bytes + Long.BYTES - 1) / Long.BYTES);
        if (accWords.length < words) {
            accWords = new long[words];
            acc = null;
        }
        if (null == acc || acc.byteSize() != bytes) {
            acc = MemorySegment.ofArray(accWords).asSlice(0, bytes);
        }
        return acc;
    }

    /** @return whether no request of the last call is still under way (this object may serve the next call) */
    boolean idle() {
        return !busy;
    }

    /** @return the bytes of an alltoall's block, or of an allreduce's whole operand */
    private static long blockBytes(final CollCall call) {
        return (long) call.sendCount() * call.sendType().sizeBytes();
    }

    /** @return the elements of allreduce block {@code r}: the count split in {@code n} parts, the first ones larger */
    private int count(final CollCall call, final int r) {
        final int n = comm.size();
        final int c = call.sendCount();
        return c / n + (r < c % n ? 1 : 0);
    }

    /** @return the first element of allreduce block {@code r} */
    private int first(final CollCall call, final int r) {
        final int n = comm.size();
        final int c = call.sendCount();
        return r * (c / n) + Math.min(r, c % n);
    }

    /** @return allreduce's operand of this rank: its send memory, or its receive memory in place */
    private static MemorySegment operand(final CollCall call) {
        return call.inPlace() ? call.recvMemory() : call.sendMemory();
    }

    /** The last slice made per index, reused while its base, offset and length repeat. */
    private static final class Views {
        private final MemorySegment[] bases;
        private final long[] offsets;
        private final long[] lengths;
        private final MemorySegment[] views;

        Views(final int n) {
            bases = new MemorySegment[n];
            offsets = new long[n];
            lengths = new long[n];
            views = new MemorySegment[n];
        }

        /** @return {@code base.asSlice(offset, length)}, the one made last time for {@code i} if it is the same */
        MemorySegment of(final int i, final MemorySegment base, final long offset, final long length) {
            if (bases[i] != base || offsets[i] != offset || lengths[i] != length) {
                views[i] = base.asSlice(offset, length);
                bases[i] = base;
                offsets[i] = offset;
                lengths[i] = length;
            }
            return views[i];
        }
    }
}
