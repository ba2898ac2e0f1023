package dev.tutti.cli.trace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profile's call-site rows from spans made here: exact when every call took its stack, estimated from the
 * sampled calls' shares when only some did (here samples in the calls' own proportions, so the estimates are the
 * true figures), an operation without a sample in one row of unknown site, and the estimate marked as such in the
 * table, the CSV and the JSON.
 */
class ProfileTest {
    private static final String A = "Prog.main:10";
    private static final String B = "Prog.main:20";

    /**
     * Per rank: 300 allreduces at A (100 ns, 8 B) and 100 at B (1000 ns, 1 KiB), of which rank 0 sampled 3 and 1,
     * rank 1 6 and 2; 5 barriers, none sampled; and a sampled send inside a call (depth 1), which is no call.
     */
    private static List<Span> spans(final boolean all) {
        final List<Span> out = new ArrayList<>();
        long t = 0;
        for (int rank = 0; rank < 2; rank++) {
            final int[] sampled = {3 * (rank + 1), rank + 1};
            for (int i = 0; i < 400; i++) {
                final boolean atA = i < 300;
                final int k = atA ? i : i - 300;
                final boolean stack = all || k < sampled[atA ? 0 : 1];
                out.add(span(rank, "allreduce", t, atA ? 100 : 1000, atA ? 8 : 1024, stack ? (atA ? A : B) : "",
                    stack, 0));
                t += 2000;
            }
            for (int i = 0; i < 5; i++) {
                out.add(span(rank, "barrier", t, 50, 0, all ? "Prog.main:30" : "", all, 0));
                t += 2000;
            }
            out.add(span(rank, "send", t, 10, 8, "Prog.main:40", true, 1));
        }
        return out;
    }

    private static Span span(final int rank, final String name, final long start, final long dur, final long bytes,
        final String site, final boolean stacked, final int depth) {
        return new Span(rank, 1, "main", "collective", name, start, dur, bytes, site, stacked, Map.of(), depth);
    }

    private static Map<String, Profile.Row> sites(final Profile p) {
        final Map<String, Profile.Row> m = new HashMap<>();
        for (final Profile.Row r : p.sites()) {
            m.put(r.op() + " " + r.site(), r);
        }
        return m;
    }

    @Test
    void shouldGiveExactSitesWhenEveryCallTookItsStack() {
        final Profile p = Profile.of(new Recordings(2, spans(true), new long[] {1, 1}, List.of(), 1));
        assertFalse(p.estimated());
        final Map<String, Profile.Row> s = sites(p);
        assertEquals(3, s.size(), s.keySet().toString());
        check(s.get("allreduce " + A), 600, 4_800, 30_000);
        check(s.get("allreduce " + B), 200, 204_800, 100_000);
        check(s.get("barrier Prog.main:30"), 10, 0, 250);
        assertFalse(p.table().contains("estimated"), p.table());
        assertTrue(p.csv().contains("\nallreduce," + A + ",600,60000,100.0,4800,1.000,0\n"), p.csv());
        assertTrue(p.json().contains("\"sites_estimated_from_1_in\":0"), p.json());
    }

    @Test
    void shouldEstimateSitesFromTheSampledCallsShares() {
        final Profile p = Profile.of(new Recordings(2, spans(false), new long[] {1, 1}, List.of(), 64));
        assertTrue(p.estimated());
        final Map<String, Profile.Row> ops = new HashMap<>();
        for (final Profile.Row r : p.ops()) {
            ops.put(r.op(), r);
        }
        assertEquals(800, ops.get("allreduce").count(), "the operation's row stays exact");
        assertEquals(2 * 130_000, ops.get("allreduce").totalNs());
        final Map<String, Profile.Row> s = sites(p);
        assertEquals(3, s.size(), s.keySet().toString());
        // 9 of 12 samples at A: 3/4 of the count; by the samples' bytes and each rank's samples' time, A's bytes
        // and time are 8/1032 and 100/1000 of B's per call: the true figures, since the samples are in proportion.
        check(s.get("allreduce " + A), 600, 4_800, 30_000);
        check(s.get("allreduce " + B), 200, 204_800, 100_000);
        check(s.get("barrier "), 10, 0, 250); // no sample: all of it at no known site
        assertTrue(p.table().contains("call sites estimated from 1 in 64 calls"), p.table());
        assertTrue(p.table().contains("call site (estimated)"), p.table());
        assertTrue(p.csv().contains("\nallreduce," + A + ",600,60000,100.0,4800,1.000,64\n"), p.csv());
        assertTrue(p.csv().contains("\nallreduce,*,800,260000,325.0,209600,1.000,0\n"), p.csv());
        assertTrue(p.json().contains("\"sites_estimated_from_1_in\":64"), p.json());
    }

    @Test
    void shouldGiveARankWithoutASampleTheSharesOfAllRanks() {
        // Rank 0 sampled no bcast; rank 1 sampled only site C, so rank 0's bcast time goes to C too.
        final List<Span> spans = new ArrayList<>();
        spans.add(span(0, "bcast", 0, 700, 8, "", false, 0));
        spans.add(span(1, "bcast", 0, 300, 8, "Prog.main:50", true, 0));
        spans.add(span(1, "bcast", 1000, 300, 8, "", false, 0));
        final Profile p = Profile.of(new Recordings(2, spans, new long[] {1, 1}, List.of(), 64));
        final Profile.Row c = sites(p).get("bcast Prog.main:50");
        assertEquals(3, c.count());
        assertEquals(1300, c.totalNs());
        assertArrayEquals(new long[] {700, 600}, c.rankNs());
    }

    private static void check(final Profile.Row r, final long count, final long bytes, final long rankNs) {
        assertEquals(count, r.count(), r.toString());
        assertEquals(bytes, r.bytes(), r.toString());
        assertArrayEquals(new long[] {rankNs, rankNs}, r.rankNs(), r.op() + " " + r.site());
        assertEquals(2 * rankNs, r.totalNs(), r.toString());
    }
}
