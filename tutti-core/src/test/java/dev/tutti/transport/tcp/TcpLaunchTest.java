package dev.tutti.transport.tcp;

import dev.tutti.testkit.TcpProcesses;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Tutti#init()} end to end: ranks as real processes, wired over tcp through a rendezvous. */
@Tag("process")
@Timeout(90)
class TcpLaunchTest {

    @Test
    void shouldRunAJobOfProcessesThroughInit() throws Exception {
        final int n = 3;
        final List<TcpProcesses.Rank> ranks = TcpProcesses.run(n, "launch-test", List.of(), TcpInitMain.class,
            List.of(), 60);
        for (int r = 0; r < n; r++) {
            final String out = ranks.get(r).output() + classpathNote();
            assertTrue(ranks.get(r).ended(), "rank " + r + " did not finish: " + out);
            assertEquals(0, ranks.get(r).exit(), "rank " + r + " failed: " + out);
            assertTrue(out.contains("rank " + r + " of " + n + " ok"), out);
        }
    }

    private static String classpathNote() {
        return " (classpath entries: " + System.getProperty("java.class.path").split(File.pathSeparator).length + ")";
    }
}
