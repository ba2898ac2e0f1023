package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.RendezvousService;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The commands of the fenced {@code sh} blocks of the README and the user guide ({@link UserDocs}): each goes
 * through {@code bin/tutti} (which finds a JDK 25 itself) or is a Maven command (whose toolchain finds one, as the
 * Install section says); each {@code bin/tutti} command parses; and each {@code bin/tutti run} on this host runs as
 * written (real rank JVMs, its class path taken from the repository root) and exits 0, once however many pages show
 * it (those that run a benchmark program run alone, in {@link ReadmeBenchCommandsTest}). {@code bin/tutti bench}
 * commands other than those that draw plots, and jobs on other hosts, are only parsed: they take a minute or need
 * other machines.
 */
@Tag("process")
@Timeout(180)
class ReadmeCommandsTest {
    private static final Path ROOT = UserDocs.ROOT;
    private static final String TUTTI = "bin/tutti ";

    /**
     * The commands of the fenced {@code sh} blocks, without comments.
     *
     * @param markdown the text
     * @return the commands, in order
     */
    static List<String> commands(final String markdown) {
        final List<String> found = new ArrayList<>();
        boolean inSh = false;
        for (final String line : markdown.split("\n", -1)) {
            if (!inSh) {
                inSh = "```sh".equals(line.strip());
                continue;
            }
            if ("```".equals(line.strip())) {
                inSh = false;
                continue;
            }
            final String command = line.replaceFirst("\\s+#.*$", "").strip();
            if (!command.isEmpty()) {
                found.add(command);
            }
        }
        return found;
    }

