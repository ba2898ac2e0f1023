package dev.tutti.runtime.identity;

import dev.tutti.runtime.LaunchInfo;

import java.util.Map;

/** Tutti's own launcher ({@code tutti run}): {@link LaunchInfo}'s variables, which also name the rendezvous. */
final class TuttiSource implements IdentitySource {
    @Override
    public String name() {
        return "tutti";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        final LaunchInfo info = LaunchInfo.fromEnvironment(env);
        if (null == info) {
            return null;
        }
        return new Identity(name(), info.rank(), info.size(), -1, info.jobId(), null,
            Vars.show(env, LaunchInfo.RANK_ENV, LaunchInfo.SIZE_ENV, LaunchInfo.RENDEZVOUS_ENV, LaunchInfo.JOB_ID_ENV));
    }
}
