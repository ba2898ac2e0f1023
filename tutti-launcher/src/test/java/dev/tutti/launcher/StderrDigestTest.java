package dev.tutti.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a rank's stderr says about its failure, from the lines as the JVM, loggers and programs print them. */
class StderrDigestTest {
    private static StderrDigest read(final String... lines) {
        final StderrDigest d = new StderrDigest();
        for (final String line : lines) {
            d.onLine(line);
        }
        return d;
    }

    @Test
    void shouldReportTheUncaughtExceptionWithoutTheThreadPrefix() {
        final StderrDigest d = read("starting", "Exception in thread \"main\" java.lang.AssertionError: rank 2 differs",
            "\tat app.Main.check(Main.java:12)", "\tat app.Main.main(Main.java:5)");

        assertEquals("java.lang.AssertionError: rank 2 differs", d.failureLine());
        assertEquals(List.of("java.lang.AssertionError: rank 2 differs"), d.exceptionChain());
    }

    @Test
    void shouldAddTheRootCauseUnlessTheTopLineAlreadyHoldsIt() {
        final StderrDigest wrapped = read("Exception in thread \"main\" java.lang.IllegalStateException: step 5",
            "\tat app.Main.main(Main.java:5)", "Caused by: java.io.UncheckedIOException: read failed",
            "\tat app.Io.read(Io.java:9)", "\t... 1 more", "Caused by: java.io.IOException: disk full",
            "\t... 2 more");
        final StderrDigest plain = read("Exception in thread \"main\" java.lang.RuntimeException: "
            + "java.io.IOException: disk full", "\tat app.Main.main(Main.java:5)",
            "Caused by: java.io.IOException: disk full", "\t... 1 more");

        assertEquals("java.lang.IllegalStateException: step 5 (caused by java.io.IOException: disk full)",
            wrapped.failureLine());
        assertEquals(List.of("java.lang.IllegalStateException: step 5", "java.io.UncheckedIOException: read failed",
            "java.io.IOException: disk full"), wrapped.exceptionChain());
        assertEquals("java.lang.RuntimeException: java.io.IOException: disk full", plain.failureLine());
    }

    @Test
    void shouldNeverPickALogRecord() {
        final StderrDigest d = read("working on part 3", "Nov 24, 2026 11:55:46 PM dev.tutti.transport.shm.ShmFile "
            + "removeStale", "INFO: shm: removed stale job file /dev/shm/tutti-1-ab-cd.shm",
            "2026-11-24 23:55:47.120 [main] WARN  app.Main - retrying", "[ERROR] not fatal",
            "DEBUG app.Main: tick");

        assertNull(d.failureLine());
        assertEquals("working on part 3", d.lastLine());
    }

    @Test
    void shouldKeepALineThatAnUnrelatedLevelLineFollows() {
        final StderrDigest d = read("phase two", "WARNING: slow disk");

        assertEquals("phase two", d.lastLine());
    }

    @Test
    void shouldReportTheLastStackTraceTheRankPrintedItself() {
        final StderrDigest d = read("java.lang.IllegalArgumentException: first, retried",
            "\tat app.Main.main(Main.java:5)", "retrying", "java.lang.IllegalStateException: gave up",
            "\tat java.base/java.lang.Thread.run(Thread.java:1583)", "Caused by: app.SolverError: diverged",
            "\t... 1 more", "Nov 24, 2026 11:55:46 PM app.Main main", "INFO: exiting with status 1");

        assertEquals("java.lang.IllegalStateException: gave up (caused by app.SolverError: diverged)",
            d.failureLine());
        assertEquals("retrying", d.lastLine());
    }

    @Test
    void shouldPreferTheFirstUncaughtExceptionToAnyPrintedTrace() {
        final StderrDigest d = read("Exception in thread \"worker-1\" java.lang.OutOfMemoryError: Java heap space",
            "\tat app.Work.run(Work.java:3)", "java.lang.IllegalStateException: later",
            "\tat app.Main.main(Main.java:5)", "Exception in thread \"main\" java.lang.Error: also later");

        assertEquals("java.lang.OutOfMemoryError: Java heap space", d.failureLine());
    }

    @Test
    void shouldFallBackToTheJavaLaunchersErrorLine() {
        final StderrDigest d = read("Error: Could not find or load main class app.Missing",
            "Caused by: java.lang.ClassNotFoundException: app.Missing");

        assertEquals("Error: Could not find or load main class app.Missing", d.failureLine());
        assertEquals(List.of(), d.exceptionChain());
    }

    @Test
    void shouldNotTakeAPlainLineForAStackTraceHeader() {
        final StderrDigest d = read("done", "  at most 3 retries left");

        assertNull(d.failureLine());
        assertEquals("  at most 3 retries left", d.lastLine());
    }

    @Test
    void shouldCutLongLines() {
        final StderrDigest d = read("Exception in thread \"main\" java.lang.IllegalStateException: " + "x".repeat(900));

        assertEquals(StderrDigest.MAX_REPORTED_LINE_CHARS + 3, d.failureLine().length());
    }
}
