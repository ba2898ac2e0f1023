package dev.tutti.coll.trees;

import dev.tutti.coll.Schedule;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the schedules of every rank of a group in one thread, deterministically, with the engine's matching
 * rules: messages between an ordered pair of ranks match in send order, a receive must be exactly the size of
 * its message and carry the same type label, a round's local steps run once its messages are complete.
 *
 * <p>Two send models: buffered (a send completes when posted and its bytes are taken then, like an eager
 * transport) and synchronous (a send completes only once matched, like a rendezvous transport, which exposes
 * rounds that wait on each other in a cycle). A run fails on deadlock, on a message left unmatched, on a send to
 * itself or outside the group. It also tracks causality: which ranks' starts happen before each rank's finish.
 */
final class ScheduleSimulator {
    private ScheduleSimulator() {
    }

    /** One posted message. */
    private static final class Post {
        final int owner;
        final Schedule.CommStep step;
        final byte[] snapshot;
        final BitSet knows;

        Post(final int owner, final Schedule.CommStep step, final byte[] snapshot, final BitSet knows) {
            this.owner = owner;
            this.step = step;
            this.snapshot = snapshot;
            this.knows = knows;
        }
    }

    private static ArrayDeque<Post> queue(final ArrayDeque<Post>[][] q, final int i, final int j) {
        if (null == q[i][j]) {
            q[i][j] = new ArrayDeque<>();
        }
        return q[i][j];
    }

    /** Matches the messages from src to dst with the receives dst posted for them, in order. */
    private static void match(final ArrayDeque<Post>[][] sent, final ArrayDeque<Post>[][] posted, final int src,
        final int dst, final boolean synchronous, final int[] outstanding, final BitSet[] knows) {
        final ArrayDeque<Post> in = queue(sent, src, dst);
        final ArrayDeque<Post> out = queue(posted, dst, src);
        while (!in.isEmpty() && !out.isEmpty()) {
            final Post snd = in.poll();
            final Post rcv = out.poll();
            final MemorySegment from = synchronous ? snd.step.segment() : MemorySegment.ofArray(snd.snapshot);
            assertEquals(from.byteSize(), rcv.step.segment().byteSize(), "message " + src + "->" + dst
                + ": sent bytes != received bytes");
            assertEquals(snd.step.type(), rcv.step.type(), "message " + src + "->" + dst + " type");
            MemorySegment.copy(from, 0, rcv.step.segment(), 0, from.byteSize());
            knows[dst].or(snd.knows);
            outstanding[dst]--;
            if (synchronous) {
                outstanding[src]--;
            }
        }
    }

    /**
     * The outcome of a run.
     *
     * @param rounds per rank, the number of rounds of its schedule
     * @param knows  per rank, the ranks whose start happens before its finish (through messages)
     */
    record Result(int[] rounds, BitSet[] knows) {
    }

    /**
     * Runs the schedules to completion.
     *
     * @param schedules   one per rank
     * @param synchronous whether sends complete only when matched
     * @return rounds and causality
     */
    @SuppressWarnings("unchecked")
    static Result run(final Schedule[] schedules, final boolean synchronous) {
        final int p = schedules.length;
        final ArrayDeque<Post>[][] sent = new ArrayDeque[p][p];
        final ArrayDeque<Post>[][] posted = new ArrayDeque[p][p];
        final int[] round = new int[p];
        Arrays.fill(round, -1);
        final int[] outstanding = new int[p];
        final boolean[] done = new boolean[p];
        final BitSet[] knows = new BitSet[p];
        for (int r = 0; r < p; r++) {
            knows[r] = new BitSet(p);
            knows[r].set(r);
        }
        int finished = 0;
        while (finished < p) {
            boolean progress = false;
            for (int r = 0; r < p; r++) {
                if (done[r] || outstanding[r] > 0) {
                    continue;
                }
                final Schedule.Round[] rounds = schedules[r].rounds();
                if (round[r] >= 0) {
                    for (final Runnable step : rounds[round[r]].local()) {
                        step.run();
                    }
                }
                round[r]++;
                progress = true;
                if (round[r] == rounds.length) {
                    if (null != schedules[r].finish()) {
                        schedules[r].finish().run();
                    }
                    done[r] = true;
                    finished++;
                    continue;
                }
                // What this round's sends carry: what the rank knew when it started the round.
                final BitSet known = (BitSet) knows[r].clone();
                for (final Schedule.CommStep s : rounds[round[r]].comm()) {
                    assertTrue(s.peer() >= 0 && s.peer() < p && s.peer() != r, "rank " + r + " round " + round[r]
                        + ": peer=" + s.peer());
                    if (s.send()) {
                        queue(sent, r, s.peer()).add(new Post(r, s, synchronous ? null : s.segment().toArray(
                            java.lang.foreign.ValueLayout.JAVA_BYTE), known));
                        if (synchronous) {
                            outstanding[r]++;
                        }
                        match(sent, posted, r, s.peer(), synchronous, outstanding, knows);
                    } else {
                        queue(posted, r, s.peer()).add(new Post(r, s, null, null));
                        outstanding[r]++;
                        match(sent, posted, s.peer(), r, synchronous, outstanding, knows);
                    }
                }
                for (final Runnable step : rounds[round[r]].meanwhile()) {
                    step.run();
                }
            }
            if (!progress) {
                fail("deadlock (synchronous=" + synchronous + "): rounds " + Arrays.toString(round)
                    + ", outstanding " + Arrays.toString(outstanding));
            }
        }
        for (int src = 0; src < p; src++) {
            for (int dst = 0; dst < p; dst++) {
                assertTrue(null == sent[src][dst] || sent[src][dst].isEmpty(), "unmatched message " + src + "->"
                    + dst);
                assertTrue(null == posted[dst][src] || posted[dst][src].isEmpty(), "unmatched receive at " + dst
                    + " from " + src);
            }
        }
        final int[] counts = new int[p];
        for (int r = 0; r < p; r++) {
            counts[r] = schedules[r].rounds().length;
        }
        return new Result(counts, knows);
    }
}
