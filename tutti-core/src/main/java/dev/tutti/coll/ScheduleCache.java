package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SendRequest;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The schedules of a communicator's recent regular collectives (up to {@link #MAX_BYTES} per rank), so that a loop
 * calling the same collective on the same buffers builds its schedule once: a hit costs a few comparisons, and only the
 * run is new per call.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Key. A schedule depends on the algorithm (which implies the operation; for an intercommunicator, whose
 *     operations have one schedule each, the operation), the datatypes and counts (send and receive, which differ
 *     on an intercommunicator), the roots (local and remote), the reduction and the memory of the send and receive
 *     buffers (this rank and the group size are fixed per
 *     communicator). Memory is compared by identity, never by {@code MemorySegment} object (a new {@code Buf}
 *     over the same array has a new segment): a heap segment by (array identity, offset, size), a native one by
 *     (scope identity, address, size). Same scope and address is the same memory while the scope is alive, and the
 *     cached schedule's own segments keep it alive. Segments whose memory cannot be named (read-only heap
 *     segments hide their array) are not cached. Callers exclude what the key cannot describe: v-collectives
 *     (their count arrays may change between calls), alltoallw, staged {@code boolean} buffers and large
 *     messages ({@link #covers}).</li>
 * <li>Reuse. Schedules are written to be run again: scratch is fully written by each run before it is read, and
 *     in-place inputs are snapshot by a step ({@link ScheduleBuilder#snapshot}). But two runs must not share one
 *     schedule's scratch at once, so an entry is leased: {@link #claim} takes it with a CAS and the run gives it
 *     back ({@link Entry#release}) after its last step, before it completes. A run that fails never gives it back
 *     (messages may still land in its memory): the entry is dead and the next {@link #add} of that key replaces it.
 *     A lookup that finds its key leased builds a fresh, uncached schedule. The entry also lends its
 *     leaseholder the array of part requests and the part requests themselves (one reusable receive and send
 *     per step index, rearmed for each message), and keeps the last blocking run for the next blocking call, so
 *     that a blocking collective on a cached schedule allocates nothing: no garbage, no collections, which on a
 *     host whose cores all run busy-polling ranks stall every rank for milliseconds.</li>
 * <li>Admission. A key is cached the second time it misses within the last {@link #GHOSTS} misses: only a hash
 *     of a missed key is remembered (no allocation, no reference to the memory), so calls on fresh buffers, each
 *     a new key, pay a hash rather than an entry. A hash collision only admits a key early.</li>
 * <li>Bounds and memory. {@link #WAYS} entries per communicator, replaced by the clock rule (a hit sets an entry's
 *     {@code recent} bit; insertion clears bits until it finds an entry without one), so one-off calls on fresh
 *     buffers do not evict a loop's schedule. Entries are held through soft references: a cached schedule keeps
 *     the user's arrays and its scratch reachable only until the collector needs the memory.</li>
 * <li>Threads. Slots are an {@link AtomicReferenceArray} (volatile reads and writes); an entry's key fields are
 *     final, so any thread that reads an entry sees its key. Concurrent inserts may overwrite each other's slot:
 *     that only loses a cache entry; the clock hand, the clock bits and the remembered hashes are plain fields,
 *     so racing updates only lose hints. The lease's CAS and release store order successive runs' use of the
 *     schedule's memory.</li>
 * </ul>
 */
public final class ScheduleCache {
    /** Entries per communicator. */
    static final int WAYS = 4;
    /**
     * Largest per-rank message (bytes, as given to the selection table) whose schedule is cached. Large ones too:
     * their schedules hold scratch as large as the message, and building it anew on every call (an allocation
     * the collector must then reclaim) cost a 256 KiB allreduce several times its transfer; entries are soft, so
     * the collector may still take the scratch back.
     */
    static final long MAX_BYTES = 16L << 20;
    /** Hashes of recently missed keys remembered for admission. */
    static final int GHOSTS = 8;
    /** The owner of an absent buffer (null segment): matches only another absent one. */
    private static final Object ABSENT = new Object();

    private final AtomicReferenceArray<SoftReference<Entry>> slots = new AtomicReferenceArray<>(WAYS);
    private final long[] ghosts = new long[GHOSTS];
    private int hand;
    private int ghostHand;

    /**
     * Returns whether collectives of this size are cached.
     *
     * @param bytes the per-rank bytes given to the selection table
     * @return true if {@link #claim} and {@link #add} are worth calling
     */
    public static boolean covers(final long bytes) {
        return bytes <= MAX_BYTES;
    }

    /**
     * Finds the schedule of an intracommunicator call and leases it to the caller.
     *
     * @param id    the algorithm
     * @param type  the element type
     * @param count the count
     * @param root  the root, or -1
     * @param op    the reduction, or null
     * @param send  the send memory, or null
     * @param recv  the receive memory, or null
     * @return the leased entry, or null if there is none or it is in use
     */
    public Entry claim(final AlgorithmId id, final Datatype type, final int count, final int root, final Op op,
        final MemorySegment send, final MemorySegment recv) {
        return claim(id, type, count, type, count, root, root, op, send, recv);
    }

    /**
     * Finds the schedule of a call and leases it to the caller.
     *
     * @param id the algorithm of an intracommunicator call, or null for an intercommunicator one (its kind then
     *           names the schedule)
     * @param c  the call
     * @return the leased entry, or null if there is none or it is in use
     */
    public Entry claim(final AlgorithmId id, final CollCall c) {
        return claim(null != id ? id : c.kind(), c.sendType(), c.sendCount(), c.recvType(), c.recvCount(), c.root(),
            c.remoteRoot(), c.op(), c.send(), c.recv());
    }

    private Entry claim(final Object algorithm, final Datatype type, final int count, final Datatype recvType,
        final int recvCount, final int root, final int remoteRoot, final Op op, final MemorySegment send,
        final MemorySegment recv) {
        // The memory's owners are looked up only when an entry's arguments match and its segments are other objects
        // than the call's (a caller that keeps its Bufs passes the same ones): heapBase() returns an Optional, which
        // the JIT does not always keep off the heap.
        Object sendOwner = null;
        Object recvOwner = null;
        for (int i = 0; i < WAYS; i++) {
            final SoftReference<Entry> ref = slots.get(i);
            final Entry e = null == ref ? null : ref.get();
            if (null == e || !e.sameArguments(algorithm, type, count, recvType, recvCount, root, remoteRoot, op)) {
                continue;
            }
            if (!e.sameSegments(send, recv)) {
                if (null == sendOwner) {
                    sendOwner = owner(send);
                    recvOwner = owner(recv);
                    if (null == sendOwner || null == recvOwner) {
                        return null;
                    }
                }
                if (!e.sameMemory(sendOwner, send, recvOwner, recv)) {
                    continue;
                }
            }
            e.recent = true;
            return e.tryClaim() ? e : null;
        }
        return null;
    }

    /**
     * Caches a schedule just built for an intracommunicator call and leases it to the caller, replacing an entry of
     * the same key (a dead one) or the clock's victim; or, the first time the key misses, only remembers it.
     *
     * @param id       the algorithm
     * @param type     the element type
     * @param count    the count
     * @param root     the root, or -1
     * @param op       the reduction, or null
     * @param send     the send memory, or null
     * @param recv     the receive memory, or null
     * @param schedule the schedule built for exactly these arguments
     * @return the leased entry, or null if the schedule is not cached (a first miss, or memory that cannot be
     *         named)
     */
    public Entry add(final AlgorithmId id, final Datatype type, final int count, final int root, final Op op,
        final MemorySegment send, final MemorySegment recv, final Schedule schedule) {
        return add(id, type, count, type, count, root, root, op, send, recv, schedule);
    }

    /**
     * Caches a schedule just built for a call, as {@link #add(AlgorithmId, Datatype, int, int, Op, MemorySegment,
     * MemorySegment, Schedule)} does.
     *
     * @param id       as for {@link #claim(AlgorithmId, CollCall)}
     * @param c        the call
     * @param schedule the schedule built for exactly this call
     * @return the leased entry, or null if the schedule is not cached
     */
    public Entry add(final AlgorithmId id, final CollCall c, final Schedule schedule) {
        return add(null != id ? id : c.kind(), c.sendType(), c.sendCount(), c.recvType(), c.recvCount(), c.root(),
            c.remoteRoot(), c.op(), c.send(), c.recv(), schedule);
    }

    private Entry add(final Object algorithm, final Datatype type, final int count, final Datatype recvType,
        final int recvCount, final int root, final int remoteRoot, final Op op, final MemorySegment send,
        final MemorySegment recv, final Schedule schedule) {
        final Object sendOwner = owner(send);
        final Object recvOwner = owner(recv);
        if (null == sendOwner || null == recvOwner) {
            return null;
        }
        long h = System.identityHashCode(algorithm);
        h = 31 * h + System.identityHashCode(type);
        h = 31 * h + count;
        h = 31 * h + System.identityHashCode(recvType);
        h = 31 * h + recvCount;
        h = 31 * h + root;
        h = 31 * h + remoteRoot;
        h = 31 * h + System.identityHashCode(op);
        h = 31 * h + System.identityHashCode(sendOwner);
        h = 31 * h + address(send);
        h = 31 * h + size(send);
        h = 31 * h + System.identityHashCode(recvOwner);
        h = 31 * h + address(recv);
        if (!admit(31 * h + size(recv))) {
            return null;
        }
        final Entry fresh = new Entry(algorithm, type, count, recvType, recvCount, root, remoteRoot, op, sendOwner,
            send, recvOwner, recv, schedule);
        fresh.tryClaim();
        slots.set(victim(fresh), new SoftReference<>(fresh));
        return fresh;
    }

    private int victim(final Entry fresh) {
        for (int i = 0; i < WAYS; i++) {
            final SoftReference<Entry> ref = slots.get(i);
            final Entry e = null == ref ? null : ref.get();
            if (null == e || e.sameKey(fresh)) {
                return i;
            }
        }
        for (int n = 0; n < 2 * WAYS; n++) {
            final int i = hand;
            hand = (i + 1) % WAYS;
            final SoftReference<Entry> ref = slots.get(i);
            final Entry e = null == ref ? null : ref.get();
            if (null == e || !e.recent) {
                return i;
            }
            e.recent = false;
        }
        return hand;
    }

    /** @return whether {@code h} missed recently; if not, remembers it */
    private boolean admit(final long h) {
        for (int i = 0; i < GHOSTS; i++) {
            if (ghosts[i] == h) {
                return true;
            }
        }
        final int i = ghostHand;
        ghostHand = (i + 1) % GHOSTS;
        ghosts[i] = h;
        return false;
    }

    private static Object owner(final MemorySegment s) {
        if (null == s) {
            return ABSENT;
        }
        return s.isNative() ? s.scope() : s.heapBase().orElse(null);
    }

    private static long address(final MemorySegment s) {
        return null == s ? 0 : s.address();
    }

    private static long size(final MemorySegment s) {
        return null == s ? -1 : s.byteSize();
    }

    /** A cached schedule, its key and its lease. */
    public static final class Entry {
        private static final VarHandle STATE;
        private static final VarHandle SPARE;
        private static final int FREE = 0;
        private static final int LEASED = 1;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Entry.class, "state", int.class);
                SPARE = MethodHandles.lookup().findVarHandle(Entry.class, "spareRun", ScheduleRun.class);
            } catch (final ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The algorithm of an intracommunicator call, the kind of an intercommunicator one. */
        private final Object algorithm;
        private final Datatype type;
        private final int count;
        private final Datatype recvType;
        private final int recvCount;
        private final int root;
        private final int remoteRoot;
        private final Op op;
        private final Object sendOwner;
        private final long sendAddress;
        private final long sendSize;
        private final Object recvOwner;
        private final long recvAddress;
        private final long recvSize;
        /** The segments the entry was built for (the schedule refers to their memory anyway). */
        private final MemorySegment sendSegment;
        private final MemorySegment recvSegment;
        private final Schedule schedule;
        /** The part requests of the leaseholder's current round, sized to the widest round. */
        private final AbstractRequest[] parts;
        /** Reusable part requests by step index, created by the first run; the leaseholder's only. */
        private final RecvRequest[] recvParts;
        private final SendRequest[] sendParts;
        /** A finished blocking run of this schedule, reused by the next blocking call (taken by getAndSet). */
        @SuppressWarnings("unused") // accessed through SPARE too
        private volatile ScheduleRun spareRun;
        private volatile int state;
        /** Clock bit: set by a hit, cleared by an insertion passing over it (racy: only a hint). */
        private boolean recent;

        private Entry(final Object algorithm, final Datatype type, final int count, final Datatype recvType,
            final int recvCount, final int root, final int remoteRoot, final Op op, final Object sendOwner,
            final MemorySegment send, final Object recvOwner, final MemorySegment recv, final Schedule schedule) {
            this.algorithm = algorithm;
            this.type = type;
            this.count = count;
            this.recvType = recvType;
            this.recvCount = recvCount;
            this.root = root;
            this.remoteRoot = remoteRoot;
            this.op = op;
            this.sendOwner = sendOwner;
            this.sendAddress = address(send);
            this.sendSize = size(send);
            this.recvOwner = recvOwner;
            this.recvAddress = address(recv);
            this.recvSize = size(recv);
            this.sendSegment = send;
            this.recvSegment = recv;
            this.schedule = schedule;
            this.parts = new AbstractRequest[schedule.widest()];
            this.recvParts = new RecvRequest[parts.length];
            this.sendParts = new SendRequest[parts.length];
        }

        /** @return the schedule */
        public Schedule schedule() {
            return schedule;
        }

        private boolean sameArguments(final Object theAlgorithm, final Datatype theType, final int theCount,
            final Datatype theRecvType, final int theRecvCount, final int theRoot, final int theRemoteRoot,
            final Op theOp) {
            return algorithm == theAlgorithm && type == theType && count == theCount && recvType == theRecvType
                && recvCount == theRecvCount && root == theRoot && remoteRoot == theRemoteRoot && op == theOp;
        }

        /** Whether the call passes the very segments this entry was built for (immutable: same memory). */
        private boolean sameSegments(final MemorySegment send, final MemorySegment recv) {
            return sendSegment == send && recvSegment == recv;
        }

        private boolean sameMemory(final Object theSendOwner, final MemorySegment send, final Object theRecvOwner,
            final MemorySegment recv) {
            return sendOwner == theSendOwner && recvOwner == theRecvOwner
                && sendAddress == address(send) && sendSize == size(send)
                && recvAddress == address(recv) && recvSize == size(recv);
        }

        private boolean sameKey(final Entry o) {
            return algorithm == o.algorithm && type == o.type && count == o.count && recvType == o.recvType
                && recvCount == o.recvCount && root == o.root && remoteRoot == o.remoteRoot && op == o.op
                && sendOwner == o.sendOwner && recvOwner == o.recvOwner && sendAddress == o.sendAddress
                && sendSize == o.sendSize && recvAddress == o.recvAddress && recvSize == o.recvSize;
        }

        /**
         * An entry of no cache, for one persistent request's schedule: it lends the request's run its part
         * requests and is leased by each start.
         *
         * @param schedule the schedule
         * @return the entry, free
         */
        static Entry standalone(final Schedule schedule) {
            return new Entry(null, null, 0, null, 0, -1, -1, null, ABSENT, null, ABSENT, null, schedule);
        }

        boolean tryClaim() {
            return STATE.compareAndSet(this, FREE, LEASED);
        }

        /**
         * As {@link #tryClaim()}, for an entry that one thread claims (a persistent request's own, by its starts):
         * no atomic read-modify-write, since its only other writer is the run that releases it.
         *
         * @return true if the entry was free and is now leased
         */
        boolean tryClaimOwned() {
            if (FREE != (int) STATE.getAcquire(this)) {
                return false;
            }
            STATE.setOpaque(this, LEASED);
            return true;
        }

        /**
         * Returns the array of part requests and, on the first run, creates the entry's reusable part requests: one
         * receive and one send per step index. For the leaseholder only.
         *
         * @param engine the engine the requests belong to
         * @return the array of part requests
         */
        AbstractRequest[] parts(final P2pEngine engine) {
            if (parts.length > 0 && null == recvParts[0]) {
                for (int i = 0; i < parts.length; i++) {
                    recvParts[i] = engine.reusableRecv();
                    sendParts[i] = engine.reusableSend();
                }
            }
            return parts;
        }

        /**
         * Returns the reusable receive for the {@code i}-th step of a round, for the leaseholder only (after
         * {@link #parts(P2pEngine)}). Every part of the previous run completed successfully (a run gives the lease
         * back only then), so no transport still holds it.
         *
         * @param i the step's index in its round
         * @return the idle receive
         */
        RecvRequest recvPart(final int i) {
            return recvParts[i];
        }

        /**
         * Returns the reusable send for the {@code i}-th step of a round; see {@link #recvPart}.
         *
         * @param i the step's index in its round
         * @return the idle send
         */
        SendRequest sendPart(final int i) {
            return sendParts[i];
        }

        /** @return the idle run kept for the next blocking call, taken (the entry keeps none until it is given back) */
        ScheduleRun takeSpareRun() {
            return (ScheduleRun) SPARE.getAndSet(this, null);
        }

        /** Keeps a run that has completed successfully, and that nobody references, for the next blocking call. */
        void giveSpareRun(final ScheduleRun run) {
            spareRun = run;
        }

        /** Gives the lease back after a successful run: the schedule's memory is no longer in use. */
        void release() {
            STATE.setRelease(this, FREE); // orders this run's use of scratch before the next lease's CAS
        }
    }
}
