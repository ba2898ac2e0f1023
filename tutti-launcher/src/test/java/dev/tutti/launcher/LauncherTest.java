package dev.tutti.launcher;

import static dev.tutti.launcher.TestJobs.alive;
import static dev.tutti.launcher.TestJobs.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/** Launches real JVMs on this machine. */
// Runs alone (@Isolated): it looks for leftover rank processes among this JVM's descendants, where another class's
// ranks would count, and asserts that a job ends within 5 s of a failure.
@Isolated
@Tag("process")
@Timeout(30)
class LauncherTest {
    private static final Pattern INFO = Pattern.compile(
        "rank=(\\d+) size=(\\d+) rendezvous=(\\S+) job=(\\S+) secret=(\\S+) pid=\\d+ cwd=.*");

    @Test
    void shouldGiveEachRankItsRankSizeRendezvousSecretAndVariables() {
        final TestJobs.Output output = new TestJobs.Output();
        final AtomicReference<String> bindHost = new AtomicReference<>();
        final JobResult result = job(3, output, "*:info", "*:env=TUTTI_TEST_SET")
            .export("TUTTI_TEST_SET=hello world")
            .rendezvous((host, size, secret) -> {
                bindHost.set(host + " size=" + size);
                return TestJobs.FAKE_RENDEZVOUS.start(host, size, secret);
            }).build().run();

        assertEquals(new JobResult(0, JobResult.Outcome.SUCCEEDED, -1, ""), result, output.err());
        assertEquals("127.0.0.1 size=3", bindHost.get());
        final Set<String> ranks = new HashSet<>();
        final Set<String> secrets = new HashSet<>();
        final Set<String> jobs = new HashSet<>();
        for (final String line : output.outLines()) {
            final Matcher m = INFO.matcher(line);
            if (m.matches()) {
                ranks.add(m.group(1));
                assertEquals("3", m.group(2));
                assertEquals("127.0.0.1:1", m.group(3));
                jobs.add(m.group(4));
                secrets.add(m.group(5));
            }
        }
        assertEquals(Set.of("0", "1", "2"), ranks, output.out());
        assertEquals(1, jobs.size());
        assertEquals(1, secrets.size());
        assertTrue(secrets.iterator().next().matches("[0-9a-f]{64}"), secrets.toString());
        assertEquals(3, output.outLines().stream().filter("TUTTI_TEST_SET=hello world"::equals).count(),
            output.out());
    }

