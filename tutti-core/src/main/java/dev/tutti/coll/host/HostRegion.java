package dev.tutti.coll.host;

import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostState;
import dev.tutti.coll.MessageFallback;
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
 * A communicator's on-host region on this rank: every rank's block ({@link HostLayout}), this rank's own to write,
 * the others' to read. Each call-ordered call on the communicator (blocking, nonblocking, or a persistent request's
 * start) is numbered here and published in this rank's cell for it: its header words, and for a call on the region
 * its bytes; a call that takes the message layer publishes its words alone, so that a peer on the region that waits
 * for this rank finds out instead of waiting for ever, and its run, if it stalls, reads its peers' words of the call
 * ({@link #stalled}): a peer on the region that does not wait for it (a bcast's root) sends it nothing. What each
 * operation publishes, waits for and does is {@link HostSteps}'s table. A rank that waits for a peer's call compares
 * its words with its own: kind and root as a message header would, then count and type, op, and whether the peer
 * took the region too; a mismatch fails the call with the message layer's exception and text for the same fault. A
 * call on the region draws its message tag as a message-layer call would ({@link CollComm#drawTag}), so a rank
 * waiting here also fails, naming the settings that differ, when the peer sent a message under this call's tag (its
 * call went through messages or a persistent request's slots and will never be published). The block is given back
 * when the communicator is retired ({@link #retired()}).
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
 * <p>A gatherv, alltoallv, alltoallw or scatterv agrees its road from the ranks' offers ({@link HostSteps#taken}): a
 * blocking call at the call ({@link #agreed}), a nonblocking call or persistent start when its run completes
 * ({@link #startLater}). There a rank that offers none starts its messages at once; a run that finds an offer missing
 * is due ({@link HostQueue#due}), and the next thread to leave the lock starts its messages under the tag drawn at its
 * start ({@link #startDue}), outside the lock, since that start sends and may run the rank's progress.
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
    /**
     * Of those, the calls that took the message layer at the call (its runs' and the tests' measure of the road
     * taken, with {@link HostQueue#fellBack}, the calls that took it after their start).
     */
    private long messages;
    /**
     * Calls numbered but not yet published ({@link HostQueue}), guarded by {@code lock}, as are {@code runs}, the runs
     * not yet complete, oldest first, {@code running} of them.
     */
    private final HostQueue queue;
    private HostRun[] runs = new HostRun[HostLayout.CELLS];
    private int running;
    /** {@code queue.size() + running}, stored under the lock and read without it: 0 lets a call skip the lock. */
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
        this.queue = new HostQueue(cells, steps);
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
                awaitCalls(k, c, steps.awaits(c));
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
            steps.packInto(c, k, n);
        }
        cells.seal(k, callWord, shapeWord, opWord);
        if (!offers) {
            return false;
        }
        awaitCalls(k, c, steps.awaits(c)); // a gatherv's or scatterv's other ranks: their root, whose offer decides
        if (!steps.taken(k, c, callWord, shapeWord, limit, comm)) {
            return false;
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
    public RegionRun start(final CollCall c, final RegionRun reuse, final MessageFallback fallback) {
        final long k = ++calls;
        if (Road.agreedLater(c)) {
            return startLater(k, c, reuse, fallback);
        }
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
            return messages(k, c, call, shape, op);
        }
        final int drawn = comm.drawTag((int) (call >>> Integer.SIZE), c.sendCount());
        final HostRun run = runFor(reuse);
        run.arm(c, k, drawn, call, shape, op, chunked ? HostRun.ALL : steps.awaits(c), chunked);
        if (chunked) { // its words and where its bytes are read in place; the bytes go through the chunks
            return launch(run, run.name(), run.nameBytes(), 0, 2 * Long.BYTES, 0);
        }
        return launch(run, null, steps.source(c), steps.sourceAt(c), steps.published(c), HostSteps.hole(c));
    }

    /**
     * Starts a nonblocking or persistent gatherv, alltoallv, alltoallw or scatterv ({@link Road#agreedLater}):
     * publishes its words, with its offer and, if it offers, its bytes ({@link HostQueue#offerPacked}); a rank that
     * offers none goes to the message layer at once. Its run reads the offers it needs when it completes, and if one is
     * missing starts the call on the message layer through {@code fallback} ({@link #startDue}).
     */
    private RegionRun startLater(final long k, final CollCall c, final RegionRun reuse,
        final MessageFallback fallback) {
        final long n = steps.vectorBytes(c);
        final long call = HostWords.call(c, steps.offers(c, n, limit));
        if (0 == (call & HostWords.HOST)) {
            return messages(k, c, call, n, 0);
        }
        final int drawn = comm.drawTag((int) (call >>> Integer.SIZE), c.sendCount());
        final HostRun run = runFor(reuse);
        run.arm(c, k, drawn, call, n, 0, steps.awaits(c), false);
        run.later(fallback);
        return launch(run, null, null, 0, n, 0);
    }

    /** @return the request's run of an earlier start on this region, complete, or a new one */
    private HostRun runFor(final RegionRun reuse) {
        return reuse instanceof HostRun h && h.region() == this ? h : new HostRun(this);
    }

    /**
     * Hands a run, armed, to the region: publishes its words and bytes ({@code n} of {@code from} at {@code offset},
     * but its {@code hole}) or queues them, and completes it at once if it needs no peer or they are there.
     *
     * @param name what a run through the chunks publishes (its bytes are read in place), else null
     */
    private RegionRun launch(final HostRun run, final long[] name, final MemorySegment from, final long offset,
        final long n, final long hole) {
        if (null == unregister) {
            unregister = comm.addHostWork(this::doWork);
        }
        lock.lock();
        try {
            if (null != name) { // under the lock, as the loan's end (whichever thread completes the run)
                chunkRoad.name(run.call, name);
            }
            if (0 != pending) {
                progress();
            }
            if (running == runs.length) {
                runs = Arrays.copyOf(runs, 2 * running);
            }
            runs[running++] = run;
            if (run.later) {
                queue.offerPacked(firstRun(), run, n);
            } else {
                queue.offer(firstRun(), run.k, run.callWord, run.shapeWord, run.opWord, from, offset, n, hole, run);
            }
            if (run.published && 1 == running && tryFinish(run)) { // it needs no peer, or they are there
                runs[--running] = null;
            }
            pending();
        } finally {
            lock.unlock();
        }
        startDue();
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
     * waiting ({@link HostQueue#offer}).
     * So a nonblocking call never waits here for its peers: MPI makes its start local, and a rank may start any
     * number of them before a peer starts the first (and then, say, send the message that the peer waits for before
     * it starts them).
     *
     * @return null: the caller runs the call on the message layer
     */
    private RegionRun messages(final long k, final CollCall c, final long call, final long shape, final long op) {
        lock.lock();
        try {
            if (0 != pending) {
                progress();
            }
            queue.offer(firstRun(), k, call, shape, op, null, 0, 0, 0, null);
            pending();
        } finally {
            lock.unlock();
        }
        startDue();
        c.hostCall(k); // its run asks stalled(k) if it stalls
        messages++;
        return null;
    }

    /**
     * Stores {@code pending} (under the lock) with release semantics and only when it changes: readers take it as a
     * hint and then the lock, so no fence is needed on a start's path.
     */
    private void pending() {
        final int n = queue.size() + running;
        if (n != pending) {
            PENDING.setRelease(this, n);
        }
    }

    /**
     * @return the number of the oldest incomplete run, {@link Long#MAX_VALUE} if none (under the lock): a call up to
     *         it has no incomplete run before it
     */
    private long firstRun() {
        return 0 == running ? Long.MAX_VALUE : runs[0].k;
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
            final int w = queue.publish(firstRun());
            if (w > 0) {
                work += w;
                moved = true;
            }
        }
        pending();
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
            if (run.later) { // its road: the cells if every offer it needs is there, else the message layer
                if (!steps.taken(k, run.call, run.callWord, run.shapeWord, limit, comm)) {
                    queue.due(run); // over here (it reads no cell); startDue starts its messages outside the lock
                    return true;
                }
                steps.finishVector(k, run.call);
            } else if (run.chunked) { // through the chunks, after every earlier call (runs complete in call order)
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

    /**
     * Starts the message runs of the runs left due ({@link HostQueue#due}), oldest first, outside the lock: called
     * by every thread that leaves the lock after moving runs on, so that a rank waiting in any call starts them (its
     * peers may wait for their messages). Takes no lock when none is due.
     */
    private void startDue() {
        // Read without the lock: the thread that leaves a run due calls this after; another may see it late, or see
        // one that is already taken and find none under the lock.
        while (queue.anyDue()) {
            final HostRun run;
            lock.lock();
            try {
                run = queue.nextDue();
                if (null == run) {
                    return;
                }
                pending();
            } finally {
                lock.unlock();
            }
            run.startMessages();
        }
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
        if (0 != queue.unpublished() && queue.oldest() <= firstRun()) {
            want = HostCells.frees(queue.oldest());
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
            drawn = run.later ? -1 : run.tag;
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
            startDue();
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
        final int drawn = run.later ? -1 : run.tag; // a peer of a call agreed later may send before it publishes
        if (HostRun.ROOT == run.awaits) {
            final int root = run.call.root();
            waits.await(root, cells.block(root), seq, k, op, drawn);
        } else if (HostRun.ALL == run.awaits) {
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                waits.await(r, cells.block(r), seq, k, op, drawn);
            }
        } else if (HostRun.LOWER == run.awaits) {
            for (int r = 0; r < rank; r++) {
                waits.await(r, cells.block(r), seq, k, op, drawn);
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
        startDue();
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
        final int work;
        try {
            work = progress();
        } finally {
            lock.unlock();
        }
        startDue();
        return work;
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

    /** Waits for the calls {@code k} of the peers that blocking call {@code c} waits for ({@link HostRun#awaits}). */
    private void awaitCalls(final long k, final CollCall c, final int awaits) {
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
            startDue();
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
            + " calls, " + (messages + queue.fellBack()) + " through messages, " + chunkRoad + ")";
    }
}
