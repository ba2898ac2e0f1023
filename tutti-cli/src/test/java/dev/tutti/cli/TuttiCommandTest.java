package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.cli.testranks.EchoRank;
import dev.tutti.cli.testranks.NoMain;
import dev.tutti.cli.testranks.TransportRank;
import dev.tutti.launcher.RendezvousService;
import dev.tutti.internal.Setting;
import dev.tutti.internal.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
@Timeout(30)
class TuttiCommandTest {
    private static final RendezvousService.Factory NO_RENDEZVOUS = (host, size, secret) -> new RendezvousService() {
        @Override
        public int port() {
            return 1;
        }

        @Override
        public void close() {
        }
    };

    /** What one command printed and returned. */
    private record Run(int status, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }
    }

    /** Runs {@code tutti args...} in this JVM; ranks' output and picocli's output are both captured. */
    private static Run tutti(final String... args) {
        return tutti(NO_RENDEZVOUS, args);
    }

    /** As {@link #tutti(String...)}, with the real rendezvous, for ranks that join the job. */
    private static Run tuttiWithRendezvous(final String... args) {
        return tutti(RendezvousService.tutti(), args);
    }

    private static Run tutti(final RendezvousService.Factory rendezvous, final String... args) {
        final ByteArrayOutputStream rankOut = new ByteArrayOutputStream();
        final ByteArrayOutputStream rankErr = new ByteArrayOutputStream();
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cl = TuttiCommand.newCommandLine(new RunCommand(rendezvous,
            new PrintStream(rankOut, true, StandardCharsets.UTF_8), new PrintStream(rankErr, true,
                StandardCharsets.UTF_8)));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        final int status = cl.execute(args);
        return new Run(status, out + rankOut.toString(StandardCharsets.UTF_8),
            err + rankErr.toString(StandardCharsets.UTF_8));
    }

    private static String testClasspath() {
        try {
            return Path.of(EchoRank.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] runEcho(final String... options) {
        final List<String> args = new ArrayList<>(List.of("run", "-J-Xmx64m", "-J-XX:+UseSerialGC",
            "--jvm-option=-XX:TieredStopAtLevel=1"));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }

    @Test
    @Tag("process")
    void shouldRunTheRanksTagTheirOutputAndPassProgramArgumentsThrough() {
        final Run run = tutti(runEcho("-n", "2", "--tag-output", "-x", "CLI_TEST=v", "-cp", testClasspath(),
            EchoRank.class.getName(), "-n", "5", "--tag-output"));

        assertEquals(0, run.status(), run.err());
        assertEquals(Set.of("[1,0]<stdout>:rank 0 of 2 CLI_TEST=v args=[-n, 5, --tag-output]",
            "[1,1]<stdout>:rank 1 of 2 CLI_TEST=v args=[-n, 5, --tag-output]"), new HashSet<>(run.outLines()));
        assertEquals("", run.err());
    }

    @Test
    @Tag("process")
    void shouldExitWithTheFailedRanksStatusAndNameItsException() {
        final Run run = tutti(runEcho("-n", "2", "-cp", testClasspath(), EchoRank.class.getName(), "throw=1"));

        assertEquals(1, run.status());
        assertTrue(run.err().contains("Exception in thread \"main\" java.lang.IllegalStateException: rank 1 was told "
            + "to throw"), run.err());
        assertTrue(run.err().endsWith("tutti run: rank 1 failed (exit 1): java.lang.IllegalStateException: rank 1 "
            + "was told to throw" + System.lineSeparator()), run.err());
    }

    @Test
    @Tag("process")
    void shouldEndAHungJobAtTheTimeout() {
        final Run run = tutti(runEcho("-n", "1", "--timeout", "1", "-cp", testClasspath(), EchoRank.class.getName(),
            "hang"));

        assertEquals(124, run.status(), run.err());
        assertTrue(run.err().contains("tutti: thread stacks of rank 0"), run.err());
        assertTrue(run.err().contains("tutti run: timed out after 1 s with rank 0 still running"), run.err());
    }

    @Test
    void shouldRefuseAProfileFileThatIsNeitherCsvNorJsonAndRecordingsOfAnEmbeddedJob() {
        final Run txt = tutti("run", "-n", "2", "--profile=out.txt", "-cp", ".", "Main");
        assertEquals(2, txt.status(), txt.err());
        assertTrue(txt.err().startsWith("tutti run: --profile=out.txt, expected a file ending in .csv or .json, or "
            + "--profile alone for a table"), txt.err());
        final Run embedded = tutti("run", "--embedded", "-n", "2", "--trace", "t.json", "-cp", ".", "Main");
        assertEquals(2, embedded.status(), embedded.err());
        assertTrue(embedded.err().startsWith("tutti run: --jfr, --profile or --trace with --embedded, expected rank "
            + "processes"), embedded.err());
    }

    @Test
    @Tag("process")
    void shouldRefuseAMainClassThatIsNotOnTheClassPathInOneLineWith127() {
        // The examples are not bundled with the launcher, so a wrong -cp cannot run them by accident.
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.tutti.examples.Pi"));
        final Run run = tutti("run", "-n", "4", "-cp", "/nonexistent", "dev.tutti.examples.Pi");

        assertEquals(127, run.status(), run.err());
        assertEquals(List.of("tutti run: warning: class path entry /nonexistent does not exist",
            "tutti run: cannot start dev.tutti.examples.Pi from -cp /nonexistent: class dev.tutti.examples.Pi not "
                + "found"), run.err().lines().toList());
        assertEquals("", run.out());
    }

    @Test
    @Tag("process")
    void shouldRefuseAClassWithoutMainAndAMissingJar() {
        final Run noMain = tutti("run", "-n", "2", "-cp", testClasspath(), NoMain.class.getName());
        assertEquals(127, noMain.status(), noMain.err());
        assertEquals(List.of("tutti run: cannot start " + NoMain.class.getName() + " from -cp " + testClasspath()
            + ": " + NoMain.class.getName() + " has no main(String[]) or main() method"), noMain.err().lines().toList());

        final Run noJar = tutti("run", "-n", "2", "-jar", "/nonexistent/app.jar", "x");
        assertEquals(127, noJar.status(), noJar.err());
        assertEquals(List.of("tutti run: -jar /nonexistent/app.jar does not exist"), noJar.err().lines().toList());
    }

    @Test
    @Tag("process")
    void shouldWarnOfAMissingClassPathEntryAndStillRunTheJob() {
        final String cp = testClasspath() + java.io.File.pathSeparator + "/nonexistent/lib.jar";
        final Run run = tutti(runEcho("-n", "1", "-cp", cp, EchoRank.class.getName()));

        assertEquals(0, run.status(), run.err());
        assertEquals("tutti run: warning: class path entry /nonexistent/lib.jar does not exist", run.err().strip());
        assertTrue(run.out().startsWith("rank 0 of 1"), run.out());
    }

    @Test
    @Tag("process")
    void shouldRunOverTheTransportAskedForAndPrintTheWiringWithVerbose() {
        final Run run = tuttiWithRendezvous(runEcho("-n", "2", "--transport", "tcp", "-v",
            "-J-D" + Settings.COLL_ALGORITHM.prefix() + "allreduce=ring", "-x", Settings.EAGER_LIMIT.envName()
                + "=4096", "-cp", testClasspath(), TransportRank.class.getName()));

        assertEquals(0, run.status(), run.err());
        assertEquals(Set.of("rank 0 transport=tcp sum=1", "rank 1 transport=tcp sum=1"), new HashSet<>(run.outLines()));
        assertEquals(List.of("tutti run: 2 ranks, transport tcp", "  host localhost (this machine): ranks 0-1",
            "  tcp between 0-1", "  eager limits: tcp 4096 B, shm " + Settings.SHM_EAGER_LIMIT.defaultValue()
                + " B (ring " + Settings.SHM_RING_BYTES.defaultValue() + " B, chunk "
                + Settings.SHM_CHUNK_BYTES.defaultValue() + " B, push limit " + Settings.SHM_PUSH_LIMIT.defaultValue()
                + " B)", "  algorithms forced: allreduce=ring"), run.err().lines()
                .filter(l -> !l.startsWith("FINE: tutti rank ")).toList(), "the wiring, and then only debug records");
        assertTrue(run.err().contains("FINE: tutti rank 1: joined as rank 1 of 2"), "-v raises the ranks' log level "
            + "to debug: " + run.err());
    }

    @Test
    @Tag("process")
    void shouldWireRanksOfOneHostOverShmAndOfTwoHostsOverTcpWhenAuto() {
        final RunCommand run = new RunCommand(NO_RENDEZVOUS, System.out, System.err);
        TuttiCommand.newCommandLine(run).parseArgs("run", "-n", "4", "-H", "localhost:2,far:2", "-cp", "c", "M");
        final Wiring wiring = new Wiring(run.launcher().placement(), List.of(), java.util.Map.of());
        assertEquals("shm", wiring.transport(0, 1));
        assertEquals("tcp", wiring.transport(1, 2));
        assertEquals("shm", wiring.transport(2, 3));
        assertEquals(List.of("tutti run: 4 ranks, transport auto", "  host localhost (this machine): ranks 0-1",
            "  host far: ranks 2-3", "  shm between 0-1 2-3", "  tcp between 0-2 0-3 1-2 1-3"),
            wiring.describe().subList(0, 5));
        assertEquals("tcp", new Wiring(run.launcher().placement(), List.of("-D" + Settings.TRANSPORT.name() + "=tcp"),
            java.util.Map.of()).transport(0, 1));
        assertEquals("shm", new Wiring(run.launcher().placement(), List.of(), java.util.Map.of(
            Settings.TRANSPORT.envName(), "shm")).transport(1, 2));
    }

    @Test
    @Tag("process")
    void shouldGiveEverythingAfterTheJarToTheProgram() {
        final RunCommand run = new RunCommand(NO_RENDEZVOUS, System.out, System.err);
        final CommandLine cl = TuttiCommand.newCommandLine(run);
        cl.parseArgs("run", "-n", "2", "-jar", "app.jar", "-n", "5", "--tag-output", "-jar", "x");
        final List<String> cmd = run.launcher().javaCommandLine();
        assertEquals(List.of("-jar", "app.jar", "-n", "5", "--tag-output", "-jar", "x"), cmd.subList(2, cmd.size()));
        assertEquals(2, run.launcher().ranks());

        final RunCommand attached = new RunCommand(NO_RENDEZVOUS, System.out, System.err);
        TuttiCommand.newCommandLine(attached).parseArgs("run", "-n", "1", "-jar=app.jar", "a");
        final List<String> cmd2 = attached.launcher().javaCommandLine();
        assertEquals(List.of("-jar", "app.jar", "a"), cmd2.subList(2, cmd2.size()));
    }

    @Test
    void shouldAcceptMpirunSpellingsAndRepeatedOptions() {
        final RunCommand run = new RunCommand(NO_RENDEZVOUS, System.out, System.err);
        TuttiCommand.newCommandLine(run).parseArgs("run", "-np", "3", "-H", "localhost:2", "-H", "127.0.0.1",
            "-x", "A", "-x", "B=c", "--oversubscribe", "-classpath", "c", "M", "arg");
        assertEquals(List.of("localhost", "localhost", "127.0.0.1"), run.launcher().placement().hosts());
        assertFalse(run.launcher().placement().anyRemote());
        final List<String> cmd = run.launcher().javaCommandLine();
        // The program's class path comes first; Tutti's own jar or classes are appended after it.
        assertEquals("--enable-native-access=ALL-UNNAMED", cmd.get(1));
        assertEquals("-cp", cmd.get(2));
        assertTrue(cmd.get(3).startsWith("c" + java.io.File.pathSeparator), cmd.get(3));
        assertEquals(List.of("M", "arg"), cmd.subList(4, cmd.size()));
    }

    static Stream<List<String>> usageErrors() {
        return Stream.of(
            List.of(),
            List.of("nope"),
            List.of("run"),
            List.of("run", "-n", "x", "-cp", "c", "M"),
            List.of("run", "-n", "0", "-cp", "c", "M"),
            List.of("run", "-n", "2"),
            List.of("run", "-n", "2", "-cp", "c"),
            List.of("run", "-n", "2", "-cp", "c", "-jar", "j.jar"),
            List.of("run", "-n", "2", "-jar"),
            List.of("run", "-n", "2", "--bogus", "-cp", "c", "M"),
            List.of("run", "-n", "1", "--hostfile", "/nonexistent/hosts", "-cp", "c", "M"),
            List.of("run", "-n", "1", "-H", "a", "--hostfile", "/nonexistent/hosts", "-cp", "c", "M"),
            List.of("run", "-n", "3", "-H", "a:1,b:1", "-cp", "c", "M"),
            List.of("run", "-n", "1", "--timeout", "0", "-cp", "c", "M"),
            List.of("run", "-n", "1", "-x", "TUTTI_SIZE=9", "-cp", "c", "M"),
            List.of("run", "-n", "1", "--transport", "udp", "-cp", "c", "M"),
            List.of("run", "-n", "2", "-H", "localhost,far", "--transport", "shm", "-cp", "c", "M"),
            List.of("run", "-n", "1", "--embedded", "--transport", "tcp", "-cp", "c", "M"));
    }

    @ParameterizedTest
    @MethodSource("usageErrors")
    void shouldReportUsageErrorsInOneLineWithStatus2(final List<String> args) {
        final Run run = tutti(args.toArray(String[]::new));

        assertEquals(2, run.status(), run.err());
        final List<String> lines = run.err().lines().toList();
        assertEquals(2, lines.size(), run.err());
        assertTrue(lines.get(0).startsWith("tutti"), lines.get(0));
        assertTrue(lines.get(1).startsWith("Try 'tutti"), lines.get(1));
        assertEquals("", run.out());
    }

    @Test
    void shouldDescribeTheInstallation() {
        final Run run = tutti("info");

        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("tutti " + TuttiCommand.version() + System.lineSeparator()), run.out());
        assertTrue(run.out().contains("processors  " + Runtime.getRuntime().availableProcessors()), run.out());
        assertTrue(run.out().contains("java.home   " + System.getProperty("java.home")), run.out());
        assertTrue(run.out().contains("tutti.eager.limit"), run.out());
        assertTrue(run.out().contains("TUTTI_IDLE_SPINS"), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("  inproc") && l.endsWith("available")), run.out());
        assertTrue(run.out().lines().anyMatch(l -> l.startsWith("launcher    ") && l.contains("tutti (TUTTI_RANK)")),
            "the launcher line says what it looked for: " + run.out());
        assertFalse(TuttiCommand.version().startsWith("$"), TuttiCommand.version());
    }

    @Test
    void shouldListEveryDeclaredSettingInAlignedColumns() {
        final Run run = tutti("info");
        assertEquals(0, run.status(), run.err());
        final Set<Integer> envColumns = new HashSet<>();
        for (final Setting s : Settings.all()) {
            if (!s.isProperty()) {
                continue;
            }
            final String line = run.outLines().stream().filter(l -> l.startsWith("  " + s.name() + " "))
                .findFirst().orElseThrow(() -> new AssertionError("tutti info lacks " + s.name() + "\n" + run.out()));
            assertTrue(line.endsWith(" " + s.envName()), line);
            envColumns.add(line.length() - s.envName().length());
        }
        assertEquals(1, envColumns.size(), "environment variables start in columns " + envColumns + "\n" + run.out());
    }

    @Test
    void shouldShowHelpForTheHelpCommand() {
        final Run top = tutti("help");
        assertEquals(0, top.status(), top.err());
        assertTrue(top.out().startsWith("Usage: tutti"), top.out());
        assertTrue(top.out().contains("run") && top.out().contains("bench") && top.out().contains("info"), top.out());

        final Run run = tutti("help", "run");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("Usage: tutti run"), run.out());
    }

    @Test
    void shouldReportWhereASettingComesFrom() {
        final String before = System.getProperty("tutti.idle.spins");
        System.setProperty("tutti.idle.spins", "7");
        try {
            assertTrue(SettingsReport.values().contains(new SettingsReport.Value("tutti.idle.spins",
                "TUTTI_IDLE_SPINS", "7", "system property")), SettingsReport.values().toString());
        } finally {
            restore("tutti.idle.spins", before);
        }
    }

    @Test
    void shouldDescribeEverySettingOfTheRegistry() {
        final Run run = tutti("info", "--settings");

        assertEquals(0, run.status(), run.err());
        for (final Setting s : Settings.all()) {
            assertTrue(run.outLines().contains("  " + s.name() + " = "
                + (s.defaultValue().isEmpty() ? "(none)" : s.defaultValue()) + " (default)"), s + "\n" + run.out());
            assertTrue(run.out().contains("default " + (s.defaultValue().isEmpty() ? "(none)" : s.defaultValue())
                + "; read at " + s.readAt().label()), s.name() + "\n" + run.out());
            assertTrue(run.out().contains(String.join("\n      ", SettingsReport.wrap(s.meaning().replace("`", ""),
                108)).replace("\n", System.lineSeparator())), s.name() + "\n" + run.out());
            if (s.isProperty()) {
                assertTrue(run.out().contains("environment " + s.envName() + "; "), s.name() + "\n" + run.out());
            }
        }
    }

    @Test
    void shouldShowSetFamilyMembersAndNameWhatIsNoSetting() {
        final String member = System.getProperty("tutti.coll.allreduce");
        final String typo = System.getProperty("tutti.shm.ringbytes");
        System.setProperty("tutti.coll.allreduce", "ring");
        System.setProperty("tutti.shm.ringbytes", "4096");
        try {
            final Run run = tutti("info", "--settings");
            assertEquals(0, run.status(), run.err());
            assertTrue(run.outLines().contains("  tutti.coll.allreduce = ring (system property)"), run.out());
            assertTrue(run.outLines().contains("  tutti.shm.ringbytes (system property)"), run.out());
            assertFalse(run.out().contains("tutti.coll.allreduce (system property)"), run.out());
            assertTrue(tutti("info").out().contains("not settings (misspelt?): tutti.shm.ringbytes"));
        } finally {
            restore("tutti.coll.allreduce", member);
            restore("tutti.shm.ringbytes", typo);
        }
    }

    @Test
    void shouldWrapAtSpaces() {
        assertEquals(List.of("ab cd", "efghij", "k"), SettingsReport.wrap("ab cd efghij k", 5));
        assertEquals(List.of("ab"), SettingsReport.wrap("ab", 5));
    }

    @Test
    void shouldPrintTheReadmeTableWithMarkdown() {
        final Run run = tutti("info", "--settings", "--markdown");
        assertEquals(0, run.status(), run.err());
        assertEquals(SettingsReport.markdown(), run.out());
        assertEquals(2, tutti("info", "--markdown").status());
    }

    private static void restore(final String property, final String before) {
        if (null == before) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, before);
        }
    }

    @Test
    void shouldPrintTheVersion() {
        final Run run = tutti("--version");
        assertEquals(0, run.status());
        assertTrue(run.out().startsWith("tutti "), run.out());
    }
}
