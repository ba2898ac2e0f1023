package dev.tutti.runtime.identity;

import java.util.Map;

/**
 * Open MPI's {@code mpirun}: {@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE},
 * {@code OMPI_COMM_WORLD_LOCAL_RANK} and {@code _LOCAL_SIZE}; the job id is Open MPI's own
 * ({@code OMPI_MCA_ess_base_jobid} in 4.x, {@code OMPI_MCA_orte_ess_jobid} before, else {@code PMIX_NAMESPACE}).
 * {@code mpirun} does not say where rank 0 runs, so the rendezvous host is known only when every rank is on this
 * host ({@code _LOCAL_SIZE} equal to the size, or {@code OMPI_MCA_orte_num_nodes=1}); across hosts
 * {@code TUTTI_RENDEZVOUS} must name it.
 */
final class OpenMpiSource implements IdentitySource {
    static final String RANK = "OMPI_COMM_WORLD_RANK";
    static final String SIZE = "OMPI_COMM_WORLD_SIZE";
    static final String LOCAL_RANK = "OMPI_COMM_WORLD_LOCAL_RANK";
    static final String LOCAL_SIZE = "OMPI_COMM_WORLD_LOCAL_SIZE";
    static final String NUM_NODES = "OMPI_MCA_orte_num_nodes";
    static final String[] JOB_IDS = {"OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE"};

    @Override
    public String name() {
        return "openmpi";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        if (!Vars.any(env, RANK, SIZE)) {
            return null;
        }
        final int[] rs = Vars.rankAndSize(name(), env, RANK, SIZE);
        final int localRank = Vars.optional(name(), env, LOCAL_RANK);
        final int localSize = Vars.optional(name(), env, LOCAL_SIZE);
        final String job = Vars.first(env, JOB_IDS);
        if (null == job) {
            throw Vars.inconsistent(name(), RANK + " set but " + Vars.show(env, JOB_IDS), "one of them set, as "
                + "mpirun sets them");
        }
        final boolean oneHost = localSize == rs[1] || "1".equals(Vars.first(env, NUM_NODES));
        return new Identity(name(), rs[0], rs[1], localRank, "ompi-" + job, oneHost ? "127.0.0.1" : null,
            Vars.show(env, RANK, SIZE, LOCAL_RANK, LOCAL_SIZE) + ", job id " + job);
    }
}
