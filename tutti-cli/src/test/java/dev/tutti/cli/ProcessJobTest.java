package dev.tutti.cli;

import dev.tutti.cli.testranks.AssertingRank;
import dev.tutti.cli.testranks.CollSubsetRank;
import dev.tutti.cli.testranks.FailingRank;
import dev.tutti.launcher.RendezvousService;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole jobs through {@code tutti run}: real JVMs, the real rendezvous; ranks of this host use the shm transport
 * (the default, {@code tutti.transport=auto}) or, forced, tcp.
 */
@Tag("process")
@Timeout(60)
class ProcessJobTest {
    static final String[] RANK_JVM = {"-J-Xmx256m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1"};

    /** A finished {@code tutti run}: its exit status, output, error output and duration. */
    record Run(int status, String out, String err, long millis) {
    }

    /** Runs {@code tutti} with {@code args} in this JVM (the ranks are processes). */
    static Run tutti(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final List<String> argv = new ArrayList<>(List.of(args));
        final long start = System.nanoTime();
        final int status = TuttiCommand.newCommandLine(new RunCommand(RendezvousService.tutti(),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)))
            .execute(argv.toArray(new String[0]));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
            (System.nanoTime() - start) / 1_000_000);
    }

    private static String[] job(final int n, final List<String> extra, final Class<?> main) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", String.valueOf(n)));
        a.addAll(List.of(RANK_JVM));
        a.addAll(extra);
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        return a.toArray(new String[0]);
    }

    @Test
    void shouldRunCollectivesAcrossProcesses() {
        for (final int n : new int[] {3, 4}) {
            final Run r = tutti(job(n, List.of(), CollSubsetRank.class));
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().contains("collective subset OK on " + n + " ranks"), r.out() + r.err());
        }
    }

    @Test
    void shouldRunCollectivesAcrossProcessesOverTcp() {
        final Run r = tutti(job(4, List.of("-J-Dtutti.transport=tcp"), CollSubsetRank.class));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("collective subset OK on 4 ranks"), r.out() + r.err());
    }

    @Test
    void shouldRunForcedAlgorithmsAcrossProcesses() {
        final Run r = tutti(job(3, List.of("-J-Dtutti.coll.allreduce=ring", "-J-Dtutti.coll.alltoall=bruck",
            "-J-Dtutti.coll.allgather=ring", "-J-Dtutti.coll.bcast=scatter_allgather"), CollSubsetRank.class));
        assertEquals(0, r.status(), r.err());
    }

    @Test
    void shouldEndTheJobWhenARankThrows() {
        final Run r = tutti(job(3, List.of(), FailingRank.class));
        assertNotEquals(0, r.status());
        assertEquals(List.of("tutti run: rank 1 failed (exit 1): java.lang.IllegalStateException: rank one gives up"),
            failureLines(r), r.err());
        assertTrue(r.millis() < 15_000, "took " + r.millis() + " ms");
    }

    /** The peers of the failed rank fail too (rank 1 has left the job); the line blames rank 1 and its error. */
    @Test
    void shouldNameTheAssertionErrorOfTheRankThatFailedFirst() {
        final Run r = tutti(job(3, List.of(), AssertingRank.class));
        assertEquals(1, r.status(), r.err());
        assertEquals(List.of("tutti run: rank 1 failed (exit 1): java.lang.AssertionError: rank one asserts"),
            failureLines(r), r.err());
    }

    private static List<String> failureLines(final Run r) {
        return r.err().lines().filter(l -> l.startsWith("tutti run: ")).toList();
    }
}
