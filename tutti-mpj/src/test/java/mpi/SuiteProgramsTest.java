package mpi;

import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suite of {@code mpjsuite} programs, written in the style of the mpiJava test suites MPJ Express ships (each a
 * class whose constructor runs Init, the checks and Finalize), run by their driver in one JVM a rank: ranks as
 * threads (MPJ Express's multicore device) and ranks as processes (niodev), where every program's Init follows the
 * previous program's Finalize.
 */
@Timeout(240)
@Isolated("replaces System.out")
class SuiteProgramsTest {
    private static final String[] PROGRAMS = {"EnvCalls", "Pt2ptModes", "Pt2ptMatching", "Collectives",
        "DerivedTypes", "GroupsAndComms", "Topologies", "Threads"};


    private static void assertComplete(final String out) {
        for (final String p : PROGRAMS) {
            assertTrue(out.contains(p + " TEST COMPLETE"), p + " did not complete:\n" + out);
        }
        assertTrue(out.contains("ALL TESTS COMPLETE"), out);
    }

    @Test
    void shouldPassTheSuiteWithRanksAsThreads() {
        assertComplete(MpjJobs.output(() -> MpjJobs.runMain(4, "mpjsuite.Driver")));
        assertComplete(MpjJobs.output(() -> MpjJobs.runMain(3, "mpjsuite.Driver")));
    }

    @Test
    void shouldFailTheJobOfAMainThatThrowsACheckedException() {
        final RuntimeException e = assertThrows(RuntimeException.class,
            () -> MpjJobs.runMain(2, "mpjsuite.ThrowsChecked"));
        assertTrue(String.valueOf(e.getMessage()).contains("checked failure on rank 1"), e.toString());
    }

    @Test
    @Tag("process")
    void shouldPassTheSuiteWithRanksAsProcessesInitAgainAfterEachFinalize() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JobResult r = launch(4, "mpjsuite.Driver", out, err);
        final String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, r.exitStatus(), text + err.toString(StandardCharsets.UTF_8));
        assertComplete(text);
        final ByteArrayOutputStream failed = new ByteArrayOutputStream();
        final JobResult t = launch(2, "mpjsuite.ThrowsChecked", new ByteArrayOutputStream(), failed);
        assertNotEquals(0, t.exitStatus());
        assertTrue(failed.toString(StandardCharsets.UTF_8).contains("checked failure on rank 1"),
            failed.toString(StandardCharsets.UTF_8));
    }

    private static JobResult launch(final int n, final String main, final ByteArrayOutputStream out,
        final ByteArrayOutputStream err) {
        return Launcher.builder().ranks(n).classpath(System.getProperty("java.class.path")).mainClass(main)
            .args(List.of()).jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
            .timeout(Duration.ofSeconds(180)).stdout(out).stderr(err).build().run();
    }
}
