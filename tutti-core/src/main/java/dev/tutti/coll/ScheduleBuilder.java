package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Builds a {@link Schedule}: add the messages of a round, the local steps that follow them, then
 * {@link #endRound()}. Local steps added before any message of a round run right after the previous round. Steps
 * added with {@link #meanwhile} run while the round's messages are in flight.
 *
 * <pre>{@code
 * b.recv(parent, buf, type).endRound();                // round 0: wait for the parent's data
 * for (int child : children) b.send(child, buf, type);
 * b.endRound();                                        // round 1: forward to children
 * }</pre>
 *
 * <p>Implementation notes. Steps collect in arrays that start small and double; a round copies exactly its steps
 * ({@code Arrays.copyOf} of the same component type: no per-element type check), so building a small schedule
 * allocates little more than the schedule itself.
 */
public final class ScheduleBuilder {
    private static final Schedule.CommStep[] NO_COMM = new Schedule.CommStep[0];
    private static final Runnable[] NO_LOCAL = new Runnable[0];

    private final String op;
    private Schedule.Round[] rounds = new Schedule.Round[4];
    private int nRounds;
    private Schedule.CommStep[] comm = new Schedule.CommStep[4];
    private int nComm;
    private Runnable[] local = new Runnable[4];
    private int nLocal;
    private Runnable[] meanwhile = new Runnable[1];
    private int nMeanwhile;
    private Runnable finish;

    /**
     * Starts a schedule.
     *
     * @param op the operation name, for messages
     */
    public ScheduleBuilder(final String op) {
        this.op = op;
    }

    /**
     * Adds a send to this round.
     *
     * @param peer    group rank
     * @param segment the bytes
     * @param type    the datatype label
     * @return this
     */
    public ScheduleBuilder send(final int peer, final MemorySegment segment, final Datatype type) {
        return message(new Schedule.CommStep(true, peer, segment, type));
    }

    /**
     * Adds a receive to this round; the message must have exactly {@code segment.byteSize()} bytes.
     *
     * @param peer    group rank
     * @param segment where the bytes go
     * @param type    the datatype label
     * @return this
     */
    public ScheduleBuilder recv(final int peer, final MemorySegment segment, final Datatype type) {
        return message(new Schedule.CommStep(false, peer, segment, type));
    }

    private ScheduleBuilder message(final Schedule.CommStep step) {
        if (nLocal > 0) {
            endRound();
        }
        if (nComm == comm.length) {
            comm = Arrays.copyOf(comm, 2 * nComm);
        }
        comm[nComm++] = step;
        return this;
    }

    /**
     * Adds a local step that runs after this round's messages.
     *
     * @param step the step
     * @return this
     */
    public ScheduleBuilder local(final Runnable step) {
        local = room(local, nLocal);
        local[nLocal++] = step;
        return this;
    }

    /**
     * Adds a local step that runs while this round's messages are in flight: once they are posted, before the
     * round waits for them. It must touch none of the round's message buffers. Added after a local step, it starts
     * the next round, as a message does.
     *
     * @param step the step
     * @return this
     */
    public ScheduleBuilder meanwhile(final Runnable step) {
        if (nLocal > 0) {
            endRound();
        }
        meanwhile = room(meanwhile, nMeanwhile);
        meanwhile[nMeanwhile++] = step;
        return this;
    }

    /** @return {@code steps}, or a copy twice as long when its {@code n} entries fill it */
    private static Runnable[] room(final Runnable[] steps, final int n) {
        return n == steps.length ? Arrays.copyOf(steps, 2 * n) : steps;
    }

    /**
     * Adds {@code inout = in (op) inout} over {@code count} elements as a local step.
     *
     * @param o     the operation
     * @param type  the element type
     * @param in    the left operand (lower ranks' data)
     * @param inout the right operand and result
     * @param count elements
     * @return this
     */
    public ScheduleBuilder reduce(final Op o, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        if (count > 0) {
            local(() -> LocalReduction.reduce(o, type, in, inout, count));
        }
        return this;
    }

    /**
     * Adds a copy of {@code src} into the start of {@code dst} as a local step.
     *
     * @param src the source
     * @param dst the destination, at least as large
     * @return this
     */
    public ScheduleBuilder copy(final MemorySegment src, final MemorySegment dst) {
        final Runnable step = copyStep(src, dst);
        return null == step ? this : local(step);
    }

    /**
     * Adds a copy of {@code src} into the start of {@code dst} that runs while this round's messages are in flight
     * ({@link #meanwhile}); neither may overlap a message's bytes.
     *
     * @param src the source
     * @param dst the destination, at least as large
     * @return this
     */
    public ScheduleBuilder copyMeanwhile(final MemorySegment src, final MemorySegment dst) {
        final Runnable step = copyStep(src, dst);
        return null == step ? this : meanwhile(step);
    }

    /** @return the step copying {@code src} to the start of {@code dst}, or null when there is nothing to copy */
    private static Runnable copyStep(final MemorySegment src, final MemorySegment dst) {
        final long n = src.byteSize();
        return 0 == n || sameRange(src, dst) ? null : () -> SegmentCopy.copy(src, 0, dst, 0, n);
    }

    /**
     * Returns scratch memory that receives a copy of {@code src} as a local step of the current round, so the
     * schedule takes its snapshot when it runs, not when it is built (schedules may be built once and run again).
     * Call it before adding the messages that read the snapshot.
     *
     * @param src the data to snapshot
     * @return the scratch copy
     */
    public MemorySegment snapshot(final MemorySegment src) {
        final MemorySegment copy = Scratch.allocate(src.byteSize());
        copy(src, copy);
        return copy;
    }

    private static boolean sameRange(final MemorySegment a, final MemorySegment b) {
        return a.isNative() == b.isNative() && a.heapBase().equals(b.heapBase()) && a.address() == b.address();
    }

    /**
     * Ends the current round (no-op if it is empty).
     *
     * @return this
     */
    public ScheduleBuilder endRound() {
        if (0 == nComm && 0 == nLocal && 0 == nMeanwhile) {
            return this;
        }
        if (nRounds == rounds.length) {
            rounds = Arrays.copyOf(rounds, 2 * nRounds);
        }
        rounds[nRounds++] = new Schedule.Round(0 == nComm ? NO_COMM : Arrays.copyOf(comm, nComm),
            0 == nMeanwhile ? NO_LOCAL : Arrays.copyOf(meanwhile, nMeanwhile),
            0 == nLocal ? NO_LOCAL : Arrays.copyOf(local, nLocal));
        nComm = 0;
        nLocal = 0;
        nMeanwhile = 0;
        return this;
    }

    /**
     * Sets a step to run after everything else (e.g. copying staged data back to the user's buffer).
     *
     * @param step the step
     * @return this
     */
    public ScheduleBuilder finish(final Runnable step) {
        this.finish = step;
        return this;
    }

    /** @return the schedule, without a header ({@link dev.tutti.coll.algo.Algorithms#build} adds the call's) */
    public Schedule build() {
        endRound();
        return new Schedule(op, Arrays.copyOf(rounds, nRounds), finish, CollHeader.NONE);
    }
}
