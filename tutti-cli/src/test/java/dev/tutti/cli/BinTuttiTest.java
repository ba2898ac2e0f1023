package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.cli.testranks.EchoRank;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/tutti}, run as a real shell script from a copy of the source tree's layout, with a stand-in
 * {@code mvn} on the PATH that writes colour codes as Maven 3.8 does even with {@code -Dstyle.color=never}: the
 * build that runs on first use keeps its output out of the job's stdout (and, if it succeeds, out of stderr).
 */
@Tag("process")
@Timeout(60)
class BinTuttiTest {
    private static final String ESC = "\u001b";

    /** What the script printed and returned. */
    private record Result(int status, String out, String err) {
    }

    @Test
    void shouldKeepTheFirstBuildsOutputOutOfTheJobsOutput(@TempDir final Path root) throws Exception {
        final Path fakeJar = echoJar(root.resolve("echo.jar"));
        final Result r = binTutti(root, "cp '" + fakeJar + "' tutti-cli/target/tutti.jar", "a", "b");

        assertEquals(0, r.status(), r.err());
        assertEquals("rank null of null CLI_TEST=null args=[a, b]", r.out().strip());
        assertFalse(r.out().contains(ESC) || r.err().contains(ESC), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("tutti: " + root.resolve("tutti-cli/target/tutti.jar") + " is missing; "
            + "building it"), r.err());
        assertTrue(Files.readString(root.resolve("target/tutti-build.log")).contains("building"));
    }

    @Test
    void shouldShowTheEndOfTheLogWhenTheBuildFails(@TempDir final Path root) throws Exception {
        final Result r = binTutti(root, "echo 'compile error in Foo.java'; exit 1", "info");

        assertEquals(1, r.status(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("compile error in Foo.java"), r.err());
        assertTrue(r.err().strip().endsWith("tutti: the build failed; the last lines of "
            + root.resolve("target/tutti-build.log") + " are above"), r.err());
    }

    /**
     * Runs a copy of bin/tutti under {@code root} (no jar there yet) with an {@code mvn} on the PATH that prints
     * colour codes on both streams and then runs {@code buildStep} in the tree's root.
     */
    private static Result binTutti(final Path root, final String buildStep, final String... args)
        throws IOException, InterruptedException {
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("fake"));
        Files.copy(Path.of("../bin/tutti"), root.resolve("bin/tutti"));
        final Path mvn = root.resolve("fake/mvn");
        Files.writeString(mvn, "#!/bin/sh\nprintf '\\033[0m\\033[0mbuilding\\n'\nprintf '\\033[0m' >&2\n"
            + "mkdir -p tutti-cli/target\n" + buildStep + "\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        final ProcessBuilder pb = new ProcessBuilder("sh", root.resolve("bin/tutti").toString());
        pb.command().addAll(java.util.List.of(args));
        pb.environment().put("PATH", root.resolve("fake") + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().keySet().removeIf(k -> k.startsWith("TUTTI_"));
        final Path out = root.resolve("stdout");
        final Path err = root.resolve("stderr");
        final Process p = pb.directory(root.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(50, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/tutti did not end");
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    }

    /** An executable jar whose main class is {@link EchoRank}, found through the manifest's class path. */
    private static Path echoJar(final Path jar) throws Exception {
        final Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, EchoRank.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, EchoRank.class.getProtectionDomain().getCodeSource()
            .getLocation().toURI().toString());
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
        return jar;
    }
}
