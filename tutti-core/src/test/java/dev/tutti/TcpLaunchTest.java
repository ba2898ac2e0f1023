package dev.tutti;

import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Tutti#init()} end to end: ranks as real processes, wired over tcp through a rendezvous. */
@Tag("process")
@Timeout(90)
class TcpLaunchTest {

    @Test
    void shouldRunAJobOfProcessesThroughInit() throws Exception {
        final int n = 3;
        final String secret = HexFormat.of().formatHex(TcpJob.randomBytes(16));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process[] ranks = new Process[n];
        final Path[] outputs = new Path[n];
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", n, secret)) {
            for (int r = 0; r < n; r++) {
                outputs[r] = Files.createTempFile("tutti-rank" + r + "-", ".log");
                final ProcessBuilder pb = new ProcessBuilder(List.of(java, "-cp",
                    System.getProperty("java.class.path"), TcpInitMain.class.getName()));
                final Map<String, String> env = pb.environment();
                env.put(LaunchInfo.RANK_ENV, Integer.toString(r));
                env.put(LaunchInfo.SIZE_ENV, Integer.toString(n));
                env.put(LaunchInfo.RENDEZVOUS_ENV, "127.0.0.1:" + server.port());
                env.put(LaunchInfo.SECRET_ENV, secret);
                env.put(LaunchInfo.JOB_ID_ENV, "launch-test");
                env.put("TUTTI_TRANSPORT", "tcp"); // same host: auto would pick shm
                pb.redirectErrorStream(true).redirectOutput(outputs[r].toFile());
                ranks[r] = pb.start();
            }
            for (int r = 0; r < n; r++) {
                final boolean ended = ranks[r].waitFor(60, TimeUnit.SECONDS);
                final String out = read(outputs[r]);
                assertTrue(ended, "rank " + r + " did not finish: " + out);
                assertEquals(0, ranks[r].exitValue(), "rank " + r + " failed: " + out);
                assertTrue(out.contains("rank " + r + " of " + n + " ok"), out);
            }
        } finally {
            for (int r = 0; r < n; r++) {
                if (null != ranks[r]) {
                    ranks[r].destroyForcibly();
                }
                if (null != outputs[r]) {
                    Files.deleteIfExists(outputs[r]);
                }
            }
        }
    }

    private static String read(final Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8) + " (classpath entries: "
            + System.getProperty("java.class.path").split(File.pathSeparator).length + ")";
    }
}
