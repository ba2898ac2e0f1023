package dev.tutti.launcher;

import static dev.tutti.launcher.TestJobs.alive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.testranks.LaunchMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.parallel.Isolated;

/** Ctrl-C: SIGINT to the launcher's process (only to it, not to its ranks) stops every rank. */
// Runs alone (@Isolated): it asserts that the launcher ends within 5 s of SIGINT, which another job on these 2 cores
// would delay.
@Isolated
@Tag("process")
@Timeout(30)
@DisabledOnOs(OS.WINDOWS)
class ShutdownTest {
    @Test
    void shouldStopEveryRankWhenTheLauncherGetsSigint() throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of(Launcher.currentJavaCommand()));
        cmd.addAll(TestJobs.SMALL_JVM);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LaunchMain.class.getName(), "2", "*:hang"));
        final Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final BufferedReader lines = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
            StandardCharsets.UTF_8));
        final List<Long> pids = new ArrayList<>();
        while (pids.size() < 2) {
            final String line = lines.readLine();
            assertTrue(null != line, "the launcher ended early: " + pids);
            if (line.startsWith("hanging pid=")) {
                pids.add(Long.parseLong(line.substring("hanging pid=".length())));
            }
        }

        assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(launcher.pid())).start().waitFor());

        assertTrue(launcher.waitFor(5, TimeUnit.SECONDS), "the launcher did not end after SIGINT");
        assertEquals(130, launcher.exitValue());
        for (final long pid : pids) {
            assertFalse(alive(pid), "rank pid " + pid + " outlived the launcher");
        }
    }
}
