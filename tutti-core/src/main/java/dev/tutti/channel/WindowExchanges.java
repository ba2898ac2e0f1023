package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Request;
import dev.tutti.SharedMemory;
import dev.tutti.SharedWindow;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * How a best-effort intragroup channel moves its blocks when every rank shares memory with every other (processes
 * of one host over shm, or threads of one JVM): with one copy, made by the sender straight into the receiver's
 * receive buffer, which lives in a {@link SharedWindow}; no message, no matching, no staging.
 *
 * <p>Implementation notes. Each rank's block of the window holds, in 64-byte lines: its {@code zones} landing zones
 * ({@code ranks * blockBytes} each, rounded up to whole lines; twice its ring depth, at least 4), then a sequence line
 * per (zone <i>z</i>, sender <i>s</i>): the number + 1 of the last exchange <i>s</i> wrote into zone <i>z</i>, then
 * {@code zones} assignment lines, which tell senders the zone of each exchange ({@link ZoneAssignments}: the receiver
 * hands zones out in exchange order as the application releases them). The receive buffer that the channel hands
 * out for an exchange shows its zone ({@link ChannelBuffer#show}). More zones than buffers let a sender write
 * exchange <i>k</i> while the receiver still holds the buffer of exchange <i>k - 1</i>: with as many zones as
 * buffers, a ring of depth 1 would make every exchange wait one more crossing, for the release.
 * <ul>
 * <li>A sender of exchange <i>k</i> writes block <i>p</i> of its send buffer into the zone rank <i>p</i> assigned
 * to <i>k</i>, at its own offset, once that rank's assignment line {@code k % zones(p)} names <i>k</i> (acquire; the
 * value last read is kept in {@code credits}, so a line is read once per exchange at most), then stores <i>k + 1</i>
 * in its sequence line there (release). A block whose zone is not assigned yet waits in the exchange, which retries
 * it whenever it is polled.</li>
 * <li>A receiver's exchange <i>k</i> has arrived when every sender's sequence line of its zone reads <i>k + 1</i>
 * (acquire: the data is visible).</li>
 * </ul>
 * An exchange ({@link Flight}) completes when all its blocks are written and all have arrived: then its send buffer
 * may be reused and its receive buffer read. Flights are reused, one per buffer of the ring: exchange
 * <i>k + depth</i> starts only after the application released a buffer, and exchanges start in order, so exchange
 * <i>k</i> completed before. {@code floor}, the lowest started exchange whose blocks have not all arrived, bounds how
 * far ahead zones are handed out.
 *
 * <p>Priority: the channel has priority 0 (a prioritized channel takes the other path); while a collective of a
 * higher priority is in flight on this rank (such as a prioritized channel's exchange), a flight writes nothing, so
 * that the higher one's messages go first and it completes first on every rank, as through the engine.
 *
 * <p>Threading: {@link #start} and {@link #released} run under the channel's lock. A flight is polled by the thread
 * waiting on it and by the channel's non-blocking looks (under the lock) at once, so its state belongs to the holder
 * of its {@code busy} flag (a CAS, skipped while nothing can have changed). A wait spins on the flight and runs the
 * rank's progress and asks whether its peers are gone on one idle iteration in {@value #CHECK_EVERY}: a peer that
 * left or failed before its part arrived fails the exchange, naming it.
 *
 * <p>Memory: closing retires the window ({@link SharedWindow#retire()}): its blocks go back once every rank has
 * closed the channel (a sender may have read an open line before this rank closed, and write later). Used for
 * blocks up to {@link #limit} bytes ({@link #fits}); larger blocks take the channel's other path, whose shared-memory
 * send buffers also move each block with one copy.
 */
final class WindowExchanges {
    /** The largest block that goes through the window without the shm transport (threads of one JVM). */
    private static final long LIMIT = 16 * 1024;
    /**
     * The smallest block that goes through the window on more than 2 ranks: below a cache line, several senders'
     * blocks share each line of a zone and contend for it. On 2 ranks (the receiver's own block and one sender's) it
     * was measured faster than the other path at 8-32 B too.
     */
    static final long MIN = 64;
    private static final long LINE = 64;
    /** The fewest landing zones a rank has (twice its ring depth otherwise). */
    private static final int MIN_ZONES = 4;
    /** A wait runs the rank's progress and looks for gone peers on one idle iteration in this many (a power of two). */
    private static final int CHECK_EVERY = 64;
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
    private final String where;
    private final int me;
    private final int ranks;
    private final long blockBytes;
    private final long stride;
    /** Per rank: its landing zones, and the offsets of its sequence lines and assignment lines in its block. */
    private final int[] zones;
    private final long[] seqBase;
    private final long[] lineBase;
    private final MemorySegment[] blocks;
    /** Per rank and assignment line of that rank: the value last read (owner: the holder of a flight's busy). */
    private final long[][] credits;
    private final Flight[] flights;
    /** This rank's zones (the channel's lock held). */
    private final ZoneAssignments assignments;
    /** The next exchange to start here, and the lowest started one whose blocks have not all arrived (lock held). */
    private long started;
    private long floor;
    /** Ranks in the order a flight writes to them: from the next rank round, itself last. */
    private final int[] order;

    private WindowExchanges(final SharedWindow window, final String where, final int me, final int[] zones,
        final int depth, final long blockBytes, final long stride) {
        this.window = window;
        this.where = where;
        this.me = me;
        this.ranks = zones.length;
        this.zones = zones;
        this.blockBytes = blockBytes;
        this.stride = stride;
        this.seqBase = new long[ranks];
        this.lineBase = new long[ranks];
        this.blocks = new MemorySegment[ranks];
        this.credits = new long[ranks][];
        this.order = new int[ranks];
        for (int p = 0; p < ranks; p++) {
            seqBase[p] = zones[p] * stride;
            lineBase[p] = seqBase[p] + (long) zones[p] * ranks * LINE;
            blocks[p] = window.segment(p);
            credits[p] = new long[zones[p]];
            for (int a = 0; a < zones[p]; a++) {
                credits[p][a] = ZoneAssignments.encode(a, a); // zone a is exchange a's from the start
            }
            order[p] = (me + 1 + p) % ranks;
        }
        this.assignments = new ZoneAssignments(blocks[me], lineBase[me], zones[me]);
        this.flights = new Flight[depth];
        for (int j = 0; j < flights.length; j++) {
            flights[j] = new Flight();
        }
    }

    /**
     * Sets up the window of a channel, or returns null when some rank does not want it or cannot have it
     * (collective over {@code comm}: every rank calls it at the same point, and all get a window or none).
     *
     * @param comm  the channel's private intracommunicator
     * @param where the channel, for messages
     * @param type  the element type
     * @param block elements per block
     * @param depth this rank's ring depth
     * @param want  whether this rank's channel may take this path (best effort, no priority, not BOOLEAN, blocks
     *              that {@link #fits})
     * @return the exchanges, or null
     */
    static WindowExchanges open(final Communicator comm, final String where, final Datatype type, final int block,
        final int depth, final boolean want) {
        final int n = comm.size();
        final int mine = Math.max(MIN_ZONES, 2 * depth);
        final long[] all = new long[2 * n];
        comm.allgather(Buf.of(new long[] {want ? 1 : 0, mine}), Buf.of(all));
        final int[] zones = new int[n];
        for (int r = 0; r < n; r++) {
            if (0 == all[2 * r]) {
                return null;
            }
            zones[r] = (int) all[2 * r + 1];
        }
        final long blockBytes = (long) block * type.sizeBytes();
        final long stride = (n * blockBytes + LINE - 1) / LINE * LINE;
        final long bytes = mine * stride + (long) mine * n * LINE + mine * LINE;
        final Optional<SharedWindow> w = SharedWindow.allocate(comm, bytes);
        return w.map(win -> new WindowExchanges(win, where, comm.rank(), zones, depth, blockBytes, stride))
            .orElse(null);
    }

    /**
     * @param comm       the channel's communicator
     * @param blockBytes the bytes of a block
     * @return whether blocks of that size go through the window (given that the ranks share memory)
     */
    static boolean fits(final Comm comm, final long blockBytes) {
        return (blockBytes >= MIN || comm.size() <= 2) && blockBytes <= limit(comm);
    }

    /**
     * @param comm the channel's communicator
     * @return the largest block that goes through the window: over shm the eager limit, above which the channel's
     *         send buffers live in the arena and move with one copy already; else {@value #LIMIT}
     */
    private static long limit(final Comm comm) {
        return SharedMemory.of(comm).map(SharedMemory::singleCopyAbove).orElse(LIMIT);
    }

    /** @return this rank's landing zones, by zone number */
    MemorySegment[] zones() {
        final MemorySegment[] z = new MemorySegment[zones[me]];
        for (int i = 0; i < z.length; i++) {
            z[i] = blocks[me].asSlice(i * stride, ranks * blockBytes);
        }
        return z;
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
     * Stops every flight (none writes or reads the window after this returns, even one another thread still waits
     * on: it fails as closed) and retires the window, whose blocks go back once every rank closed the channel.
     */
    void close() {
        for (final Flight f : flights) {
            while (!BUSY.compareAndSet(f, 0, 1)) {
                Thread.onSpinWait();
            }
            try {
                if (!f.done) {
                    f.failure = Failures.failed(dev.tutti.ErrorClass.REQUEST, "exchange", where, "exchange " + f.k
                        + " was abandoned: the channel is closed", null);
                    f.done = true;
                }
            } finally {
                BUSY.setRelease(f, 0);
            }
        }
        window.retire();
    }

    /** One exchange in flight: see the class comment. */
    private final class Flight implements Request {
        @SuppressWarnings("unused") // accessed through BUSY
        private volatile int busy;
        private volatile boolean done;
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
        private final boolean[] written = new boolean[ranks];
        private int unwritten;
        /** The senders whose block has arrived: ranks 0 .. arrived - 1 (they are looked at in rank order). */
        private int arrived;

        void arm(final long number, final int zone, final MemorySegment from) {
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
            java.util.Arrays.fill(written, false);
            unwritten = ranks;
            arrived = 0;
            failure = null;
            done = false; // published with the rest by the channel's lock and the busy CAS of later polls
            writeOpen();
        }

        /**
         * Writes every block whose receive buffer is open (holder of busy, or the starter); none while a collective
         * of a higher priority is in flight on this rank (a prioritized channel's exchange goes first).
         */
        private void writeOpen() {
            if (window.outranked(0)) {
                return;
            }
            for (int i = 0; i < ranks && unwritten > 0; i++) {
                final int p = order[i];
                if (!written[p] && write(p)) {
                    written[p] = true;
                    unwritten--;
                }
            }
        }

        private boolean write(final int p) {
            final int a = (int) (k % zones[p]);
            final long[] credit = credits[p];
            if (ZoneAssignments.exchangeOf(credit[a]) != k) {
                credit[a] = (long) LONG.getAcquire(blocks[p], lineBase[p] + a * LINE);
                if (ZoneAssignments.exchangeOf(credit[a]) != k) {
                    return false;
                }
            }
            final int b = ZoneAssignments.zoneOf(credit[a]);
            MemorySegment.copy(send, p * blockBytes, blocks[p], b * stride + me * blockBytes, blockBytes);
            LONG.setRelease(blocks[p], seqBase[p] + ((long) b * ranks + me) * LINE, k + 1);
            return true;
        }

        /** @return whether every sender's block of this exchange has arrived (holder of busy) */
        private boolean readArrived() {
            final MemorySegment mine = blocks[me];
            final long base = seqBase[me] + (long) j * ranks * LINE;
            while (arrived < ranks) {
                if ((long) LONG.getAcquire(mine, base + arrived * LINE) != k + 1) {
                    return false;
                }
                arrived++;
            }
            ARRIVED.setRelease(this, true);
            return true;
        }

        /** @return true once complete (successfully or not) */
        private boolean poll() {
            if (done) {
                return true;
            }
            if (0 == unwritten && arrived < ranks && (long) LONG.getAcquire(blocks[me], seqBase[me]
                + ((long) j * ranks + arrived) * LINE) != k + 1) {
                return false; // racy look: nothing to write and the next block not here; no CAS
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
            for (int p = 0; p < ranks && !done; p++) {
                final TuttiException gone = waitsFor(p) ? window.failureOf(p) : null; // racy: decides whether to ask
                if (null != gone && !poll() && BUSY.compareAndSet(this, 0, 1)) {
                    try {
                        if (!done && waitsFor(p)) {
                            failure = Failures.wrap(gone, "exchange", where, "exchange " + k + " cannot complete, "
                                + "it waits for rank " + p);
                            done = true;
                        }
                    } finally {
                        BUSY.setRelease(this, 0);
                    }
                }
            }
        }

        /** @return whether the block to rank {@code p} is not written yet or the one from it has not arrived */
        private boolean waitsFor(final int p) {
            return !written[p] || (long) LONG.getAcquire(blocks[me], seqBase[me] + ((long) j * ranks + p) * LINE)
                != k + 1;
        }

        @Override
        public boolean test() {
            if (!poll()) {
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
            for (int iteration = 1; !poll(); iteration++) {
                if (0 == (iteration & (CHECK_EVERY - 1))) {
                    window.progress();
                    checkPeers();
                    if (Long.MAX_VALUE != ns) { // the clock starts at the first check: a quick exchange reads none
                        final long now = System.nanoTime();
                        if (0 == deadline) {
                            deadline = now + Math.max(1, ns);
                        } else if (now - deadline >= 0 && !poll()) {
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
                + (ranks - arrived) + " to arrive") + ")";
        }
    }
}
