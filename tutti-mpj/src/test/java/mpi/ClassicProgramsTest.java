package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classic MPJ Express programs, compiled unchanged (default package, {@code import mpi.*;}, {@code MPI.Init(args)}),
 * run as embedded jobs: ranks as threads of this JVM.
 */
@Timeout(60)
@Isolated("replaces System.out")
class ClassicProgramsTest {

    private static String output(final Runnable job) {
        final PrintStream old = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            job.run();
        } finally {
            System.setOut(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldRunHelloWorld() {
        final String out = output(() -> MpjJobs.runMain(3, "HelloWorld"));
        for (int r = 0; r < 3; r++) {
            assertTrue(out.contains("Hi from <" + r + "> of 3"), out);
        }
    }

    @Test
    void shouldRunTheRing() {
        final String out = output(() -> MpjJobs.runMain(4, "Ring"));
        assertTrue(out.contains("ring OK: 10 laps of 4"), out);
    }

    @Test
    void shouldComputePiWithReduceTakingItsArgumentFromInit() {
        final String out = output(() -> MpjJobs.runMain(3, "Pi", "0", "3", "smpdev", "200000"));
        assertTrue(out.contains("pi OK"), out);
    }
}
