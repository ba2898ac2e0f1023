package dev.tutti.runtime.identity;

import dev.tutti.TuttiException;
import dev.tutti.runtime.SecretFile;
import dev.tutti.internal.Settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code tutti info} says about how this process would join a job: the launcher detected and the variables
 * that decided it, where the rendezvous would be, where the job secret would come from, and the launchers whose
 * variables are present but lose. It starts nothing and creates no file.
 */
public final class LaunchReport {
    private LaunchReport() {
    }

    /**
     * Describes the launch an environment implies.
     *
     * @param env        the environment
     * @param secretFile the secret file in force ({@link SecretFile#path()})
     * @return lines, without indentation
     */
    public static List<String> describe(final Map<String, String> env, final Path secretFile) {
        final List<String> lines = new ArrayList<>();
        final Identities.Detection d;
        try {
            d = Identities.detect(env);
        } catch (final TuttiException e) {
            lines.add("inconsistent, init would fail: " + e.getMessage());
            return lines;
        }
        final Identity id = d.chosen();
        if (null == id) {
            lines.add("none detected, a job of one rank; looked for " + Identities.looksFor());
        } else {
            lines.add(id.toString());
            if (!"tutti".equals(id.source())) {
                lines.add("rendezvous: " + rendezvous(id, env));
                final String given = env.get(Settings.JOB_SECRET.envName());
                lines.add("secret: " + (null != given && !given.isBlank() ? Settings.JOB_SECRET.envName()
                    : "derived from " + secretFile + " and the job id ("
                        + (Files.exists(secretFile) ? "the file exists" : "created on first use") + ")"));
            }
        }
        for (final String other : d.ignored()) {
            lines.add("also present, ignored: " + other);
        }
        return lines;
    }

    private static String rendezvous(final Identity id, final Map<String, String> env) {
        if (1 == id.size()) {
            return "none needed (a job of one rank)";
        }
        try {
            return Launch.plan(id, env).why();
        } catch (final TuttiException e) {
            return "init would fail: " + e.getMessage();
        }
    }
}
