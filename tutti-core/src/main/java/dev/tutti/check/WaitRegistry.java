package dev.tutti.check;

import dev.tutti.p2p.AbstractRequest;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The waits this rank's threads are blocked in, for deadlock detection: registered when a wait leaves its fast path
 * ({@link dev.tutti.p2p.P2pHook#blocked}), removed when it ends. A snapshot describes each wait with the request's
 * own description and targets and the blocked thread's call site, read from its stack only then.
 *
 * <p>A wait taken up again on the same request right after it ended (a timed wait in slices, as an alltoall
 * channel's: within {@link #RESUME_GAP_NS}, and the break at most an eighth of the wait before it) continues that
 * wait: it keeps its number and its start, so that the detector sees one wait that lasts. A thread that computes
 * between its timed waits takes longer breaks, and each of its waits is a new one (it is working, not waiting).
 *
 * <p>A thread that does nothing but poll a request with {@code test()} waits as surely as one blocked in it: its
 * latest polled request counts as its wait from its first unsuccessful test, while it keeps polling that request
 * (its last test less than {@link #POLL_FRESH_NS} ago; a longer gap starts the poll anew), the request is not done,
 * and the thread has spent at least an eighth of the time since the first test inside {@code test()} (a quick
 * {@code test()}, as with the checker's throttled work, may take less time than a spin-wait hint between two; a loop
 * that sleeps or computes between its tests spends a tiny share in them): a loop that computes
 * between its tests is working, not waiting. (The share, not a rate of tests, so that a spinning thread that the
 * machine deschedules still counts: it is descheduled inside its tests as much as anywhere.)
 *
 * <p>Implementation notes. A thread's outermost blocking wait (a checked collective's, for one) reuses the
 * thread's {@link Slot}, made at its first wait: no allocation and no map update per wait, three plain stores
 * between two volatile ones. The slot is a sequence lock: its owner makes the version odd, writes, makes it even
 * again; a snapshot copies the fields between two reads of an equal, even version, and skips a slot that changes
 * meanwhile (its thread is entering or leaving a wait: not blocked). A nested wait, or a thread beyond the first
 * {@link #MAX_SLOTS}, takes the general path: a concurrent map from a wait's number to its record, one allocation
 * and one map update at each end. No stack walk either way (the thread stays in the same frames while it waits, so
 * its call site can be read from another thread when a snapshot is taken, which is rare). Polls: a thread's latest
 * polled request lives in its slot ({@link Slot#poll}; a concurrent map for threads beyond the slots), updated by a
 * volatile write per unsuccessful test of the same request. {@link #oldestMs}, asked at every progress of the
 * coordinator's waits (so at every pass of a wait loop there), reads the slots through an array replaced whole when
 * a slot is added, and the maps only when they hold something: it allocates nothing in the usual case (a copy of
 * every wait into a list would allocate on the coordinator at every checked call once calls wait long enough, as
 * they do on a loaded host).
 */
final class WaitRegistry {
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Wait> waits = new ConcurrentHashMap<>();
    private final Map<Thread, Wait> polls = new ConcurrentHashMap<>();
    private final Map<Thread, Slot> slots = new ConcurrentHashMap<>();
    /** The slots again, for {@link #oldestMs} to read without an iterator (replaced whole when one is added). */
    private volatile Slot[] slotList = new Slot[0];
    /** How many threads get a reusable slot (the others' waits take the general path). */
    static final int MAX_SLOTS = 256;
    /** How recent a thread's last unsuccessful test must be for its poll to count as a wait: 200 ms. */
    static final long POLL_FRESH_NS = 200_000_000L;
    /** The longest break between two waits on one request that makes them one wait (see the class comment). */
    static final long RESUME_GAP_NS = 1_000_000L;

    /** A registered wait. */
    static final class Wait {
        final long id;
        final Thread thread;
        final AbstractRequest request;
        final long startNs;
        /** When its thread last tested it (polls only). */
        volatile long lastNs;
        /** How long its thread has spent testing it (polls only; written by that thread alone). */
        volatile long busyNs;

        /** @return whether this poll counts as a wait at {@code now} (see the class comment) */
        boolean pollCounts(final long now) {
            return now - lastNs < POLL_FRESH_NS && 8 * busyNs >= lastNs - startNs && !request.isDone();
        }

        Wait(final long id, final Thread thread, final AbstractRequest request, final long startNs) {
            this.id = id;
            this.thread = thread;
            this.request = request;
            this.startNs = startNs;
        }
    }

    /**
     * A thread's reusable record of its outermost blocking wait; written by that thread only, under
     * {@link #version} (odd while it writes).
     */
    static final class Slot {
        final Thread thread;
        volatile long version;
        AbstractRequest request;
        long id;
        long startNs;
        /** The thread's latest polled request, as in the class comment (written by the thread alone). */
        volatile Wait poll;
        /** The wait that ended last in this slot: its request, number, start and end (the owner's alone). */
        AbstractRequest lastRequest;
        long lastId;
        long lastStartNs;
        long lastEndNs;

        Slot(final Thread thread) {
            this.thread = thread;
        }

        /** @return whether the slot holds no wait (its owner's view) */
        boolean free() {
            return null == request;
        }

        void set(final AbstractRequest r, final long newId, final long newStartNs) {
            final long v = version;
            version = v + 1;
            VarHandle.storeStoreFence();
            request = r;
            id = newId;
            startNs = newStartNs;
            version = v + 2;
        }

        /** @return the wait it holds, copied consistently, or null if none or it is changing */
        Wait read() {
            final long v = version;
            if (0 != (v & 1)) {
                return null;
            }
            final AbstractRequest r = request;
            final long i = id;
            final long start = startNs;
            VarHandle.loadLoadFence();
            return null == r || v != version ? null : new Wait(i, thread, r, start);
        }

        /** @return how long the wait it holds has lasted at {@code now} (ns), or -1 if none or it is changing */
        long ageNs(final long now) {
            final long v = version;
            if (0 != (v & 1)) {
                return -1;
            }
            final AbstractRequest r = request;
            final long start = startNs;
            VarHandle.loadLoadFence();
            return null == r || v != version ? -1 : now - start;
        }
    }

    /**
     * Registers a blocking wait of the calling thread.
     *
     * @param request what it waits for
     * @return the token to {@link #remove} it with
     */
    Object add(final AbstractRequest request) {
        final Thread t = Thread.currentThread();
        final Slot s = slotOf(t);
        if (null != s && s.free()) {
            final long now = System.nanoTime();
            // A wait taken up again on the same request at once (a timed wait in slices, as a channel's) is one wait.
            final long gap = now - s.lastEndNs;
            final boolean resumed = request == s.lastRequest && gap < RESUME_GAP_NS
                && s.lastEndNs - s.lastStartNs >= 8 * gap;
            s.set(request, resumed ? s.lastId : ids.incrementAndGet(), resumed ? s.lastStartNs : now);
            return s;
        }
        final Wait w = new Wait(ids.incrementAndGet(), t, request, System.nanoTime());
        waits.put(w.id, w);
        return w;
    }

    /**
     * Ends a blocking wait.
     *
     * @param token what {@link #add} returned
     */
    void remove(final Object token) {
        if (token instanceof Slot s) {
            s.lastRequest = s.request;
            s.lastId = s.id;
            s.lastStartNs = s.startNs;
            s.lastEndNs = System.nanoTime();
            s.set(null, 0, 0);
        } else {
            waits.remove(((Wait) token).id);
        }
    }

    /**
     * The calling thread tested {@code request} and it was not done.
     *
     * @param request the request
     * @param startNs when the test began
     */
    void polled(final AbstractRequest request, final long startNs) {
        final Thread t = Thread.currentThread();
        final long now = System.nanoTime();
        final Slot s = slotOf(t);
        final Wait w = null != s ? s.poll : polls.get(t);
        if (null != w && w.request == request && now - w.lastNs < POLL_FRESH_NS) {
            w.busyNs = w.busyNs + (now - startNs); // one writer: the polling thread
            w.lastNs = now;
        } else {
            final Wait fresh = new Wait(ids.incrementAndGet(), t, request, startNs);
            fresh.busyNs = now - startNs;
            fresh.lastNs = now;
            if (null != s) {
                s.poll = fresh;
            } else {
                polls.put(t, fresh);
            }
        }
    }

    /** @return the calling thread's slot, made at its first use while fewer than {@link #MAX_SLOTS} exist, or null */
    private Slot slotOf(final Thread t) {
        Slot s = slots.get(t);
        if (null == s && slots.size() < MAX_SLOTS) {
            s = new Slot(t);
            synchronized (this) { // only t adds t's slot; the lock orders the list's copies
                slots.put(t, s);
                final Slot[] list = Arrays.copyOf(slotList, slotList.length + 1);
                list[list.length - 1] = s;
                slotList = list;
            }
        }
        return s;
    }

    /** @return the registered waits and the polls still going on */
    private List<Wait> current(final long now) {
        final List<Wait> all = new ArrayList<>(waits.values());
        for (final Slot s : slotList) {
            final Wait w = s.read();
            if (null != w) {
                all.add(w);
            }
            final Wait p = s.poll;
            if (null != p && p.pollCounts(now)) {
                all.add(p);
            }
        }
        for (final Wait p : polls.values()) {
            if (p.pollCounts(now)) {
                all.add(p);
            }
        }
        return all;
    }

    /** @return how long the oldest wait has lasted (ms), or -1 if no thread waits */
    long oldestMs() {
        final long now = System.nanoTime();
        long oldest = -1; // ns
        for (final Slot s : slotList) { // asked at every progress of a waiting coordinator: allocates nothing here
            oldest = Math.max(oldest, s.ageNs(now));
            final Wait p = s.poll;
            if (null != p && p.pollCounts(now)) {
                oldest = Math.max(oldest, now - p.startNs);
            }
        }
        if (!waits.isEmpty()) { // nested waits and threads beyond the slots
            for (final Wait w : waits.values()) {
                oldest = Math.max(oldest, now - w.startNs);
            }
        }
        if (!polls.isEmpty()) {
            for (final Wait p : polls.values()) {
                if (p.pollCounts(now)) {
                    oldest = Math.max(oldest, now - p.startNs);
                }
            }
        }
        return oldest < 0 ? -1 : oldest / 1_000_000L;
    }

    /**
     * Describes the waits, outermost per thread only (a call that waits for its parts shows as the call).
     *
     * @return one entry per blocked thread
     */
    List<RankState.Blocked> snapshot() {
        final long now = System.nanoTime();
        final Map<Thread, Wait> outer = new java.util.HashMap<>();
        for (final Wait w : current(now)) {
            outer.merge(w.thread, w, (a, b) -> a.id <= b.id ? a : b);
        }
        final List<RankState.Blocked> out = new ArrayList<>();
        for (final Wait w : outer.values()) {
            if (w.request.isDone()) {
                continue; // completed, its thread about to return
            }
            final String d = w.request.describeWait() + (0 == w.lastNs ? "" : " (polled with test())");
            final String text = d.contains(" at ") ? d : d + " at " + CallSite.of(w.thread.getStackTrace());
            out.add(new RankState.Blocked(w.id, (now - w.startNs) / 1_000_000L, text, w.request.waitsOn()));
        }
        out.sort(java.util.Comparator.comparingLong(RankState.Blocked::id));
        return out;
    }
}
