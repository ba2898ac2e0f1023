package dev.tutti.launcher;

import static dev.tutti.launcher.TestJobs.alive;
import static dev.tutti.launcher.TestJobs.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.testranks.LaunchMain;
import dev.tutti.runtime.Configuration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job's shared-memory file ({@link Configuration#shmFile}) with real ranks that call {@code Tutti.init()}: the
 * launcher removes it when it is interrupted, and the next job removes a stale one without a word on stderr.
 */
// Runs alone (@Isolated): it asserts that the launcher ends within 5 s of SIGINT, which another job on these 2 cores
// would delay.
@Isolated
@Tag("process")
@Timeout(60)
@DisabledOnOs(OS.WINDOWS)
class JobShmFileTest {
    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void shouldStopTheRanksAndRemoveTheJobsFileWhenTheLauncherIsInterrupted(final String signal,
        final int status) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of(Launcher.currentJavaCommand()));
        cmd.addAll(TestJobs.SMALL_JVM);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LaunchMain.class.getName(), "--rendezvous",
            "2", "*:init", "*:hang"));
        final Process launcher = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final BufferedReader lines = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
            StandardCharsets.UTF_8));
        final List<Long> pids = new ArrayList<>();
        final StringBuilder seen = new StringBuilder();
        String job = null;
        while (pids.size() < 2) {
            final String line = lines.readLine();
            assertTrue(null != line, "the launcher ended early: " + seen);
            seen.append(line).append('\n');
            if (line.startsWith("hanging pid=")) {
                pids.add(Long.parseLong(line.substring("hanging pid=".length())));
            } else if (line.startsWith("joined job=")) {
                job = line.substring("joined job=".length());
            }
        }
        final String jobId = job;
        try {
            assertEquals(1, jobFiles(jobId).size(), "the ranks' shm file of job " + jobId + ": " + seen);

            assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(launcher.pid())).start().waitFor());

            assertTrue(launcher.waitFor(5, TimeUnit.SECONDS), "the launcher did not end after SIG" + signal);
            assertEquals(status, launcher.exitValue());
            for (final long pid : pids) {
                assertFalse(alive(pid), "rank pid " + pid + " outlived the launcher");
            }
            assertEquals(List.of(), jobFiles(jobId), "files of job " + jobId + " left behind");
        } finally {
            launcher.destroyForcibly();
            for (final Path f : jobFiles(jobId)) {
                Files.deleteIfExists(f);
            }
        }
    }

    @Test
    void shouldRemoveTheJobsFileFromTheDirectoryTheRanksWereGiven(@TempDir final Path dir) throws IOException {
        final TestJobs.Output output = new TestJobs.Output();

        final JobResult result = job(2, output, "*:init", "0:hang", "1:exit=3").rendezvous(RendezvousService.tutti())
            .env("TUTTI_SHM_DIR", dir.toString()).build().run();

        assertEquals(new JobResult(3, JobResult.Outcome.RANK_FAILED, 1, "rank 1 failed (exit 3)"), result,
            output.err());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "left behind by a job whose ranks did not close");
        }
    }

    @Test
    void shouldRemoveAStaleJobFileWithoutPrintingALogRecord(@TempDir final Path dir) throws IOException {
        final Path stale = dir.resolve(Configuration.SHM_FILE_PREFIX + "1-0badcafe-000000000000"
            + Configuration.SHM_FILE_SUFFIX);
        Files.write(stale, new byte[4096]);
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofMinutes(10))));
        final TestJobs.Output output = new TestJobs.Output();

        final JobResult result = job(2, output, "*:init", "*:close").rendezvous(RendezvousService.tutti())
            .env("TUTTI_SHM_DIR", dir.toString()).build().run();

        assertTrue(result.succeeded(), result.description() + "\n" + output.err());
        assertFalse(Files.exists(stale), "the stale file was not removed");
        assertEquals("", output.err());
    }

    /** The shm files of a job in the directory its ranks use (the default, unless this environment sets one). */
    private static List<Path> jobFiles(final String jobId) throws IOException {
        final Path dir = Configuration.shmFile(jobId, "").getParent();
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir,
            Configuration.SHM_FILE_PREFIX + jobId + "-*" + Configuration.SHM_FILE_SUFFIX)) {
            s.forEach(files::add);
        }
        return files;
    }
}
