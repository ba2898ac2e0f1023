package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Deadlock detection for one rank, run by the checker's agent (so only while one of the rank's threads waits in
 * Tutti, and by one such thread at a time).
 *
 * <p>Trigger. The coordinator, the lowest rank that has not left the job, starts a round once one of its own waits
 * has lasted the threshold: it asks every other live rank for its blocked waits ({@link RankState}) on the world's
 * checker context. A rank answers from its agent, which runs only while it waits, so a rank that computes never
 * answers and the round lapses after a threshold. When every live rank reports a wait of at least the threshold,
 * and a second round half a threshold later finds the same waits (by their numbers: none ended, none began), no
 * message is in flight that could release one (every blocked rank drives its transports) and the job is deadlocked;
 * the {@link WaitGraph} confirms that no rank is releasable and explains why.
 *
 * <p>Verdict. The coordinator sends the report to every live rank, then each rank aborts its engine with a
 * {@link dev.tutti.DeadlockException}, which every blocked wait of the rank throws. A peer reads the verdict before it can
 * learn that the coordinator left (the transports deliver a pair's messages in order, and a wait runs the agent
 * right after it polls them).
 */
final class DeadlockDetector {
    private static final long NS_PER_MS = 1_000_000L;

    private final P2pEngine engine;
    private final CommView worldView;
    private final WaitRegistry waits;
    private final long thresholdMs;
    private RecvRequest question;
    private RecvRequest verdict;
    private Map<Integer, RecvRequest> round;
    private long roundStartNs;
    private long nextRoundNs;
    private Map<Integer, List<Long>> previous;
    /** The verdict is in: this rank's engine is aborted and nothing is left to do. */
    private boolean over;

    private final java.util.function.BiConsumer<String, String> found;

    DeadlockDetector(final P2pEngine engine, final CommView worldView, final WaitRegistry waits,
        final long thresholdMs, final java.util.function.BiConsumer<String, String> found) {
        this.found = found;
        this.engine = engine;
        this.worldView = worldView;
        this.waits = waits;
        this.thresholdMs = thresholdMs;
    }

    /**
     * A hint, read without the checker's lock: whether a question or the verdict may have arrived, or a round is on.
     *
     * @return false only if there is surely nothing to read now
     */
    boolean mayHaveMessages() {
        final RecvRequest q = question;
        final RecvRequest v = verdict;
        return null == q || q.isDone() || null == v || v.isDone() || null != round;
    }

    /**
     * Answers the coordinator's question, reads its verdict, and (on the coordinator) runs the rounds.
     *
     * @return the work done
     */
    int doWork() {
        if (over) {
            return 0;
        }
        int work = 0;
        try {
            work += answer();
            work += readVerdict();
            if (coordinator()) {
                work += detect();
            }
        } catch (final TuttiException e) {
            return work; // this rank is closing or the job is going down: nothing to detect
        }
        return work;
    }

    private int answer() {
        if (null == question) {
            question = engine.irecvAllocating(Checker.WORLD_CHECK, P2pEngine.ANY, Checker.SNAP_QUERY_TAG,
                Datatype.BYTE, worldView);
        }
        if (!question.isDone()) {
            return 0;
        }
        final int asker = question.waitFor().source();
        question = null;
        final RankState mine = new RankState(engine.worldRank(), waits.snapshot());
        engine.isend(Checker.WORLD_CHECK, asker, Checker.SNAP_REPLY_TAG, Datatype.BYTE,
            MemorySegment.ofArray(mine.encode()));
        return 1;
    }

