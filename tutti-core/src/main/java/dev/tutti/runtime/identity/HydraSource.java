package dev.tutti.runtime.identity;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * MPICH's Hydra ({@code mpiexec}): {@code PMI_RANK}, {@code PMI_SIZE}, and {@code MPI_LOCALRANKID},
 * {@code MPI_LOCALNRANKS}. Hydra's environment carries no job id, so it is {@code PMI_PORT} when Hydra gives one,
 * else, when every rank is on this host, the process id of the parent (Hydra's proxy, which started all of them);
 * across hosts without {@code PMI_PORT}, {@code TUTTI_JOB_ID} must be set. The rendezvous host is known only when
 * every rank is on this host.
 */
final class HydraSource implements IdentitySource {
    static final String RANK = "PMI_RANK";
    static final String SIZE = "PMI_SIZE";
    static final String LOCAL_RANK = "MPI_LOCALRANKID";
    static final String LOCAL_SIZE = "MPI_LOCALNRANKS";
    static final String PORT = "PMI_PORT";

    private final LongSupplier parentPid;
    private final String jobIdName;

    /**
     * @param parentPid the process id of this process's parent
     * @param jobIdName the variable that names the job explicitly ({@code TUTTI_JOB_ID})
     */
    HydraSource(final LongSupplier parentPid, final String jobIdName) {
        this.parentPid = parentPid;
        this.jobIdName = jobIdName;
    }

    @Override
    public String name() {
        return "hydra";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        if (!Vars.any(env, RANK, SIZE)) {
            return null;
        }
        final int[] rs = Vars.rankAndSize(name(), env, RANK, SIZE);
        final int localRank = Vars.optional(name(), env, LOCAL_RANK);
        final boolean oneHost = Vars.optional(name(), env, LOCAL_SIZE) == rs[1];
        String job = Vars.first(env, jobIdName, PORT);
        if (null == job) {
            if (!oneHost) {
                throw Vars.inconsistent(name(), "ranks on several hosts (" + Vars.show(env, SIZE, LOCAL_SIZE)
                    + ") and " + Vars.show(env, PORT, jobIdName), jobIdName + " set to the same value in every rank");
            }
            job = "ppid" + parentPid.getAsLong();
        }
        return new Identity(name(), rs[0], rs[1], localRank, "hydra-" + job, oneHost ? "127.0.0.1" : null,
            Vars.show(env, RANK, SIZE, LOCAL_RANK, LOCAL_SIZE) + ", job id " + job);
    }
}
