package dev.tutti.check;

import dev.tutti.p2p.AbstractRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The waits this rank's threads are blocked in, for deadlock detection: registered when a wait leaves its fast path
 * ({@link dev.tutti.p2p.P2pHook#blocked}), removed when it ends. A snapshot describes each wait with the request's
 * own description and targets and the blocked thread's call site, read from its stack only then.
 *
 * <p>Implementation notes. A concurrent map from a wait's number to its record: one allocation and one map update
 * at each end of a blocking wait, and no stack walk (the thread stays in the same frames while it waits, so its
 * call site can be read from another thread when a snapshot is taken, which is rare).
 */
final class WaitRegistry {
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Wait> waits = new ConcurrentHashMap<>();

    /** A registered wait. */
    static final class Wait {
        final long id;
        final Thread thread;
        final AbstractRequest request;
        final long startNs;

        Wait(final long id, final Thread thread, final AbstractRequest request, final long startNs) {
            this.id = id;
            this.thread = thread;
            this.request = request;
            this.startNs = startNs;
        }
    }

    Wait add(final AbstractRequest request) {
        final Wait w = new Wait(ids.incrementAndGet(), Thread.currentThread(), request, System.nanoTime());
        waits.put(w.id, w);
        return w;
    }

    void remove(final Wait w) {
        waits.remove(w.id);
    }

    /** @return how long the oldest wait has lasted (ms), or -1 if no thread waits */
    long oldestMs() {
        final long now = System.nanoTime();
        long oldest = -1;
        for (final Wait w : waits.values()) {
            oldest = Math.max(oldest, (now - w.startNs) / 1_000_000L);
        }
        return oldest;
    }

    /**
     * Describes the waits, outermost per thread only (a call that waits for its parts shows as the call).
     *
     * @return one entry per blocked thread
     */
    List<RankState.Blocked> snapshot() {
        final long now = System.nanoTime();
        final Map<Thread, Wait> outer = new java.util.HashMap<>();
        for (final Wait w : waits.values()) {
            outer.merge(w.thread, w, (a, b) -> a.id <= b.id ? a : b);
        }
        final List<RankState.Blocked> out = new ArrayList<>();
        for (final Wait w : outer.values()) {
            if (w.request.isDone()) {
                continue; // completed, its thread about to return
            }
            final String d = w.request.describeWait();
            final String text = d.contains(" at ") ? d : d + " at " + CallSite.of(w.thread.getStackTrace());
            out.add(new RankState.Blocked(w.id, (now - w.startNs) / 1_000_000L, text, w.request.waitsOn()));
        }
        out.sort(java.util.Comparator.comparingLong(RankState.Blocked::id));
        return out;
    }
}
