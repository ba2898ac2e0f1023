package dev.tutti.trace;

import dev.tutti.internal.Settings;

import java.time.Instant;

/**
 * The switch of Tutti's Flight Recorder events and the one way to record them. A call site records an event in
 * two steps around what it measures:
 *
 * <pre>{@code
 * final P2pEvent ev = Trace.ON ? Trace.p2p() : null;
 * ... the call ...
 * if (null != ev) {
 *     Trace.p2p(ev, "send", rank, comm, dest, tag, bytes);
 * }
 * }</pre>
 *
 * <p>Implementation note (cost). {@link #ON} is {@code static final}, read once per JVM from the setting
 * {@code tutti.jfr} when this class is first used: when it is off, the compiler folds both steps away (the event is
 * never made, the fields are never computed), so a recording that is off costs the hot paths nothing. When it is on,
 * each event is one small object, two reads of the Flight Recorder's clock and a commit; a point-to-point or
 * collective event takes the calling thread's stack (most of an event's cost) only on the calls that
 * {@link StackSampling} picks, as an event of the type with stack. The field values (names, algorithm, bytes) are
 * computed only after {@code shouldCommit}, so events that no recording takes cost only the clock reads. Events are
 * committed by the thread that ends them; no state is shared but each thread's sampler, which only it touches.
 */
public final class Trace {
    /** Whether Tutti records its events in this JVM: the setting {@code tutti.jfr} names a directory. */
    public static final boolean ON = !Settings.JFR.text().isEmpty();

    private Trace() {
    }

    /** @return a point-to-point event, begun: with the stack if this call is one of those that take it */
    public static P2pEvent p2p() {
        final P2pEvent e = StackSampling.stack() ? new P2pEvent.Stacked() : new P2pEvent.Plain();
        e.begin();
        return e;
    }

    /**
     * Ends and commits a point-to-point event, if a recording takes it.
     *
     * @param e     the event of {@link #p2p()}
     * @param op    the operation
     * @param rank  the caller's world rank
     * @param comm  the communicator's name
     * @param peer  the destination or source (a rank of the communicator; -1 any)
     * @param tag   the tag
     * @param bytes the bytes of the buffer
     * @param request the request a nonblocking call returned, or null
     */
    public static void p2p(final P2pEvent e, final String op, final int rank, final String comm, final int peer,
        final int tag, final long bytes, final Object request) {
        e.end();
        if (e.shouldCommit()) {
            e.op = op;
            e.rank = rank;
            e.comm = comm;
            e.peer = peer;
            e.tag = tag;
            e.bytes = bytes;
            e.request = id(request);
            e.commit();
        }
    }

    /** @return a request's identity in events: its identity hash, 0 for none */
    private static int id(final Object request) {
        return null == request ? 0 : System.identityHashCode(request);
    }

    /** @return a collective event, begun: with the stack if this call is one of those that take it */
    public static CollectiveEvent collective() {
        final CollectiveEvent e = StackSampling.stack() ? new CollectiveEvent.Stacked()
            : new CollectiveEvent.Plain();
        e.begin();
        return e;
    }

    /**
     * Ends a collective event; {@link #commit(CollectiveEvent, Collective)} commits it.
     *
     * @param e the event of {@link #collective()}
     * @return whether a recording takes it (then fill in and commit it)
     */
    public static boolean end(final CollectiveEvent e) {
        e.end();
        return e.shouldCommit();
    }

    /**
     * What a collective event records, read from the call's descriptor only when a recording takes the event.
     */
    public interface Collective {
        /** @return the MPI name of the operation */
        String op();

        /** @return blocking, nonblocking, tagged or persistent */
        String variant();

        /** @return the caller's world rank */
        int worldRank();

        /** @return the communicator's name */
        String comm();

        /** @return the communicator's collective context id */
        int context();

        /** @return the communicator's (local group's) size */
        int size();

        /** @return the root, or -1 */
        int root();

        /** @return this rank's bytes */
        long bytes();

        /** @return the algorithm's name, or empty */
        String algorithm();

        /** @return how the data moves */
        String road();
    }

    /**
     * Fills in and commits a collective event that {@link #end(CollectiveEvent)} said a recording takes.
     *
     * @param e       the event
     * @param call    what it records
     * @param request the request a nonblocking, tagged or persistent call returned, or null
     */
    public static void commit(final CollectiveEvent e, final Collective call, final Object request) {
        e.op = call.op();
        e.variant = call.variant();
        e.rank = call.worldRank();
        e.comm = call.comm();
        e.context = call.context();
        e.size = call.size();
        e.root = call.root();
        e.bytes = call.bytes();
        e.algorithm = call.algorithm();
        e.road = call.road();
        e.request = id(request);
        e.commit();
    }

    /** @return a channel exchange event, begun */
    public static ChannelExchangeEvent exchange() {
        final ChannelExchangeEvent e = new ChannelExchangeEvent();
        e.begin();
        return e;
    }

    /**
     * Ends and commits a channel exchange event, if a recording takes it.
     *
     * @param e       the event of {@link #exchange()}
     * @param channel the channel's name
     * @param rank    the world rank
     * @param number  the exchange's number
     * @param bytes   the bytes this rank sent
     * @param road    alltoall or window
     */
    public static void exchange(final ChannelExchangeEvent e, final String channel, final int rank,
        final long number, final long bytes, final String road) {
        e.end();
        if (e.shouldCommit()) {
            e.channel = channel;
            e.rank = rank;
            e.number = number;
            e.bytes = bytes;
            e.road = road;
            e.commit();
        }
    }

    /** @return a wait event, begun */
    public static WaitEvent await() {
        final WaitEvent e = new WaitEvent();
        e.begin();
        return e;
    }

    /**
     * Ends and commits a wait event, if a recording takes it.
     *
     * @param e       the event of {@link #await()}
     * @param request the request
     * @param op      what the request does
     * @param rank    the waiting world rank
     * @param peer    the world rank waited for, or -1
     * @param tag     the request's tag, or -1
     */
    public static void waited(final WaitEvent e, final Object request, final String op, final int rank,
        final int peer, final int tag) {
        e.end();
        if (e.shouldCommit()) {
            e.op = op;
            e.request = id(request);
            e.rank = rank;
            e.peer = peer;
            e.tag = tag;
            e.commit();
        }
    }

    /**
     * Records this rank's clock offset to rank 0.
     *
     * @param rank      the world rank
     * @param size      the job's size
     * @param offset    rank 0's clock minus this rank's, ns
     * @param roundTrip the round trip of the ping-pong it was taken from, ns
     */
    public static void clockOffset(final int rank, final int size, final long offset, final long roundTrip) {
        final ClockOffsetEvent e = new ClockOffsetEvent();
        e.rank = rank;
        e.size = size;
        e.offset = offset;
        e.roundTrip = roundTrip;
        e.wallNanos = wallNanos();
        e.commit();
    }

    /**
     * Records what this rank's recording holds of Tutti's calls.
     *
     * @param rank the world rank
     */
    static void recording(final int rank) {
        final RecordingEvent e = new RecordingEvent();
        e.rank = rank;
        e.stacks = Settings.JFR_STACKS.choice();
        e.stackSample = StackSampling.EVERY;
        e.commit();
    }

    /** @return the wall clock, ns since the epoch (the clock that clock offsets are measured on) */
    public static long wallNanos() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
