package dev.tutti.bench.mpj;

import dev.tutti.Tutti;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The portable benchmark as threads of this JVM (it runs, checks its data, prints one line per op and size), its
 * arguments, that it stays within what MPJ Express's {@code mpj.jar} offers (MPJ Express's API and Java 8), and that
 * {@code bench/mpj-express.sh} refuses to run without an MPJ Express installation.
 */
class MpjPortableBenchTest {
    private static final Pattern LINE = Pattern.compile("mpjbench (pingpong|allreduce) (\\d+) (\\d+\\.\\d{3})");
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path SOURCE =
        ROOT.resolve("tutti-bench-mpj/src/main/java/dev/tutti/bench/mpj/MpjPortableBench.java");
    private static final Path SCRIPT = ROOT.resolve("bench/mpj-express.sh");

    @Test
    @Timeout(120)
    void shouldPrintOneLinePerOpAndSize() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)),
                world -> MpjPortableBench.main(new String[] {"--blocks", "2", "--calls", "20", "--warmup", "5",
                    "-m", "8:16384"}));
        } finally {
            System.setOut(out);
        }
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines()
            .filter(l -> l.startsWith(MpjPortableBench.PREFIX)).toList();
        final int[] sizes = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
        assertEquals(2 * sizes.length, lines.size(), bytes.toString(StandardCharsets.UTF_8));
        int row = 0;
        for (final String op : new String[] {"pingpong", "allreduce"}) {
            for (final int size : sizes) {
                final Matcher m = LINE.matcher(lines.get(row++));
                assertTrue(m.matches(), lines.get(row - 1));
                assertEquals(op, m.group(1));
                assertEquals(size, Integer.parseInt(m.group(2)));
                assertTrue(Double.parseDouble(m.group(3)) > 0, lines.get(row - 1));
            }
        }
    }

    @Test
    void shouldParseItsArguments() {
        final MpjPortableBench.Config quick =
            MpjPortableBench.Config.parse(new String[] {"--quick", "-m", "8:64"});
        assertEquals(3, quick.blocks);
        assertEquals(50, quick.calls);
        assertEquals(false, quick.discard);
        assertArrayEquals(new int[] {8, 16, 32, 64}, quick.sizes);
        final MpjPortableBench.Config full = MpjPortableBench.Config.parse(new String[0]);
        assertEquals(18, full.sizes.length); // 8 B .. 1 MiB
        assertTrue(full.discard);
        assertEquals(full.calls, full.callsAt(8192));
        assertEquals(full.calls / 2, full.callsAt(16384));
        assertEquals(MpjPortableBench.MIN_CALLS, full.callsAt(1 << 20));
        assertArrayEquals(new int[] {4, 8}, MpjPortableBench.Config.powersOfTwo(3, 8));
        assertThrows(IllegalArgumentException.class, () -> MpjPortableBench.Config.parse(new String[] {"--calls"}));
        assertThrows(IllegalArgumentException.class, () -> MpjPortableBench.Config.parse(new String[] {"-m", "8"}));
        assertThrows(IllegalArgumentException.class, () -> MpjPortableBench.Config.parse(new String[] {"--nope"}));
        assertEquals(2.5, MpjPortableBench.median(new double[] {4, 1, 2, 3}));
        assertEquals(3, MpjPortableBench.median(new double[] {9, 3, 1}));
    }

    /** The script compiles the program against MPJ Express's mpj.jar as Java 8: nothing of Tutti's, no newer Java. */
    @Test
    void shouldUseOnlyMpjExpresssApiAndJava8() throws Exception {
        for (final String line : Files.readAllLines(SOURCE)) {
            if (line.startsWith("import ")) {
                assertTrue(line.startsWith("import mpi.") || line.startsWith("import java."), line);
            }
        }
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final Path tuttiMpj = Path.of(MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path out = Files.createTempDirectory("mpj-portable");
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final int status = javac.run(null, errors, errors, "--release", "8", "-Xlint:-options", "-cp",
            tuttiMpj.toString(), "-d", out.toString(), SOURCE.toString());
        assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(60)
    void shouldRefuseToRunWithoutAnMpjExpressInstallation(@TempDir final Path empty) throws Exception {
        final String unset = script(null);
        assertTrue(unset.startsWith("2\n") && unset.contains("MPJ_HOME is not set"), unset);
        final String noJar = script(empty.toString());
        assertTrue(noJar.startsWith("2\n") && noJar.contains("has no lib/mpj.jar"), noJar);
    }

    /** @return the script's exit status, a newline and its output, run with MPJ_HOME as given (null: unset) */
    private static String script(final String mpjHome) throws Exception {
        final ProcessBuilder pb = new ProcessBuilder("sh", SCRIPT.toString()).redirectErrorStream(true);
        pb.environment().remove("MPJ_HOME");
        if (null != mpjHome) {
            pb.environment().put("MPJ_HOME", mpjHome);
        }
        final Process p = pb.start();
        final String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bench/mpj-express.sh did not end: " + text);
        return p.exitValue() + "\n" + text;
    }
}
