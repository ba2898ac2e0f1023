package dev.tutti.runtime.identity;

import dev.tutti.internal.Settings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Tutti job under Debian's Open MPI {@code mpirun} (no Tutti launcher anywhere): the ranks take their
 * identity from {@code OMPI_*}, rank 0 serves the rendezvous at the port derived from Open MPI's job id, the job
 * secret comes from a fresh per-user secret file, and an allreduce runs. Then a rank dies with status 0 (nothing
 * mpirun would act on) and every other rank must fail within seconds naming it, so that mpirun ends non-zero.
 * Skipped, saying so, where {@code mpirun} is not installed ({@code it/setup.sh} installs openmpi-bin).
 */
// Runs alone (@Isolated): it asserts that every rank fails within 10 s of a rank's death, which another job on these 2
// cores would delay.
@Isolated
@Tag("process")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MpirunTest {
    private static final int RANKS = 4;

    @TempDir
    Path home;

    @BeforeAll
    static void needsMpirun() {
        Assumptions.assumeTrue(onPath("mpirun"), "mpirun is not installed (it/setup.sh installs openmpi-bin): the test "
            + "of Tutti under Open MPI's launcher is skipped");
    }

    @Test
    void shouldRunAnAllreduceUnderMpirun() throws Exception {
        final Run run = mpirun(List.of("ok"), null);
        assertEquals(0, run.exit, run.output);
        for (int r = 0; r < RANKS; r++) {
            assertTrue(run.output.contains("rank " + r + " of " + RANKS + " (openmpi) sum=10"), run.output);
        }
        final Path secret = home.resolve(".tutti/secret");
        assertTrue(Files.isRegularFile(secret), "the secret file was created on first use");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(secret)));
    }

    @Test
    void shouldEndEveryRankWithinSecondsWhenOneDies() throws Exception {
        final Run run = mpirun(List.of("die", "2"), "rank 2 dies now");
        assertNotEquals(0, run.exit, run.output);
        assertTrue(run.sinceMarkerMs >= 0, "rank 2 never said it died: " + run.output);
        assertTrue(run.sinceMarkerMs < 10_000, "the job took " + run.sinceMarkerMs + " ms to end after rank 2 died: "
            + run.output);
        for (final int r : new int[] {0, 1, 3}) {
            assertTrue(run.output.contains("allreduce (comm=WORLD, rank=" + r + "): cannot complete: rank 2 failed"),
                "rank " + r + " did not name rank 2: " + run.output);
        }
        assertTrue(!run.output.contains("without rank 2"), run.output);
    }

    /** How an mpirun ended: its status, its merged output, and the time from a marker line to its end (or -1). */
    private record Run(int exit, String output, long sinceMarkerMs) {
    }

    private Run mpirun(final List<String> args, final String marker) throws IOException, InterruptedException {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> cmd = new ArrayList<>(List.of("mpirun", "--allow-run-as-root", "--oversubscribe", "-n",
            Integer.toString(RANKS), java, "-cp", System.getProperty("java.class.path"),
            ForeignLaunchMain.class.getName()));
        cmd.addAll(args);
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> null != Settings.find(k) && !Settings.find(k).isProperty()
            || k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("PMI"));
        pb.environment().put(Settings.SECRET_FILE.envName(), home.resolve(".tutti/secret").toString());
        final Process p = pb.start();
        final StringBuilder out = new StringBuilder();
        long markedAt = -1;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); null != line; line = in.readLine()) {
                out.append(line).append('\n');
                if (null != marker && -1 == markedAt && line.contains(marker)) {
                    markedAt = System.nanoTime();
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        final long since = -1 == markedAt ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - markedAt);
        return new Run(p.exitValue(), out.toString(), since);
    }

    private static boolean onPath(final String command) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
