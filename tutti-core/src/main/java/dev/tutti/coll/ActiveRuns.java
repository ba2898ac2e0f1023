package dev.tutti.coll;

import dev.tutti.runtime.Agent;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The nonblocking collectives in flight on one rank, advanced by every wait on that rank.
 *
 * <p>Implementation notes. A few lock-free slots, then a copy-on-write overflow array.
 * <ul>
 * <li>Slots: {@link #add} CASes a run into a free slot, {@link #remove} CASes it back to null; no lock and no
 *     allocation, which covers the usual case of a few outstanding collectives.</li>
 * <li>Overflow: when every slot is taken, runs go to an array that add/remove copy under this object's lock;
 *     {@link #remove} of a run that is in neither place takes no lock.</li>
 * <li>{@link #doWork()} reads the slots and a snapshot of the array (volatile reads) without locking; it may miss
 *     a run added meanwhile (the next call sees it) or advance a finished one (a no-op).</li>
 * <li>Race of add and finish. Only runs that did not complete in their first advance are added
 *     ({@link ScheduleRun}); if another thread finishes the run meanwhile, the adder stores the run (volatile) then
 *     reads its state (volatile) and the finisher stores the state then reads the slots and array, so at least one
 *     of them sees the other and removes the run; the slot CAS makes a double removal harmless.</li>
 * <li>Priority ({@link ScheduleRun#priority()}, set on persistent requests): while any registered run has a
 *     priority other than 0 ({@code prioritized} counts them), {@link #doWork()} advances runs level by level,
 *     highest first, so that of several runs whose rounds are ready the higher one posts its next messages first;
 *     a run's own wait first advances the registered runs that outrank it ({@link #advanceAbove}), and so does a
 *     run about to post a round (its start's first one included). Each level
 *     costs one scan of the slots and the array, paid only while a prioritized run is registered. Whether a run
 *     was counted is kept in the run at its add, so a priority changed while it is still registered (its request
 *     seen complete before the finisher removed it) cannot unbalance the count.</li>
 * <li>Persistent requests' runs are registered once, at the request's init, and stay until it is freed (or its
 *     communicator is): {@code persistent}, a copy-on-write array changed under this object's lock. A start then
 *     costs no CAS here; every scan skips the ones that are not active (complete), by one volatile read each. Their
 *     priority is counted from registration and changed only through {@link #prioritize} (under the lock).</li>
 * <li>Ranked work ({@link PrioritizedWork}: a prioritized channel's exchanges through a shared window, which are not
 *     schedules) is registered for its owner's life in {@code ranked}, copy-on-write like {@code persistent}, and
 *     counted in {@code prioritized} (its level is at least 1): the level-by-level scans advance it with the runs
 *     of its level, and it outranks lower levels while it says it is in flight. Unregistered work costs nothing.</li>
 * <li>Host work ({@link #addHost}: a communicator's on-host region, registered at its first nonblocking or persistent
 *     run until it retires) runs first in every pass, copy-on-write like {@code persistent}: it publishes the calls
 *     that wait for a free cell and completes the runs before them, so a rank that waits in any other call still
 *     publishes what its peers need. Each costs a volatile read while it has nothing waiting.</li>
 * </ul>
 * One instance per engine, held by {@link CollHooks}; communicators cache it ({@link CollComm}).
 */
final class ActiveRuns implements Agent {
    private static final int SLOTS = 4;
    private static final ScheduleRun[] EMPTY = new ScheduleRun[0];
    private static final PrioritizedWork[] NO_WORK = new PrioritizedWork[0];
    private static final Agent[] NO_AGENTS = new Agent[0];

    private final AtomicReferenceArray<ScheduleRun> slots = new AtomicReferenceArray<>(SLOTS);
    private volatile ScheduleRun[] overflow = EMPTY;
    /** Persistent requests' runs, registered for their request's life (copy-on-write under this object's lock). */
    private volatile ScheduleRun[] persistent = EMPTY;
    /** Prioritized work that is not a schedule, registered for its owner's life (copy-on-write under this lock). */
    private volatile PrioritizedWork[] ranked = NO_WORK;
    /** Work of the on-host layer that waits for a peer (its regions' deferred calls), copy-on-write under this lock. */
    private volatile Agent[] hostWork = NO_AGENTS;
    private final AtomicInteger prioritized = new AtomicInteger();

    void add(final ScheduleRun run) {
        run.counted(0 != run.priority()); // before the run is published: its remove reads it
        if (run.counted()) {
            prioritized.incrementAndGet();
        }
        for (int i = 0; i < SLOTS; i++) {
            if (null == slots.get(i) && slots.compareAndSet(i, null, run)) {
                return;
            }
        }
        synchronized (this) {
            overflow = with(overflow, run);
        }
    }

    void remove(final ScheduleRun run) {
        for (int i = 0; i < SLOTS; i++) {
            if (run == slots.get(i)) {
                if (slots.compareAndSet(i, run, null)) {
                    removed(run);
                }
                return;
            }
        }
        if (indexOf(overflow, run) < 0) {
            return;
        }
        synchronized (this) {
            final ScheduleRun[] cur = overflow;
            final int i = indexOf(cur, run);
            if (i < 0) {
                return;
            }
            removed(run);
            overflow = without(cur, i);
        }
    }

    /**
     * Registers a persistent request's run for the request's life: every scan advances it while it is active.
     *
     * @param run the run, not started
     */
    synchronized void addPersistent(final ScheduleRun run) {
        run.counted(0 != run.priority());
        if (run.counted()) {
            prioritized.incrementAndGet();
        }
        persistent = with(persistent, run);
    }

    /**
     * Unregisters a persistent request's run (its request is freed, inactive); harmless if it is not registered.
     *
     * @param run the run
     */
    synchronized void removePersistent(final ScheduleRun run) {
        final ScheduleRun[] cur = persistent;
        final int i = indexOf(cur, run);
        if (i < 0) {
            return;
        }
        removed(run);
        persistent = without(cur, i);
    }

    /**
     * Registers prioritized work that is not a schedule, until {@link #removeRanked}.
     *
     * @param work the work, whose priority is at least 1
     */
    synchronized void addRanked(final PrioritizedWork work) {
        prioritized.incrementAndGet();
        ranked = with(ranked, work);
    }

    /**
     * Unregisters work registered by {@link #addRanked}; harmless if it is not registered.
     *
     * @param work the work
     */
    synchronized void removeRanked(final PrioritizedWork work) {
        final PrioritizedWork[] cur = ranked;
        final int i = indexOf(cur, work);
        if (i >= 0) {
            ranked = without(cur, i);
            prioritized.decrementAndGet();
        }
    }

    /**
     * Registers work of the on-host layer that every pass of this rank's progress runs, until {@link #removeHost}.
     *
     * @param work the work: cheap when it has nothing to do
     */
    synchronized void addHost(final Agent work) {
        hostWork = with(hostWork, work);
    }

    /**
     * Unregisters work registered by {@link #addHost}; harmless if it is not registered.
     *
     * @param work the work
     */
    synchronized void removeHost(final Agent work) {
        final Agent[] cur = hostWork;
        final int i = indexOf(cur, work);
        if (i >= 0) {
            hostWork = without(cur, i);
        }
    }

    /** @return a copy of {@code a} with {@code x} appended (copy-on-write, under this object's lock) */
    private static <T> T[] with(final T[] a, final T x) {
        final T[] next = Arrays.copyOf(a, a.length + 1);
        next[a.length] = x;
        return next;
    }

    /** @return a copy of {@code a} without its element {@code i} (copy-on-write, under this object's lock) */
    private static <T> T[] without(final T[] a, final int i) {
        final T[] next = Arrays.copyOf(a, a.length - 1); // the first a.length - 1, then shift the tail down
        System.arraycopy(a, i + 1, next, i, a.length - i - 1);
        return next;
    }

    /**
     * Unregisters the persistent runs of a communicator that is being freed (requests its program never freed).
     *
     * @param comm the communicator
     */
    synchronized void removePersistent(final CollComm comm) {
        for (final ScheduleRun r : persistent) {
            if (r.comm() == comm) {
                removePersistent(r);
            }
        }
    }

    /**
     * Sets the priority of a registered persistent run that is not active, keeping {@code prioritized} right.
     *
     * @param run   the run
     * @param level the new priority
     */
    synchronized void prioritize(final ScheduleRun run, final int level) {
        final boolean registered = indexOf(persistent, run) >= 0;
        if (registered) {
            removed(run);
        }
        run.storePriority(level);
        run.counted(0 != level);
        if (registered && run.counted()) {
            prioritized.incrementAndGet();
        }
    }

    /**
     * Whether a run on one of a range of contexts is still in flight: a communicator's free asks before its FINs go
     * out (see {@code ContextIdAllocator}). Reads the slots and a snapshot of the overflow; a run added meanwhile
     * belongs to a call that returned after the question was asked.
     *
     * @param fromContext the first context of the range
     * @param toContext   the end of the range (exclusive)
     * @return whether such a run is neither complete nor failed
     */
    boolean inFlight(final int fromContext, final int toContext) {
        for (int i = 0; i < SLOTS; i++) {
            if (runs(slots.get(i), fromContext, toContext)) {
                return true;
            }
        }
        for (final ScheduleRun r : overflow) {
            if (runs(r, fromContext, toContext)) {
                return true;
            }
        }
        for (final ScheduleRun r : persistent) {
            if (runs(r, fromContext, toContext)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a call of this rank is still running (started, not complete): its peers' messages may wait for its
     * later rounds, which are not a mismatch ({@link CollLeftovers}). A scan, for reports only.
     *
     * @param context the call's context
     * @param tag     its message tag
     * @return whether such a run is registered and not complete
     */
    boolean running(final int context, final int tag) {
        for (int i = 0; i < SLOTS; i++) {
            final ScheduleRun r = slots.get(i);
            if (runs(r, context, context + 1) && r.tag() == tag) {
                return true;
            }
        }
        for (final ScheduleRun[] all : List.of(overflow, persistent)) {
            for (final ScheduleRun r : all) {
                if (runs(r, context, context + 1) && r.tag() == tag) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean runs(final ScheduleRun r, final int fromContext, final int toContext) {
        return null != r && !r.isDone() && r.context() >= fromContext && r.context() < toContext;
    }

    private void removed(final ScheduleRun run) {
        if (run.counted()) {
            prioritized.decrementAndGet();
        }
    }

    private static int indexOf(final Object[] a, final Object x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int doWork() {
        int work = 0;
        for (final Agent a : hostWork) {
            work += a.doWork();
        }
        if (0 != prioritized.get()) {
            return work + advanceAbove(Integer.MIN_VALUE);
        }
        for (int i = 0; i < SLOTS; i++) {
            final ScheduleRun r = slots.get(i);
            if (null != r) {
                work += r.advance();
            }
        }
        for (final ScheduleRun r : overflow) {
            work += r.advance();
        }
        for (final ScheduleRun r : persistent) {
            work += r.advance(); // nothing to do, at once, while not active
        }
        return work;
    }

    /**
     * Advances the registered runs whose priority is above {@code floor}, highest level first.
     *
     * @param floor the priority the runs must exceed ({@link Integer#MIN_VALUE}: every run)
     * @return the work done
     */
    int advanceAbove(final int floor) {
        int work = 0;
        for (int level = highestBelow(Integer.MAX_VALUE); level > floor; level = highestBelow(level)) {
            for (int i = 0; i < SLOTS; i++) {
                final ScheduleRun r = slots.get(i);
                if (null != r && level == r.priority()) {
                    work += r.advance();
                }
            }
            for (final ScheduleRun r : overflow) {
                if (level == r.priority()) {
                    work += r.advance();
                }
            }
            for (final ScheduleRun r : persistent) {
                if (level == r.priority()) {
                    work += r.advance();
                }
            }
            for (final PrioritizedWork w : ranked) {
                if (level == w.priority()) {
                    work += w.doWork();
                }
            }
        }
        return work;
    }

    /** @return whether a registered run has a priority above {@code level} (cheap while none is prioritized) */
    boolean outranks(final int level) {
        return 0 != prioritized.get() && highestBelow(Integer.MAX_VALUE) > level;
    }

    /** @return the highest priority below {@code bound} among registered runs, or {@link Integer#MIN_VALUE} */
    private int highestBelow(final int bound) {
        int best = Integer.MIN_VALUE;
        for (int i = 0; i < SLOTS; i++) {
            final ScheduleRun r = slots.get(i);
            if (null != r && r.priority() < bound && r.priority() > best) {
                best = r.priority();
            }
        }
        for (final ScheduleRun r : overflow) {
            if (r.priority() < bound && r.priority() > best) {
                best = r.priority();
            }
        }
        for (final ScheduleRun r : persistent) {
            if (!r.isDone() && r.priority() < bound && r.priority() > best) { // an inactive request outranks none
                best = r.priority();
            }
        }
        for (final PrioritizedWork w : ranked) {
            if (w.priority() < bound && w.priority() > best && w.inFlight()) {
                best = w.priority();
            }
        }
        return best;
    }
}
