package dev.tutti.runtime.identity;

import java.util.Map;

/**
 * A Kubernetes indexed Job: each pod's {@code JOB_COMPLETION_INDEX} is its rank; the size is {@code TUTTI_SIZE}
 * (set it to the Job's {@code completions}), and rank 0 is reached through the headless service that the Job's
 * pods use as their subdomain, named by {@code TUTTI_K8S_SERVICE}: pod {@code <job>-<index>} is
 * {@code <job>-<index>.<service>}, so the rendezvous host is {@code <job>-0.<service>}. The job name is the pod's
 * host name ({@code HOSTNAME}) without its {@code -<index>}.
 */
final class KubernetesSource implements IdentitySource {
    static final String INDEX = "JOB_COMPLETION_INDEX";
    static final String HOSTNAME = "HOSTNAME";

    private final String sizeName;
    private final String serviceName;

    /**
     * @param sizeName    the variable with the number of ranks ({@code TUTTI_SIZE})
     * @param serviceName the variable with the headless service ({@code TUTTI_K8S_SERVICE})
     */
    KubernetesSource(final String sizeName, final String serviceName) {
        this.sizeName = sizeName;
        this.serviceName = serviceName;
    }

    @Override
    public String name() {
        return "kubernetes";
    }

    @Override
    public Identity detect(final Map<String, String> env) {
        if (!Vars.any(env, INDEX)) {
            return null;
        }
        final int[] rs = Vars.rankAndSize(name(), env, INDEX, sizeName);
        final String service = Vars.first(env, serviceName);
        final String host = Vars.first(env, HOSTNAME);
        final String suffix = "-" + rs[0];
        if (null == service || null == host || !host.endsWith(suffix) || host.length() == suffix.length()) {
            throw Vars.inconsistent(name(), Vars.show(env, INDEX, serviceName, HOSTNAME), serviceName + " set to the "
                + "Job's headless service and " + HOSTNAME + " of the form <job>" + suffix);
        }
        final String job = host.substring(0, host.length() - suffix.length());
        return new Identity(name(), rs[0], rs[1], -1, "k8s-" + job, job + "-0." + service,
            Vars.show(env, INDEX, sizeName, serviceName, HOSTNAME));
    }
}
