package dev.tutti.runtime.identity;

import java.util.List;
import java.util.Map;

/**
 * Slurm's {@code srun}: {@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LOCALID}, the step's hosts
 * {@code SLURM_STEP_NODELIST} (a compressed {@link HostList}, whose first host runs rank 0 under every Slurm task
 * distribution), and {@code SLURM_JOB_ID} with {@code SLURM_STEP_ID} for the job id (a job's steps are separate
 * Tutti jobs). A rank without a node list or a job id is refused.
 */
final class SlurmSource implements IdentitySource {
    static final String RANK = "SLURM_PROCID";
    static final String SIZE = "SLURM_NTASKS";
    static final String LOCAL_RANK = "SLURM_LOCALID";
    static final String NODES = "SLURM_STEP_NODELIST";
    static final String JOB = "SLURM_JOB_ID";
    static final String STEP = "SLURM_STEP_ID";

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        if (!Vars.any(env, RANK)) {
            return null;
        }
        final int[] rs = Vars.rankAndSize(name(), env, RANK, SIZE);
        final int localRank = Vars.optional(name(), env, LOCAL_RANK);
        final String job = Vars.first(env, JOB);
        final String nodes = Vars.first(env, NODES);
        if (null == job || null == nodes) {
            throw Vars.inconsistent(name(), RANK + " set but " + Vars.show(env, NODES, JOB),
                "both set, as srun sets them (a batch script's own shell is no rank: start the ranks with srun)");
        }
        final List<String> hosts;
        try {
            hosts = HostList.expand(NODES, nodes);
        } catch (final IllegalArgumentException e) {
            throw Vars.inconsistent(name(), e.getMessage(), "a valid Slurm host list");
        }
        final String step = Vars.first(env, STEP);
        final String id = job + "." + (null == step ? "0" : step);
        return new Identity(name(), rs[0], rs[1], localRank, "slurm-" + id, hosts.get(0),
            Vars.show(env, RANK, SIZE, LOCAL_RANK, NODES, JOB, STEP));
    }
}
