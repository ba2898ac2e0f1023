package dev.tutti.cli;

import dev.tutti.Tutti;
import dev.tutti.cli.ProcessJobTest.Run;
import dev.tutti.cli.testranks.QuittingRank;
import dev.tutti.cli.testranks.RootMismatchRank;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's whole stderr when a job fails over processes, as a user sees it: the failing rank's own output,
 * at most one line from each rank that failed because of it, and a summary line naming the cause; the correct twin
 * of each program prints nothing on stderr.
 */
@Tag("process")
@Timeout(60)
class FailureOutputTest {
    private static final String SUM_RANKS = """
        import dev.tutti.Buf;
        import dev.tutti.Communicator;
        import dev.tutti.Op;
        import dev.tutti.Tutti;

        public final class SumRanks {
            public static void main(final String[] args) {
                try (Tutti tutti = Tutti.init()) {
                    final Communicator w = tutti.world();
                    final int[] x = {w.rank()};
                    w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                    if (0 == w.rank()) {
                        System.out.println("sum=" + x[0]);
                    }
                }
            }
        }
        """;

    /** A line from a rank whose collective failed because rank 2 left: the first line of its exception only. */
    private static final Pattern PEER_LINE = Pattern.compile("Exception in thread \"main\" dev\\.tutti\\.TuttiException: "
        + "allreduce \\(comm=WORLD, rank=[013]\\): cannot complete.*: rank 2 .*");

    private static Run quitting(final String transport, final String mode) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "4"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        if (null != transport) {
            a.addAll(List.of("--transport", transport));
        }
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), QuittingRank.class.getName(), mode));
        return ProcessJobTest.tutti(a.toArray(new String[0]));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldPrintTheThrowingRanksTraceOneLinePerPeerAndTheCause(final String transport) {
        final Run r = quitting(transport, "throw");

        assertEquals(1, r.status(), r.err());
        final List<String> lines = r.err().lines().toList();
        assertEquals("tutti run: rank 2 failed (exit 1): java.lang.IllegalStateException: boom", lines.getLast(),
            r.err());
        assertTrue(lines.contains("Exception in thread \"main\" java.lang.IllegalStateException: boom"), r.err());
        final List<String> frames = lines.stream().filter(l -> l.startsWith("\t")).toList();
        assertEquals(1, frames.size(), r.err());
        assertTrue(frames.getFirst().startsWith("\tat " + QuittingRank.class.getName() + ".main("), r.err());
        final List<String> peerLines = lines.stream().filter(l -> l.contains("TuttiException")).toList();
        assertTrue(peerLines.size() <= 3, r.err());
        peerLines.forEach(l -> assertTrue(PEER_LINE.matcher(l).matches(), l));
        assertEquals(2 + peerLines.size() + 1, lines.size(), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldNameTheRankThatExitedZeroWhileItsPeersStillNeededIt(final String transport) {
        final Run r = quitting(transport, "exit0");

        assertEquals(1, r.status(), r.err());
        final List<String> lines = r.err().lines().toList();
        assertTrue(Pattern.matches("tutti run: rank 2 exited 0 while its peers still needed it: ranks? [0-3, ]+ failed "
            + "without it", lines.getLast()), r.err());
        final List<String> peerLines = lines.subList(0, lines.size() - 1);
        assertTrue(peerLines.size() <= 3, r.err());
        peerLines.forEach(l -> assertTrue(PEER_LINE.matcher(l).matches(), l));
    }

    /** Every pair of ranks talks over shared memory (one host, auto): no line names a tcp connection. */
    @Test
    void shouldNotNameTcpWhenEveryPairUsesSharedMemory() {
        final Run r = quitting(null, "exit0");

        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().lines().toList().getLast().startsWith("tutti run: rank 2 exited 0 while its peers still "
            + "needed it"), r.err());
        assertFalse(r.err().contains("tcp"), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldPrintNothingOnStderrForTheCorrectTwin(final String transport) {
        final Run r = quitting(transport, "none");

        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals("sum=6", r.out().strip());
    }

    /**
     * Every rank's checker reports the same mismatch: the launcher forwards the report once (then the summary line),
     * not once per rank; the correct twin prints nothing on stderr.
     */
    @Test
    void shouldPrintACheckedMismatchOnceAndNothingForTheCorrectTwin() {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "4", "--check"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), RootMismatchRank.class.getName()));
        a.add("match");
        final Run twin = ProcessJobTest.tutti(a.toArray(new String[0]));
        a.set(a.size() - 1, "mismatch");
        final Run mismatch = ProcessJobTest.tutti(a.toArray(new String[0]));

        assertEquals(1, mismatch.status(), mismatch.err());
        final List<String> reports = mismatch.err().lines().filter(l -> l.startsWith("Exception in thread")).toList();
        assertEquals(1, reports.size(), mismatch.err());
        assertTrue(reports.getFirst().contains("CollectiveMismatchException: collective mismatch on 'WORLD'"),
            mismatch.err());
        assertTrue(mismatch.err().lines().toList().getLast().startsWith("tutti run: rank "), mismatch.err());
        assertEquals(0, twin.status(), twin.err());
        assertEquals("", twin.err());
        assertEquals("got=0", twin.out().strip());
    }

    /** As java: without -cp the working directory is the class path; Tutti is added to it. */
    @Test
    void shouldRunAMainClassOfTheWorkingDirectoryWithoutClassPath(@TempDir final Path dir) throws Exception {
        compileSumRanks(dir);

        final Run r = cli(dir, "run", "-n", "2", "SumRanks");

        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals("sum=1", r.out().strip());
    }

    @Test
    void shouldRefuseInOneLineAMainClassTheWorkingDirectoryLacks(@TempDir final Path dir) throws Exception {
        final Run r = cli(dir, "run", "-n", "4", "SumRanks");

        assertEquals(127, r.status(), r.err());
        assertEquals(List.of("tutti run: cannot start SumRanks from the working directory " + dir.toRealPath()
            + " (no -cp given): class SumRanks not found"), r.err().lines().toList());
        assertEquals("", r.out());
    }

    private static void compileSumRanks(final Path dir) throws Exception {
        final Path src = Files.createDirectories(dir.resolve("src")).resolve("SumRanks.java");
        Files.writeString(src, SUM_RANKS);
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "no system Java compiler (the tests need a JDK)");
        final String tutti = Path.of(Tutti.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();
        assertEquals(0, javac.run(null, null, null, "-d", dir.toString(), "-cp", tutti, src.toString()));
    }

    /** Runs the command line in its own JVM, in {@code dir}, with no CLASSPATH and no launch variables. */
    private static Run cli(final Path dir, final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", System.getProperty("java.class.path"), TuttiCommand.class.getName()));
        cmd.addAll(List.of(args).subList(0, args.length - 1));
        cmd.addAll(List.of(ProcessJobTest.RANK_JVM));
        cmd.add(args[args.length - 1]);
        final ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().remove("CLASSPATH");
        pb.environment().keySet().removeIf(k -> k.startsWith("TUTTI_"));
        final Path out = Files.createTempFile("tutti-out", ".txt");
        final Path err = Files.createTempFile("tutti-err", ".txt");
        try {
            final long start = System.nanoTime();
            final Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(50, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("tutti run did not end");
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), (System.nanoTime() - start) / 1_000_000);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
