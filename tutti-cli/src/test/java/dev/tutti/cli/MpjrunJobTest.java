package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.RendezvousService;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code tutti mpjrun} runs the classic MPJ programs of {@code tutti-mpj/src/test/java} unchanged, with tutti-mpj's
 * classes and those programs on {@code -cp} (both outside this module's class path, so that each multicore rank
 * loads them itself): as threads ({@code -dev multicore}) and as processes ({@code -dev niodev}); a rank that fails
 * makes the job exit non-zero.
 */
@Timeout(120)
@Isolated("multicore ranks print to this JVM's System.out")
class MpjrunJobTest {
    /** tutti-mpj's classes and its classic programs, built by the reactor before this module's tests. */
    static final String CLASSPATH = classpath();

    private static String classpath() {
        final Path classes = UserDocs.ROOT.resolve("tutti-mpj/target/classes");
        final Path programs = UserDocs.ROOT.resolve("tutti-mpj/target/test-classes");
        assertTrue(Files.isDirectory(classes) && Files.isRegularFile(programs.resolve("StaticRank.class")),
            "build tutti-mpj first (mvn -pl tutti-mpj,tutti-cli -am ...): no " + programs.resolve("StaticRank.class"));
        return classes + File.pathSeparator + programs;
    }

    /** What a job printed and its exit status. */
    record Outcome(int status, String out, String err) {
    }

    static Outcome mpjrun(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final PrintStream systemOut = System.out;
        final List<String> all = new ArrayList<>(List.of("mpjrun"));
        all.addAll(List.of(args));
        System.setOut(outStream); // multicore ranks print to this JVM's System.out
        try {
            final int status = TuttiCommand.newCommandLine(new RunCommand(),
                new MpjrunCommand(RendezvousService.tutti(), outStream, errStream)).execute(all.toArray(new String[0]));
            return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(systemOut);
        }
    }

    @Test
    void shouldGiveEachMulticoreRankItsOwnStaticFields() {
        final Outcome o = mpjrun("-np", "4", "-cp", CLASSPATH, "StaticRank");
        assertEquals(0, o.status(), o.err());
        for (int r = 0; r < 4; r++) {
            assertTrue(o.out().contains("static rank " + r + " of 4"), o.out());
        }
    }

    @Test
    void shouldRunHelloWorldAsThreads() {
        final Outcome o = mpjrun("-np", "3", "-dev", "multicore", "-cp", CLASSPATH, "HelloWorld");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("Hi from <2> of 3"), o.out());
    }

    @Test
    void shouldExitNonZeroWhenAMulticoreRankFails() {
        final Outcome o = mpjrun("-np", "3", "-cp", CLASSPATH, "FailAt", "1");
        assertEquals(1, o.status(), o.err());
        assertTrue(o.err().contains("tutti mpjrun: rank 1 failed: java.lang.IllegalStateException: rank 1 fails"),
            o.err());
    }

    @Test
    @Tag("process")
    void shouldRunHelloWorldAsProcesses() {
        final Outcome o = mpjrun("-np", "3", "-dev", "niodev", "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", CLASSPATH,
            "HelloWorld");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("Hi from <0> of 3") && o.out().contains("Hi from <2> of 3"), o.out());
    }

    @Test
    @Tag("process")
    void shouldExitNonZeroWhenARankProcessFails() {
        final Outcome o = mpjrun("-np", "2", "-dev", "hybdev", "-Xmx128m", "-cp", CLASSPATH, "FailAt", "1");
        assertEquals(1, o.status(), o.err());
        assertTrue(o.err().contains("tutti mpjrun: rank 1 failed (exit 1): java.lang.IllegalStateException: rank 1 "
            + "fails"), o.err());
    }
}