    /**
     * Reads the coordinator's verdict, if it has come: at every progress of a waiting rank, not only every
     * housekeeping tick, so that a rank that polls with {@code test()} reads it before it learns that the coordinator
     * left.
     *
     * @return 0
     */
    int readVerdict() {
        if (over) {
            return 0;
        }
        if (null == verdict) {
            verdict = engine.irecvAllocating(Checker.WORLD_CHECK, P2pEngine.ANY, Checker.VERDICT_TAG, Datatype.BYTE,
                worldView);
        }
        if (!verdict.isDone()) {
            return 0;
        }
        verdict.waitFor();
        final String text = new String(verdict.receivedBytes(), StandardCharsets.UTF_8);
        engine.abort(Reports.deadlock(text));
        over = true;
        return 0;
    }

    private boolean coordinator() {
        for (int r = 0; r < engine.worldRank(); r++) {
            if (null == engine.failureAffecting(r)) {
                return false;
            }
        }
        return true;
    }

    private int detect() {
        final long now = System.nanoTime();
        if (waits.oldestMs() < thresholdMs) {
            reset();
            return 0;
        }
        if (null == round) {
            if (now - nextRoundNs < 0) {
                return 0;
            }
            round = new TreeMap<>();
            roundStartNs = now;
            for (int r = 0; r < engine.worldSize(); r++) {
                if (r != engine.worldRank() && null == engine.failureAffecting(r)) {
                    round.put(r, engine.irecvAllocating(Checker.WORLD_CHECK, r, Checker.SNAP_REPLY_TAG,
                        Datatype.BYTE, worldView));
                    engine.isend(Checker.WORLD_CHECK, r, Checker.SNAP_QUERY_TAG, Datatype.BYTE,
                        MemorySegment.ofArray(new byte[0]));
                }
            }
            return 1;
        }
        final List<RankState> states = new ArrayList<>();
        final Set<Integer> departed = new TreeSet<>();
        for (final Map.Entry<Integer, RecvRequest> e : round.entrySet()) {
            final RecvRequest reply = e.getValue();
            if (reply.isDone()) {
                final RankState s = RankState.decode(reply);
                if (null == s) {
                    departed.add(e.getKey()); // its reply failed: it left or failed
                } else {
                    states.add(s);
                }
            } else if (null != engine.failureAffecting(e.getKey())) {
                reply.cancel();
                departed.add(e.getKey());
            } else {
                if ((now - roundStartNs) / NS_PER_MS > thresholdMs) {
                    lapse(now); // a rank that does not answer is not blocked in Tutti
                }
                return 0;
            }
        }
        for (int r = 0; r < engine.worldSize(); r++) {
            if (r != engine.worldRank() && !round.containsKey(r)) {
                departed.add(r);
            }
        }
        states.add(new RankState(engine.worldRank(), waits.snapshot()));
        round = null;
        nextRoundNs = now + thresholdMs * NS_PER_MS / 2;
        final Map<Integer, List<Long>> ids = new TreeMap<>();
        for (final RankState s : states) {
            if (!s.blockedFor(thresholdMs)) {
                previous = null;
                return 1;
            }
            ids.put(s.rank(), s.ids());
        }
        if (!ids.equals(previous)) {
            previous = ids;
            return 1;
        }
        final WaitGraph graph = new WaitGraph(states, departed);
        if (graph.progressPossible()) {
            previous = null;
            return 1;
        }
        final String report = graph.report(thresholdMs);
        found.accept("deadlock", report);
        final byte[] bytes = report.getBytes(StandardCharsets.UTF_8);
        for (final RankState s : states) {
            if (s.rank() != engine.worldRank()) {
                engine.isend(Checker.WORLD_CHECK, s.rank(), Checker.VERDICT_TAG, Datatype.BYTE,
                    MemorySegment.ofArray(bytes));
            }
        }
        engine.abort(Reports.deadlock(report));
        over = true;
        return 0;
    }

    private void lapse(final long now) {
        for (final RecvRequest r : round.values()) {
            r.cancel();
        }
        round = null;
        previous = null;
        nextRoundNs = now + thresholdMs * NS_PER_MS / 2;
    }

    private void reset() {
        if (null != round) {
            lapse(System.nanoTime());
        }
        previous = null;
    }
}
