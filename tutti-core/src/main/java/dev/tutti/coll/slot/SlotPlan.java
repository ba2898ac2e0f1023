package dev.tutti.coll.slot;

import dev.tutti.TuttiException;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * How a persistent collective's messages skip the message layer: each of its messages with a peer in
 * {@link DirectMemory} (shared memory between processes, the heap between ranks that are threads of one JVM), as the
 * caller chose them ({@link Builder}), goes through a slot of the {@link SlotLane} for that peer and shape
 * ({@link SlotPart}). A persistent call's peers and sizes never change, so the matching that the message layer does
 * on every call is done once per lane. The plan knows the schedule only by the number of messages in each round and
 * the place (round, index) of each message it was given.
 *
 * <p>Implementation notes. Made with the request ({@code init} stays local, as MPI-4 requires: lanes are agreed in
 * their first run). Each start draws the next run number of each of its lanes ({@link #nextRun()}); the run then
 * asks every lane to agree ({@link #agree}) before its first round, and builds its parts over the agreed slots once
 * (the request's own segments never change). A lane that did not go direct leaves its steps to the message layer.
 * Touched by the thread that holds the run's advance lock, and by the owner thread at a start (the run inactive).
 * Cost per start: one increment per lane; per message: see {@link SlotPart}.
 */
public final class SlotPlan {
    private final String op;
    private final P2pEngine engine;
    /** The messages of each round of the schedule, by round. */
    private final int[] widths;
    private final Pair[] pairs;
    /** The current run's number on each pair's lane, by pair index. */
    private final long[] runs;
    private final BooleanSupplier idle;
    private SlotPart[][] parts;
    private boolean ready;
    private int direct;

    /** This request's messages with one peer, in schedule order, and their lane. */
    private static final class Pair {
        final int peer;
        final int peerWorld;
        final List<MemorySegment> sends = new ArrayList<>();
        final List<int[]> sendAt = new ArrayList<>();
        final List<MemorySegment> recvs = new ArrayList<>();
        final List<int[]> recvAt = new ArrayList<>();
        /** Whether the transport moves one of the sends with one copy (where a slot takes two). */
        boolean copiesOnce;
        SlotLane lane;

        Pair(final int peer, final int peerWorld) {
            this.peer = peer;
            this.peerWorld = peerWorld;
        }

        long[] sizes(final List<MemorySegment> segments) {
            final long[] s = new long[segments.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = segments.get(i).byteSize();
            }
            return s;
        }
    }

    private SlotPlan(final Builder b, final Pair[] pairs) {
        this.op = b.op;
        this.engine = b.engine;
        this.widths = b.widths;
        this.idle = b.idle;
        this.pairs = pairs;
        this.runs = new long[pairs.length];
    }

    /**
     * Collects the messages of a persistent schedule that may go through slots, one {@link #add} per message in
     * schedule order, and makes the plan over them ({@link #build}). Which messages those are, the caller decides
     * (its peer's transport has the direct memory of the others).
     */
    public static final class Builder {
        private final String op;
        private final int header;
        private final int[] widths;
        private final P2pEngine engine;
        private final BooleanSupplier idle;
        private final Pair[] byPeer;
        private final List<Pair> pairs = new ArrayList<>();

        /**
         * @param op     the operation, for messages
         * @param header the schedule's header bits (the call's kind and roots: part of each lane's shape)
         * @param widths the messages of each round of the schedule
         * @param size   the communicator's size
         * @param engine the engine of this rank
         * @param idle   tells whether the request has no run in flight (see {@link SlotLane#close()})
         */
        public Builder(final String op, final int header, final int[] widths, final int size, final P2pEngine engine,
            final BooleanSupplier idle) {
            this.op = op;
            this.header = header;
            this.widths = widths;
            this.engine = engine;
            this.idle = idle;
            this.byPeer = new Pair[size];
        }

        /**
         * Adds a message that may go through a slot.
         *
         * @param peer       the peer's group rank
         * @param peerWorld  the peer's world rank
         * @param round      the message's round
         * @param index      its index in the round
         * @param send       true for a send
         * @param segment    its bytes
         * @param copiesOnce whether the transport moves this send with one copy, where a slot takes two
         */
        public void add(final int peer, final int peerWorld, final int round, final int index, final boolean send,
            final MemorySegment segment, final boolean copiesOnce) {
            Pair p = byPeer[peer];
            if (null == p) {
                p = new Pair(peer, peerWorld);
                byPeer[peer] = p;
                pairs.add(p);
            }
            p.copiesOnce |= copiesOnce;
            (send ? p.sends : p.recvs).add(segment);
            (send ? p.sendAt : p.recvAt).add(new int[] {round, index});
        }

        /** @return whether no message was added */
        public boolean isEmpty() {
            return pairs.isEmpty();
        }

        /**
         * Makes the plan: one lane per peer of the added messages. A peer to which one of the sends is better left
         * to the transport (it copies the message once where a slot copies it twice) gets a lane that declines
         * slots, if the lane is new (a lane already agreed on slots keeps them).
         *
         * @param lanes  the communicator's lanes
         * @param memory the direct memory shared with every peer of the added messages
         * @param limit  the largest message that may go through a slot, above 0
         * @return the plan
         */
        public SlotPlan build(final SlotLanes lanes, final DirectMemory memory, final long limit) {
            for (final Pair p : pairs) {
                // A pair whose sends the transport copies once offers no slots (limit 0) when its lane is new, so that
                // the lane agrees on the message layer with the peer, which cannot know where this rank's data lies.
                p.lane = lanes.lane(new SlotLane.Key(p.peer, header, p.sizes(p.sends), p.sizes(p.recvs)), p.peerWorld,
                    memory, p.copiesOnce ? 0 : limit);
                p.lane.addUser(idle);
            }
            return new SlotPlan(this, pairs.toArray(new Pair[0]));
        }
    }

    /** Tells the lanes that the request is freed. */
    public void release() {
        for (final Pair p : pairs) {
            p.lane.removeUser(idle);
        }
    }

    /** Draws this start's run number on each lane: once per start, before the run advances (owner thread). */
    public void nextRun() {
        for (int i = 0; i < pairs.length; i++) {
            runs[i] = pairs[i].lane.nextRun();
        }
    }

    /** @return whether every lane is agreed and the parts are built */
    public boolean ready() {
        return ready;
    }

    /** @return whether any message goes direct (once ready) */
    public boolean any() {
        return direct > 0;
    }

    /** @return whether every message goes direct (once ready): the run then needs no transport to complete */
    public boolean all() {
        return direct == messages();
    }

    private int messages() {
        int all = 0;
        for (final int w : widths) {
            all += w;
        }
        return all;
    }

    /** @return the messages of round {@code round} of the schedule */
    int width(final int round) {
        return widths[round];
    }

    /**
     * Returns the direct part of a step, or null when the step keeps the message layer (ready plans only).
     *
     * @param round the round
     * @param step  the step's index in the round
     * @return the part, or null
     */
    public SlotPart part(final int round, final int step) {
        final SlotPart[] r = parts[round];
        return null == r ? null : r[step];
    }

    /**
     * Asks every lane to agree (see {@link SlotLane#agree}), and once all have, builds the parts. Called by a run
     * holding its advance lock, before its first round, until it returns true.
     *
     * @param owner the run
     * @param tag   its tag
     * @return true once ready
     * @throws TuttiException if a peer disagrees about the shape of the call (a count mismatch)
     */
    public boolean agree(final AbstractRequest owner, final int tag) {
        boolean all = true;
        for (int i = 0; i < pairs.length; i++) {
            all &= pairs[i].lane.agree(owner, tag, runs[i], op);
        }
        if (!all) {
            return false;
        }
        build();
        ready = true;
        return true;
    }

    private void build() {
        parts = new SlotPart[widths.length][];
        for (int i = 0; i < pairs.length; i++) {
            final Pair p = pairs[i];
            final SlotLane lane = p.lane;
            if (!lane.direct()) {
                continue;
            }
            final int world = lane.peerWorld();
            for (int j = 0; j < p.recvs.size(); j++) {
                put(p.recvAt.get(j), new SlotPart(engine, false, world, lane.recvSlot(j), p.recvs.get(j), runs, i,
                    null, 0));
            }
            for (int j = 0; j < p.sends.size(); j++) {
                put(p.sendAt.get(j), new SlotPart(engine, true, world, lane.sendSlot(j), p.sends.get(j), runs, i,
                    lane.credits(), j));
            }
        }
    }

    private void put(final int[] at, final SlotPart part) {
        if (null == parts[at[0]]) {
            parts[at[0]] = new SlotPart[widths[at[0]]];
        }
        parts[at[0]][at[1]] = part;
        direct++;
    }

    /**
     * Returns a peer that sent this run's data through the message layer while this rank waits to agree slots with
     * it (it makes no plan for the call: a different {@code tutti.coll.directLimit}), or -1.
     *
     * @param tag the run's tag
     * @return the peer's group rank, or -1
     */
    public int stalledBy(final int tag) {
        for (final Pair p : pairs) {
            if (p.lane.stalledBy(tag)) {
                return p.peer;
            }
        }
        return -1;
    }

    /** A peer (group rank) whose departure keeps the plan from being agreed, and its failure. */
    public record Blocked(int peer, TuttiException failure) {
    }

    /** @return the peer whose departure keeps the plan from being agreed, or null */
    public Blocked blockedBy() {
        for (final Pair p : pairs) {
            final TuttiException f = p.lane.blockedBy();
            if (null != f) {
                return new Blocked(p.peer, f);
            }
        }
        return null;
    }

    /** @return e.g. {@code direct 2 of 3 messages} once ready, else {@code direct not agreed yet} */
    @Override
    public String toString() {
        if (!ready) {
            return "direct not agreed yet";
        }
        return "direct " + direct + " of " + messages() + " messages";
    }
}
