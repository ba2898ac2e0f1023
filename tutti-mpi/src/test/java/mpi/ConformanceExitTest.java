package mpi;

import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import mpi.programs.Conformance;
import mpi.programs.Endings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job's exit status as mpirun reports it, over processes (one JVM a rank): MPI_Abort's code (low 8 bits) from
 * any rank and on any communicator, an error under ERRORS_ARE_FATAL (its error code), a rank's own exit status
 * after Finalize, an uncaught exception (1); and the corners of the other conformance tests as one process job.
 */
@Tag("process")
@Timeout(120)
class ConformanceExitTest {

    /** A finished job: exit status and output. */
    private record Run(int status, String out, String err) {
    }

    private static Run run(final int n, final String... args) {
        return run(n, Endings.class, args);
    }

    private static Run run(final int n, final Class<?> main, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JobResult r = Launcher.builder().ranks(n).classpath(System.getProperty("java.class.path"))
            .mainClass(main.getName()).args(List.of(args)).jvmOptions(List.of("-Xmx128m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")).timeout(Duration.ofSeconds(90)).stdout(out)
            .stderr(err).build().run();
        return new Run(r.exitStatus(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldExitWithTheCodeOfAbortFromAnyRank() {
        final Run r = run(3, "abort", "2", "42");
        assertEquals(42, r.status(), r.err());
        assertFalse(r.out().contains("survived"), r.out());
        final Run zero = run(2, "abort", "0", "7");
        assertEquals(7, zero.status(), zero.err());
    }

    @Test
    void shouldKeepTheLowEightBitsOfTheAbortCode() {
        final Run r = run(2, "abort", "1", "258");
        assertEquals(2, r.status(), r.err());
    }

    @Test
    void shouldAbortTheWholeJobFromASubCommunicator() {
        final Run r = run(3, "abort-sub", "1", "9");
        assertEquals(9, r.status(), r.err());
    }

    @Test
    void shouldExitWithTheErrorCodeOfAFatalError() {
        final Run r = run(2, "fatal", "1");
        assertEquals(MPI.ERR_RANK, r.status(), r.err());
        assertTrue(r.err().contains("MPI_ERR_RANK"), r.err());
    }

    @Test
    void shouldExitWithARanksOwnStatusAfterFinalize() {
        final Run r = run(2, "exit", "1", "77");
        assertEquals(77, r.status(), r.err());
        final Run thrown = run(2, "throw", "0");
        assertEquals(1, thrown.status(), thrown.err());
        final Run clean = run(2, "exit", "1", "0");
        assertEquals(0, clean.status(), clean.err());
    }

    @Test
    void shouldExitWithTheCodeEveryRankCallsAFatalHandlerWith() {
        final Run r = run(3, "call-all", "0", String.valueOf(MPI.ERR_COMM));
        assertEquals(MPI.ERR_COMM, r.status(), r.err());
        assertFalse(r.out().contains("survived"), r.out());
    }

    @Test
    void shouldPassTheCornersAcrossProcesses() {
        final Run r = run(4, Conformance.class);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("conformance OK"), r.out() + r.err());
    }
}
