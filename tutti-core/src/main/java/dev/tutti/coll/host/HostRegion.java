package dev.tutti.coll.host;

import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostState;
import dev.tutti.coll.RegionRun;
import dev.tutti.coll.Road;
import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * A communicator's on-host region on this rank, and the algorithms of the calls that go through it: every rank's
 * block ({@link HostLayout}), this rank's own to write, the others' to read. Each call-ordered call on the
 * communicator (blocking, nonblocking, or a persistent request's start) is numbered here and published in this rank's
 * cell for it: its header words, and for a call on the region its bytes; a call that takes the message layer publishes
 * its words alone, so that a peer on the region that waits for this rank finds out instead of waiting for ever, and its
 * run, if it stalls, reads its peers' words of the call ({@link #stalled}): a peer on the region that does not wait for
 * it (a bcast's root, a reduce's non-root) sends it nothing.
 * <ul>
 * <li>barrier: publish, then wait for every peer's call.</li>
 * <li>bcast: the root publishes its bytes; every other rank waits for the root's call and copies them out.</li>
 * <li>reduce, allreduce: every rank publishes its operand; the root (every rank) waits for all and folds them in
 * rank order, {@code x0 op (x1 op (... op x(p-1)))}, from the cells: a non-commutative op is right, and every rank
 * of an allreduce computes the same bits (a commutative op starts from the rank's own operand where the bits stay
 * the same, {@link HostSteps#ownFirst}). Past the limit (blocking calls, and the other forms once a blocking call has
 * made the chunk area): through the chunk area or the message layer, as every rank decides alike from the words and
 * offers they publish with the call ({@link HostChunkRoad}).</li>
 * <li>gather, allgather: every rank publishes its block; the root (every rank) copies each out.</li>
 * <li>scan, exscan: every rank publishes its operand, and waits for the ranks before it and folds theirs (and for a
 * scan its own) in rank order. reduce_scatter_block, reduce_scatter: every rank publishes its whole operand, waits
 * for all, and folds its block of each in rank order (a reduce_scatter's ranks all pass every rank's count, and
 * publish a digest of them as the shape word, so that ranks passing other counts fail the call).</li>
 * <li>scatter: the root publishes every block but its own; each rank copies its own. alltoall: every rank
 * publishes its whole send but its own block; each copies its block out of every peer's cell and its own straight
 * from its send. The own block, which no peer reads, is left out and the others lie one behind the other, so that
 * at 2 ranks a cell holds one block, as a gather's does.</li>
 * <li>Past the limit, a call of any of these but barrier goes through the chunk area or the message layer,
 * as for the reductions ({@link HostChunkRoad}, {@link HostChunks#move}).</li>
 * <li>gatherv, allgatherv, alltoallv, scatterv (blocking): as their regular forms, but a rank may not know every
 * other's bytes, so the ranks agree at the call ({@link #agreed}): each publishes its words with its offer (its bytes
 * fit its cell, and are in it, after a table of where each peer's block starts; a gatherv's root: every block it
 * receives fits) and its bytes' length; a rank that offers none goes on to the message layer at once, one that does
 * reads the offers it needs (every peer's; a gatherv's or scatterv's other ranks their root's) and takes the cells
 * only if all offered, else the message layer too. A gatherv's root, whose offer decides, fails the call when a peer
 * offers none; a peer whose block is not as long as this rank expects fails it as the message layer would. A
 * nonblocking or persistent allgatherv, whose ranks all pass every rank's count, decides alone (its largest block fits
 * a cell) and publishes a digest of the counts as its shape word, so that ranks passing other counts fail it.</li>
 * </ul>
 * A rank that waits for a peer's call compares its words with its own: kind and root as a message header would, then
 * count and type, op, and whether the peer took the region too; a mismatch fails the call with the message layer's
 * exception and text for the same fault. A call on the region draws its message tag as a message-layer call would
 * ({@link CollComm#drawTag}), so a rank waiting here also fails, naming the settings that differ, when the peer sent
 * a message under this call's tag (its call went through messages or a persistent request's slots and will never
 * be published). The block is given back when the communicator is retired ({@link #retired()}).
 *
 * <p>A blocking call publishes, waits for the peers it needs and completes, all in the call. A nonblocking call or a
 * persistent start ({@link #start}) only publishes, and its run ({@link HostRun}, the request) completes when it is
 * tested or waited for: one publication per call, one table ({@link HostSteps}) of what each rank publishes, waits for
 * and does once its peers are there, for every form. A start never waits: when its cell is not free (its rank has run
 * three calls ahead of a peer), or an earlier run has not read its peers' cells yet, its words and bytes wait in this
 * rank's memory (its buffers stay unchanged while the request is active) and are published in call order by whichever
 * comes first: the next call on the communicator, a test or wait of a run, a pass of the rank's progress (this region's
 * {@link #doWork}, registered at its first start: so a rank that waits in another call still publishes what a peer
 * needs), or a stalled run's check ({@link #stalled}). Runs complete in call order, and a rank publishes call {@code j}
 * only once every run before it is complete, so no peer reuses a cell this rank still reads; a blocking call first
 * completes every earlier run and publishes every earlier call that waits. A run past the cells (through the chunk
 * area) publishes its words alone, waits for every peer's, and then completes only once its chunks have moved: each
 * test, wait or pass of progress moves them as far as its peers' flags allow ({@link HostChunkRoad#advance}), and a
 * wait waits for the flag that holds them.
 *
 * <p>Implementation notes. Owned by the threads that make the communicator's collective calls, one at a time (MPI's
 * rule), so its fields are plain, but for the waiting calls and the incomplete runs: a lock guards them, since a
 * run's test, a pass of progress and a stalled run's check may come from any thread; {@code pending}, their number,
 * is stored with release semantics and read as a hint, so a blocking call with nothing waiting takes no lock and a
 * start takes it once (a test or wait that completes a run once more).
 * The cells' reads and writes and their memory order are {@link HostCells}'s: a cell is reused only once no peer
 * reads it, and a cell's seq word only grows, so "has published call j" reads as "the cell of call j holds j or
 * more". A wait for a peer's flag is {@link HostWait}'s (the rank's idle strategy, the engine's progress, a gone peer
 * named). A call that finds every flag set waits for nothing and runs no progress: one in {@link #PROGRESS_EVERY}
 * makes one pass anyway (MPI's progress rule: a rank whose peers on this communicator always arrive first still moves
 * its other operations on; a pass per call would cost a small call a large share of its time), and a call makes one
 * first when a registered run of a higher priority is in flight. Cost per call: one copy in, the reads of the awaited
 * peers' lines and one copy out per block read; no allocation (the cells' data views are made once; a
 * reduce_scatter's views of its block in each operand once per block).
 */
final class HostRegion implements HostState {
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = java.lang.invoke.MethodHandles.lookup().findVarHandle(HostRegion.class, "pending", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Calls between two passes of the rank's progress made by calls that did not wait (a power of 2). */
    private static final int PROGRESS_EVERY = 32;
    /** Longs per call in {@code waiting}. */
    private static final int WORDS = 7;

    private final CollComm comm;
    private final P2pEngine engine;
    private final HostWait waits;
    private final DirectMemory memory;
    private final int rank;
    private final int size;
    /** Every rank's cells, this rank's own to write. */
    private final HostCells cells;
    /** The steps of each operation, over views of every rank's cells. */
    private final HostSteps steps;
    private final long limit;
    /** Its reductions past the limit: the chunk area, and whether a call takes it. */
    private final HostChunkRoad chunkRoad;
    private long calls;
    /** Of those, the calls that took the message layer (its runs' and the tests' measure of the road taken). */
    private long messages;
    /**
     * Calls numbered but not yet published ({@link #enqueue}), oldest first, {@code queued} of them: per call
     * {@value #WORDS} longs in {@code waiting} (its number, call, shape and op words, where its bytes start in
     * {@code from}, how many, and the own block left out of the source, {@link HostSteps#hole}), the memory its bytes
     * come from, and its run if it has one (a nonblocking call's or persistent start's through the region). Guarded
     * by {@code lock}, as are {@code runs}, the runs not yet complete, oldest first, {@code running} of them.
     */
    private long[] waiting = new long[WORDS * HostLayout.CELLS];
    private MemorySegment[] from = new MemorySegment[HostLayout.CELLS];
    private HostRun[] owners = new HostRun[HostLayout.CELLS];
    private int queued;
    private HostRun[] runs = new HostRun[HostLayout.CELLS];
    private int running;
    /** {@code queued + running}, stored under the lock and read without it: 0 lets a call skip the lock. */
    private volatile int pending;
    private final HostLock lock = new HostLock();
    /** Ends the registration of {@link #doWork} with the rank's progress; null until the region's first run. */
    private Runnable unregister;
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
        this.waits = new HostWait(comm);
        this.memory = memory;
        this.rank = comm.rank();
        this.size = comm.size();
        this.limit = limit;
        this.cells = new HostCells(rank, blocks, limit);
        this.steps = new HostSteps(rank, size, cells);
        this.chunkRoad = new HostChunkRoad(this, cells, comm, memory, steps, Settings.COLL_HOST_CHUNKS.choice());
    }

    /**
     * Numbers and publishes a blocking call, and runs it here if it takes the region ({@link Road#onHost}).
     *
     * @param c     the call, intracommunicator, with no hook
     * @param drawn the call's number drawn already (by the region's agreement, at this call), or -1
     * @return true if the call is done, false if it takes the message layer (its words are published)
     * @throws TuttiException if a peer's call does not match, or a peer is gone
     */
    boolean run(final CollCall c, final int drawn) {
        final long k = ++calls;
        if (Road.agreedAtCall(c)) {
            if (!agreed(k, c)) {
                return messages(k, c);
            }
            return done(k, c);
        }
        final CollKind kind = c.kind();
        final boolean host = Road.onHost(c, limit, chunkRoad.open(kind));
        callWord = HostWords.call(c, host);
        shapeWord = HostWords.shape(c);
        opWord = HostWords.opCode(c.op());
        if (!host) {
            publish(k, null, 0, 0, c);
            return messages(k, c);
        }
        tag = drawn >= 0 ? drawn : comm.drawTag((int) (callWord >>> Integer.SIZE), c.sendCount());
        if (comm.outranked(0)) {
            engine.progress(); // a registered run of a higher priority goes first, as for any collective of level 0
        }
        if (!Road.fitsCells(c, limit)) {
            if (!chunkRoad.run(k, c, tag)) {
                return messages(k, c); // no chunk area: the message layer runs it (every rank decided so)
            }
        } else {
            final boolean agrees = chunkRoad.agreesAt(c); // a wanted chunk area: this call carries the offers
            if (agrees) {
                chunkRoad.offer();
            }
            try {
                publish(k, steps.source(c), steps.sourceAt(c), steps.published(c), HostSteps.hole(c), c);
                final int awaits = steps.awaits(c);
                if (HostRun.ROOT == awaits) {
                    awaitCall(c.root(), k, c);
                } else if (HostRun.ALL == awaits) {
                    for (int i = 1; i < size; i++) {
                        awaitCall((rank + i) % size, k, c);
                    }
                } else if (HostRun.LOWER == awaits) {
                    for (int r = 0; r < rank; r++) {
                        awaitCall(r, k, c);
                    }
                }
            } catch (final RuntimeException | Error e) {
                if (agrees) {
                    chunkRoad.withdraw();
                }
                throw e;
            }
            if (agrees) {
                chunkRoad.agreeFromOffers();
            }
            steps.finish(k, c);
        }
        return done(k, c);
    }

    /**
     * Runs blocking vector call {@code k} through the cells if every rank it reads offers them (see the class note):
     * publishes its words, and its bytes if it offers, then waits for the offers it needs and copies its blocks out.
     *
     * @return true if the call is done through the cells, false if the message layer runs it
     */
    private boolean agreed(final long k, final CollCall c) {
        final long n = steps.vectorBytes(c);
        final boolean offers = steps.offers(c, n, limit);
        callWord = HostWords.call(c, offers);
        shapeWord = n;
        opWord = 0;
        tag = comm.peekTag(); // the call's messages carry it if it takes the message layer, which draws it then
        if (comm.outranked(0)) {
            engine.progress();
        }
        awaitTurn(k, c);
        if (offers && n > 0) {
            steps.pack(c, steps.data(rank, k, n));
        }
        cells.seal(k, callWord, shapeWord, opWord);
        if (!offers) {
            return false;
        }
        final CollKind kind = c.kind();
        final boolean rooted = CollKind.SCATTERV == kind || CollKind.GATHERV == kind;
        if (rooted && rank != c.root()) { // its root's offer decides
            awaitCall(c.root(), k, c);
            if (0 == (cells.callOf(c.root(), k) & HostWords.HOST)) {
                return false;
            }
        } else if (CollKind.SCATTERV != kind) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                awaitCall(r, k, c);
                final boolean offered = 0 != (cells.callOf(r, k) & HostWords.HOST);
                if (!offered && !rooted) {
                    return false;
                }
                if (!offered && cells.shapeOf(r, k) <= limit) { // a gatherv's peer that offers none: other settings
                    throw HostWords.mismatch(comm, r, CollHeader.of(kind, c.root(), c.sendCount()), kind.mpiName(),
                        callWord, shapeWord, opWord, cells.callOf(r, k), shapeWord, opWord, c);
                } // else its block is past its cell, and the root's count for it is not: finishVector names it
            }
        }
        tag = comm.drawTag((int) (callWord >>> Integer.SIZE), c.sendCount());
        steps.finishVector(k, c);
        return true;
    }

    /** Hands blocking call {@code k}, published, to the message layer: its run asks stalled(k) if it stalls. */
    private boolean messages(final long k, final CollCall c) {
        c.hostCall(k);
        messages++;
        return false;
    }

    /** Ends blocking call {@code k}, done through the region: a pass of progress now and then, its finishers. */
    private boolean done(final long k, final CollCall c) {
        if (0 == (k & (PROGRESS_EVERY - 1))) {
            engine.progress(); // MPI's progress rule, for a rank whose calls never wait (see the class note)
        }
        final List<Runnable> finish = c.finish();
        if (null != finish && !finish.isEmpty()) {
            finish.forEach(Runnable::run);
        }
        return true;
    }

    /** Notes a persistent request whose starts would take the chunk area ({@link #wantChunks}). */
    @Override
    public void persistentMade(final CollCall c) {
        wantChunks(c);
    }

    /**
     * Notes a call past the cells that would take the chunk area if one were agreed ({@link HostChunkRoad#missed},
     * which does nothing once it is): the communicator's next blocking call through the cells that waits for every
     * peer agrees one. Every rank notes the same calls, at the same places of its order.
     */
    private void wantChunks(final CollCall c) {
        if (!Road.fitsCells(c, limit) && Road.onHost(c, limit, true)) {
            chunkRoad.missed(c.kind());
        }
    }

    /**
     * Starts a nonblocking call, or a persistent request's start, through the region, or publishes its words alone
     * (see {@link HostState#start}). The call's bytes are published at once when its cell is free and no earlier call
     * waits, else they wait in this rank's memory (the request's buffers stay unchanged while it is active): a start
     * never waits. The run completes when the peers it needs have published the call and it has read their cells,
     * after every earlier run ({@link #advance}).
     */
    @Override
    public RegionRun start(final CollCall c, final RegionRun reuse) {
        final long k = ++calls;
        final boolean past = !Road.fitsCells(c, limit);
        final boolean chunked = past && chunkRoad.agreed(c.kind());
        final boolean host = Road.onHost(c, limit, chunked);
        if (!host) {
            wantChunks(c); // the next blocking barrier agrees a chunk area
        }
        final long call = HostWords.call(c, host);
        final long shape = HostWords.shape(c);
        final long op = HostWords.opCode(c.op());
        if (!host) {
            publishOrLater(k, call, shape, op);
            c.hostCall(k); // its run asks stalled(k) if it stalls
            messages++;
            return null;
        }
        final int drawn = comm.drawTag((int) (call >>> Integer.SIZE), c.sendCount());
        final HostRun run = reuse instanceof HostRun h && h.region() == this ? h : new HostRun(this);
        run.arm(c, k, drawn, call, shape, op, chunked ? HostRun.ALL : steps.awaits(c), chunked);
        if (null == unregister) {
            unregister = comm.addHostWork(this::doWork);
        }
        lock.lock();
        try {
            if (chunked) { // under the lock, as the loan's end (whichever thread completes the run)
                chunkRoad.name(c, run.name());
            }
            if (0 != pending) {
                progress();
            }
            if (running == runs.length) {
                runs = Arrays.copyOf(runs, 2 * running);
            }
            runs[running++] = run;
            if (chunked) { // its words and where its bytes are read in place; the bytes go through the chunks
                enqueue(k, call, shape, op, run.nameBytes(), 0, 2 * Long.BYTES, 0, run);
            } else {
                enqueue(k, call, shape, op, steps.source(c), steps.sourceAt(c), steps.published(c), HostSteps.hole(c),
                    run);
            }
            if (run.published && 1 == running && tryFinish(run)) { // it needs no peer, or they are there
                runs[--running] = null;
            }
            pending(queued + running);
        } finally {
            lock.unlock();
        }
        return run;
    }

    /**
     * Publishes this rank's blocking call {@code k}: first completes every earlier run and publishes every earlier
     * call that waits, waiting for them as for its own; then, once every peer has published call {@code k - 3} (so
     * that none reads the cell of call {@code k - 4} any more), copies {@code n} bytes into the cell (all of them:
     * the chunk road's offer, or where a copy's bytes are read in place), then the call's words, then its number.
     */
    void publish(final long k, final MemorySegment from, final long offset, final long n, final CollCall c) {
        publish(k, from, offset, n, 0, c);
    }

    /** Publishes blocking call {@code k} as above, its bytes but for the {@code hole} of its own block. */
    private void publish(final long k, final MemorySegment from, final long offset, final long n, final long hole,
        final CollCall c) {
        awaitTurn(k, c);
        cells.write(k, from, offset, n, hole, callWord, shapeWord, opWord);
    }

    /**
     * Waits until this rank may publish blocking call {@code k}: every earlier run complete and every earlier call
     * published, and its cell free.
     */
    private void awaitTurn(final long k, final CollCall c) {
        while (0 != pending) {
            awaitRuns(c);
        }
        awaitCell(k, c);
    }

    /**
     * Publishes the words of nonblocking or persistent call {@code k}, which takes the message layer, or leaves them
     * waiting ({@link #enqueue}).
     * So a nonblocking call never waits here for its peers: MPI makes its start local, and a rank may start any
     * number of them before a peer starts the first (and then, say, send the message that the peer waits for before
     * it starts them).
     */
    private void publishOrLater(final long k, final long call, final long shape, final long op) {
        lock.lock();
        try {
            if (0 != pending) {
                progress();
            }
            enqueue(k, call, shape, op, null, 0, 0, 0, null);
            pending(queued + running);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Publishes call {@code k} at once if its cell is free and nothing earlier waits, else queues it: its words, and
     * for a run ({@code owner}) where its bytes are. Under the lock, after {@link #progress}; the caller updates
     * {@code pending}.
     */
    private void enqueue(final long k, final long call, final long shape, final long op, final MemorySegment bytes,
        final long offset, final long n, final long hole, final HostRun owner) {
        if (0 == queued && noRunBefore(k) && cells.free(k)) {
            cells.write(k, bytes, offset, n, hole, call, shape, op);
            if (null != owner) {
                owner.published = true;
            }
            return;
        }
        if (queued == owners.length) {
            waiting = Arrays.copyOf(waiting, 2 * waiting.length);
            from = Arrays.copyOf(from, 2 * queued);
            owners = Arrays.copyOf(owners, 2 * queued);
        }
        final int at = WORDS * queued;
        waiting[at] = k;
        waiting[at + 1] = call;
        waiting[at + 2] = shape;
        waiting[at + 3] = op;
        waiting[at + 4] = offset;
        waiting[at + 5] = n;
        waiting[at + 6] = hole;
        from[queued] = bytes;
        owners[queued] = owner;
        queued++;
    }

    /**
     * Stores {@code pending} (under the lock) with release semantics and only when it changes: readers take it as a
     * hint and then the lock, so no fence is needed on a start's path.
     */
    private void pending(final int n) {
        if (n != pending) {
            PENDING.setRelease(this, n);
        }
    }

    /** @return whether every run of a call before {@code k} is complete (under the lock) */
    private boolean noRunBefore(final long k) {
        return 0 == running || runs[0].k >= k;
    }

    /**
     * Moves this rank's waiting calls and runs on, without waiting, in call order: completes each run whose peers
     * have published its call (the oldest first: a rank publishes call {@code j} only once it has read every cell
     * of the calls before, so no peer reuses a cell it still reads), and publishes each waiting call whose cell is
     * free and whose earlier runs are complete. Under the lock.
     *
     * @return the runs completed and calls published
     */
    private int progress() {
        int work = 0;
        boolean moved = true;
        while (moved) {
            moved = false;
            while (0 != running && tryFinish(runs[0])) {
                System.arraycopy(runs, 1, runs, 0, --running);
                runs[running] = null;
                work++;
                moved = true;
            }
            int w = 0;
            while (w < queued && noRunBefore(waiting[WORDS * w]) && cells.free(waiting[WORDS * w])) {
                final int at = WORDS * w;
                cells.write(waiting[at], from[w], waiting[at + 4], waiting[at + 5], waiting[at + 6], waiting[at + 1],
                    waiting[at + 2], waiting[at + 3]);
                if (null != owners[w]) {
                    owners[w].published = true;
                }
                w++;
            }
            if (w > 0) {
                System.arraycopy(waiting, WORDS * w, waiting, 0, WORDS * (queued - w));
                System.arraycopy(from, w, from, 0, queued - w);
                System.arraycopy(owners, w, owners, 0, queued - w);
                Arrays.fill(from, queued - w, queued, null);
                Arrays.fill(owners, queued - w, queued, null);
                queued -= w;
                work += w;
                moved = true;
            }
        }
        pending(queued + running);
        return work;
    }

    /**
     * Completes a run if this rank has published its call and every peer it waits for has too (their words checked
     * against the run's: a mismatch fails the run). Under the lock.
     *
     * @return true if the run is complete, with or without a failure
     */
    private boolean tryFinish(final HostRun run) {
        if (!run.published) {
            return false;
        }
        final long k = run.k;
        try {
            if (HostRun.ROOT == run.awaits) {
                final int root = run.call.root();
                if (!cells.published(root, k)) {
                    return false;
                }
                check(root, k, run.call, run.callWord, run.shapeWord, run.opWord);
            } else if (HostRun.ALL == run.awaits || HostRun.LOWER == run.awaits) {
                final boolean all = HostRun.ALL == run.awaits;
                for (; all ? run.checked < size : run.checked <= rank; run.checked++) {
                    final int r = all ? (rank + run.checked) % size : run.checked - 1;
                    if (!cells.published(r, k)) {
                        return false;
                    }
                    check(r, k, run.call, run.callWord, run.shapeWord, run.opWord);
                }
            }
            if (run.chunked) { // through the chunks, after every earlier call (runs complete in call order)
                if (!run.begun) {
                    run.begun = true;
                    chunkRoad.start(k, run.call, run.name());
                }
                if (!chunkRoad.advance()) {
                    return false;
                }
            } else {
                steps.finish(k, run.call);
            }
            final List<Runnable> after = run.call.finish();
            if (null != after && !after.isEmpty()) {
                after.forEach(Runnable::run);
            }
        } catch (final TuttiException e) {
            return over(run, e);
        }
        return over(run, null);
    }

    /** Completes a run that is over on this rank, with its failure or null, ending the loan of its bytes if any. */
    private boolean over(final HostRun run, final TuttiException failure) {
        if (run.chunked) {
            chunkRoad.returned(run.name());
        }
        run.complete(failure);
        return true;
    }

    /**
     * Waits, with the lock held on entry and on return, for what holds the oldest waiting call or run: a peer's
     * call that frees the oldest waiting call's cell, or that the oldest run waits for. The wait itself runs
     * without the lock.
     */
    private void awaitOldest(final String op) {
        int r = -1;
        long want = 0;
        int drawn = tag;
        if (0 != queued && (0 == running || waiting[0] <= runs[0].k)) {
            want = HostCells.frees(waiting[0]);
            for (int i = 1; i < size && r < 0; i++) {
                final int p = (rank + i) % size;
                if (!cells.published(p, want)) {
                    r = p;
                }
            }
        } else if (0 != running) {
            final HostRun run = runs[0];
            if (run.begun) { // its chunks wait for a peer's flag
                lock.unlock();
                try {
                    chunkRoad.await(op, run.tag);
                } finally {
                    lock.lock();
                }
                return;
            }
            want = run.k;
            drawn = run.tag;
            r = switch (run.awaits) {
                case HostRun.ROOT -> run.call.root();
                case HostRun.LOWER -> run.checked - 1;
                default -> (rank + run.checked) % size;
            };
        }
        if (r < 0) {
            return;
        }
        lock.unlock();
        try {
            waits.await(r, cells.block(r), cells.seqAt(want), want, op, drawn);
        } finally {
            lock.lock();
        }
    }

    /** Advances this rank's waiting calls and runs ({@link #progress}), if any. */
    void advance() {
        if (0 != pending) {
            lock.lock();
            try {
                progress();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits, without the lock, until every peer that a run needs has published its call (the rank's progress, which
     * these waits run, publishes and completes what comes before it): its test then completes it.
     */
    void awaitPeers(final HostRun run) {
        final long k = run.k;
        final long seq = cells.seqAt(k);
        final String op = run.call.kind().mpiName();
        if (HostRun.ROOT == run.awaits) {
            final int root = run.call.root();
            waits.await(root, cells.block(root), seq, k, op, run.tag);
        } else if (HostRun.ALL == run.awaits) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                waits.await(r, cells.block(r), seq, k, op, run.tag);
            }
        } else if (HostRun.LOWER == run.awaits) {
            for (int r = 0; r < rank; r++) {
                waits.await(r, cells.block(r), seq, k, op, run.tag);
            }
        }
    }

    /**
     * Moves this rank's waiting calls and runs on, and if nothing moved, waits once for what holds the oldest (a
     * blocking call before it publishes, a run's wait after its peers are there).
     */
    void awaitRuns(final CollCall c) {
        lock.lock();
        try {
            if (0 == progress()) {
                awaitOldest(c.kind().mpiName());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Fails a run whose call a gone peer has not published, or whose chunks wait for a gone peer (a test that has
     * long found it incomplete asks).
     */
    void checkGone(final HostRun run) {
        final String op = run.call.kind().mpiName();
        final int chunksWait;
        lock.lock();
        try {
            chunksWait = run.begun && !run.isDone() ? chunkRoad.waitRank() : -1;
        } finally {
            lock.unlock();
        }
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            final TuttiException gone = engine.failureAffecting(comm.world(r));
            if (null != gone && (chunksWait == r || !cells.published(r, run.k))) {
                throw Failures.wrap(gone, op, comm.describe(), "cannot complete");
            }
        }
    }

    /** Runs a pass of the rank's progress (which also moves this region's runs on). */
    void progressOnce() {
        engine.progress();
    }

    /** A pass of the rank's progress: moves waiting calls and runs on, unless another thread is at it. */
    private int doWork() {
        if (0 == pending || !lock.tryLock()) {
            return 0;
        }
        try {
            return progress();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until this rank may write the cell of call {@code k} (see {@link HostCells#free}). */
    private void awaitCell(final long k, final CollCall c) {
        final long before = HostCells.frees(k);
        if (before > 1) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                if (!cells.seen(r, before)) {
                    await(r, before, c);
                }
            }
        }
    }

    /** Waits for rank {@code r}'s call {@code k} and checks that it is this rank's call. */
    void awaitCall(final int r, final long k, final CollCall c) {
        await(r, k, c);
        check(r, k, c, callWord, shapeWord, opWord);
    }

    /** Checks that rank {@code r}'s call {@code k}, published, is this rank's call (its words {@code call...}). */
    private void check(final int r, final long k, final CollCall c, final long call, final long shape,
        final long op) {
        final TuttiException mismatch = cells.mismatch(comm, r, k, c, call, shape, op);
        if (null != mismatch) {
            throw mismatch;
        }
    }

    /** Waits until rank {@code r} has published call {@code k} (or a later one: see the class note). */
    private void await(final int r, final long k, final CollCall c) {
        awaitFlag(r, cells.block(r), cells.seqAt(k), k, c);
        cells.saw(r, k);
    }

    /** Waits for a word of rank {@code r} as {@link HostWait#await} does, for the current blocking call. */
    void awaitFlag(final int r, final MemorySegment b, final long at, final long k, final CollCall c) {
        waits.await(r, b, at, k, c.kind().mpiName(), tag);
    }

    /** Waits for a word of rank {@code r} as {@link HostWait#await} does, for the call of {@code op} drawn so. */
    void awaitWord(final int r, final MemorySegment b, final long at, final long k, final String op,
        final int drawn) {
        waits.await(r, b, at, k, op, drawn);
    }

    /**
     * Fails a run of the message layer that has stalled on call {@code k}, which this rank published here, if a
     * peer published call {@code k} too and its words differ from this rank's: another call (see
     * {@link HostWords#mismatch}), or this call through the region (a peer that sends nothing and may not wait). A peer
     * that has not published call {@code k}, or has published a later call in its cell, tells nothing. The cell of
     * call {@code k} is read only while this rank has not published call {@code k + 1}: until then no peer may
     * reuse it (see the class note), so the words read are call {@code k}'s.
     *
     * <p>Cost: asked on idle passes of a stalled wait only; per peer, two acquire loads and three plain ones.
     */
    @Override
    public TuttiException stalled(final long k, final CollHeader header, final String op) {
        if (0 != pending && lock.tryLock()) { // this call's words may wait for a cell that peers have freed since
            try {
                progress();
            } finally {
                lock.unlock();
            }
        }
        return cells.stalled(comm, k, header, op);
    }

    /**
     * Every member has freed the communicator: gives this rank's block and chunk area back (see
     * {@link HostState#retired()}).
     */
    @Override
    public void retired() {
        final Runnable u = unregister;
        if (null != u) {
            u.run();
        }
        cells.free(memory);
        chunkRoad.retired();
    }

    @Override
    public String toString() {
        return "HostRegion(" + comm.describe() + ", " + size + " ranks, " + limit + " bytes a cell, " + calls
            + " calls, " + messages + " through messages, " + chunkRoad + ")";
    }
}
