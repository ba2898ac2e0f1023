package dev.tutti.coll;

import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One message of a persistent collective's schedule that travels through a pre-arranged slot of shared memory
 * instead of the message layer ({@link DirectPlan}): the part request a {@link ScheduleRun} holds for that step.
 *
 * <p>Implementation notes. A slot lies in the receiving rank's shared arena and belongs to one (sender, receiver,
 * n-th message of the schedule between them); only that sender writes its data and sequence lines, only that
 * receiver its acknowledgement line ({@link #SLOT_HEADER} bytes of three 64-byte lines, so that the two sides never
 * write one cache line). It has two data buffers, used by runs of odd and even number in turn. Run {@code k}
 * (numbered from 1, the same on every rank: the k-th start of the request meets the k-th start on its peers):
 * <ul>
 * <li>the sender waits until the receiver's acknowledgement is at least {@code k - 2} (the buffer's previous use is
 * read; an acquire load), copies its bytes into buffer {@code k & 1}, and stores {@code k} in that buffer's sequence
 * line with release semantics;</li>
 * <li>the receiver waits until that sequence line reads {@code k} (acquire), copies the bytes out, and stores
 * {@code k} as its acknowledgement (release: the copy is done before a sender may overwrite the buffer). It reads
 * run {@code k} only after run {@code k - 1} (the acknowledgement reads {@code k - 1}): several requests that share a
 * lane may have runs in flight at once, and the acknowledgement must mean that every earlier run was read, or a
 * sender could overwrite an unread buffer.</li>
 * </ul>
 * No matching, no envelope, no queue: a message costs two copies of its bytes and two ordered stores. Sizes were
 * agreed by both sides when the plan was made, so a completed receive has exactly the expected length.
 *
 * <p>Threading: {@link #post} and {@link #poll} are called by the thread that holds the run's advance lock, so
 * the part's fields are that thread's; completion goes through {@link AbstractRequest#complete} as for every part.
 * A send that finds no room asks the engine whether its peer is gone, so that a dead receiver fails the run instead
 * of leaving it waiting (receives are asked by the run, as for every part).
 */
final class DirectPart extends AbstractRequest {
    /** Bytes of a slot's header: sequence line of buffer 0, of buffer 1, acknowledgement line. */
    static final long SLOT_HEADER = 192;
    private static final long SEQ0 = 0;
    private static final long SEQ1 = 64;
    private static final long ACK = 128;
    private static final long ALIGN = 64;
    private static final java.lang.invoke.VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final boolean send;
    private final int peerWorld;
    private final MemorySegment slot;
    private final MemorySegment data;
    private final long buffer1;
    private final long[] runs;
    private final int lane;
    private long run;

    /**
     * @param engine    the engine of this rank
     * @param send      true for a send (the slot is the peer's), false for a receive (the slot is this rank's)
     * @param peerWorld the peer's world rank
     * @param slot      the slot, {@link #slotBytes} of {@code data}'s size
     * @param data      the step's bytes: read by a send, written by a receive
     * @param runs      the current run's number on each lane of the request ({@link DirectPlan})
     * @param lane      the index of this part's lane in {@code runs}
     */
    DirectPart(final P2pEngine engine, final boolean send, final int peerWorld, final MemorySegment slot,
        final MemorySegment data, final long[] runs, final int lane) {
        super(engine);
        this.send = send;
        this.peerWorld = peerWorld;
        this.slot = slot;
        this.data = data;
        this.buffer1 = SLOT_HEADER + capacity(data.byteSize());
        this.runs = runs;
        this.lane = lane;
    }

    /** @return the bytes of a slot for messages of {@code bytes} bytes */
    static long slotBytes(final long bytes) {
        return SLOT_HEADER + 2 * capacity(bytes);
    }

    private static long capacity(final long bytes) {
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }

    /**
     * Makes this part pending for the current run of its lane and tries to complete it at once.
     *
     * @return this part
     */
    DirectPart post() {
        rearm();
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
        final long k = run;
        final long buffer = 0 == (k & 1) ? SLOT_HEADER : buffer1;
        final long seq = 0 == (k & 1) ? SEQ0 : SEQ1;
        if (send) {
            if ((long) LONG.getAcquire(slot, ACK) < k - 2) {
                final TuttiException gone = engine.failureAffecting(peerWorld);
                if (null != gone) {
                    complete(null, gone);
                    return true;
                }
                return false;
            }
            MemorySegment.copy(data, 0, slot, buffer, data.byteSize());
            LONG.setRelease(slot, seq, k);
        } else {
            // In run order: the acknowledgement says "every run up to here is read", which the sender's room
            // check relies on (requests sharing a lane may have runs in flight together, polled in any order).
            if ((long) LONG.getAcquire(slot, seq) != k || (long) LONG.getAcquire(slot, ACK) != k - 1) {
                return false;
            }
            MemorySegment.copy(slot, buffer, data, 0, data.byteSize());
            LONG.setRelease(slot, ACK, k);
        }
        complete(Status.EMPTY, null);
        return true;
    }

    /** A part of a collective is never cancelled (MPI: collectives cannot be); this does nothing. */
    @Override
    public void cancel() {
    }

    /** @return the peer's world rank */
    int peerWorld() {
        return peerWorld;
    }

    @Override
    protected TuttiException blockingFailure() {
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
        return "DirectPart(" + describeWait() + ", " + data.byteSize() + " bytes" + (isDone() ? ", done" : "") + ")";
    }
}
