package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostState;
import dev.tutti.coll.Road;
import dev.tutti.coll.slot.SlotLanes;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.internal.Settings;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.transport.DirectMemory;
import dev.tutti.type.LocalReduction;
import dev.tutti.type.TypeCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A communicator's on-host region on this rank, and the algorithms of the calls that go through it: every rank's
 * block ({@link HostLayout}), this rank's own to write, the others' to read. Each call-ordered call on the
 * communicator (blocking or not) is numbered here and published in this rank's cell for it: its header words, and
 * for a call on the region its bytes; a call that takes the message layer publishes its words alone, so that a peer
 * on the region that waits for this rank finds out instead of waiting for ever, and its run, if it stalls, reads
 * its peers' words of the call ({@link #stalled}): a peer on the region that does not wait for it (a bcast's root,
 * a reduce's non-root) sends it nothing.
 * <ul>
 * <li>barrier: publish, then wait for every peer's call.</li>
 * <li>bcast: the root publishes its bytes; every other rank waits for the root's call and copies them out.</li>
 * <li>reduce, allreduce: every rank publishes its operand; the root (every rank) waits for all and folds them in
 * rank order, {@code x0 op (x1 op (... op x(p-1)))}, from the cells alone: a non-commutative op is right, and
 * every rank of an allreduce computes the same bits. Past the limit: every rank publishes the call alone, waits for
 * every peer's, and the call goes through the chunk area, each rank folding its share of every chunk
 * ({@link HostChunks}). The area is agreed at the communicator's first such call: each rank offers the name of a
 * new area in its cell's bytes, and the call goes through chunks if every rank offered one; else every rank gives
 * its area back, runs this call and every later one past the limit on the message layer (each rank sees every
 * offer, so all decide alike).</li>
 * <li>gather, allgather: every rank publishes its block; the root (every rank) copies each out.</li>
 * <li>scatter: the root publishes all blocks; each rank copies its own. alltoall: every rank publishes its whole
 * send; each copies its block out of every peer's cell.</li>
 * </ul>
 * A rank that waits for a peer's call compares its words with its own: kind and root as a message header would, then
 * count and type, op, and whether the peer took the region too; a mismatch fails the call with the message layer's
 * exception and text for the same fault. A call on the region draws its message tag as a message-layer call would
 * ({@link CollComm#drawTag}), so a rank waiting here also fails, naming the settings that differ, when the peer sent
 * a message under this call's tag (its call went through messages or a persistent request's slots and will never
 * be published). The block is given back when the communicator is retired ({@link #retired()}).
 *
 * <p>A nonblocking call never waits here: when its cell is not free yet (its rank has run three calls ahead of a
 * peer), its words wait in this rank's memory and are published, in call order, by the next call on the
 * communicator or by a stalled run's check ({@link #stalled}), whichever finds the cell free first; a blocking call
 * publishes any that wait before its own, waiting for their cells as for its own.
 *
 * <p>Implementation notes. Owned by the threads that make the communicator's collective calls, one at a time (MPI's
 * rule), so its fields are plain, but for the waiting words: a lock guards them, since a stalled run's check may run
 * on any thread that waits; {@code later}, their number, is volatile, so a call with none waiting takes no lock.
 * {@code seen} is a cache of peers' flags, which only grow: a check on another thread that writes an older value
 * over a newer one costs a flag read more, never a wrong answer. A cell is written with plain stores, then its seq
 * word with a release store; a reader loads the seq word with acquire and then reads plainly; a writer reuses the
 * cell of call {@code k - 4} only after every peer has published call {@code k - 3} (see {@link HostLayout}), so no
 * cell changes under a reader. A cell's seq word only grows, so "has published call j" reads as "the cell of call j
 * holds j or more".
 * {@code seen} keeps the last call seen published per peer, so that a writer reads a peer's line again only when
 * it has not waited for that peer since. Waits run the engine's progress (other collectives in flight, the
 * transport's liveness checks) every {@link #POLLS} reads of the flag and between idle steps of the rank's idle
 * strategy, and fail once the peer is known gone (its failure names it). A call that finds every flag set waits for
 * nothing and runs no progress: one in {@link #PROGRESS_EVERY} makes one pass anyway (MPI's progress rule: a rank
 * whose peers on this communicator always arrive first still moves its other operations on; a pass per call would
 * cost a small call a large share of its time), and a call makes one first when a registered run of a higher priority is
 * in flight. Cost per call: one copy in, the reads of
 * the awaited peers' lines and one copy out per block read; no allocation (the cells' data views are made once).
 */
final class HostRegion implements HostState {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Flag reads between two passes of the engine's progress while the idle strategy only spins (a power of 2). */
    private static final int POLLS = 16;
    /** Calls between two passes of the rank's progress made by calls that did not wait (a power of 2). */
    private static final int PROGRESS_EVERY = 32;
    /** Idle steps of a wait between two looks for a peer's message of the awaited call (a power of 2). */
    private static final int PROBE_EVERY = 64;

    private final CollComm comm;
    private final P2pEngine engine;
    private final IdleStrategy idle;
    private final DirectMemory memory;
    private final int rank;
    private final int size;
    private final MemorySegment mine;
    private final MemorySegment[] blocks;
    /** Per rank and cell: a view of the cell's bytes, inline ({@code 2c + 1}) and in the lines after ({@code 2c}). */
    private final MemorySegment[][] bytes;
    private final long limit;
    private final long cell;
    private final long[] seen;
    /** The chunk area, once agreed; read by the thread that retires the communicator. */
    private volatile HostChunks chunks;
    /**
     * Whether reductions past the limit take the message layer: the setting {@code tutti.coll.hostChunks} is off, or
     * the ranks declined a chunk area.
     */
    private boolean declined;
    private long calls;
    /**
     * Words of nonblocking calls that took the message layer and wait for a free cell ({@link #publishOrLater}):
     * four longs per call (its number, call, shape and op words), oldest first, {@code later} of them. Guarded by
     * {@code laterLock}: the owner adds and publishes them, and a stalled run's check may publish them from any thread
     * ({@link #stalled}).
     */
    private long[] waiting = new long[4 * HostLayout.CELLS];
    private volatile int later;
    private final ReentrantLock laterLock = new ReentrantLock();
    /** The current call's message tag (drawn as a message-layer call would, see {@link CollComm#drawTag}). */
    private int tag;
    private long callWord;
    private long shapeWord;
    private long opWord;

    /**
     * @param comm   the communicator
     * @param memory the direct memory its ranks share
     * @param blocks every rank's block, this rank's own at its rank
     * @param limit  the most bytes a cell holds
     */
    HostRegion(final CollComm comm, final DirectMemory memory, final MemorySegment[] blocks, final long limit) {
        this.comm = comm;
        this.engine = comm.engine();
        this.idle = engine.idleStrategy();
        this.memory = memory;
        this.rank = comm.rank();
        this.size = comm.size();
        this.mine = blocks[rank];
        this.blocks = blocks;
        this.limit = limit;
        this.declined = !"on".equals(Settings.COLL_HOST_CHUNKS.choice());
        this.cell = HostLayout.cellBytes(limit);
        this.seen = new long[size];
        this.bytes = new MemorySegment[size][2 * HostLayout.CELLS];
        for (int r = 0; r < size; r++) {
            for (int c = 0; c < HostLayout.CELLS; c++) {
                final long at = HostLayout.cellAt(c, cell);
                bytes[r][2 * c] = blocks[r].asSlice(at + HostLayout.BYTES_AT, cell - HostLayout.BYTES_AT);
                bytes[r][2 * c + 1] = blocks[r].asSlice(at + HostLayout.INLINE_AT, HostLayout.INLINE);
            }
        }
    }

    /**
     * Numbers and publishes a call-ordered call, and runs it here if it takes the region ({@link Road#onHost}).
     *
     * @param c     the call, intracommunicator, with no hook
     * @param drawn the call's number drawn already (by the region's agreement, at this call), or -1
     * @return true if the call is done, false if it takes the message layer (its words are published)
     * @throws TuttiException if a peer's call does not match, or a peer is gone
     */
    boolean run(final CollCall c, final int drawn) {
        final long k = ++calls;
        final boolean host = Road.onHost(c, limit, !declined);
        final CollKind kind = c.kind();
        callWord = (long) TypeCode.intraHeader(kind.ordinal() + 1, c.root()) << Integer.SIZE
            | (host ? 1L << 8 : 0L) | c.variant().ordinal();
        shapeWord = (long) c.sendCount() << Integer.SIZE | c.sendType().ordinal();
        opWord = opCode(c.op());
        if (!host) {
            if (CollCall.Variant.BLOCKING == c.variant()) {
                publish(k, null, 0, 0, c);
            } else {
                publishOrLater(k);
            }
            c.hostCall(k); // its run asks stalled(k) if it stalls
            return false;
        }
        tag = drawn >= 0 ? drawn : comm.drawTag((int) (callWord >>> Integer.SIZE), c.sendCount());
        if (comm.outranked(0)) {
            engine.progress(); // a registered run of a higher priority goes first, as for any collective of level 0
        }
        switch (kind) {
            case BARRIER -> barrier(k, c);
            case BCAST -> bcast(k, c);
            case REDUCE, ALLREDUCE -> {
                if (!reduce(k, c, CollKind.ALLREDUCE == kind ? -1 : c.root())) {
                    c.hostCall(k); // no chunk area: the message layer runs it (every rank decided so)
                    return false;
                }
            }
            case GATHER, ALLGATHER -> gather(k, c, CollKind.ALLGATHER == kind ? -1 : c.root());
            case SCATTER -> scatter(k, c);
            case ALLTOALL -> alltoall(k, c);
            default -> throw Failures.internal(kind.mpiName(), comm.describe(), "no on-host algorithm");
        }
        if (0 == (k & (PROGRESS_EVERY - 1))) {
            engine.progress(); // MPI's progress rule, for a rank whose calls never wait (see the class note)
        }
        final List<Runnable> finish = c.finish();
        if (null != finish && !finish.isEmpty()) {
            finish.forEach(Runnable::run);
        }
        return true;
    }

    private void barrier(final long k, final CollCall c) {
        publish(k, null, 0, 0, c);
        for (int i = 1; i < size; i++) {
            awaitCall((rank + i) % size, k, c);
        }
    }

    private void bcast(final long k, final CollCall c) {
        final int root = c.root();
        final long n = block(c);
        if (rank == root) {
            publish(k, c.recv(), 0, n, c);
            return;
        }
        publish(k, null, 0, 0, c);
        awaitCall(root, k, c);
        SegmentCopy.copy(data(root, k, n), 0, c.recv(), 0, n);
    }

    /**
     * Reduce ({@code root} at least 0) or allreduce ({@code root} -1).
     *
     * @return false if the call is past the limit and the ranks declined a chunk area at it
     */
    private boolean reduce(final long k, final CollCall c, final int root) {
        final long n = block(c);
        if (n > limit) {
            return chunked(k, c, root);
        }
        final MemorySegment recv = c.recv();
        publish(k, null != c.send() ? c.send() : recv, 0, n, c);
        if (root >= 0 && root != rank) {
            return true;
        }
        for (int i = 1; i < size; i++) {
            awaitCall((rank + i) % size, k, c);
        }
        final Op op = c.op();
        final Datatype type = c.sendType();
        final int count = c.sendCount();
        SegmentCopy.copy(data(size - 1, k, n), 0, recv, 0, n);
        for (int r = size - 2; r >= 0; r--) {
            LocalReduction.reduce(op, type, data(r, k, n), recv, count);
        }
        return true;
    }

    /**
     * A reduction past the limit: publishes the call (at the first one with the offer of a chunk area), checks every
     * peer's, and runs it through the chunks.
     *
     * @return false if the ranks declined a chunk area at this call
     */
    private boolean chunked(final long k, final CollCall c, final int root) {
        HostChunks h = chunks;
        if (null == h) {
            h = agreeChunks(k, c);
            if (null == h) {
                declined = true;
                return false;
            }
            chunks = h;
        } else {
            publish(k, null, 0, 0, c);
            for (int i = 1; i < size; i++) {
                awaitCall((rank + i) % size, k, c);
            }
        }
        h.reduce(c, root);
        return true;
    }

    /**
     * Agrees the chunk area at call {@code k}: publishes the call with this rank's offer (1 and the area's name, or
     * 0 when there is no room) in its bytes, reads every peer's, and makes the chunks if every rank offered an area.
     *
     * @return the chunks, or null (every rank's area given back)
     */
    private HostChunks agreeChunks(final long k, final CollCall c) {
        final long bytes = HostLayout.areaBytes();
        final MemorySegment area = memory.tryAllocateSlots(bytes);
        final long[] names = new long[size];
        boolean agreed = null != area;
        try {
            final long[] offer = {null == area ? 0 : 1, null == area ? 0 : memory.nameDirect(area)};
            publish(k, MemorySegment.ofArray(offer), 0, 2 * Long.BYTES, c);
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                awaitCall(r, k, c);
                final MemorySegment theirs = data(r, k, 2 * Long.BYTES);
                agreed &= 1 == theirs.get(ValueLayout.JAVA_LONG, 0);
                names[r] = theirs.get(ValueLayout.JAVA_LONG, Long.BYTES);
            }
        } catch (final RuntimeException | Error e) {
            if (null != area) {
                memory.freeDirect(area);
            }
            throw e;
        }
        if (!agreed) {
            if (null != area) {
                memory.freeDirect(area);
            }
            return null;
        }
        final MemorySegment[] areas = new MemorySegment[size];
        for (int r = 0; r < size; r++) {
            areas[r] = r == rank ? area : memory.resolveDirect(comm.world(r), names[r], bytes);
        }
        return new HostChunks(this, rank, areas);
    }

    /** Gather ({@code root} at least 0) or allgather ({@code root} -1). */
    private void gather(final long k, final CollCall c, final int root) {
        final long n = block(c);
        final MemorySegment send = c.send();
        final MemorySegment recv = c.recv();
        if (null != send) {
            publish(k, send, 0, n, c);
        } else {
            publish(k, recv, rank * n, n, c);
        }
        if (root >= 0 && root != rank) {
            return;
        }
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            awaitCall(r, k, c);
            SegmentCopy.copy(data(r, k, n), 0, recv, r * n, n);
        }
        if (null != send) {
            SegmentCopy.copy(send, 0, recv, rank * n, n);
        }
    }

    private void scatter(final long k, final CollCall c) {
        final int root = c.root();
        final long n = block(c);
        final long all = n * size;
        if (rank == root) {
            publish(k, c.send(), 0, all, c);
            if (null != c.recv()) {
                SegmentCopy.copy(c.send(), rank * n, c.recv(), 0, n);
            }
            return;
        }
        publish(k, null, 0, 0, c);
        awaitCall(root, k, c);
        SegmentCopy.copy(data(root, k, all), rank * n, c.recv(), 0, n);
    }

    private void alltoall(final long k, final CollCall c) {
        final long n = block(c);
        final long all = n * size;
        final MemorySegment recv = c.recv();
        publish(k, null != c.send() ? c.send() : recv, 0, all, c);
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            awaitCall(r, k, c);
            SegmentCopy.copy(data(r, k, all), rank * n, recv, r * n, n);
        }
        SegmentCopy.copy(data(rank, k, all), rank * n, recv, rank * n, n);
    }

    /** @return the bytes of one block of the call (its whole vector for bcast and the reductions) */
    private static long block(final CollCall c) {
        return (long) c.sendCount() * c.sendType().sizeBytes();
    }

    /** @return a view of the bytes of call {@code k} in rank {@code r}'s cell, a call of {@code n} bytes there */
    private MemorySegment data(final int r, final long k, final long n) {
        return bytes[r][(int) (k & (HostLayout.CELLS - 1)) * 2 + (n <= HostLayout.INLINE ? 1 : 0)];
    }

    /**
     * Publishes this rank's call {@code k}, after the words of earlier nonblocking calls that wait: once every peer
     * has published call {@code k - 3} (so that none reads the cell of call {@code k - 4} any more), copies {@code n}
     * bytes into the cell, then the call's words, then its number.
     */
    private void publish(final long k, final MemorySegment from, final long offset, final long n, final CollCall c) {
        while (0 != later) { // earlier nonblocking calls' words first, in call order, waiting for their cells
            final long j;
            laterLock.lock();
            try {
                publishFree();
                if (0 == later) {
                    break;
                }
                j = waiting[0];
            } finally {
                laterLock.unlock();
            }
            awaitCell(j, c);
        }
        awaitCell(k, c);
        write(k, from, offset, n, callWord, shapeWord, opWord);
    }

    /**
     * Publishes the words of nonblocking call {@code k}, which takes the message layer, if its cell is free and no
     * earlier call's words wait; else they wait (in {@code waiting}) until the next call on the communicator, or a
     * stalled run's check ({@link #stalled}), finds their cells free. So a nonblocking call never waits here for
     * its peers: MPI makes its start local, and a rank may start any number of them before a peer starts the first
     * (and then, say, send the message that the peer waits for before it starts them).
     */
    private void publishOrLater(final long k) {
        laterLock.lock();
        try {
            publishFree();
            if (0 == later && cellFree(k)) {
                write(k, null, 0, 0, callWord, shapeWord, opWord);
                return;
            }
            if (4 * later == waiting.length) {
                waiting = Arrays.copyOf(waiting, 2 * waiting.length);
            }
            final int at = 4 * later;
            waiting[at] = k;
            waiting[at + 1] = callWord;
            waiting[at + 2] = shapeWord;
            waiting[at + 3] = opWord;
            later = later + 1;
        } finally {
            laterLock.unlock();
        }
    }

    /** Publishes the waiting words whose cells are free, oldest first (the caller holds {@code laterLock}). */
    private void publishFree() {
        final int n = later;
        int w = 0;
        while (w < n && cellFree(waiting[4 * w])) {
            final int at = 4 * w;
            write(waiting[at], null, 0, 0, waiting[at + 1], waiting[at + 2], waiting[at + 3]);
            w++;
        }
        if (w > 0) {
            System.arraycopy(waiting, 4 * w, waiting, 0, 4 * (n - w));
            later = n - w;
        }
    }

    /**
     * Tells, without waiting, whether this rank may write the cell of call {@code k}: every peer has published call
     * {@code k - 3}, so none reads the cell's previous call any more (see the class note).
     */
    private boolean cellFree(final long k) {
        final long before = k - HostLayout.CELLS + 1;
        if (before <= 1) {
            return true;
        }
        final long at = HostLayout.cellAt(before, cell) + HostLayout.SEQ;
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            if (seen[r] < before) {
                if ((long) LONG.getAcquire(blocks[r], at) < before) {
                    return false;
                }
                seen[r] = before;
            }
        }
        return true;
    }

    /** Waits until this rank may write the cell of call {@code k} (see {@link #cellFree}). */
    private void awaitCell(final long k, final CollCall c) {
        final long before = k - HostLayout.CELLS + 1;
        if (before > 1) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                if (seen[r] < before) {
                    await(r, before, c);
                }
            }
        }
    }

    /** Writes call {@code k}'s bytes (if any) and words into its cell, then its number (release). */
    private void write(final long k, final MemorySegment from, final long offset, final long n, final long call,
        final long shape, final long op) {
        final long at = HostLayout.cellAt(k, cell);
        if (n > 0) {
            SegmentCopy.copy(from, offset, mine, at + HostLayout.bytesAt(n), n);
        }
        LONG.set(mine, at + HostLayout.CALL, call);
        LONG.set(mine, at + HostLayout.SHAPE, shape);
        LONG.set(mine, at + HostLayout.OP, op);
        LONG.setRelease(mine, at + HostLayout.SEQ, k);
        seen[rank] = k;
    }

    /** Waits for rank {@code r}'s call {@code k} and checks that it is this rank's call. */
    private void awaitCall(final int r, final long k, final CollCall c) {
        await(r, k, c);
        final MemorySegment b = blocks[r];
        final long at = HostLayout.cellAt(k, cell);
        final long theirCall = (long) LONG.get(b, at + HostLayout.CALL);
        final long theirShape = (long) LONG.get(b, at + HostLayout.SHAPE);
        final long theirOp = (long) LONG.get(b, at + HostLayout.OP);
        if (theirCall != callWord || theirShape != shapeWord || theirOp != opWord) {
            throw mismatch(r, CollHeader.of(c.kind(), c.root(), c.sendCount()), c.kind().mpiName(), callWord,
                shapeWord, opWord, theirCall, theirShape, theirOp);
        }
    }

    /** Waits until rank {@code r} has published call {@code k} (or a later one: see the class note). */
    private void await(final int r, final long k, final CollCall c) {
        awaitFlag(r, blocks[r], HostLayout.cellAt(k, cell) + HostLayout.SEQ, k, c);
        seen[r] = k;
    }

    /**
     * Waits until the word at {@code at} of rank {@code r}'s memory {@code b}, which only grows, holds {@code k} or
     * more (acquire): spinning, then the engine's progress and the idle strategy; fails once the peer is gone or
     * has run this call on another road.
     */
    void awaitFlag(final int r, final MemorySegment b, final long at, final long k, final CollCall c) {
        if ((long) LONG.getAcquire(b, at) < k) {
            awaitIdle(r, b, at, k, c);
        }
    }

    private void awaitIdle(final int r, final MemorySegment b, final long at, final long k, final CollCall c) {
        int iteration = 0;
        int polls = 0;
        while ((long) LONG.getAcquire(b, at) < k) {
            if (0 != (++polls & (POLLS - 1)) && idle.spinsOnly(iteration)) {
                Thread.onSpinWait();
                continue;
            }
            if (engine.progress() > 0) {
                iteration = 0;
                continue;
            }
            final TuttiException gone = engine.failureAffecting(comm.world(r));
            if (null != gone && (long) LONG.getAcquire(b, at) < k) {
                throw Failures.wrap(gone, c.kind().mpiName(), comm.describe(), "cannot complete"); // as on messages
            }
            if (0 == (iteration & (PROBE_EVERY - 1))) {
                probeOtherRoad(r, c);
            }
            idle.idle(iteration++);
            if ((0 == (iteration & 255) || idle.mayPark(iteration)) && Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw Failures.interrupted(c.kind().mpiName(), comm.describe(), "waiting for rank=" + r
                    + " in the on-host region", null);
            }
        }
    }

    /**
     * Fails the call if rank {@code r} sent a message on this call's tag, or a slot lane's agreement on it: the peer
     * runs this call through the message layer or as a persistent start, so it will never publish it here.
     */
    private void probeOtherRoad(final int r, final CollCall c) {
        final int world = comm.world(r);
        final boolean sent;
        try {
            sent = engine.hasArrived(comm.context(), world, tag)
                || engine.hasArrived(comm.context(), world, SlotLanes.agreementTag(tag));
        } catch (final TuttiException gone) {
            // The peer left or failed (the probe's progress may have just read its goodbye, sent after it published
            // this call): the wait's own check decides, after reading the flag again.
            return;
        }
        if (sent) {
            final String op = c.kind().mpiName();
            throw Errors.mismatch(ErrorClass.ARG, op, comm.describe(), r, "a message of another collective call "
                + "(through the message layer or slots) for this one", "called " + op + " through the on-host "
                + "region", "the ranks called different collectives, or run with different settings "
                + "tutti.coll.hostLimit, tutti.coll.directLimit or tutti.coll." + op);
        }
    }

    /**
     * Fails a run of the message layer that has stalled on call {@code k}, which this rank published here, if a
     * peer published call {@code k} too and its words differ from this rank's: another call (see
     * {@link #mismatch}), or this call through the region (a peer that sends nothing and may not wait). A peer
     * that has not published call {@code k}, or has published a later call in its cell, tells nothing. The cell of
     * call {@code k} is read only while this rank has not published call {@code k + 1}: until then no peer may
     * reuse it (see the class note), so the words read are call {@code k}'s.
     *
     * <p>Cost: asked on idle passes of a stalled wait only; per peer, two acquire loads and three plain ones.
     */
    @Override
    public TuttiException stalled(final long k, final CollHeader header, final String op) {
        if (0 != later && laterLock.tryLock()) { // this call's words may wait for a cell that peers have freed since
            try {
                publishFree();
            } finally {
                laterLock.unlock();
            }
        }
        final long at = HostLayout.cellAt(k, cell);
        final long next = HostLayout.cellAt(k + 1, cell) + HostLayout.SEQ;
        if ((long) LONG.getAcquire(mine, at + HostLayout.SEQ) != k) {
            return null;
        }
        final long ownCall = (long) LONG.get(mine, at + HostLayout.CALL);
        final long ownShape = (long) LONG.get(mine, at + HostLayout.SHAPE);
        final long ownOp = (long) LONG.get(mine, at + HostLayout.OP);
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            final MemorySegment b = blocks[r];
            if ((long) LONG.getAcquire(b, at + HostLayout.SEQ) != k) {
                continue;
            }
            final long theirCall = (long) LONG.get(b, at + HostLayout.CALL);
            final long theirShape = (long) LONG.get(b, at + HostLayout.SHAPE);
            final long theirOp = (long) LONG.get(b, at + HostLayout.OP);
            VarHandle.acquireFence(); // the words above are read before the check below
            if ((long) LONG.getAcquire(mine, next) > k) {
                return null; // this rank has gone on (a nonblocking call): the cell may be another call's now
            }
            if (theirCall != ownCall || theirShape != ownShape || theirOp != ownOp) {
                return mismatch(r, header, op, ownCall, ownShape, ownOp, theirCall, theirShape, theirOp);
            }
        }
        return null;
    }

    /**
     * The failure of a call whose peer made another: named as the message layer names it (the header's text when
     * the kind or root differs, else the count, type, op or form that does, or the road the ranks' settings chose).
     *
     * @param r      the peer
     * @param header this rank's call's header
     * @param op     the operation
     */
    private TuttiException mismatch(final int r, final CollHeader header, final String op, final long ownCall,
        final long ownShape, final long ownOp, final long theirCall, final long theirShape, final long theirOp) {
        final int theirBits = (int) (theirCall >>> Integer.SIZE);
        if (theirBits != (int) (ownCall >>> Integer.SIZE)) {
            return header.mismatch(op, comm, r, theirBits);
        }
        final String where = comm.describe();
        if (theirShape != ownShape) {
            return Errors.mismatch(ErrorClass.COUNT, op, where, r, shape(theirShape), "passed " + shape(ownShape),
                "the ranks passed different counts or types");
        }
        if (theirOp != ownOp) {
            return Errors.mismatch(ErrorClass.OP, op, where, r, "op=" + opName(theirOp), "passed op="
                + opName(ownOp), "the ranks passed different reduction operations");
        }
        final CollCall.Variant theirForm = form(theirCall);
        final CollCall.Variant ownForm = form(ownCall);
        return Errors.mismatch(ErrorClass.ARG, op, where, r, "a " + road(theirForm, op, theirCall), "called a "
            + road(ownForm, op, ownCall), theirForm != ownForm ? "blocking and nonblocking collectives do not match"
            : "the ranks run with different settings tutti.coll.hostLimit or tutti.coll." + op);
    }

    private static CollCall.Variant form(final long call) {
        return CollCall.Variant.values()[(int) (call & 0xFF)];
    }

    /** @return e.g. {@code nonblocking bcast through messages}: a call's form and road, from its call word */
    private static String road(final CollCall.Variant form, final String op, final long call) {
        return form.name().toLowerCase(java.util.Locale.ROOT) + " " + op + (0 != (call & 1L << 8)
            ? " through the on-host region" : " through messages");
    }

    private static String shape(final long word) {
        final int type = (int) word;
        return "count=" + (int) (word >>> Integer.SIZE) + " of type="
            + (type >= 0 && type < Datatype.values().length ? Datatype.fromCode(type).name() : "code " + type);
    }

    /** @return 0 for none, a predefined op's ordinal + 1, or {@code 1 << 32 | } a user op's name hash */
    private static long opCode(final Op op) {
        if (null == op) {
            return 0;
        }
        if (op instanceof Op.Predefined p) {
            return p.ordinal() + 1;
        }
        return 1L << Integer.SIZE | (op.name().hashCode() & 0xFFFF_FFFFL);
    }

    private static String opName(final long code) {
        if (0 == code) {
            return "none";
        }
        final Op.Predefined[] ops = Op.Predefined.values();
        return code <= ops.length ? ops[(int) code - 1].name() : "a user op";
    }

    /**
     * Every member has freed the communicator: gives this rank's block and chunk area back (see
     * {@link HostState#retired()}).
     */
    @Override
    public void retired() {
        memory.freeDirect(mine);
        final HostChunks h = chunks;
        if (null != h) {
            memory.freeDirect(h.area());
        }
    }

    @Override
    public String toString() {
        final HostChunks h = chunks;
        return "HostRegion(" + comm.describe() + ", " + size + " ranks, " + limit + " bytes a cell, " + calls
            + " calls, " + (null != h ? h.chunks() + " chunks" : declined ? "chunks off or declined" : "no chunk area")
            + ")";
    }
}
