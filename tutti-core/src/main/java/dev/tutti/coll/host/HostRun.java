package dev.tutti.coll.host;

import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.MessageFallback;
import dev.tutti.coll.RegionRun;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A nonblocking call's run, or a persistent request's start, through its communicator's on-host region: the call's
 * number there, its words, what it waits for, and whether it has completed. The region publishes and completes it
 * ({@link HostRegion}); one object per nonblocking call, and per persistent request, armed again by each start.
 *
 * <p>Implementation notes. The fields but {@code done} are written by the starting thread before the run is handed
 * to the region under the region's lock, and read and advanced (the published flag, the peers checked, the failure)
 * only under that lock, by whichever thread advances the region's runs: the request's owner testing or waiting, or
 * any thread of the rank in a pass of its progress. {@code done} is stored with release semantics after the failure
 * and read with acquire, so that a test of a completed run takes no lock. A wait first waits for the run's peers'
 * flags without the lock ({@link HostRegion#awaitPeers}), then completes the run under it. Cost per start: one lock
 * at the start, one at the completion, no allocation for a persistent request.
 *
 * <p>A call whose road its ranks agree after its start ({@code later}: {@link dev.tutti.coll.Road#agreedLater})
 * packs its bytes at the start into its cell, or into {@code packed} while the cell is not free (made at the first
 * such start, as large as its largest); if the region finds an offer missing, the thread that starts its message run
 * ({@link HostRegion}'s {@code startDue}) stores that run in {@code messages} (volatile), tests and waits then ask it,
 * and the run is done when it is.
 */
final class HostRun implements RegionRun {
    /**
     * What a run waits for before it completes: nothing (a bcast's root), the root's call, every peer's, or every
     * lower rank's (a scan's).
     */
    static final int NONE = 0;
    static final int ROOT = 1;
    static final int ALL = 2;
    static final int LOWER = 3;
    /** Tests of a run still incomplete between two looks for a peer that is gone. */
    private static final int CHECK_EVERY = 256;

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(HostRun.class, "done", boolean.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final HostRegion region;
    CollCall call;
    long k;
    int tag;
    long callWord;
    long shapeWord;
    long opWord;
    int awaits;
    /** Whether this rank's cell holds the call (its words may wait for a free cell first). */
    boolean published;
    /**
     * Peers whose call has been seen and checked: as offsets from this rank, 1 to size - 1 ({@code ALL}), or ranks
     * 0 to {@code checked - 2} ({@code LOWER}).
     */
    int checked;
    /** Whether its bytes go through the region's chunk area, and whether they have begun to (under the lock). */
    boolean chunked;
    boolean begun;
    /** What a run through the chunks publishes: where its readers read its bytes in place (HostChunkRoad.name). */
    private long[] name;
    private MemorySegment nameBytes;
    TuttiException failure;
    /** Whether the call's road is agreed after its start, and how it then starts on the message layer. */
    boolean later;
    private MessageFallback fallback;
    private MemorySegment packed;
    /** The call's run on the message layer, once its road turned out to be that; else null. */
    private volatile Request messages;
    /** Set with a release store, read with acquire loads: a state flag, no fence on a start's path. */
    @SuppressWarnings("unused") // accessed through DONE
    private boolean done;
    private int tests;

    HostRun(final HostRegion region) {
        this.region = region;
    }

    HostRegion region() {
        return region;
    }

    /** Arms the run for call {@code k} (its previous start, if any, is complete). */
    void arm(final CollCall c, final long number, final int drawn, final long call, final long shape, final long op,
        final int waits, final boolean chunks) {
        this.call = c;
        this.k = number;
        this.tag = drawn;
        this.callWord = call;
        this.shapeWord = shape;
        this.opWord = op;
        this.awaits = waits;
        this.published = false;
        this.checked = 1;
        this.chunked = chunks;
        this.begun = false;
        this.failure = null;
        this.tests = 0;
        this.later = false;
        if (null != messages) {
            messages = null;
        }
        DONE.setRelease(this, false);
    }

    /**
     * Makes the run one whose road its ranks agree after its start ({@link #later}).
     *
     * @param how its start on the message layer
     */
    void later(final MessageFallback how) {
        later = true;
        fallback = how;
    }

    /**
     * @return memory of at least {@code n} bytes (8-byte aligned), the run's own, to pack a call agreed later into
     *         while its cell is not free yet
     */
    MemorySegment packed(final long n) {
        if (null == packed || packed.byteSize() < n) {
            packed = MemorySegment.ofArray(new long[(int) ((n + Long.BYTES - 1) / Long.BYTES)]);
        }
        return packed;
    }

    /**
     * Starts the call on the message layer under the tag drawn at its start, holding no lock of the region; a start
     * that fails completes the run with its failure.
     */
    void startMessages() {
        try {
            messages = fallback.start(call, tag, k);
        } catch (final TuttiException e) {
            complete(e);
        }
    }

    /** @return what a run through the chunks publishes (two longs, made at its first such start) */
    long[] name() {
        if (null == name) {
            name = new long[2];
            nameBytes = MemorySegment.ofArray(name);
        }
        return name;
    }

    /** @return {@link #name} as memory */
    MemorySegment nameBytes() {
        return nameBytes;
    }

    /** Marks the run complete, with its failure or none (under the region's lock). */
    void complete(final TuttiException f) {
        failure = f;
        DONE.setRelease(this, true);
    }

    @Override
    public boolean test() {
        if (!isDone()) {
            region.advance();
            final Request m = messages;
            if (null != m) {
                return m.test();
            }
            if (!isDone()) {
                region.progressOnce(); // MPI's progress rule: a test moves the rank's other operations on too
                if (!isDone()) {
                    if (0 == (++tests & (CHECK_EVERY - 1))) {
                        region.checkGone(this);
                    }
                    return false;
                }
            }
        }
        if (null != failure) {
            throw failure;
        }
        return true;
    }

    @Override
    public Status waitFor() {
        if (!isDone() && null == messages) {
            region.awaitPeers(this);
        }
        while (!test()) {
            final Request m = messages;
            if (null != m) {
                return m.waitFor();
            }
            region.awaitRuns(call);
        }
        return Status.EMPTY;
    }

    /** Waits up to the timeout: tests (each a pass of the rank's progress), then yields between them. */
    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        final long end = System.nanoTime() + unit.toNanos(timeout);
        for (int i = 0; !test(); i++) {
            if (System.nanoTime() - end >= 0) {
                return null;
            }
            if (i > 1000) {
                Thread.yield();
            }
        }
        return Status.EMPTY;
    }

    /** A collective cannot be cancelled (MPI); this does nothing. */
    @Override
    public void cancel() {
    }

    boolean isDone() {
        return (boolean) DONE.getAcquire(this);
    }

    @Override
    public String toString() {
        return "HostRun(call " + k + " of " + region + (isDone() ? ", done" : null != messages ? ", on messages"
            : published ? ", published" : "") + ")";
    }
}