    /** @return the commands of every page, each once, in the order of their first appearance */
    private static List<String> readme() throws IOException {
        final List<String> all = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            all.addAll(commands(p.text()));
        }
        return all.stream().distinct().toList();
    }

    @Test
    void shouldRunEveryCommandThroughBinTuttiOrMaven() throws IOException {
        final List<String> commands = readme();
        assertTrue(commands.size() >= 10, commands.toString());
        final List<String> pages = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            if (!commands(p.text()).isEmpty()) {
                pages.add(p.name());
            }
        }
        assertTrue(pages.containsAll(List.of("README.md", "docs/api-tour.md", "docs/benchmarks.md",
            "docs/channels.md", "docs/tutti-mpi.md", "docs/tutti-mpj.md")), "pages with sh commands: " + pages);
        for (final String c : commands) {
            assertTrue(c.startsWith(TUTTI) || c.startsWith("mvn "), "documented command '" + c + "' goes neither "
                + "through bin/tutti nor Maven, so it does not find its JDK 25 by itself");
            assertTrue(!c.contains("--csv") || c.matches(".*--csv /tmp/\\S+.*"), "documented command '" + c
                + "' writes its CSV into the working tree");
            assertTrue(!c.contains("--plot") || c.matches(".*--plot /tmp/\\S+.*"), "documented command '" + c
                + "' writes its plot into the working tree");
            assertTrue(!c.startsWith(TUTTI + "bench plot") || c.matches(".* -o /tmp/\\S+.*"), "documented command '"
                + c + "' writes its plots into the working tree");
        }
        assertEquals(List.of("bin/tutti run -n 2 x", "mvn -B verify"), commands("```sh\nbin/tutti run -n 2 x   "
            + "# two\n\nmvn -B verify\n```\n```\nnot sh\n```\n"));
    }

    @Test
    void shouldParseEveryTuttiCommand() throws IOException {
        for (final String c : readme()) {
            if (c.startsWith(TUTTI)) {
                try {
                    TuttiCommand.newCommandLine().parseArgs(args(c));
                } catch (final CommandLine.ParameterException e) {
                    throw new AssertionError("documented command '" + c + "' does not parse: " + e.getMessage(), e);
                }
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyLocalRunCommandRunsAsWritten() throws IOException {
        return localRuns(false);
    }

    /**
     * The documented {@code bin/tutti run} and {@code mpjrun} commands on this host, as dynamic tests that run them.
     *
     * @param benchmarks the commands that run a benchmark program ({@code dev.tutti.bench...}), whose ranks poll
     *                   the cores busily for seconds ({@link ReadmeBenchCommandsTest} runs them alone); else the
     *                   others
     * @return a test per command
     */
    static Stream<DynamicTest> localRuns(final boolean benchmarks) throws IOException {
        final Path examples = ROOT.resolve("tutti-examples/target/classes");
        return readme().stream().filter(c -> (c.startsWith(TUTTI + "run ") || c.startsWith(TUTTI + "mpjrun "))
            && !c.contains(" -H ") && !c.contains("--hostfile") && !c.contains("-machinesfile")
            && benchmarks == c.contains(" dev.tutti.bench."))
            .map(c -> DynamicTest.dynamicTest(c, () -> {
                Assumptions.assumeTrue(Files.isDirectory(examples), "tutti-examples is not built (run the reactor)");
                runAsWritten(c);
            }));
    }

    /** Runs a documented {@code bin/tutti run} or {@code mpjrun} command in this JVM and checks that it succeeds. */
    private static void runAsWritten(final String c) {
        final String[] args = Arrays.stream(args(c)).map(ReadmeCommandsTest::fromRoot).toArray(String[]::new);
        final boolean mpjrun = "mpjrun".equals(args[0]);
        final List<String> withTimeout = new ArrayList<>(List.of(args));
        // Only a time limit and JVM options that start the ranks faster on CI's small machines (tutti run; mpjrun
        // has neither option, and this test's own timeout bounds it).
        if (!mpjrun) {
            withTimeout.addAll(1, List.of("--timeout", "60"));
            if (!withTimeout.contains("--embedded")) {
                withTimeout.addAll(1, List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
            }
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        final int status = TuttiCommand.newCommandLine(new RunCommand(RendezvousService.tutti(), o, e),
            new MpjrunCommand(RendezvousService.tutti(), o, e)).execute(withTimeout.toArray(String[]::new));
        final String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, c + "\n" + text);
        // An embedded job's ranks (and mpjrun's default multicore ones) print to this JVM's System.out.
        assertTrue(out.size() > 0 || c.contains("--embedded") || mpjrun && !c.contains("-dev niodev"),
            c + " printed nothing\n" + text);
    }

    /**
     * The documented commands that draw plots ({@code tutti bench OP ... --plot FILE}, {@code tutti bench plot}) run
     * as written, in the order the pages show them (a plot command may draw the CSV an earlier one wrote), and each
     * leaves its file or directory of plots.
     */
    @TestFactory
    Stream<DynamicTest> everyPlotCommandRunsAsWritten() throws IOException {
        return readme().stream().filter(c -> c.startsWith(TUTTI + "bench ") && (c.contains("--plot ")
            || c.startsWith(TUTTI + "bench plot "))).map(c -> DynamicTest.dynamicTest(c, () -> {
                // Files of the repository (docs/..., bench/...) are named from its root; the tests run in tutti-cli.
                final String[] args = Arrays.stream(args(c)).map(a -> a.startsWith("docs/") || a.startsWith("bench/")
                    ? ROOT.resolve(a).toString() : a).toArray(String[]::new);
                final Path plot = Path.of(args[Arrays.asList(args).indexOf(c.contains("--plot ") ? "--plot" : "-o")
                    + 1]);
                deletePlots(plot); // a plot left by an earlier run must not pass for this one's
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                final ByteArrayOutputStream err = new ByteArrayOutputStream();
                final CommandLine cl = TuttiCommand.newCommandLine();
                cl.setOut(new java.io.PrintWriter(out, true, StandardCharsets.UTF_8));
                cl.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
                final int status = cl.execute(args);
                final String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
                assertEquals(0, status, c + "\n" + text);
                if (Files.isDirectory(plot)) {
                    try (Stream<Path> files = Files.list(plot)) {
                        assertTrue(files.anyMatch(f -> f.toString().endsWith(".png") || f.toString().endsWith(".svg")),
                            c + " left no plot in " + plot + "\n" + text);
                    }
                } else {
                    assertTrue(Files.size(plot) > 0, c + " left an empty " + plot + "\n" + text);
                }
            }));
    }

    private static void deletePlots(final Path plot) throws IOException {
        if (Files.isDirectory(plot)) {
            try (Stream<Path> files = Files.list(plot)) {
                for (final Path f : files.filter(f -> f.toString().endsWith(".png") || f.toString().endsWith(".svg"))
                    .toList()) {
                    Files.delete(f);
                }
            }
        } else {
            Files.deleteIfExists(plot);
        }
    }

    /** @return a class path whose entries in this repository ({@code tutti-*}/...) are resolved from its root */
    private static String fromRoot(final String arg) {
        if (!arg.startsWith("tutti-")) {
            return arg;
        }
        return Arrays.stream(arg.split(File.pathSeparator)).map(e -> e.startsWith("tutti-") ? ROOT.resolve(e)
            .toString() : e).collect(Collectors.joining(File.pathSeparator));
    }

    /** The arguments of a {@code bin/tutti} command (the documented commands need no shell quoting). */
    private static String[] args(final String command) {
        return command.substring(TUTTI.length()).strip().split("\\s+");
    }
}
