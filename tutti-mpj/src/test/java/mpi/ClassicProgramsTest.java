package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;


import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classic MPJ Express programs, compiled unchanged (default package, {@code import mpi.*;}, {@code MPI.Init(args)}),
 * run as embedded jobs: ranks as threads of this JVM.
 */
@Timeout(60)
@Isolated("replaces System.out")
class ClassicProgramsTest {


    @Test
    void shouldRunHelloWorld() {
        final String out = MpjJobs.output(() -> MpjJobs.runMain(3, "HelloWorld"));
        for (int r = 0; r < 3; r++) {
            assertTrue(out.contains("Hi from <" + r + "> of 3"), out);
        }
    }

    @Test
    void shouldRunTheRing() {
        final String out = MpjJobs.output(() -> MpjJobs.runMain(4, "Ring"));
        assertTrue(out.contains("ring OK: 10 laps of 4"), out);
    }

    @Test
    void shouldComputePiWithReduceTakingItsArgumentFromInit() {
        final String out = MpjJobs.output(() -> MpjJobs.runMain(3, "Pi", "0", "3", "smpdev", "200000"));
        assertTrue(out.contains("pi OK"), out);
    }
}
