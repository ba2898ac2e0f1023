package dev.tutti.runtime.identity;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each launcher's identity is read from an environment recorded under that launcher (the Open MPI one from Debian's
 * Open MPI 4.1.4 on this machine, trimmed), the first match wins, and an inconsistent environment is refused naming
 * its variables and values.
 */
class IdentitiesTest {
    /** Rank 1 of {@code mpirun -n 2}, as Open MPI 4.1.4 sets it. */
    static final Map<String, String> OMPI = Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2",
        "OMPI_COMM_WORLD_LOCAL_RANK", "1", "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_COMM_WORLD_NODE_RANK", "1",
        "OMPI_MCA_ess_base_jobid", "1656815617", "OMPI_MCA_orte_num_nodes", "1", "PMIX_NAMESPACE", "1656815617",
        "PMIX_RANK", "1", "OMPI_UNIVERSE_SIZE", "2");
    /** Rank 5 of {@code srun -N 3 -n 6} in job 4242, step 3. */
    static final Map<String, String> SLURM = Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "6", "SLURM_LOCALID", "1",
        "SLURM_STEP_NODELIST", "node[07-08],gpu1", "SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "3",
        "SLURM_NODEID", "2", "SLURM_JOB_NODELIST", "node[07-08],gpu[1-2]", "SLURM_STEP_NUM_TASKS", "6");
    /** Rank 3 of {@code mpiexec -n 4} under Hydra on one host. */
    static final Map<String, String> HYDRA = Map.of("PMI_RANK", "3", "PMI_SIZE", "4", "PMI_FD", "7",
        "MPI_LOCALRANKID", "3", "MPI_LOCALNRANKS", "4");
    /** Rank 2 of {@code torchrun --nnodes 2 --nproc-per-node 2}. */
    static final Map<String, String> TORCH = Map.of("RANK", "2", "WORLD_SIZE", "4", "LOCAL_RANK", "0",
        "LOCAL_WORLD_SIZE", "2", "MASTER_ADDR", "10.0.0.5", "MASTER_PORT", "29500", "TORCHELASTIC_RUN_ID", "run7",
        "GROUP_RANK", "1");
    /** Pod 2 of an indexed Job {@code solver} with 3 completions and headless service {@code ranks}. */
    static final Map<String, String> K8S = Map.of("JOB_COMPLETION_INDEX", "2", "HOSTNAME", "solver-2",
        "TUTTI_SIZE", "3", "TUTTI_K8S_SERVICE", "ranks", "KUBERNETES_SERVICE_HOST", "10.96.0.1");

    @Test
    void shouldReadOpenMpi() {
        final Identity id = chosen(OMPI);
        assertEquals("openmpi", id.source());
        assertEquals(1, id.rank());
        assertEquals(2, id.size());
        assertEquals(1, id.localRank());
        assertEquals("ompi-1656815617", id.jobId());
        assertEquals("127.0.0.1", id.host(), "every rank on this host: rendezvous on loopback");
        final Map<String, String> spread = with(OMPI, "OMPI_COMM_WORLD_LOCAL_SIZE", "1");
        spread.remove("OMPI_MCA_orte_num_nodes");
        assertNull(chosen(spread).host(), "across hosts mpirun does not say where rank 0 is");
        final Map<String, String> pmix = new HashMap<>(OMPI);
        pmix.remove("OMPI_MCA_ess_base_jobid");
        assertEquals("ompi-1656815617", chosen(pmix).jobId(), "PMIX_NAMESPACE when the ess job id is absent");
    }

    @Test
    void shouldReadSlurmWithTheFirstStepHostAsRendezvous() {
        final Identity id = chosen(SLURM);
        assertEquals("slurm", id.source());
        assertEquals(5, id.rank());
        assertEquals(6, id.size());
        assertEquals(1, id.localRank());
        assertEquals("slurm-4242.3", id.jobId());
        assertEquals("node07", id.host());
    }

    @Test
    void shouldReadHydraWithTheParentAsJobIdOnOneHost() {
        final Identity id = Identities.detect(HYDRA, () -> 777).chosen();
        assertEquals("hydra", id.source());
        assertEquals(3, id.rank());
        assertEquals(4, id.size());
        assertEquals("hydra-ppid777", id.jobId());
        assertEquals("127.0.0.1", id.host());
        assertEquals("hydra-host:4000", chosen(with(HYDRA, "PMI_PORT", "host:4000")).jobId());
        refused("MPI_LOCALNRANKS=2", "TUTTI_JOB_ID set", with(HYDRA, "MPI_LOCALNRANKS", "2"));
    }

    @Test
    void shouldReadTorchrunAndKubernetes() {
        final Identity t = chosen(TORCH);
        assertEquals("torchrun", t.source());
        assertEquals(2, t.rank());
        assertEquals(4, t.size());
        assertEquals(0, t.localRank());
        assertEquals("torch-run7", t.jobId());
        assertEquals("10.0.0.5", t.host());
        final Map<String, String> noRun = new HashMap<>(TORCH);
        noRun.remove("TORCHELASTIC_RUN_ID");
        assertEquals("torch-10.0.0.5:29500", chosen(noRun).jobId());
        final Identity k = chosen(K8S);
        assertEquals("kubernetes", k.source());
        assertEquals(2, k.rank());
        assertEquals(3, k.size());
        assertEquals("k8s-solver", k.jobId());
        assertEquals("solver-0.ranks", k.host());
    }

    @Test
    void shouldLetTheInnermostLauncherWinAndReportTheOthers() {
        // mpirun inside an sbatch allocation: the batch step's SLURM_PROCID=0 is still there
        final Map<String, String> both = new HashMap<>(SLURM);
        both.putAll(OMPI);
        final Identities.Detection d = Identities.detect(both, () -> 1);
        assertEquals("openmpi", d.chosen().source());
        assertEquals(1, d.ignored().size(), d.ignored().toString());
        assertTrue(d.ignored().get(0).startsWith("slurm: rank 5 of 6"), d.ignored().toString());
        final Map<String, String> tutti = new HashMap<>(OMPI);
        tutti.putAll(Map.of("TUTTI_RANK", "0", "TUTTI_SIZE", "2", "TUTTI_RENDEZVOUS", "127.0.0.1:9",
            "TUTTI_JOB_SECRET", "ab"));
        assertEquals("tutti", chosen(tutti).source(), "tutti run inside mpirun: Tutti's own variables first");
        final Identities.Detection none = Identities.detect(Map.of("HOME", "/root", "PATH", "/bin"), () -> 1);
        assertNull(none.chosen(), "no launcher: a job of one");
        assertTrue(none.ignored().isEmpty());
    }

    @Test
    void shouldRefuseInconsistentEnvironmentsNamingVariablesAndValues() {
        final Map<String, String> noNodes = new HashMap<>(SLURM);
        noNodes.remove("SLURM_STEP_NODELIST");
        refused("SLURM_PROCID set but SLURM_STEP_NODELIST unset, SLURM_JOB_ID=4242", "both set", noNodes);
        refused("SLURM_STEP_NODELIST=node[07-", "a valid Slurm host list", with(SLURM, "SLURM_STEP_NODELIST",
            "node[07-"));
        refused("SLURM_PROCID=6, SLURM_NTASKS=6", "0 <= rank < size", with(SLURM, "SLURM_PROCID", "6"));
        refused("RANK=3, WORLD_SIZE unset", "both set", Map.of("RANK", "3"));
        refused("RANK=1, WORLD_SIZE=2, MASTER_ADDR unset", "MASTER_ADDR set too", Map.of("RANK", "1",
            "WORLD_SIZE", "2"));
        refused("OMPI_COMM_WORLD_RANK=x, OMPI_COMM_WORLD_SIZE=2", "integers", with(OMPI, "OMPI_COMM_WORLD_RANK", "x"));
        refused("OMPI_COMM_WORLD_LOCAL_RANK=-1", "a non-negative integer", with(OMPI, "OMPI_COMM_WORLD_LOCAL_RANK",
            "-1"));
        refused("PMI_RANK=0, PMI_SIZE unset", "both set", Map.of("PMI_RANK", "0"));
        refused("JOB_COMPLETION_INDEX=2, TUTTI_K8S_SERVICE=ranks, HOSTNAME=other-7", "of the form <job>-2",
            with(K8S, "HOSTNAME", "other-7"));
        refused("JOB_COMPLETION_INDEX=2, TUTTI_SIZE unset", "both set", Map.of("JOB_COMPLETION_INDEX", "2"));
    }

    private static Identity chosen(final Map<String, String> env) {
        return Identities.detect(env, () -> 1).chosen();
    }

    private static Map<String, String> with(final Map<String, String> base, final String key, final String value) {
        final Map<String, String> env = new HashMap<>(base);
        env.put(key, value);
        return env;
    }

    private static void refused(final String needle, final String expected, final Map<String, String> env) {
        final TuttiException e = assertThrows(TuttiException.class, () -> Identities.detect(env, () -> 1));
        assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith("init (launch environment from "), e.getMessage());
        assertTrue(e.getMessage().contains(needle), e.getMessage());
        assertTrue(e.getMessage().contains("expected") && e.getMessage().contains(expected), e.getMessage());
    }
}
