package dev.tutti.runtime.identity;

import java.util.Map;

/**
 * torchrun and other {@code env://} launchers: {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK},
 * {@code MASTER_ADDR} (the rendezvous host) and {@code MASTER_PORT}. The job id is torchrun's
 * {@code TORCHELASTIC_RUN_ID} when set, else {@code MASTER_ADDR:MASTER_PORT}. {@code RANK} without
 * {@code WORLD_SIZE} or {@code MASTER_ADDR} is refused.
 */
final class TorchrunSource implements IdentitySource {
    static final String RANK = "RANK";
    static final String SIZE = "WORLD_SIZE";
    static final String LOCAL_RANK = "LOCAL_RANK";
    static final String ADDR = "MASTER_ADDR";
    static final String PORT = "MASTER_PORT";
    static final String RUN_ID = "TORCHELASTIC_RUN_ID";

    @Override
    public String name() {
        return "torchrun";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        if (!Vars.any(env, RANK, SIZE)) {
            return null;
        }
        final int[] rs = Vars.rankAndSize(name(), env, RANK, SIZE);
        final int localRank = Vars.optional(name(), env, LOCAL_RANK);
        final String addr = Vars.first(env, ADDR);
        if (null == addr) {
            throw Vars.inconsistent(name(), Vars.show(env, RANK, SIZE, ADDR), ADDR + " set too, as torchrun sets it");
        }
        final String run = Vars.first(env, RUN_ID);
        final String port = Vars.first(env, PORT);
        final String id = null == run || "none".equals(run) ? addr + ":" + (null == port ? "-" : port) : run;
        return new Identity(name(), rs[0], rs[1], localRank, "torch-" + id, addr,
            Vars.show(env, RANK, SIZE, LOCAL_RANK, ADDR, PORT, RUN_ID));
    }
}
