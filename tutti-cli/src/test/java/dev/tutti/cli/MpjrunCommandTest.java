package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.Launcher;
import dev.tutti.launcher.RendezvousService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code tutti mpjrun}'s command line: mpjrun.sh's flags taken, the others refused by name, before any rank starts. */
@Timeout(30)
class MpjrunCommandTest {
    /** What a command printed on stderr and its exit status. */
    private record Outcome(int status, String err) {
    }

    private static Outcome execute(final String... args) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final CommandLine cl = TuttiCommand.newCommandLine(new RunCommand(),
            new MpjrunCommand(RendezvousService.tutti(), System.out, errStream));
        cl.setErr(new java.io.PrintWriter(errStream, true));
        final int status = cl.execute(args);
        return new Outcome(status, err.toString(StandardCharsets.UTF_8));
    }

    private static MpjrunCommand parse(final String... args) {
        final MpjrunCommand c = new MpjrunCommand();
        final CommandLine cl = new CommandLine(c);
        cl.setStopAtPositional(true);
        cl.parseArgs(args);
        return c;
    }

    @Test
    void shouldRefuseAnUnsupportedFlagByName() {
        final Outcome o = execute("mpjrun", "-np", "2", "-dport", "40055", "-cp", ".", "Main");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().startsWith("tutti mpjrun: -dport is not supported"), o.err());
    }

    @Test
    void shouldRefuseTheNativeDeviceNamingIt() {
        final Outcome o = execute("mpjrun", "-np", "2", "-dev", "native", "-cp", ".", "Main");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("-dev native is not supported, expected multicore"), o.err());
    }

    @Test
    void shouldRefuseJvmOptionsAndMachinesForMulticore() {
        final Outcome x = execute("mpjrun", "-np", "2", "-Xmx2g", "-cp", ".", "Main");
        assertEquals(2, x.status(), x.err());
        assertTrue(x.err().contains("-Xmx2g with -dev multicore"), x.err());
        final Outcome m = execute("mpjrun", "-np", "2", "-machinesfile", "machines", "-cp", ".", "Main");
        assertTrue(m.err().contains("-machinesfile machines with -dev multicore"), m.err());
    }

    @Test
    void shouldRefuseBadNumbersAndAMissingProgram() {
        assertTrue(execute("mpjrun", "-np", "0", "Main").err().contains("-np 0, expected a number of ranks >= 1"));
        assertTrue(execute("mpjrun", "-np", "2", "-psl", "-1", "Main").err().contains("-psl -1, expected"));
        assertTrue(execute("mpjrun", "-np", "2").err().contains("no program given"));
    }

    @Test
    void shouldRefuseAClassPathWithoutTuttiMpj(@TempDir final Path dir) {
        final Outcome o = execute("mpjrun", "-np", "2", "-cp", dir.toString(), "HelloWorld");
        assertEquals(127, o.status(), o.err());
        assertTrue(o.err().contains("no tutti-mpj (MPJ Express's API) on the class path " + dir), o.err());
    }

    @Test
    void shouldLeaveEveryWordAfterTheMainClassToTheProgram() {
        final MpjrunCommand c = parse("-np", "3", "-dev", "niodev", "-cp", "a:b", "Main", "-np", "5", "-dev", "x");
        assertEquals(List.of("Main", "-np", "5", "-dev", "x"), c.program());
    }

    @Test
    void shouldMapTheMachinesFileOntoHostsAndJvmOptionsOntoTheRanks(@TempDir final Path dir) throws IOException {
        final Path machines = Files.writeString(dir.resolve("machines"), "localhost\n# a comment\n127.0.0.1\n");
        final Launcher l = parse("-np", "4", "-dev", "hybdev", "-machinesfile", machines.toString(), "-Xmx64m",
            "-Dk=v", "-psl", "4096", "-wdir", dir.toString(), "-cp", "x", "Main", "a").launcher();
        assertEquals(List.of("localhost", "127.0.0.1", "localhost", "127.0.0.1"), l.placement().hosts());
        final String command = String.join(" ", l.javaCommandLine());
        assertTrue(command.contains("-Dk=v") && command.contains("-Xmx64m")
            && command.contains("-Dtutti.eager.limit=4096"), command);
    }
}
