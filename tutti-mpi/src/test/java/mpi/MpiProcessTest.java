package mpi;

import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import mpi.programs.CallErrhandler;
import mpi.programs.JoinedTuttiRank;
import mpi.programs.MasterWorker;
import mpi.programs.MatrixMultiply;
import mpi.programs.Pi;
import mpi.programs.Ssend;
import mpi.programs.TopologyAndPorts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mpi programs as process jobs (one JVM a rank, as {@code tutti run} starts them): exit statuses and output. */
@Tag("process")
@Timeout(120)
class MpiProcessTest {

    /** A finished job: exit status and output. */
    private record Run(int status, String out, String err) {
    }

    private static Run run(final int n, final Class<?> main, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JobResult r = Launcher.builder().ranks(n).classpath(System.getProperty("java.class.path"))
            .mainClass(main.getName()).args(List.of(args)).jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1")).timeout(Duration.ofSeconds(90)).stdout(out).stderr(err).build().run();
        return new Run(r.exitStatus(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunTopologiesAndPortsAcrossProcesses() {
        final Run r = run(4, TopologyAndPorts.class);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("topology and ports OK"), r.out() + r.err());
    }

    @Test
    void shouldRunTheClassicProgramsAcrossProcesses() {
        final Run pi = run(3, Pi.class);
        assertEquals(0, pi.status(), pi.err());
        assertTrue(pi.out().contains("pi OK"), pi.out() + pi.err());
        final Run mm = run(3, MatrixMultiply.class);
        assertEquals(0, mm.status(), mm.err());
        assertTrue(mm.out().contains("matrix multiply OK"), mm.out() + mm.err());
        final Run mw = run(3, MasterWorker.class, "25");
        assertEquals(0, mw.status(), mw.err());
        assertTrue(mw.out().contains("master/worker OK (25 tasks, 2 workers)"), mw.out() + mw.err());
    }

    /** Open MPI's pt2pt/Ssend check: a synchronous send returns only after the receive began. */
    @Test
    void shouldReturnFromASynchronousSendOnlyAfterTheReceiveBegan() {
        final Run r = run(2, Ssend.class);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("ssend OK"), r.out() + r.err());
    }

    /** A rank process that joined through Tutti's API and hands its handle to MPI.Init (dev.tutti.mpi.JoinedRank). */
    @Test
    void shouldInitMpiOnTheHandleATuttiProgramJoinedWith() {
        final Run r = run(3, JoinedTuttiRank.class);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("joined rank OK"), r.out() + r.err());
    }

    @Test
    void shouldExitWithTheCodeAFatalWindowHandlerIsCalledWith() {
        final Run r = run(2, CallErrhandler.class, "win", String.valueOf(MPI.ERR_WIN));
        assertEquals(MPI.ERR_WIN, r.status(), r.err());
        assertTrue(r.err().contains("MPI_ERR_WIN"), r.err());
    }

    @Test
    void shouldExitWithTheCodeAFatalFileHandlerIsCalledWith() {
        final Run r = run(2, CallErrhandler.class, "file", String.valueOf(MPI.ERR_IO));
        assertEquals(MPI.ERR_IO, r.status(), r.err());
    }
}
