package dev.tutti.cli;

import dev.tutti.cli.testranks.AllreduceRank;
import dev.tutti.internal.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Tutti job under a real Slurm: {@code it/slurm.sh} starts munged, slurmctld and slurmd on this machine (one node,
 * 4 CPUs, a generated slurm.conf, no systemd), and {@code srun -n 4 java ... AllreduceRank} runs a job whose ranks
 * learn who they are from Slurm's variables: directly, from an {@code sbatch --wait} script, and with a rank that
 * dies.
 *
 * <p>Needs root, Slurm and munge ({@code it/setup.sh} installs slurm-wlm and munge), and the Slurm identity source;
 * skipped, saying which is missing, otherwise. Its ports are 6917 and 6918, so that a Slurm of the machine's own
 * keeps its ports.
 */
// Runs alone (@Isolated): it asserts that a step ends within 10 s of a rank's death, which another job on these 2
// cores would delay.
@Isolated
@Tag("cluster")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlurmClusterTest {
    private static final Path SCRIPT = ItScript.path("slurm.sh");
    private static final String STATE = "/tmp/tutti-slurm-it" + ProcessHandle.current().pid();
    private static final Map<String, String> ENV = Map.of("TUTTI_SLURM_DIR", STATE, "TUTTI_SLURM_PORT", "6917");

    @BeforeAll
    static void up() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the Slurm test needs Linux");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
            "starting slurmd needs root (user is " + System.getProperty("user.name") + ")");
        Assumptions.assumeTrue(present("dev.tutti.runtime.identity.SlurmSource"),
            "this tree has no Slurm identity source");
        Assumptions.assumeTrue(ItScript.installed("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged",
            "srun", "sbatch", "sinfo"), "Slurm is not installed (it/setup.sh installs slurm-wlm and munge)");
        final ItScript.Result r = script("up");
        assertEquals(0, r.status(), "it/slurm.sh up failed:\n" + r.output());
    }

    @AfterAll
    static void down() throws Exception {
        if (Files.isDirectory(Path.of(STATE))) {
            final ItScript.Result r = script("down");
            assertEquals(0, r.status(), "it/slurm.sh down failed:\n" + r.output());
        }
    }

    @Test
    void shouldRunAJobUnderSrun() throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("srun", "-n", "4"));
        cmd.addAll(rankCommand());
        final Run r = run(cmd, null, 90);
        assertEquals(0, r.status(), r.output());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r.output().contains("rank " + rank + " of 4 (slurm) sum=10"), r.output());
        }
    }

    /** A batch script whose one step is {@code srun java ... Main}: the ranks find themselves in the step's
     *  variables (not the batch step's own), and the job's output file holds every rank's result. */
    @Test
    void shouldRunAJobFromAnSbatchScript() throws Exception {
        final Path out = Path.of(STATE, "batch-" + System.nanoTime() + ".out");
        final Path job = Path.of(STATE, "job.sh");
        Files.writeString(job, "#!/bin/sh\n#SBATCH -n 4\n#SBATCH -J tutti-it\n#SBATCH -o " + out + "\n"
            + "#SBATCH -t 2\n" + "srun " + String.join(" ", rankCommand()) + "\n");
        final Run r = run(List.of("sbatch", "--wait", job.toString()), null, 90);
        final String written = Files.isRegularFile(out) ? Files.readString(out) : "(no output file " + out + ")";
        assertEquals(0, r.status(), r.output() + written);
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(written.contains("rank " + rank + " of 4 (slurm) sum=10"), written);
        }
    }

    /** A rank that vanishes under srun (halts with status 0: srun sees nothing wrong) ends the others within
     *  seconds, each naming it, and srun exits non-zero. */
    @Test
    void shouldEndTheStepWithinSecondsWhenARankDies() throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("srun", "-n", "4"));
        cmd.addAll(rankCommand());
        cmd.addAll(List.of("die", "2"));
        final Run r = run(cmd, "rank 2 dies now", 90);
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.sinceMarkerMs() >= 0, "rank 2 never said it died: " + r.output());
        assertTrue(r.sinceMarkerMs() < 10_000, "the step ended " + r.sinceMarkerMs() + " ms after rank 2 died: "
            + r.output());
        for (final int rank : new int[] {0, 1, 3}) {
            assertTrue(r.output().contains("(comm=WORLD, rank=" + rank + "): cannot complete: rank 2 failed"),
                "rank " + rank + " did not name rank 2: " + r.output());
        }
    }

    /** {@code java ... AllreduceRank}, with this test's class path. */
    private static List<String> rankCommand() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Xmx128m", "--enable-native-access=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"), AllreduceRank.class.getName());
    }

    /** How a Slurm command ended: its status, its merged output, and the time from a marker line to its end. */
    private record Run(int status, String output, long sinceMarkerMs) {
    }

    /**
     * Runs a Slurm command with this cluster's slurm.conf, its output read line by line (marking when
     * {@code marker} appears), and kills it and its children after {@code seconds}.
     */
    private static Run run(final List<String> cmd, final String marker, final int seconds) throws Exception {
        final List<String> argv = new ArrayList<>(List.of(SCRIPT.toString(), "run"));
        argv.addAll(cmd);
        final ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(ENV);
        // The ranks must find themselves in Slurm's variables, not in a launcher's left in this JVM's environment.
        pb.environment().keySet().removeIf(k -> null != Settings.find(k) && !Settings.find(k).isProperty()
            || k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("PMI"));
        final Process p = pb.start();
        final CompletableFuture<long[]> marked = new CompletableFuture<>();
        final CompletableFuture<String> text = CompletableFuture.supplyAsync(() -> {
            final StringBuilder b = new StringBuilder();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); null != line; line = in.readLine()) {
                    b.append(line).append('\n');
                    if (null != marker && line.contains(marker)) {
                        marked.complete(new long[] {System.nanoTime()});
                    }
                }
            } catch (final IOException e) {
                b.append(e);
            }
            return b.toString();
        });
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            return new Run(-1, "(killed after " + seconds + " s)\n" + text.get(5, TimeUnit.SECONDS), -1);
        }
        final long end = System.nanoTime();
        final String output = text.get(10, TimeUnit.SECONDS);
        final long since = marked.isDone() ? TimeUnit.NANOSECONDS.toMillis(end - marked.get()[0]) : -1;
        return new Run(p.exitValue(), output, since);
    }

    private static boolean present(final String className) {
        try {
            Class.forName(className, false, SlurmClusterTest.class.getClassLoader());
            return true;
        } catch (final ClassNotFoundException e) {
            return false;
        }
    }

    private static ItScript.Result script(final String... args) throws Exception {
        return ItScript.run(SCRIPT, ENV, args);
    }
}
