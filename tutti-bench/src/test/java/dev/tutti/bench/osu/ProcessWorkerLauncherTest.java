package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The process supervision of the built-in launcher, with tiny JVMs that exit with a given code or hang. */
@Timeout(60)
class ProcessWorkerLauncherTest {

    /** A rank stand-in: exits with the code given as its argument, or never exits for {@code hang}. */
    public static final class Exit {
        private Exit() {
        }

        /**
         * Entry point.
         *
         * @param args the exit code, or {@code hang}
         * @throws InterruptedException never in practice
         */
        public static void main(final String[] args) throws InterruptedException {
            if ("hang".equals(args[0])) {
                new CountDownLatch(1).await();
            }
            System.exit(Integer.parseInt(args[0]));
        }
    }

    private static List<ProcessBuilder> ranks(final String... behaviours) {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<ProcessBuilder> out = new ArrayList<>();
        for (final String b : behaviours) {
            out.add(new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Exit.class.getName(), b).inheritIO());
        }
        return out;
    }

    @Test
    void shouldReturnZeroWhenEveryRankSucceeds() {
        assertEquals(0, ProcessWorkerLauncher.runAll(ranks("0", "0"), Duration.ZERO));
    }

    @Test
    void shouldReturnFirstFailureAndStopTheOthers() {
        assertEquals(3, ProcessWorkerLauncher.runAll(ranks("hang", "3"), Duration.ofSeconds(50)));
    }

    @Test
    void shouldStopEveryRankOnTimeout() {
        final BenchmarkException e = assertThrows(BenchmarkException.class,
            () -> ProcessWorkerLauncher.runAll(ranks("hang", "hang"), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("exceeded timeout=PT2S"), e.getMessage());
    }

    @Test
    void shouldExplainWhenTheRendezvousIsMissing() {
        final ProcessWorkerLauncher l = ProcessWorkerLauncher.forThisJvm();
        try {
            assertEquals(0, l.launch(1, Exit.class.getName(), List.of("0"), Duration.ofSeconds(20)));
        } catch (final BenchmarkException e) {
            assertTrue(e.getMessage().contains("rendezvous is not available"), e.getMessage());
        }
    }
}
