package dev.tutti.runtime;

import dev.tutti.internal.Settings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
class CpuBindingTest {

    /** On a thread of its own (a bound thread stays bound): a CPU of this process, or -1 where binding is off. */
    @Test
    void shouldBindAThreadToOneOfTheProcessCpusOrSayItDidNot() throws InterruptedException {
        final AtomicInteger cpu = new AtomicInteger(-2);
        final Thread t = Thread.ofPlatform().start(() -> cpu.set(CpuBinding.bind(1)));
        t.join(10_000);
        final int got = cpu.get();
        assertTrue(-1 == got || (got >= 0 && got < 1024), "bind returned " + got);
        if (!CpuBinding.class.getModule().isNativeAccessEnabled()) {
            assertEquals(-1, got, "without native access nothing is bound");
        }
    }

    /**
     * In a JVM of its own with native access, as a launched rank has: once its thread is bound to one CPU (where
     * {@link Runtime#availableProcessors()} then answers 1), the host still counts the CPUs from before, so a rank
     * with a core of its own is not taken for one of an oversubscribed host (which gave 2 ranks on 2 cores the
     * slot limit and waits of 4 ranks on 2).
     */
    @Test
    @Tag("process")
    @Timeout(60)
    void shouldCountTheCpusFromBeforeBindingOnTheBoundThread() throws Exception {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"), BoundRank.class.getName()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(50, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        final String[] f = out.substring(out.lastIndexOf('\n') + 1).split(" ");
        assertEquals(5, f.length, out);
        final int before = Integer.parseInt(f[0]);
        assertEquals(Runtime.getRuntime().availableProcessors(), before, out);
        assertTrue(Integer.parseInt(f[1]) >= -1, out); // the CPU bound to, -1 where the system refused
        assertEquals(before, Integer.parseInt(f[3]), "unboundCpus: " + out);
        assertEquals("false", f[4], "oversubscribed(CPUs) on the bound thread: " + out);
    }

    /** The child of the test above: before, bound CPU, after, unbound CPUs, oversubscribed(before) on one line. */
    public static final class BoundRank {
        private BoundRank() {
        }

        /** @param args none */
        public static void main(final String[] args) {
            final int before = Runtime.getRuntime().availableProcessors();
            final int cpu = CpuBinding.bind(0);
            System.out.println(before + " " + cpu + " " + Runtime.getRuntime().availableProcessors() + " "
                + CpuBinding.unboundCpus() + " " + Configuration.oversubscribed(before));
        }
    }

    @Test
    void shouldReadTheBindSetting() {
        final String old = System.getProperty(Settings.BIND.name());
        try {
            System.setProperty(Settings.BIND.name(), "none");
            assertEquals(false, Configuration.bindToCore());
            System.setProperty(Settings.BIND.name(), " Core ");
            assertEquals(true, Configuration.bindToCore());
            System.setProperty(Settings.BIND.name(), "socket");
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                Configuration::bindToCore);
            assertTrue(e.getMessage().contains("tutti.bind=socket") && e.getMessage().contains("core or none"),
                e.getMessage());
        } finally {
            if (null == old) {
                System.clearProperty(Settings.BIND.name());
            } else {
                System.setProperty(Settings.BIND.name(), old);
            }
        }
    }
}
