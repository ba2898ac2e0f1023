package dev.tutti.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Which lines of a rank's stderr the launcher forwards when it is not verbose. */
class StderrFilterTest {
    private static final String PEER_FAILED = "Exception in thread \"main\" dev.tutti.TuttiException: allreduce "
        + "(comm=WORLD, rank=3): cannot complete, it waits for rank 2 (round 1 of 1): rank 2 closed (left the job), "
        + "so nothing more can be received from or sent to it";

    private static List<String> forward(final int rank, final Set<String> reported, final String... lines) {
        final StderrFilter f = new StderrFilter(rank, reported, StandardCharsets.UTF_8);
        final List<String> out = new ArrayList<>();
        final StderrFilter.Out sink = (b, n) -> out.add(new String(b, 0, n, StandardCharsets.UTF_8));
        for (final String line : lines) {
            final byte[] b = line.getBytes(StandardCharsets.UTF_8);
            f.onLine(b, b.length, sink);
        }
        f.onEnd(sink);
        return out;
    }

    private static List<String> forward(final String... lines) {
        return forward(3, ConcurrentHashMap.newKeySet(), lines);
    }

    @Test
    void shouldCutAReportOfAPeersFailureToItsFirstLine() {
        final List<String> out = forward("working", PEER_FAILED, "\tat dev.tutti.internal.Failures.rethrown(F.java:65)",
            "\tat app.Main.main(Main.java:15)", "Caused by: dev.tutti.TuttiException: rank 2 closed (left the job)",
            "\tat dev.tutti.p2p.P2pEngine.peerLeft(P2pEngine.java:596)", "\t... 6 more", "after");

        assertEquals(List.of("working", PEER_FAILED, "after"), out);
    }

    @Test
    void shouldForwardTheRanksOwnFailureWhole() {
        final String[] trace = {"Exception in thread \"main\" java.lang.IllegalStateException: boom",
            "\tat app.Main.main(Main.java:12)", "Caused by: java.io.IOException: disk full", "\t... 1 more"};

        assertEquals(List.of(trace), forward(trace));
    }

    @Test
    void shouldForwardAReportThatBlamesThisRankItself() {
        final String self = "Exception in thread \"main\" dev.tutti.TuttiException: rank 3 failed: it aborted";

        assertEquals(List.of(self, "\tat app.Main.main(Main.java:1)"), forward(self, "\tat app.Main.main(Main.java:1)"));
    }

    @Test
    void shouldLeaveOutAnExceptionAnotherRankAlreadyReported() {
        final Set<String> reported = ConcurrentHashMap.newKeySet();
        final String[] trace = {"Exception in thread \"main\" dev.tutti.CollectiveMismatchException: collective "
            + "mismatch on 'WORLD' (call #1)", "  rank 0: bcast(root=0)", "  rank 3: bcast(root=1)",
            "\tat app.Main.main(Main.java:10)", "Caused by: dev.tutti.CollectiveMismatchException: collective",
            "second line of the cause's message", "\tat dev.tutti.check.Reports.mismatch(Reports.java:78)",
            "\t... 7 more"};

        assertEquals(List.of(trace), forward(0, reported, trace));
        assertEquals(List.of("before", "after"), forward(1, reported, concat("before", trace, "after")));
    }

    @Test
    void shouldForwardTheLinesAfterAReportThatHasNoFrames() {
        final List<String> out = forward(PEER_FAILED, "a line of the program", "another");

        assertEquals(List.of(PEER_FAILED, "a line of the program", "another"), out);
    }

    @Test
    void shouldTakeHeldLinesAsOutputWhenManyFollow() {
        final List<String> lines = new ArrayList<>(List.of(PEER_FAILED));
        for (int i = 0; i <= StderrFilter.MAX_HELD_LINES; i++) {
            lines.add("line " + i);
        }
        lines.add("\tat app.Main.main(Main.java:1)");

        final List<String> out = forward(lines.toArray(new String[0]));

        assertEquals(lines, out);
    }

    @Test
    void shouldEndASkippedReportAtTheNextOne() {
        final String own = "Exception in thread \"worker\" java.lang.IllegalStateException: own";

        final List<String> out = forward(PEER_FAILED, "\tat app.Main.main(Main.java:15)", own,
            "\tat app.Worker.run(Worker.java:3)");

        assertEquals(List.of(PEER_FAILED, own, "\tat app.Worker.run(Worker.java:3)"), out);
    }

    private static String[] concat(final String first, final String[] middle, final String last) {
        final List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(List.of(middle));
        all.add(last);
        return all.toArray(new String[0]);
    }

    @Test
    void shouldReportACollectiveMismatchWholeOnceAndInOneLineOnTheOtherRanks() {
        final Set<String> reported = ConcurrentHashMap.newKeySet();
        final String mine = "Exception in thread \"main\" dev.tutti.TuttiException: bcast (comm=WORLD, rank=2): rank=1 "
            + "sent as part of bcast root=1 (call 0) but this rank called bcast root=0 (call 0): the ranks called "
            + "different collectives or roots";
        final String theirs = mine.replace("rank=2", "rank=3");
        final String frame = "\tat dev.tutti.Tutti.close(Tutti.java:415)";
        assertEquals(List.of(mine, frame), forward(2, reported, mine, frame));
        assertEquals(List.of(theirs, "after"), forward(3, reported, theirs, frame, "after"));
    }
}
