package dev.tutti.coll.host;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The calls that wait on this rank for a step of its communicator's region, oldest first. Calls numbered but not yet
 * published: their words, and for a call that publishes bytes (a nonblocking call's or persistent start's run) where
 * they are; a call waits when its cell is not free yet (a peer still reads the call it last held) or a run of an
 * earlier call is not complete, and the region publishes it, in call order, as soon as both hold
 * ({@link HostRegion}). And runs whose road turned out to be the message layer, whose messages a thread starts once
 * it has left the region's lock ({@link #due}).
 *
 * <p>Implementation notes. Guarded by the region's lock. Per call {@value #WORDS} longs in {@code words} (its number,
 * call, shape and op words, where its bytes start in {@code from}, how many, and the own block left out of the
 * source, {@link HostSteps#hole}), the memory its bytes come from, and its run if it has one; arrays that double when
 * full and are shifted down as calls leave from the front (a few calls wait at a time). No allocation once they have
 * grown.
 */
final class HostQueue {
    /** Longs per call in {@code words}. */
    private static final int WORDS = 7;

    private final HostCells cells;
    private final HostSteps steps;
    private long[] words = new long[WORDS * HostLayout.CELLS];
    private MemorySegment[] from = new MemorySegment[HostLayout.CELLS];
    private HostRun[] owners = new HostRun[HostLayout.CELLS];
    private int queued;
    private HostRun[] due = new HostRun[2];
    private int dues;
    /** The runs ever left due: calls through the region that took the message layer after their start. */
    private long fellBack;

    HostQueue(final HostCells cells, final HostSteps steps) {
        this.cells = cells;
        this.steps = steps;
    }

    /** @return the calls waiting, to be published or started on the message layer */
    int size() {
        return queued + dues;
    }

    /** Leaves a run whose road is the message layer for a thread to start its messages ({@link #nextDue}). */
    void due(final HostRun run) {
        if (dues == due.length) {
            due = Arrays.copyOf(due, 2 * dues);
        }
        due[dues++] = run;
        fellBack++;
    }

    /** @return the runs ever left {@link #due} */
    long fellBack() {
        return fellBack;
    }

    /**
     * @return whether a run is left {@link #due}: exact under the lock, a hint without it (a plain read, which the
     *         thread that left it due sees)
     */
    boolean anyDue() {
        return 0 != dues;
    }

    /** @return the oldest run left {@link #due}, taken out, or null if there is none */
    HostRun nextDue() {
        if (0 == dues) {
            return null;
        }
        final HostRun run = due[0];
        System.arraycopy(due, 1, due, 0, --dues);
        due[dues] = null;
        return run;
    }

    /** @return the calls waiting to be published */
    int unpublished() {
        return queued;
    }

    /** @return the number of the oldest call waiting to be published (there is one) */
    long oldest() {
        return words[0];
    }

    /**
     * Publishes call {@code k} at once if nothing waits, no run before it is incomplete ({@code k <= bound}) and its
     * cell is free, else queues it: its words, and for a run ({@code owner}) where its bytes are.
     *
     * @param bound the number of the oldest incomplete run, {@link Long#MAX_VALUE} if none
     */
    void offer(final long bound, final long k, final long call, final long shape, final long op,
        final MemorySegment bytes, final long offset, final long n, final long hole, final HostRun owner) {
        if (0 == queued && k <= bound && cells.free(k)) {
            cells.write(k, bytes, offset, n, hole, call, shape, op);
            if (null != owner) {
                owner.published = true;
            }
            return;
        }
        if (queued == owners.length) {
            words = Arrays.copyOf(words, 2 * words.length);
            from = Arrays.copyOf(from, 2 * queued);
            owners = Arrays.copyOf(owners, 2 * queued);
        }
        final int at = WORDS * queued;
        words[at] = k;
        words[at + 1] = call;
        words[at + 2] = shape;
        words[at + 3] = op;
        words[at + 4] = offset;
        words[at + 5] = n;
        words[at + 6] = hole;
        from[queued] = bytes;
        owners[queued] = owner;
        queued++;
    }

    /**
     * Publishes the {@code n} bytes of a run agreed after its start ({@link HostRun#later}), packed
     * ({@link HostSteps#pack}), and its words as {@link #offer} does: packed straight into its cell, or into the
     * run's own memory and queued (its buffers may change once the call is done, before the cell is written).
     */
    void offerPacked(final long bound, final HostRun run, final long n) {
        final long k = run.k;
        if (0 == queued && k <= bound && cells.free(k)) {
            if (n > 0) {
                steps.packInto(run.call, k, n);
            }
            cells.seal(k, run.callWord, run.shapeWord, run.opWord);
            run.published = true;
            return;
        }
        final MemorySegment bytes = run.packed(n);
        if (n > 0) {
            steps.pack(run.call, bytes);
        }
        offer(bound, k, run.callWord, run.shapeWord, run.opWord, bytes, 0, n, 0, run);
    }

    /**
     * Publishes the waiting calls, oldest first, while no run before the next is incomplete and its cell is free.
     *
     * @param bound the number of the oldest incomplete run, {@link Long#MAX_VALUE} if none
     * @return the calls published
     */
    int publish(final long bound) {
        int w = 0;
        while (w < queued && words[WORDS * w] <= bound && cells.free(words[WORDS * w])) {
            final int at = WORDS * w;
            cells.write(words[at], from[w], words[at + 4], words[at + 5], words[at + 6], words[at + 1], words[at + 2],
                words[at + 3]);
            if (null != owners[w]) {
                owners[w].published = true;
            }
            w++;
        }
        if (w > 0) {
            System.arraycopy(words, WORDS * w, words, 0, WORDS * (queued - w));
            System.arraycopy(from, w, from, 0, queued - w);
            System.arraycopy(owners, w, owners, 0, queued - w);
            Arrays.fill(from, queued - w, queued, null);
            Arrays.fill(owners, queued - w, queued, null);
            queued -= w;
        }
        return w;
    }
}
