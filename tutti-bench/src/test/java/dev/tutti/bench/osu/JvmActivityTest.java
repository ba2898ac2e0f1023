package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link JvmActivity} against the real JVM: its compilers are seen working when new code gets hot. */
@Timeout(60)
class JvmActivityTest {
    /**
     * A method that no other test runs, called until the JIT has compiled it: the compiler threads' time grows (on
     * Linux from their {@code schedstat}, elsewhere the compilation's end stands for it).
     */
    @Test
    void shouldSeeTheCompilersWorkWhenNewCodeGetsHot() {
        final JvmActivity jvm = new JvmActivity();
        jvm.markCompilers();
        final long deadline = System.nanoTime() + 30_000_000_000L;
        long sink = 0;
        while (0 == jvm.compilerNsSinceMark() && System.nanoTime() - deadline < 0) {
            for (int i = 0; i < 100_000; i++) {
                sink += onlyHere(i, sink);
            }
        }
        assertTrue(jvm.compilerNsSinceMark() > 0, "the compilers ran for a method that got hot (sink " + sink + ")");
    }

    /** On Linux the compilers' time is read from their threads, and they have compiled something by now. */
    @Test
    void shouldReadTheCompilerThreadsTimesOnLinux() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux");
        assertTrue(new JvmActivity().compilerCpuNs() > 0, "C1 and C2 threads' time from their schedstat");
    }

    private static long onlyHere(final int i, final long acc) {
        return (acc ^ (i * 0x9E3779B97F4A7C15L)) >>> (i & 31);
    }
}
