package dev.tutti.runtime.identity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tutti info}'s launcher lines say what was detected and why, and touch nothing. */
class LaunchReportTest {
    @TempDir
    Path dir;

    @Test
    void shouldSayWhatWasDetectedAndWhy() {
        final Path secret = dir.resolve("secret");
        final Map<String, String> env = new HashMap<>(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE",
            "2", "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_MCA_ess_base_jobid", "77", "SLURM_PROCID", "0",
            "SLURM_NTASKS", "1", "SLURM_STEP_NODELIST", "n1", "SLURM_JOB_ID", "5"));
        final List<String> lines = LaunchReport.describe(env, secret);
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("openmpi: rank 1 of 2, job ompi-77, rendezvous host 127.0.0.1 "
            + "[OMPI_COMM_WORLD_RANK=1, OMPI_COMM_WORLD_SIZE=2"), lines.get(0));
        assertEquals("rendezvous: rank 0 serves at 127.0.0.1:" + Launch.derivedPort("ompi-77")
            + " (openmpi's rendezvous host, port derived from job id ompi-77)", lines.get(1));
        assertEquals("secret: derived from " + secret + " and the job id (created on first use)", lines.get(2));
        assertTrue(lines.get(3).startsWith("also present, ignored: slurm: rank 0 of 1"), lines.get(3));
        assertFalse(Files.exists(secret), "describing creates nothing");

        assertTrue(LaunchReport.describe(Map.of(), secret).get(0).startsWith("none detected, a job of one rank; "
            + "looked for tutti (TUTTI_RANK), openmpi (OMPI_COMM_WORLD_RANK)"));
        assertTrue(LaunchReport.describe(Map.of("RANK", "1"), secret).get(0).startsWith("inconsistent, init would "
            + "fail: init (launch environment from torchrun): RANK=1, WORLD_SIZE unset"));
        env.put("OMPI_COMM_WORLD_LOCAL_SIZE", "1");
        env.put("TUTTI_JOB_SECRET", "ab");
        final List<String> spread = LaunchReport.describe(env, secret);
        assertTrue(spread.get(1).startsWith("rendezvous: init would fail: "), spread.get(1));
        assertEquals("secret: TUTTI_JOB_SECRET", spread.get(2));
    }
}
