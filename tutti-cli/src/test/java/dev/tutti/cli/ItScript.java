package dev.tutti.cli;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Runs one of the repository's {@code it/} scripts (cluster.sh, slurm.sh) for the cluster tests. */
final class ItScript {
    private ItScript() {
    }

    /** How a run ended: the exit status and the output (stdout and stderr together). */
    record Result(int status, String output) {
    }

    /** The script's path, from the module directory the tests run in. */
    static Path path(final String name) {
        return Path.of("..", "it", name).toAbsolutePath().normalize();
    }

    /**
     * Whether every command is installed: an absolute path that is executable, or a name found on the PATH.
     *
     * @param commands the commands
     * @return true when all are there
     */
    static boolean installed(final String... commands) {
        final String[] path = System.getenv().getOrDefault("PATH", "").split(File.pathSeparator);
        for (final String c : commands) {
            final boolean found = c.startsWith("/") ? Files.isExecutable(Path.of(c))
                : Arrays.stream(path).anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, c)));
            if (!found) {
                return false;
            }
        }
        return true;
    }

    static Result run(final Path script, final Map<String, String> env, final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of(script.toString()));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }
}
