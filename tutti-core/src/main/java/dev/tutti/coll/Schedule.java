package dev.tutti.coll;

import dev.tutti.Datatype;

import java.lang.foreign.MemorySegment;

/**
 * A collective algorithm written once: rounds of nonblocking sends and receives, each followed by local steps
 * (reductions, copies) that run once the round's messages are complete. Immutable once built; runs are started
 * by {@link ScheduleRun}. Built by {@link ScheduleBuilder}.
 *
 * @param op     the operation name, for error messages (e.g. {@code allreduce})
 * @param rounds the rounds in order
 * @param finish a local step after the last round (e.g. unstaging a boolean buffer), or null
 */
public record Schedule(String op, Round[] rounds, Runnable finish) {

    /**
     * One round: its messages (receives are posted before sends) and the local steps that follow them.
     *
     * @param comm  the messages
     * @param local the local steps, in order
     */
    public record Round(CommStep[] comm, Runnable[] local) {
    }

    /**
     * One message of a round.
     *
     * @param send    true for a send, false for a receive
     * @param peer    the peer's rank in the communicator's group
     * @param segment the bytes sent, or where received bytes go (exactly the expected size)
     * @param type    the datatype label (checked against the peer's)
     */
    public record CommStep(boolean send, int peer, MemorySegment segment, Datatype type) {
    }
}
