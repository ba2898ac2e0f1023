package dev.tutti.coll.slot;

import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.internal.CacheLines;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One message of a persistent collective's schedule that travels through a pre-agreed slot of direct memory
 * instead of the message layer ({@link SlotLane}): the part request a run
 * ({@code dev.tutti.coll.ScheduleRun}) holds for that step.
 *
 * <p>Implementation notes. A slot lies in the receiving rank's memory and belongs to one (sender, receiver, n-th
 * message of the lane's shape between them). Its first 64-byte line is the receiver's acknowledgement, the last run it
 * has read; then come {@link #depth} cells of whole 64-byte lines ({@link #cellBytes}). A cell's last 8 bytes are its
 * sequence word, and the message's bytes end right before it (rounded up to 8, the start padded): so the line the
 * receiver polls is one the sender's copy also writes, and a message of up to 56 bytes crosses between cores in that
 * one line. With the bytes at the start of the cell and the word after them, a message of a multiple of 64 bytes would
 * leave the word alone on a line the copy does not write, one more line to cross per message, which makes a small
 * persistent alltoall measurably slower (bench/RESULTS.md, "Findings kept in the diary": the layout of a slot's cell).
 * A cell spans as many lines either way. Runs are numbered from 1 per lane, the same on both ranks; run {@code k} uses
 * cell {@code k % depth}.
 * <ul>
 * <li>The sender may fill the cell once the receiver has read the cell's previous use, run {@code k - depth}: it
 * keeps the acknowledgement it last read ({@code credits}, per lane and slot) and reads the line again only when
 * that is not enough, once every {@code depth - 1} runs or so when the receiver keeps up (the line stays in the
 * receiver's cache otherwise). It copies the bytes in, then stores {@code k} in the cell's sequence word with
 * release semantics.</li>
 * <li>The receiver waits until the cell's sequence word reads {@code k} (acquire) and its acknowledgement reads
 * {@code k - 1}: it reads a lane's runs in order, because several requests sharing a lane may have runs in flight
 * at once and the acknowledgement must mean that every earlier run was read. It copies the bytes out, writes a word
 * in each whole line it read, and stores {@code k} as its acknowledgement (release: the copy and the words are done
 * before a sender may reuse the cell). The words make this core hold the lines modified, so that the sender's next
 * write takes them from here instead of invalidating shared copies, which on this project's virtual host is at times
 * several times slower (as in the shm transport's channel): a 2-rank persistent alltoall of 1 MiB took 560-630 µs
 * in 5 runs of 6 without them, 107-174 µs with them.</li>
 * </ul>
 * No matching, no envelope, no queue. Sizes were agreed by both sides, so a completed receive has exactly the
 * expected length.
 *
 * <p>Threading: {@link #post} and {@link #poll} are called by the thread that holds the run's advance lock, so the
 * part's fields are that thread's, its request state included: it is re-armed and completed with release stores
 * ({@code rearmByHolder}, {@code completeByHolder}), no fence, except a send failed by a departed peer
 * ({@link AbstractRequest#complete}). {@link SlotRounds} moves parts without touching that state at all.
 * {@code credits} is shared by the runs of the lane's requests (opaque accesses: a stale value only costs a read
 * of the acknowledgement). A send that finds no room asks the engine whether its peer is gone, so that a dead
 * receiver fails the run instead of leaving it waiting (receives are asked by the run, as for every part).
 */
public final class SlotPart extends AbstractRequest {
    private static final long LINE = 64;
    /** The acknowledgement's offset in a slot; cells follow at {@link #LINE}. */
    private static final long ACK = 0;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle CREDIT = MethodHandles.arrayElementVarHandle(long[].class);

    private final boolean send;
    private final int peerWorld;
    private final MemorySegment slot;
    private final MemorySegment data;
    private final long cell;
    /** The offset of a cell's sequence word in the cell: its last 8 bytes. */
    private final long sequence;
    /** The offset of the message's bytes in a cell: they end at the sequence word (rounded up to 8). */
    private final long bytesAt;
    private final int depth;
    private final long[] runs;
    private final int lane;
    private final long[] credits;
    private final int credit;
    private long run;

    /**
     * @param engine    the engine of this rank
     * @param send      true for a send (the slot is the peer's), false for a receive (the slot is this rank's)
     * @param peerWorld the peer's world rank
     * @param slot      the slot, {@link #slotBytes} of {@code data}'s size
     * @param data      the step's bytes: read by a send, written by a receive
     * @param runs      the current run's number on each lane of the request ({@link SlotPlan})
     * @param lane      the index of this part's lane in {@code runs}
     * @param credits   the lane's last acknowledgement read per send slot (sends only, else null)
     * @param credit    this slot's index in {@code credits}
     */
    SlotPart(final P2pEngine engine, final boolean send, final int peerWorld, final MemorySegment slot,
        final MemorySegment data, final long[] runs, final int lane, final long[] credits, final int credit) {
        super(engine);
        this.send = send;
        this.peerWorld = peerWorld;
        this.slot = slot;
        this.data = data;
        this.cell = cellBytes(data.byteSize());
        this.sequence = cell - Long.BYTES;
        this.bytesAt = bytesAt(data.byteSize());
        this.depth = depth(data.byteSize());
        this.runs = runs;
        this.lane = lane;
        this.credits = credits;
        this.credit = credit;
    }

    /** @return the bytes of a slot for messages of {@code bytes} bytes */
    static long slotBytes(final long bytes) {
        return LINE + depth(bytes) * cellBytes(bytes);
    }

    /** Cells per slot, a power of two: deep for small messages (the sender reads the acknowledgement rarely). */
    private static int depth(final long bytes) {
        return bytes <= 1024 ? 8 : bytes <= 4096 ? 4 : 2;
    }

    /** @return a cell's bytes: the message's, rounded up to 8, and the sequence word, padded to whole lines */
    static long cellBytes(final long bytes) {
        return (Long.BYTES + words(bytes) + LINE - 1) / LINE * LINE;
    }

    /** @return {@code bytes} rounded up to a multiple of 8 */
    private static long words(final long bytes) {
        return (bytes + Long.BYTES - 1) & -Long.BYTES;
    }

    /** @return the offset of a message's bytes in its cell, for messages of {@code bytes} bytes */
    static long bytesAt(final long bytes) {
        return cellBytes(bytes) - Long.BYTES - words(bytes);
    }

    /**
     * Makes this part pending for the current run of its lane and tries to complete it at once.
     *
     * @return this part
     */
    public SlotPart post() {
        rearmByHolder(); // the part's state is the holder's alone (see the class note)
        run = runs[lane];
        poll();
        return this;
    }

    /**
     * Tries to move the message of the current run.
     *
     * @return true if the part is complete (successfully or not)
     */
    boolean poll() {
        if (isDone()) {
            return true;
        }
        if (move()) {
            completeByHolder(Status.EMPTY); // no CAS: only the holder of the run's advance lock completes a part
            return true;
        }
        if (send) {
            final TuttiException gone = engine.failureAffecting(peerWorld);
            if (null != gone) {
                complete(null, gone);
                return true;
            }
        }
        return false;
    }

    /** Aims the part at its lane's current run without touching its request state ({@link SlotRounds}). */
    void aim() {
        run = runs[lane];
    }

    /**
     * Moves the message of the run the part is aimed at, if it can: a send that has room copies its bytes into the
     * cell and publishes the run number; a receive whose cell holds the run (and whose lane's earlier runs were
     * read) copies the bytes out and acknowledges. Leaves the request state alone (see {@link #poll()}).
     *
     * @return true if the message moved
     */
    boolean move() {
        final long k = run;
        final long at = cellAt(k);
        if (send) {
            if ((long) CREDIT.getOpaque(credits, credit) < k - depth) {
                final long ack = (long) LONG.getAcquire(slot, ACK);
                CREDIT.setOpaque(credits, credit, ack);
                if (ack < k - depth) {
                    return false;
                }
            }
            SegmentCopy.copy(data, 0, slot, at + bytesAt, data.byteSize());
            LONG.setRelease(slot, at + sequence, k);
        } else {
            if ((long) LONG.getAcquire(slot, at + sequence) != k || (long) LONG.getAcquire(slot, ACK) != k - 1) {
                return false;
            }
            SegmentCopy.copy(slot, at + bytesAt, data, 0, data.byteSize());
            CacheLines.take(slot, at + bytesAt, data.byteSize() / LINE * LINE); // whole lines; published below
            LONG.setRelease(slot, ACK, k);
        }
        return true;
    }

    /**
     * Whether a receive's message of the current run has arrived: read by threads that do not hold the run's
     * advance lock, to skip taking it ({@code ScheduleRun.watch}); a stale answer only delays. The part must be
     * pending: once it has acknowledged, the sender may reuse the cell, so the holder that completes a watched part
     * moves the watch in the same step.
     *
     * @return true if {@link #poll()} may complete the part
     */
    public boolean arrived() {
        final long k = run;
        return (long) LONG.getAcquire(slot, cellAt(k) + sequence) == k;
    }

    /** @return the offset in the slot of run {@code k}'s cell (depth is a power of two) */
    private long cellAt(final long k) {
        return LINE + (k & (depth - 1)) * cell;
    }

    /** @return true for a send */
    boolean sends() {
        return send;
    }

    /**
     * Polls every direct part of the round (each may be the one its peer waits for: a send that waits for room
     * must be retried even while an earlier receive waits) and tells whether all parts are complete.
     */
    public static boolean pollAll(final AbstractRequest[] ps, final int n) {
        boolean all = true;
        for (int i = 0; i < n; i++) {
            final AbstractRequest p = ps[i];
            if (!p.isDone() && !(p instanceof SlotPart d && d.poll())) {
                all = false;
            }
        }
        return all;
    }

    /**
     * @return the first pending part if every pending part is a direct receive, else null (what
     *         {@code ScheduleRun} watches)
     */
    public static SlotPart awaited(final AbstractRequest[] ps, final int n) {
        SlotPart first = null;
        for (int i = 0; i < n; i++) {
            final AbstractRequest p = ps[i];
            if (!p.isDone()) {
                if (!(p instanceof SlotPart d) || d.sends()) {
                    return null;
                }
                if (null == first) {
                    first = d;
                }
            }
        }
        return first;
    }

    /** A part of a collective is never cancelled (MPI: collectives cannot be); this does nothing. */
    @Override
    public void cancel() {
    }

    /** @return the peer's world rank */
    public int peerWorld() {
        return peerWorld;
    }

    /**
     * Public, where the base class's is protected: the failure checks of a waiting run ask a part of the lean road
     * directly, its request state being left alone there (see the class note).
     */
    @Override
    public TuttiException blockingFailure() {
        return engine.failureAffecting(peerWorld);
    }

    @Override
    public int[] waitsOn() {
        return new int[] {peerWorld};
    }

    @Override
    public String describeWait() {
        return (send ? "direct send to" : "direct receive from") + " world rank " + peerWorld + " (run " + run + ")";
    }

    @Override
    public String toString() {
        return "SlotPart(" + describeWait() + ", " + data.byteSize() + " bytes" + (isDone() ? ", done" : "") + ")";
    }
}
