package dev.tutti.coll;

import dev.tutti.runtime.Agent;

import java.util.Arrays;
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
 * </ul>
 * One instance per engine, held by {@link CollHooks}; communicators cache it ({@link CollComm}).
 */
final class ActiveRuns implements Agent {
    private static final int SLOTS = 4;
    private static final ScheduleRun[] EMPTY = new ScheduleRun[0];

    private final AtomicReferenceArray<ScheduleRun> slots = new AtomicReferenceArray<>(SLOTS);
    private volatile ScheduleRun[] overflow = EMPTY;


    void add(final ScheduleRun run) {
        for (int i = 0; i < SLOTS; i++) {
            if (null == slots.get(i) && slots.compareAndSet(i, null, run)) {
                return;
            }
        }
        synchronized (this) {
            final ScheduleRun[] next = Arrays.copyOf(overflow, overflow.length + 1);
            next[next.length - 1] = run;
            overflow = next;
        }
    }

    void remove(final ScheduleRun run) {
        for (int i = 0; i < SLOTS; i++) {
            if (run == slots.get(i)) {
                slots.compareAndSet(i, run, null);
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
            if (1 == cur.length) {
                overflow = EMPTY;
                return;
            }
            final ScheduleRun[] next = new ScheduleRun[cur.length - 1];
            System.arraycopy(cur, 0, next, 0, i);
            System.arraycopy(cur, i + 1, next, i, cur.length - i - 1);
            overflow = next;
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
        return false;
    }

    private static boolean runs(final ScheduleRun r, final int fromContext, final int toContext) {
        return null != r && !r.isDone() && r.context() >= fromContext && r.context() < toContext;
    }

    private static int indexOf(final ScheduleRun[] a, final ScheduleRun run) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == run) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int doWork() {
        int work = 0;
        for (int i = 0; i < SLOTS; i++) {
            final ScheduleRun r = slots.get(i);
            if (null != r) {
                work += r.advance();
            }
        }
        for (final ScheduleRun r : overflow) {
            work += r.advance();
        }
        return work;
    }
}
