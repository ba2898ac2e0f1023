package dev.tutti.coll;

import dev.tutti.TuttiException;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Transport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * How a persistent collective's messages skip the message layer: each of its messages with a peer whose transport
 * has {@link DirectMemory} (shared memory between processes, the heap between ranks that are threads of one JVM)
 * goes through a slot of the {@link DirectLane} for that peer and shape ({@link DirectPart}). A persistent call's
 * peers and sizes never change, so the matching that the message layer does on every call is done once per lane.
 *
 * <p>Implementation notes. Made with the request ({@code init} stays local, as MPI-4 requires: lanes are agreed in
 * their first run). Each start draws the next run number of each of its lanes ({@link #nextRun()}); the run then
 * asks every lane to agree ({@link #agree}) before its first round, and builds its parts over the agreed slots once
 * (the request's own segments never change). A lane that did not go direct leaves its steps to the message layer.
 * Touched by the thread that holds the run's advance lock, and by the owner thread at a start (the run inactive).
 * Cost per start: one increment per lane; per message: see {@link DirectPart}.
 */
final class DirectPlan {
    private final Schedule schedule;
    private final CollComm comm;
    private final Pair[] pairs;
    /** The current run's number on each pair's lane, by pair index. */
    private final long[] runs;
    private final BooleanSupplier idle;
    private DirectPart[][] parts;
    private boolean ready;
    private int direct;

    /** This request's messages with one peer, in schedule order, and their lane. */
    private static final class Pair {
        final int peer;
        final List<Schedule.CommStep> sends = new ArrayList<>();
        final List<int[]> sendAt = new ArrayList<>();
        final List<Schedule.CommStep> recvs = new ArrayList<>();
        final List<int[]> recvAt = new ArrayList<>();
        /** Whether the transport moves one of the sends with one copy (where a slot takes two). */
        boolean copiesOnce;
        DirectLane lane;

        Pair(final int peer) {
            this.peer = peer;
        }

        long[] sizes(final List<Schedule.CommStep> steps) {
            final long[] s = new long[steps.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = steps.get(i).segment().byteSize();
            }
            return s;
        }
    }

    private DirectPlan(final Schedule schedule, final CollComm comm, final Pair[] pairs, final BooleanSupplier idle) {
        this.idle = idle;
        this.schedule = schedule;
        this.comm = comm;
        this.pairs = pairs;
        this.runs = new long[pairs.length];
    }

    /**
     * Makes the plan of a persistent schedule, or returns null when none of its messages can go direct (no peer
     * with direct memory, or the setting {@code tutti.coll.directLimit} is 0). A peer to which one of its sends is
     * better left to the transport ({@link DirectMemory#copiesOnce}: it copies the message once where a slot copies
     * it twice) gets a lane that declines slots, if the lane is new (a lane already agreed on slots keeps them).
     *
     * @param schedule the request's own schedule
     * @param comm     its communicator
     * @param idle     tells whether the request has no run in flight (see {@link DirectLane#close()})
     * @return the plan, or null
     */
    static DirectPlan of(final Schedule schedule, final CollComm comm, final BooleanSupplier idle) {
        final P2pEngine engine = comm.engine();
        final Pair[] byPeer = new Pair[comm.size()];
        final List<Pair> pairs = new ArrayList<>();
        DirectMemory memory = null;
        final Schedule.Round[] rounds = schedule.rounds();
        for (int r = 0; r < rounds.length; r++) {
            final Schedule.CommStep[] steps = rounds[r].comm();
            for (int i = 0; i < steps.length; i++) {
                final Schedule.CommStep s = steps[i];
                final int world = comm.world(s.peer());
                final Transport route = world == engine.worldRank() ? null : engine.route(world);
                final DirectMemory t = null == route ? null : route.directMemory();
                if (null == t || (null != memory && memory != t)) {
                    continue;
                }
                memory = t;
                Pair p = byPeer[s.peer()];
                if (null == p) {
                    p = new Pair(s.peer());
                    byPeer[s.peer()] = p;
                    pairs.add(p);
                }
                p.copiesOnce |= s.send() && t.copiesOnce(s.segment());
                (s.send() ? p.sends : p.recvs).add(s);
                (s.send() ? p.sendAt : p.recvAt).add(new int[] {r, i});
            }
        }
        if (pairs.isEmpty()) {
            return null;
        }
        final long limit = memory.directLimit();
        if (limit <= 0) {
            return null;
        }
        final int header = schedule.header().bits();
        for (final Pair p : pairs) {
            // A pair whose sends the transport copies once offers no slots (limit 0) when its lane is new, so that
            // the lane agrees on the message layer with the peer, which cannot know where this rank's data lies.
            p.lane = comm.directLane(new DirectLane.Key(p.peer, header, p.sizes(p.sends), p.sizes(p.recvs)), memory,
                p.copiesOnce ? 0 : limit);
            p.lane.addUser(idle);
        }
        return new DirectPlan(schedule, comm, pairs.toArray(new Pair[0]), idle);
    }

    /** Tells the lanes that the request is freed. */
    void release() {
        for (final Pair p : pairs) {
            p.lane.removeUser(idle);
        }
    }

    /** Draws this start's run number on each lane: once per start, before the run advances (owner thread). */
    void nextRun() {
        for (int i = 0; i < pairs.length; i++) {
            runs[i] = pairs[i].lane.nextRun();
        }
    }

    /** @return whether every lane is agreed and the parts are built */
    boolean ready() {
        return ready;
    }

    /** @return whether any message goes direct (once ready) */
    boolean any() {
        return direct > 0;
    }

    /** @return whether every message goes direct (once ready): the run then needs no transport to complete */
    boolean all() {
        return direct == messages();
    }

    private int messages() {
        int all = 0;
        for (final Schedule.Round r : schedule.rounds()) {
            all += r.comm().length;
        }
        return all;
    }

    /**
     * Returns the direct part of a step, or null when the step keeps the message layer (ready plans only).
     *
     * @param round the round
     * @param step  the step's index in the round
     * @return the part, or null
     */
    DirectPart part(final int round, final int step) {
        final DirectPart[] r = parts[round];
        return null == r ? null : r[step];
    }

    /**
     * Asks every lane to agree (see {@link DirectLane#agree}), and once all have, builds the parts. Called by a run
     * holding its advance lock, before its first round, until it returns true.
     *
     * @param owner the run
     * @param tag   its tag
     * @return true once ready
     * @throws TuttiException if a peer disagrees about the shape of the call (a count mismatch)
     */
    boolean agree(final ScheduleRun owner, final int tag) {
        boolean all = true;
        for (int i = 0; i < pairs.length; i++) {
            all &= pairs[i].lane.agree(owner, tag, runs[i], schedule.op());
        }
        if (!all) {
            return false;
        }
        build();
        ready = true;
        return true;
    }

    private void build() {
        final Schedule.Round[] rounds = schedule.rounds();
        parts = new DirectPart[rounds.length][];
        for (int i = 0; i < pairs.length; i++) {
            final Pair p = pairs[i];
            final DirectLane lane = p.lane;
            if (!lane.direct()) {
                continue;
            }
            final int world = lane.peerWorld();
            for (int j = 0; j < p.recvs.size(); j++) {
                put(rounds, p.recvAt.get(j), new DirectPart(comm.engine(), false, world, lane.recvSlot(j),
                    p.recvs.get(j).segment(), runs, i, null, 0));
            }
            for (int j = 0; j < p.sends.size(); j++) {
                put(rounds, p.sendAt.get(j), new DirectPart(comm.engine(), true, world, lane.sendSlot(j),
                    p.sends.get(j).segment(), runs, i, lane.credits(), j));
            }
        }
    }

    private void put(final Schedule.Round[] rounds, final int[] at, final DirectPart part) {
        if (null == parts[at[0]]) {
            parts[at[0]] = new DirectPart[rounds[at[0]].comm().length];
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
    int stalledBy(final int tag) {
        for (final Pair p : pairs) {
            if (p.lane.stalledBy(tag)) {
                return p.peer;
            }
        }
        return -1;
    }

    /** A peer (group rank) whose departure keeps the plan from being agreed, and its failure. */
    record Blocked(int peer, TuttiException failure) {
    }

    /** @return the peer whose departure keeps the plan from being agreed, or null */
    Blocked blockedBy() {
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
