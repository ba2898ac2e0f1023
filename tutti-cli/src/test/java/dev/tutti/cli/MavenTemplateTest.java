package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.Tutti;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "A first program": the blocks of the documentation ({@link UserDocs}) that name a file are the files
 * of {@code templates/maven}; the lines that put {@code tutti} on the PATH work in a home without {@code ~/.local/bin};
 * and the template, copied to a directory of its own, builds with real Maven against the {@code tutti-core} this
 * build made and runs on 4 ranks with the README's own {@code mvn} and {@code tutti run} lines.
 *
 * <p>Implementation note: nothing is installed into the build's local repository (it may be shared). Maven gets a
 * local repository of its own, seeded with {@code tutti-core}'s jar (this build's, or a jar of its classes
 * directory when the reactor has not packaged it yet) and the two poms it needs, laid out as {@code mvn install}
 * would; every other artifact (plugins, the parent's imported BOM) comes from a mirror of every repository at the
 * {@code file:} URL of the build's local repository, which Maven only reads, so no network is used. {@code bin/tutti}
 * runs as a real script from a copy of the tree's layout whose {@code tutti.jar} starts {@link TuttiCommand} from
 * this test's class path (in a fresh checkout the reactor has not packaged it yet when this test runs).
 */
@Tag("build")
@Timeout(150)
class MavenTemplateTest {
    private static final Path ROOT = UserDocs.ROOT;
    private static final String SECTION = "## A first program";
    private static final Path TEMPLATE = ROOT.resolve("templates/maven");
    private static final String PROMPT = "$ ";

    /** A fenced block whose info string names a file of the repository ({@code ```xml templates/maven/pom.xml}). */
    record FileBlock(String page, int line, String path, String text) {
    }

    /**
     * The fenced blocks of a markdown text whose info string is a language and a path.
     *
     * @param page     the page's name
     * @param markdown the text
     * @return the blocks, in order
     */
    static List<FileBlock> fileBlocks(final String page, final String markdown) {
        final List<FileBlock> found = new ArrayList<>();
        final String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            final String[] info = lines[i].strip().split("\\s+");
            if (2 != info.length || !info[0].startsWith("```") || 3 == info[0].length()) {
                continue;
            }
            final StringBuilder text = new StringBuilder();
            int j = i + 1;
            while (j < lines.length && !"```".equals(lines[j].strip())) {
                text.append(lines[j]).append('\n');
                j++;
            }
            found.add(new FileBlock(page, i + 2, info[1], text.toString()));
            i = j;
        }
        return found;
    }

    /** @return the fenced {@code console} block of the README's "A first program" section */
    private static List<String> consoleBlock() throws IOException {
        final String readme = UserDocs.page("README.md").text();
        final int section = readme.indexOf("\n" + SECTION + "\n");
        assertTrue(section >= 0, "README.md has no section '" + SECTION + "'");
        final int open = readme.indexOf("```console\n", section);
        final int close = readme.indexOf("\n```\n", open);
        assertTrue(open >= 0 && close > open, "the section has no console block");
        return readme.substring(open + "```console\n".length(), close).lines().toList();
    }

    /**
     * The commands the console block runs in the new project (after its {@code cd}), without prompt and comment.
     */
    private static List<List<String>> projectCommands(final List<String> block) {
        final List<String> prompted = block.stream().filter(l -> l.startsWith(PROMPT))
            .map(l -> l.substring(PROMPT.length()).replaceFirst("\\s+#.*$", "").strip()).toList();
        final int cd = prompted.indexOf(prompted.stream().filter(c -> c.startsWith("cd ")).findFirst()
            .orElseThrow(() -> new AssertionError("no cd into the project: " + prompted)));
        return prompted.subList(cd + 1, prompted.size()).stream().map(c -> List.of(c.split("\\s+"))).toList();
    }

    /** The commands the console block runs in this checkout before it copies the template, Maven's aside. */
    private static List<String> checkoutCommands(final List<String> block) {
        final List<String> prompted = block.stream().filter(l -> l.startsWith(PROMPT))
            .map(l -> l.substring(PROMPT.length()).replaceFirst("\\s+#.*$", "").strip()).toList();
        final int copy = prompted.indexOf(prompted.stream().filter(c -> c.startsWith("cp ")).findFirst()
            .orElseThrow(() -> new AssertionError("no copy of the template: " + prompted)));
        return prompted.subList(0, copy).stream().filter(c -> !c.startsWith("mvn ")).toList();
    }

    @Test
    void shouldPutTuttiOnThePathInAHomeWithoutLocalBin(@TempDir final Path tmp) throws Exception {
        final List<String> commands = checkoutCommands(consoleBlock());
        assertTrue(commands.stream().anyMatch(c -> c.contains("ln -s")), "no link to bin/tutti: " + commands);
        final Path home = Files.createDirectories(tmp.resolve("home"));
        // Twice: the lines work again where they have run before.
        final String script = "set -e\n" + String.join("\n", commands) + "\n" + String.join("\n", commands)
            + "\ncommand -v tutti\n";
        final ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).directory(ROOT.toFile())
            .redirectErrorStream(true).redirectOutput(tmp.resolve("sh.log").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("PWD", ROOT.toString());
        pb.environment().put("PATH", "/usr/bin:/bin");
        final Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the shell did not end");
        final String out = Files.readString(tmp.resolve("sh.log"));
        assertEquals(0, p.exitValue(), script + "\n" + out);
        final Path link = home.resolve(".local/bin/tutti");
        assertEquals(link.toString(), out.strip(), script + "\n" + out);
        assertTrue(Files.isSymbolicLink(link) && Files.isSameFile(link, ROOT.resolve("bin/tutti")), out);
    }

    @Test
    void shouldShowEveryTemplateFileInTheDocumentationAsItIs() throws IOException {
        final List<FileBlock> blocks = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            blocks.addAll(fileBlocks(p.name(), p.text()));
        }
        final List<String> templateFiles;
        try (Stream<Path> files = Files.walk(TEMPLATE)) {
            templateFiles = files.filter(Files::isRegularFile).map(f -> ROOT.relativize(f).toString()).sorted()
                .toList();
        }
        assertEquals(List.of("templates/maven/pom.xml", "templates/maven/src/main/java/Main.java"), templateFiles);
        assertEquals(templateFiles, blocks.stream().map(FileBlock::path).sorted().toList(),
            "the documentation's blocks that name a file");
        for (final FileBlock b : blocks) {
            assertEquals(Files.readString(ROOT.resolve(b.path())), b.text(), b.page() + " line " + b.line()
                + " differs from " + b.path());
        }
        assertEquals(List.of(new FileBlock("p.md", 3, "a/B.java", "class B {}\n")),
            fileBlocks("p.md", "text\n```java a/B.java\nclass B {}\n```\n```java\nint a;\n```\n``` \nx\n```\n"));
    }

    @Test
    void shouldDependOnThisBuildsTuttiCore() throws IOException {
        final String pom = Files.readString(TEMPLATE.resolve("pom.xml"));
        assertTrue(pom.contains("<groupId>dev.tutti</groupId>\n      <artifactId>tutti-core</artifactId>\n"
            + "      <version>" + TuttiCommand.version() + "</version>"), "templates/maven/pom.xml does not depend "
            + "on dev.tutti:tutti-core:" + TuttiCommand.version() + ":\n" + pom);
    }

    @Test
    void shouldBuildWithMavenAndRunOnFourRanksAsTheReadmeSays(@TempDir final Path tmp) throws Exception {
        final Path mvn = mavenExecutable();
        Assumptions.assumeTrue(null != mvn, "no Maven found (maven.home unset and no mvn on the PATH)");
        final Path m2 = Path.of(System.getProperty("localRepository",
            System.getProperty("user.home") + "/.m2/repository"));
        final List<String> block = consoleBlock();

        final Path app = tmp.resolve("my-app");
        copyTree(TEMPLATE, app);
        final Path repo = seedRepository(tmp.resolve("repo"));
        final Path settings = tmp.resolve("settings.xml");
        Files.writeString(settings, "<settings><mirrors><mirror><id>build-repo</id><mirrorOf>*</mirrorOf><url>"
            + m2.toUri() + "</url></mirror></mirrors></settings>\n");
        final List<List<String>> commands = projectCommands(block);
        assertEquals(2, commands.size(), "the commands in the project: " + commands);
        assertEquals(List.of("mvn", "tutti"), commands.stream().map(c -> c.get(0)).toList(), commands.toString());
        final List<String> build = new ArrayList<>(commands.get(0));
        build.set(0, mvn.toString());
        build.addAll(List.of("-s", settings.toString(), "-Dmaven.repo.local=" + repo, "-Dstyle.color=never"));
        final Result built = run(build, app, tmp.resolve("mvn.log"), false);
        assertEquals(0, built.status(), String.join(" ", build) + "\n" + built.out());
        assertTrue(Files.isRegularFile(app.resolve("target/classes/Main.class")), built.out());

        final List<String> job = new ArrayList<>(commands.get(1));
        job.set(0, binTutti(tmp.resolve("tutti")).toString());
        final Result ran = run(job, app, tmp.resolve("job.log"), true);
        assertEquals(0, ran.status(), String.join(" ", job) + "\n" + ran.out());
        final List<String> shown = block.stream().filter(l -> !l.startsWith(PROMPT) && !l.isBlank()).sorted()
            .toList();
        assertEquals(4, shown.size(), "the output the README shows: " + shown);
        assertEquals(shown, ran.out().lines().sorted().toList(), "the job's output (sorted)");
    }

    /** What a process printed (stdout and stderr together) and returned. */
    private record Result(int status, String out) {
    }

    /**
     * Runs a command in {@code dir} with this environment (Maven finds its JDK 25 through the template's toolchain,
     * as for a user); a Tutti job gets this JDK and none of Tutti's variables.
     */
    private static Result run(final List<String> command, final Path dir, final Path log, final boolean job)
        throws IOException, InterruptedException {
        final ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        if (job) {
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().keySet().removeIf(k -> k.startsWith("TUTTI_"));
        }
        final Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 60 s:\n"
                + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** @return the Maven that runs this build ({@code maven.home}), else {@code mvn} on the PATH, else null */
    private static Path mavenExecutable() {
        final String home = System.getProperty("maven.home");
        if (null != home && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn");
        }
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .map(d -> Path.of(d, "mvn")).filter(Files::isExecutable).findFirst().orElse(null);
    }

    /**
     * A local repository holding {@code tutti-core} and its parent pom, as {@code mvn install} lays them out.
     *
     * @param repo the repository's directory (created)
     * @return {@code repo}
     */
    private static Path seedRepository(final Path repo) throws IOException {
        final String v = TuttiCommand.version();
        final Path core = Files.createDirectories(repo.resolve("dev/tutti/tutti-core").resolve(v));
        final Path parent = Files.createDirectories(repo.resolve("dev/tutti/tutti-parent").resolve(v));
        Files.copy(ROOT.resolve("tutti-core/pom.xml"), core.resolve("tutti-core-" + v + ".pom"));
        Files.copy(ROOT.resolve("pom.xml"), parent.resolve("tutti-parent-" + v + ".pom"));
        final Path built = codeSource(Tutti.class);
        final Path jar = core.resolve("tutti-core-" + v + ".jar");
        if (Files.isDirectory(built)) {
            jarOf(built, jar);
        } else {
            Files.copy(built, jar);
        }
        return repo;
    }

    /**
     * A copy of {@code bin/tutti} in a tree whose {@code tutti-cli/target/tutti.jar} starts {@link TuttiCommand}
     * from this test's class path.
     *
     * @param root the tree's root (created)
     * @return the script
     */
    private static Path binTutti(final Path root) throws IOException {
        final Path script = Files.createDirectories(root.resolve("bin")).resolve("tutti");
        Files.copy(ROOT.resolve("bin/tutti"), script);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        final Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, TuttiCommand.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, Arrays.stream(System.getProperty("java.class.path")
            .split(File.pathSeparator)).map(e -> Path.of(e).toAbsolutePath().toUri().toString())
            .collect(Collectors.joining(" ")));
        final Path jar = Files.createDirectories(root.resolve("tutti-cli/target")).resolve("tutti.jar");
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
        return script;
    }

    private static Path codeSource(final Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (final java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes a jar of the files under {@code dir}. */
    private static void jarOf(final Path dir, final Path jar) throws IOException {
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
            Stream<Path> files = Files.walk(dir)) {
            for (final Path f : files.filter(Files::isRegularFile).toList()) {
                j.putNextEntry(new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, j);
                j.closeEntry();
            }
        }
    }

    private static void copyTree(final Path from, final Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (final Path f : files.toList()) {
                Files.copy(f, to.resolve(from.relativize(f).toString()));
            }
        }
    }
}
