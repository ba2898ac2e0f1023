package dev.tutti.cli;

import dev.tutti.internal.Settings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documentation's one {@code mpirun} line ({@code docs/slurm-and-mpirun.md}; every page of {@link UserDocs} is
 * searched) runs as written, under Debian's Open MPI, from the repository root: {@code java} is this JDK 25, and as
 * root {@code --allow-run-as-root --oversubscribe} are added (as the page says). Skipped, saying so, without
 * {@code mpirun} or a built {@code tutti-examples}.
 */
@Timeout(120)
class ReadmeMpirunTest {
    private static final Path ROOT = UserDocs.ROOT;

    @TempDir
    Path home;

    @Test
    @Tag("process")
    void shouldRunTheDocumentedMpirunLine() throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("mpirun"), "mpirun is not installed (it/setup.sh installs openmpi-bin)");
        Assumptions.assumeTrue(Files.isDirectory(ROOT.resolve("tutti-examples/target/classes")),
            "tutti-examples is not built (run the reactor)");
        final List<String> lines = mpirunLines();
        assertEquals(1, lines.size(), "the documentation's mpirun lines: " + lines);
        final List<String> cmd = new ArrayList<>(Arrays.asList(lines.get(0).split("\\s+")));
        cmd.replaceAll(a -> "java".equals(a) ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : a);
        cmd.addAll(1, List.of("--allow-run-as-root", "--oversubscribe"));
        final ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> null != Settings.find(k) && !Settings.find(k).isProperty());
        pb.environment().put(Settings.SECRET_FILE.envName(), home.resolve("secret").toString());
        final Process p = pb.start();
        final String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
        assertTrue(out.contains("from 4 ranks"), out);
    }

    @Test
    void shouldFindTheOneMpirunLineOfTheDocumentation() throws IOException {
        final List<String> lines = mpirunLines();
        assertEquals(1, lines.size(), "the documentation's mpirun lines: " + lines);
        assertTrue(lines.get(0).contains(" dev.tutti.examples.Pi"), lines.get(0));
    }

    /** @return every line of the documentation that starts with {@code mpirun} */
    private static List<String> mpirunLines() throws IOException {
        final List<String> lines = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            p.text().lines().filter(l -> l.startsWith("mpirun ")).forEach(lines::add);
        }
        return lines;
    }

    private static boolean onPath(final String command) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
