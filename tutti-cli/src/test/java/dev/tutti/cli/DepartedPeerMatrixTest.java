package dev.tutti.cli;

import dev.tutti.cli.testranks.DepartingRank;
import dev.tutti.launcher.RendezvousService;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The departed-peer matrix, through {@code tutti run} with real JVMs: rank 1 of 3 departs (closes normally, throws,
 * calls {@code System.exit}, or is killed with SIGKILL) while ranks 0 and 2 wait for it (in a receive from it, a
 * barrier, a bcast from it, an allreduce, a tagged allreduce's end), over shm and over tcp. Every waiting rank must
 * fail within 2 s (its operation never completes normally), a rank that waited on rank 1 directly names it, and
 * the launcher exits non-zero within 5 s of the departure.
 */
// Runs alone (@Isolated): it asserts that the waiting ranks fail within 2 s of the departure and that the job ends
// within 5 s, which another job on these 2 cores would delay.
@Isolated
@Tag("process")
@Timeout(60)
class DepartedPeerMatrixTest {
    private static final Pattern FAILED = Pattern.compile("rank (\\d) failed after=(\\d+) ms: (.*)");
    private static final Pattern DEPARTED = Pattern.compile("departing at=(\\d+)");

    static Stream<Arguments> matrix() {
        final List<Arguments> all = new ArrayList<>();
        for (final String transport : List.of("shm", "tcp")) {
            for (final String mode : List.of("close", "throw", "exit", "kill")) {
                for (final String wait : List.of("recv", "barrier", "bcast", "allreduce", "tagged")) {
                    all.add(Arguments.of(transport, mode, wait));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: rank 1 {1}s while the others wait in {2}")
    @MethodSource("matrix")
    void shouldFailTheWaitingRanksAndEndTheJob(final String transport, final String mode, final String wait) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = TuttiCommand.newCommandLine(new RunCommand(RendezvousService.tutti(),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)))
            .execute("run", "-n", "3", "--timeout", "40", "-J-Xmx128m", "-J-XX:+UseSerialGC",
                "-J-XX:TieredStopAtLevel=1", "-J-Dtutti.transport=" + transport, "-cp",
                System.getProperty("java.class.path"), DepartingRank.class.getName(), mode, wait);
        final long ended = System.currentTimeMillis();
        final String stdout = out.toString(StandardCharsets.UTF_8);
        final String report = "stdout:\n" + stdout + "stderr:\n" + err.toString(StandardCharsets.UTF_8);

        assertNotEquals(0, status, report);
        final Matcher departed = DEPARTED.matcher(stdout);
        assertTrue(departed.find(), report);
        final long sinceDeparture = ended - Long.parseLong(departed.group(1));
        assertTrue(sinceDeparture < 5_000, "the launcher took " + sinceDeparture + " ms after the departure\n"
            + report);
        assertTrue(!stdout.contains("returned"), "a waiting rank completed although rank 1 never took part\n"
            + report);

        final Matcher failed = FAILED.matcher(stdout);
        int failures = 0;
        boolean named = false;
        while (failed.find()) {
            failures++;
            assertTrue(Long.parseLong(failed.group(2)) < 2_000, "rank " + failed.group(1) + " took "
                + failed.group(2) + " ms to fail\n" + report);
            named |= failed.group(3).contains("rank 1 ");
        }
        // A waiting rank either reports its own failure, or is stopped by the launcher first: the launcher ends the
        // job as soon as a rank fails, and when rank 1 dies (throws, exits, is killed) that may come before the
        // others notice. Then the launcher's line names rank 1. A rank that closes normally ends with exit 0, so
        // the waiting ranks must notice it themselves.
        final boolean blamed = err.toString(StandardCharsets.UTF_8).contains("rank 1 failed");
        if ("close".equals(mode) || !blamed) {
            assertTrue(failures >= 1, "no waiting rank reported a failure\n" + report);
            assertTrue(named, "no failure names rank 1\n" + report);
        }
        assertEquals(-1, stdout.indexOf("Exception in thread \"main\" java.lang.NullPointerException"), report);
    }
}