    @Test
    void shouldTagEachLineLikeMpirunWhenAsked() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "*:lines=2", "1:partial").tagOutput(true).build().run();

        assertTrue(result.succeeded(), result.description());
        assertEquals(Set.of("[1,0]<stdout>:out 0", "[1,0]<stdout>:out 1", "[1,1]<stdout>:out 0",
            "[1,1]<stdout>:out 1", "[1,1]<stdout>:no newline"), new HashSet<>(output.outLines()));
        assertEquals(5, output.outLines().size());
        assertEquals(Set.of("[1,0]<stderr>:err 0", "[1,0]<stderr>:err 1", "[1,1]<stderr>:err 0",
            "[1,1]<stderr>:err 1"), new HashSet<>(output.errLines()));
        // Each rank's lines keep their order.
        final List<String> rank1 = output.outLines().stream().filter(l -> l.startsWith("[1,1]")).toList();
        assertEquals(List.of("[1,1]<stdout>:out 0", "[1,1]<stdout>:out 1", "[1,1]<stdout>:no newline"), rank1);
    }

    @Test
    void shouldForwardLinesUntaggedByDefault() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(1, output, "*:lines=3").build().run();

        assertTrue(result.succeeded(), result.description());
        assertEquals(List.of("out 0", "out 1", "out 2"), output.outLines());
        assertEquals(List.of("err 0", "err 1", "err 2"), output.errLines());
    }

    @Test
    void shouldStopTheJobAndNameTheRankAndExceptionWhenARankThrows() {
        final TestJobs.Output output = new TestJobs.Output();
        final long start = System.nanoTime();
        final JobResult result = job(3, output, "0:hang", "2:hang", "1:throw").build().run();
        final Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 failed (exit 1): java.lang.IllegalStateException: boom from rank 1"), result, output.err());
        assertTrue(took.toMillis() < 5_000, "took " + took);
        assertTrue(output.err().contains("Exception in thread \"main\" java.lang.IllegalStateException"),
            output.err());
        assertHungRanksGone(output, 2);
    }

    @Test
    void shouldNotQuoteALogRecordAsTheLastStderrLineOfARankThatExitsWithoutAnException() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "0:hang", "1:lines=1", "1:log=shm: removed stale job file /x.shm",
            "1:exit=3").build().run();

        assertEquals(new JobResult(3, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 failed (exit 3); last line on its stderr: err 0"), result, output.err());
        assertTrue(output.err().contains("INFO: shm: removed stale job file /x.shm"), output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldNameTheExceptionARankPrintedBeforeItLoggedAndExited() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "0:hang", "1:trace", "1:log=shm: removed stale job file /x.shm",
            "1:exit=1").build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1, "rank 1 failed (exit 1): "
            + "java.lang.IllegalStateException: step 5 failed (caused by java.lang.AssertionError: expected 4 but "
            + "was 5)"), result, output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldBlameTheRankThatFailedOnItsOwnEvenIfItExitsLongAfterThePeerItTookDown() {
        final TestJobs.Output output = new TestJobs.Output();
        final long start = System.nanoTime();
        final JobResult result = job(3, output, "2:hang", "1:slowExit=1500", "1:throw", "0:peerFailed=1")
            .build().run();
        final Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 failed (exit 1): java.lang.IllegalStateException: boom from rank 1"), result, output.err());
        assertTrue(took.toMillis() < 10_000, "took " + took);
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldBlameTheRankAPeerFailureWrappedInTheProgramsOwnExceptionNames() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(3, output, "2:hang", "1:slowExit=300", "1:throw", "0:wrappedPeerFailed=1")
            .build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 failed (exit 1): java.lang.IllegalStateException: boom from rank 1"), result, output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldPrintOneLinePerRankThatFailedBecauseAPeerFailed() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(3, output, "1:slowExit=1500", "1:throw", "0:peerFailed=1", "2:peerFailed=1")
            .build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 failed (exit 1): java.lang.IllegalStateException: boom from rank 1"), result, output.err());
        final List<String> lines = output.errLines();
        assertEquals(4, lines.size(), output.err());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("\tat ")).count(), output.err());
        assertTrue(lines.contains("Exception in thread \"main\" java.lang.IllegalStateException: boom from rank 1"),
            output.err());
        for (final int r : new int[] {0, 2}) {
            assertTrue(lines.contains("Exception in thread \"main\" dev.tutti.TuttiException: recv (comm=WORLD, rank="
                + r + ") from rank=1 tag=0 failed: rank 1 failed: the tcp connection from rank=" + r + " to rank=1 "
                + "was reset"), output.err());
        }
    }

    @Test
    void shouldForwardTheTracesOfRanksThatFailedBecauseAPeerFailedWhenVerbose() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(3, output, "1:slowExit=1500", "1:throw", "0:peerFailed=1", "2:peerFailed=1")
            .verbose(true).build().run();

        assertEquals(1, result.failedRank(), result.description());
        // boom's trace has one frame (main), each peer failure's two (peerFailure, main)
        assertEquals(1 + 2 + 2, output.errLines().stream().filter(l -> l.startsWith("\tat ")).count(), output.err());
    }

    @Test
    void shouldNameARankThatExitedZeroWhileItsPeersStillNeededIt() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(3, output, "2:hang", "1:exit=0", "0:peerFailed=1").build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.LEFT_EARLY, 1,
            "rank 1 exited 0 while its peers still needed it: rank 0 failed without it"), result, output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldBlameARankThatFailedOnItsOwnRatherThanOneThatExitedZero() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(3, output, "2:hang", "1:exit=0", "0:throw").build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 0,
            "rank 0 failed (exit 1): java.lang.IllegalStateException: boom from rank 0"), result, output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldExitWithTheStatusOfARankThatCallsSystemExit() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "0:hang", "1:exit=3").build().run();

        assertEquals(new JobResult(3, JobResult.Outcome.RANK_FAILED, 1, "rank 1 failed (exit 3)"), result,
            output.err());
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldKillARankThatIgnoresSigtermWithinFiveSeconds() {
        final TestJobs.Output output = new TestJobs.Output();
        final long start = System.nanoTime();
        final JobResult result = job(2, output, "0:stubborn", "1:throw").build().run();
        final Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(JobResult.Outcome.RANK_FAILED, result.outcome(), result.description());
        assertEquals(1, result.failedRank());
        assertTrue(took.toMillis() < 5_000, "took " + took);
        assertHungRanksGone(output, 1);
    }

    @Test
    void shouldPrintThreadStacksAndStopAHungJobAtItsTimeout() {
        final TestJobs.Output output = new TestJobs.Output();
        final long start = System.nanoTime();
        final JobResult result = job(2, output, "*:hang").timeout(Duration.ofSeconds(2)).build().run();
        final Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(new JobResult(JobResult.TIMEOUT_STATUS, JobResult.Outcome.TIMED_OUT, -1,
            "timed out after 2 s with ranks 0, 1 still running; printed their thread stacks and stopped them"),
            result, output.err());
        assertTrue(took.toMillis() >= 2_000 && took.toMillis() < 15_000, "took " + took);
        for (int r = 0; r < 2; r++) {
            assertTrue(output.err().contains("tutti: thread stacks of rank " + r + " (pid "), output.err());
        }
        assertTrue(output.err().contains("dev.tutti.launcher.testranks.RankProgram.sleepForever"), output.err());
        assertHungRanksGone(output, 2);
    }

    @Test
    void shouldReportARankThatCannotBeStarted() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "*:info").javaCommand("/nonexistent/bin/java").build().run();

        assertEquals(JobResult.Outcome.START_FAILED, result.outcome());
        assertEquals(JobResult.START_FAILED_STATUS, result.exitStatus());
        assertEquals(0, result.failedRank());
        assertTrue(result.description().startsWith("rank 0 could not be started: "), result.description());
    }

    @Test
    void shouldReportARendezvousThatCannotBeStarted() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = job(2, output, "*:info").rendezvous((h, n, s) -> {
            throw new IllegalStateException("port in use");
        }).build().run();

        assertEquals(new JobResult(JobResult.START_FAILED_STATUS, JobResult.Outcome.START_FAILED, -1,
            "the rendezvous could not be started on 127.0.0.1: java.lang.IllegalStateException: port in use"),
            result);
        assertEquals("", output.out());
    }

    @Test
    void shouldStopTheRanksWhenTheLauncherThreadIsInterrupted() throws InterruptedException {
        final TestJobs.Output output = new TestJobs.Output();
        final AtomicReference<JobResult> result = new AtomicReference<>();
        final Thread launcher = Thread.ofPlatform().start(
            () -> result.set(job(2, output, "*:hang").build().run()));
        output.out.await("hanging pid=", 2);
        launcher.interrupt();
        launcher.join();

        assertEquals(JobResult.Outcome.INTERRUPTED, result.get().outcome());
        assertEquals(JobResult.INTERRUPTED_STATUS, result.get().exitStatus());
        assertHungRanksGone(output, 2);
    }

    /**
     * Every rank that printed its pid is gone, and so is every rank JVM among this JVM's descendants (a rank killed
     * before it printed is covered by the second check).
     */
    private static void assertHungRanksGone(final TestJobs.Output output, final int atMost) {
        final List<Long> pids = output.pids();
        assertTrue(pids.size() <= atMost, output.out());
        for (final long pid : pids) {
            assertFalse(alive(pid), "rank pid " + pid + " still runs");
        }
        assertEquals(List.of(), TestJobs.liveRankProcesses());
    }
}
