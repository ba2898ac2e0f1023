package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Request;
import dev.tutti.SharedMemory;
import dev.tutti.SharedWindow;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How a channel (of any QoS, intragroup or bipartite) moves its blocks when every rank shares memory with every
 * other (processes of one host over shm, or threads of one JVM): with one copy, made by the sender straight into the
 * receiver's receive buffer, which lives in a {@link SharedWindow}; no message, no matching, no staging.
 *
 * <p>Implementation notes. The window spans every rank of the channel (both groups of a bipartite one, merged);
 * {@link WindowLayout} says where things lie. Each rank's block holds its landing zones (a block from each of its
 * peers; twice its ring depth of them, at least 4), then a sequence line per (zone <i>z</i>, sender <i>s</i>): the
 * number + 1 of the last exchange <i>s</i> wrote into zone <i>z</i>, then assignment lines, which tell senders the
 * zone of each exchange ({@link ZoneAssignments}: the receiver hands zones out in exchange order as the application
 * releases them). The receive buffer that the channel hands
 * out for an exchange shows its zone ({@link ChannelBuffer#show}). More zones than buffers let a sender write
 * exchange <i>k</i> while the receiver still holds the buffer of exchange <i>k - 1</i>: with as many zones as
 * buffers, a ring of depth 1 would make every exchange wait one more crossing, for the release.
 * <ul>
 * <li>A sender of exchange <i>k</i> writes block <i>d</i> of its send buffer into the zone its peer <i>d</i> assigned
 * to <i>k</i>, at its own offset, once that peer's assignment line {@code k % zones} names <i>k</i> (acquire; the
 * value last read is kept in {@code credits}, so a line is read once per exchange at most), then stores <i>k + 1</i>
 * in its sequence line there (release). A block whose zone is not assigned yet waits in the exchange, which retries
 * it whenever it is polled.</li>
 * <li>A receiver's exchange <i>k</i> has arrived when every sender's sequence line of its zone reads <i>k + 1</i>
 * (acquire: the data is visible). A direction of a bipartite channel that moves nothing has no writes or no
 * arrivals.</li>
 * </ul>
 * An exchange ({@link Flight}) completes when all its blocks are written and all have arrived: then its send buffer
 * may be reused and its receive buffer read. Flights are reused, one per buffer of the ring: exchange
 * <i>k + depth</i> starts only after the application released a buffer, and exchanges start in order, so exchange
 * <i>k</i> completed before. {@code floor}, the lowest started exchange whose blocks have not all arrived, bounds how
 * far ahead zones are handed out.
 *
 * <p>Priority: while a collective of a higher priority than the channel's is in flight on this rank (such as a
 * prioritized channel's exchange), a flight runs a pass of the rank's progress before it writes, which advances the
 * higher one first (level by level, see {@code ActiveRuns}): whatever of its messages are ready go out before this
 * exchange's blocks, as through the engine. It does not hold its blocks back until the higher one completes: that
 * one may wait for a peer that first waits for this exchange (a legal order of calls on two communicators), and
 * holding back would then never end. A prioritized channel's exchanges are registered in that order
 * ({@link SharedWindow#prioritize}: {@link #inFlight()}, {@link #advance()}), so that lower-priority collectives and
 * channels see this rank outranked while one is in flight, and advance it first; the rank's progress then polls them
 * without a pass of its own (it has advanced the higher levels already), and never re-enters itself.
 *
 * <p>Threading: {@link #start} and {@link #released} run under the channel's lock. A flight is polled by the thread
 * waiting on it and by the channel's non-blocking looks (under the lock) at once, so its state belongs to the holder
 * of its {@code busy} flag (a CAS, skipped while nothing can have changed). A wait spins on the flight and runs the
 * rank's progress and asks whether its peers are gone on one idle iteration in {@value #CHECK_EVERY}: a peer that
 * left or failed before its part arrived fails the exchange, naming it.
 *
 * <p>Memory: closing retires the window ({@link SharedWindow#retire()}): its blocks go back once every rank has
 * closed the channel (a sender may have read an open line before this rank closed, and write later). Used for
 * blocks up to {@link #limit} bytes ({@link #fits}); larger blocks take the channel's other path (slots up to the slot
 * limit, above it shared-memory send buffers that move each block with one copy).
 */
final class WindowExchanges {
    /** The largest block that goes through the window without the shm transport (threads of one JVM). */
    private static final long LIMIT = 16 * 1024;
    /**
     * The largest block that goes through the window over shm. Above the eager limit (16 KiB) the other path moves
     * a block through slots up to the slot limit ({@link SharedMemory#slotLimit()}), and above it with the receiver's
     * one copy out of the sender's arena buffer once the whole exchange was submitted. Here the sender writes while
     * the receiver waits, which is faster than both up to this size (measured at 2 ranks with the send buffer written
     * before each exchange; bench/history/RESULTS-diary.md). The zones cost each rank's arena twice its ring depth
     * (at least 4) blocks per sender; a full arena keeps the other path.
     */
    private static final long SHM_LIMIT = 256 * 1024;
    /**
     * The smallest block that goes through the window: below a cache line, several senders' blocks (the receiver's
     * own among them) share each line of a zone and contend for it. Smaller blocks take the channel's other path,
     * a persistent alltoall, whose small messages go through slots the lean way, which is faster there than the
     * window, with or without each block in its zone's sequence line.
     */
    static final long MIN = 64;
    /** The fewest landing zones a rank has (twice its ring depth otherwise). */
    private static final int MIN_ZONES = 4;
    /** A wait runs the rank's progress and looks for gone peers on one idle iteration in this many (a power of two). */
    private static final int CHECK_EVERY = 64;
    /** Longs each rank contributes to the agreement: want, zones, senders, stride. */
    private static final int AGREE = 4;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle BUSY;
    private static final VarHandle ARRIVED;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(Flight.class, "busy", int.class);
            ARRIVED = MethodHandles.lookup().findVarHandle(Flight.class, "arrivedAll", boolean.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SharedWindow window;
    /** The merged communicator of a bipartite channel (this path's own, freed at close), else null. */
    private final Communicator merged;
    private final String where;
    private final WindowLayout at;
    /** Peers this rank writes to and receives from in an exchange (0 for a direction that moves nothing). */
    private final int writes;
    private final int arrivals;
    /** Per window rank and assignment line of it: the value last read (owner: the holder of a flight's busy). */
    private final long[][] credits;
    private final Flight[] flights;
    /** This rank's zones (the channel's lock held). */
    private final ZoneAssignments assignments;
    /** The next exchange to start here, and the lowest started one whose blocks have not all arrived (lock held). */
    private long started;
    private long floor;
    /** Peers in the order a flight writes to them: from the one after this rank's index round. */
    private final int[] order;
    /** The channel's priority (0, or its level: then its flights take part in the rank's priority order). */
    private final int level;
    /** This channel's place in the rank's priority order, or null at level 0. */
    private final SharedWindow.Registration ranking;

    private WindowExchanges(final SharedWindow window, final Communicator merged, final String where,
        final WindowLayout at, final int depth, final int level) {
        this.window = window;
        this.level = level;
        this.merged = merged;
        this.where = where;
        this.at = at;
        final int peers = at.peerCount();
        this.writes = 0 == at.sendBytes() ? 0 : peers;
        this.arrivals = 0 == at.recvBytes() ? 0 : peers;
        this.credits = new long[window.size()][];
        for (int p = 0; p < credits.length; p++) {
            credits[p] = new long[at.zones(p)];
            for (int a = 0; a < credits[p].length; a++) {
                credits[p][a] = ZoneAssignments.encode(a, a); // zone a is exchange a's from the start
            }
        }
        this.order = new int[peers];
        for (int i = 0; i < peers; i++) {
            order[i] = (at.index() + 1 + i) % peers;
        }
        this.assignments = new ZoneAssignments(at.block(at.me()), at.lineAt(at.me(), 0), at.zones(at.me()));
        this.flights = new Flight[depth];
        for (int j = 0; j < flights.length; j++) {
            flights[j] = new Flight();
        }
        this.ranking = 0 == level ? null : window.prioritize(level, this::inFlight, this::advance);
    }

    /**
     * Sets up the window of a channel, or returns null when some rank does not want it or cannot have it
     * (collective over {@code priv}, both groups of a bipartite channel: every rank calls it at the same point, and
     * all get a window or none).
     *
     * @param priv      the channel's private communicator
     * @param where     the channel, for messages
     * @param type      the element type
     * @param sendBlock elements this rank sends to each peer
     * @param recvBlock elements this rank receives from each peer
     * @param depth     this rank's ring depth
     * @param want      whether this rank's channel may take this path (not BOOLEAN)
     * @param level     the channel's priority (0: none)
     * @return the exchanges, or null
     */
    static WindowExchanges open(final Comm priv, final String where, final Datatype type, final int sendBlock,
        final int recvBlock, final int depth, final boolean want, final int level) {
        final boolean inter = priv.isInter();
        final Communicator merged = inter ? ((Intercommunicator) priv).merge(false) : (Communicator) priv;
        boolean kept = false;
        try {
            final int peers = inter ? priv.remoteSize() : priv.size();
            final long sendBytes = (long) sendBlock * type.sizeBytes();
            final long recvBytes = (long) recvBlock * type.sizeBytes();
            final int zones = Math.max(MIN_ZONES, 2 * depth);
            final long stride = WindowLayout.stride(peers, recvBytes);
            final boolean fits = fits(priv, sendBytes) && fits(priv, recvBytes);
            final int n = merged.size();
            final long[] all = new long[AGREE * n];
            merged.allgather(Buf.of(new long[] {want && fits ? 1 : 0, zones, peers, stride}), Buf.of(all));
            final int[] zoneCounts = new int[n];
            final int[] senders = new int[n];
            final long[] strides = new long[n];
            for (int r = 0; r < n; r++) {
                if (0 == all[AGREE * r]) {
                    return null;
                }
                zoneCounts[r] = (int) all[AGREE * r + 1];
                senders[r] = (int) all[AGREE * r + 2];
                strides[r] = all[AGREE * r + 3];
            }
            final Optional<SharedWindow> w = SharedWindow.allocate(merged, WindowLayout.bytes(zones, stride, peers));
            if (w.isEmpty()) {
                return null;
            }
            final int[] peerRanks = new int[peers];
            for (int d = 0; d < peers; d++) {
                peerRanks[d] = d;
            }
            final int[] window = inter ? priv.remoteGroup().translateRanks(peerRanks, merged.group()) : peerRanks;
            final WindowLayout layout = new WindowLayout(w.get(), merged.rank(), priv.rank(), window, zoneCounts,
                senders, strides, sendBytes, recvBytes);
            kept = true;
            return new WindowExchanges(w.get(), inter ? merged : null, where, layout, depth, level);
        } finally {
            if (inter && !kept) {
                merged.free();
            }
        }
    }

    /**
     * @return whether blocks of {@code blockBytes} go through the window, given that the ranks share memory (0: a
     *         direction that moves nothing)
     */
    private static boolean fits(final Comm priv, final long blockBytes) {
        return 0 == blockBytes || blockBytes >= MIN && blockBytes <= limit(priv);
    }

    /**
     * @param comm the channel's communicator
     * @return the largest block that goes through the window: over shm {@value #SHM_LIMIT}, else {@value #LIMIT}
     */
    private static long limit(final Comm comm) {
        return SharedMemory.of(comm).isPresent() ? SHM_LIMIT : LIMIT;
    }

    /** @return this rank's landing zones, by zone number */
    MemorySegment[] zones() {
        return at.ownZones();
    }

    /**
     * Returns the zone of the next exchange to start (the channel's lock held), or -1 when it has none yet: every
     * zone is held (by buffers the application has not released, or by exchanges assigned ahead), or it is
     * {@code zones} ahead of an exchange whose blocks have not all arrived; then the start waits, as for a free
     * receive buffer.
     *
     * @return the zone, or -1
     */
    int nextZone() {
        return assignments.zoneFor(started, floor());
    }

    /**
     * Starts exchange {@code k}, the next one, into the zone {@link #nextZone()} gave (the channel's lock held):
     * writes every block whose zone is assigned at once, then publishes this rank's new assignments.
     *
     * @param k    the exchange's number
     * @param zone its zone here
     * @param send the send buffer's memory
     * @return the exchange's request, complete once every block is written and every block of it has arrived
     */
    Request start(final long k, final int zone, final MemorySegment send) {
        floor(); // before its flight is reused: the exchange that last used it has arrived
        final Flight f = flights[(int) (k % flights.length)];
        f.arm(k, zone, send);
        started = k + 1;
        assignments.publish();
        return f;
    }

    /**
     * Takes back the zone of a released receive buffer (the channel's lock held); it goes to the next exchange
     * without one, published at the next {@link #publish()}.
     *
     * @param zone the zone the buffer showed
     */
    void released(final int zone) {
        assignments.released(zone, floor());
    }

    /** Publishes this rank's new assignments (the channel's lock held): before it looks at or waits for its peers. */
    void publish() {
        assignments.assign(floor());
        assignments.publish();
    }

    /** @return the lowest started exchange whose blocks have not all arrived, brought up to date (lock held) */
    private long floor() {
        while (floor < started) {
            final Flight f = flights[(int) (floor % flights.length)];
            if (f.k != floor || !(boolean) ARRIVED.getAcquire(f)) {
                break;
            }
            floor++;
        }
        return floor;
    }

    /**
     * @return whether an exchange is in flight here (a prioritized channel outranks lower levels only then); from any
     *         thread of the rank
     */
    private boolean inFlight() {
        for (final Flight f : flights) {
            if (!f.done) {
                return true;
            }
        }
        return false;
    }

    /**
     * Polls every exchange in flight, writing what it can without a pass of progress: a prioritized channel's part of
     * the rank's progress, run after the higher levels (see {@link SharedWindow#prioritize}); from any thread.
     *
     * @return how many exchanges completed
     */
    private int advance() {
        int completed = 0;
        for (final Flight f : flights) {
            if (!f.done && f.poll(false)) {
                completed++;
            }
        }
        return completed;
    }

    /**
     * Stops every flight (none writes or reads the window after this returns, even one another thread still waits
     * on: it fails as closed) and retires the window, whose blocks go back once every rank closed the channel.
     */
    void close() {
        if (null != ranking) {
            ranking.close();
        }
        for (final Flight f : flights) {
            while (!BUSY.compareAndSet(f, 0, 1)) {
                Thread.onSpinWait();
            }
            try {
                if (!f.done) {
                    f.failure = Failures.failed(ErrorClass.REQUEST, "exchange", where, "exchange " + f.k
                        + " was abandoned: the channel is closed", null);
                    f.done = true;
                }
            } finally {
                BUSY.setRelease(f, 0);
            }
        }
        window.retire();
        if (null != merged) {
            merged.free();
        }
    }

    /** One exchange in flight: see the class comment. */
    private final class Flight implements Request {
        @SuppressWarnings("unused") // accessed through BUSY
        private volatile int busy;
        /** True until the flight is first armed: an idle flight is not in flight ({@link #inFlight()}). */
        private volatile boolean done = true;
        /**
         * Whether every block of exchange {@code k} has arrived here: set by the holder of busy (a release store, no
         * fence at the moment the exchange completes), read under the channel's lock (acquire, {@link #floor()}).
         */
        @SuppressWarnings("unused") // accessed through ARRIVED
        private boolean arrivedAll;
        /** Written before {@code done} is set, read after it is seen set. */
        private TuttiException failure;
        private long k;
        /** This exchange's zone here. */
        private int j;
        private MemorySegment send;
        /** Per peer: whether this rank's block of the exchange is written there. */
        private final boolean[] written = new boolean[at.peerCount()];
        private int unwritten;
        /** The peers whose block has arrived: 0 .. arrived - 1 (they are looked at in peer order). */
        private int arrived;

        void arm(final long number, final int zone, final MemorySegment from) {
            if (writes > 0) {
                yieldToHigher();
            }
            while (!BUSY.compareAndSet(this, 0, 1)) { // a poller of the previous exchange may still be leaving
                Thread.onSpinWait();
            }
            try {
                rearm(number, zone, from);
            } finally {
                BUSY.setRelease(this, 0);
            }
        }

        private void rearm(final long number, final int zone, final MemorySegment from) {
            k = number;
            j = zone;
            ARRIVED.setRelease(this, false);
            send = from;
            Arrays.fill(written, false);
            unwritten = writes;
            arrived = 0;
            failure = null;
            done = false; // published with the rest by the channel's lock and the busy CAS of later polls
            writeOpen();
        }

        /**
         * While a collective of a higher priority than the channel's is in flight on this rank (a prioritized
         * channel's exchange), runs a pass of the rank's progress, which advances that collective first: its ready
         * messages go out before this exchange's next blocks. Called before a write, without busy held (a pass may
         * take a while, and the rank's progress may poll this channel's other flights).
         */
        private void yieldToHigher() {
            if (window.outranked(level)) {
                window.progress();
            }
        }

        /** Writes every block whose receive buffer is open (holder of busy, or the starter). */
        private void writeOpen() {
            for (int i = 0; i < writes && unwritten > 0; i++) {
                final int d = order[i];
                if (!written[d] && write(d)) {
                    written[d] = true;
                    unwritten--;
                }
            }
        }

        /** Writes this rank's block to peer {@code d} if the peer has assigned the exchange a zone. */
        private boolean write(final int d) {
            final int p = at.peer(d);
            final int a = (int) (k % at.zones(p));
            final long[] credit = credits[p];
            if (ZoneAssignments.exchangeOf(credit[a]) != k) {
                readAssignments(p, a);
                if (ZoneAssignments.exchangeOf(credit[a]) != k) {
                    return false;
                }
            }
            final int b = ZoneAssignments.zoneOf(credit[a]);
            final long bytes = at.sendBytes();
            SegmentCopy.copy(send, d * bytes, at.block(p), at.dataAt(p, b), bytes);
            LONG.setRelease(at.block(p), at.seqAt(p, b, at.index()), k + 1);
            return true;
        }

        /**
         * Reads peer {@code p}'s assignment {@code a} and the others in its line into {@code credits} (acquire each):
         * the next exchanges' zones come with the same line.
         */
        private void readAssignments(final int p, final int a) {
            final long[] credit = credits[p];
            final int per = WindowLayout.perLine();
            final int first = a / per * per;
            final int last = Math.min(credit.length, first + per);
            final MemorySegment block = at.block(p);
            for (int i = first; i < last; i++) {
                credit[i] = (long) LONG.getAcquire(block, at.lineAt(p, i));
            }
        }

        /** @return whether every sender's block of this exchange has arrived (holder of busy) */
        private boolean readArrived() {
            final MemorySegment mine = at.block(at.me());
            while (arrived < arrivals) {
                if ((long) LONG.getAcquire(mine, at.seqAt(at.me(), j, arrived)) != k + 1) {
                    return false;
                }
                arrived++;
            }
            ARRIVED.setRelease(this, true);
            return true;
        }

        /**
         * @param pass whether blocks still to write wait for a pass of progress first while the rank is outranked
         *             ({@link #yieldToHigher}); false from the rank's progress, which advanced the higher levels
         *             already
         * @return true once complete (successfully or not)
         */
        private boolean poll(final boolean pass) {
            if (done) {
                return true;
            }
            if (0 == unwritten && arrived < arrivals && (long) LONG.getAcquire(at.block(at.me()), at.seqAt(at.me(), j,
                arrived)) != k + 1) {
                return false; // racy look: nothing to write and the next block not here; no CAS
            }
            if (pass && unwritten > 0) { // racy: a hint, read again under busy
                yieldToHigher();
            }
            if (!BUSY.compareAndSet(this, 0, 1)) {
                return false;
            }
            try {
                if (!done) {
                    writeOpen();
                    if (readArrived() && 0 == unwritten) {
                        done = true;
                    }
                }
                return done;
            } finally {
                BUSY.setRelease(this, 0);
            }
        }

        /** Fails the exchange if a rank it still waits for is gone (after one more look at what arrived). */
        private void checkPeers() {
            for (int d = 0; d < written.length && !done; d++) {
                final TuttiException gone = waitsFor(d) ? window.failureOf(at.peer(d)) : null; // racy: whether to ask
                if (null != gone && !poll(true) && BUSY.compareAndSet(this, 0, 1)) {
                    try {
                        if (!done && waitsFor(d)) {
                            failure = Failures.wrap(gone, "exchange", where, "exchange " + k + " cannot complete, "
                                + "it waits for " + (null == merged ? "rank " : "remote rank ") + d);
                            done = true;
                        }
                    } finally {
                        BUSY.setRelease(this, 0);
                    }
                }
            }
        }

        /** @return whether the block to peer {@code d} is not written yet or the one from it has not arrived */
        private boolean waitsFor(final int d) {
            return (d < writes && !written[d]) || (d < arrivals && (long) LONG.getAcquire(at.block(at.me()),
                at.seqAt(at.me(), j, d)) != k + 1);
        }

        @Override
        public boolean test() {
            if (!poll(true)) {
                if (0 == window.progress()) {
                    checkPeers();
                }
                if (!done) {
                    return false;
                }
            }
            throwIfFailed();
            return true;
        }

        @Override
        public Status waitFor() {
            return waitFor(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        }

        @Override
        public Status waitFor(final long timeout, final TimeUnit unit) {
            final long ns = unit.toNanos(timeout);
            long deadline = 0;
            for (int iteration = 1; !poll(true); iteration++) {
                if (0 == (iteration & (CHECK_EVERY - 1))) {
                    window.progress();
                    checkPeers();
                    if (Long.MAX_VALUE != ns) { // the clock starts at the first check: a quick exchange reads none
                        final long now = System.nanoTime();
                        if (0 == deadline) {
                            deadline = now + Math.max(1, ns);
                        } else if (now - deadline >= 0 && !poll(true)) {
                            return null;
                        }
                    }
                }
                window.idle(iteration);
            }
            throwIfFailed();
            return Status.EMPTY;
        }

        private void throwIfFailed() {
            final TuttiException f = failure;
            if (null != f) {
                throw Failures.rethrown(f);
            }
        }

        /** An exchange cannot be cancelled (a collective); this does nothing. */
        @Override
        public void cancel() {
        }

        @Override
        public String toString() {
            return "exchange " + k + " (" + where + ", " + (done ? "done" : unwritten + " blocks to write, "
                + (arrivals - arrived) + " to arrive") + ")";
        }
    }
}
