package mpi;

import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Classic MPJ Express programs as process jobs (one JVM a rank, as {@code tutti run} starts them). */
@Tag("process")
@Timeout(180)
class MpjProcessTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(final int n, final String main, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final JobResult r = Launcher.builder().ranks(n).classpath(System.getProperty("java.class.path"))
            .mainClass(main).args(List.of(args)).jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1")).timeout(Duration.ofSeconds(120)).stdout(out).stderr(err).build().run();
        return new Run(r.exitStatus(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunHelloWorldRingAndPiAcrossProcesses() {
        final Run hello = run(3, "HelloWorld");
        assertEquals(0, hello.status(), hello.err());
        assertTrue(hello.out().contains("Hi from <2> of 3"), hello.out() + hello.err());
        final Run ring = run(3, "Ring");
        assertEquals(0, ring.status(), ring.err());
        assertTrue(ring.out().contains("ring OK: 10 laps of 3"), ring.out() + ring.err());
        final Run pi = run(2, "Pi", "50000");
        assertEquals(0, pi.status(), pi.err());
        assertTrue(pi.out().contains("pi OK"), pi.out() + pi.err());
    }

    /** A rank process that joined through Tutti's API and hands its handle to MPI.Init (dev.tutti.mpj.JoinedRank). */
    @Test
    void shouldInitMpiOnTheHandleATuttiProgramJoinedWith() {
        final Run r = run(3, "JoinedTuttiRank");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("joined rank OK"), r.out() + r.err());
    }

    @Test
    void shouldGoOnAfterAbortAsMpjExpressDoesAndSayWhoCalledIt() {
        final Run r = run(2, "AbortWith", "4");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("tutti-mpj: rank 1 called Comm.Abort(4), which returns, as in MPJ Express"),
            r.err());
    }
}
