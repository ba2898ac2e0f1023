package dev.tutti.bench.osu;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Tells whether this JVM's own threads (JIT compilers, garbage collector, VM thread) were busy: the benchmark times
 * a size only once they are quiet.
 *
 * <p>Implementation note: the JVM's threads are hidden from {@code ThreadMXBean}'s thread list, so their CPU time
 * is the process's CPU time minus that of every listed (Java) thread; the JIT's total compilation time (ms) changes
 * when a compilation ends. On a host whose cores all run busy-polling ranks, a compiler or GC thread that shares a
 * rank's core stalls the rank for scheduler slices of 1-5 ms ({@code perf sched timehist} showed C1/C2 compiler
 * threads next to 9 in 10 stalls of over 2 ms in a 4-rank run on 2 cores). Not thread-safe: one per rank.
 */
final class JvmActivity {
    /** Background CPU up to this share (percent) of the wall time counts as quiet... */
    private static final int QUIET_PERCENT = 5;
    /** ...plus this much (ns), for the bookkeeping of the counters themselves. */
    private static final long QUIET_SLACK_NS = 200_000;
    /** Arrays that {@link #collectYoung} allocates: below G1's humongous size for any region size. */
    private static final int FILL_BYTES = 64 * 1024;
    /** Where {@link #collectYoung} stores each array, so that the compiler cannot drop the allocation. */
    private static volatile byte[] garbage;
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean jitTimed = null != jit && jit.isCompilationTimeMonitoringSupported();
    private final com.sun.management.OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(
        com.sun.management.OperatingSystemMXBean.class);
    private final com.sun.management.ThreadMXBean threads = ManagementFactory.getPlatformMXBean(
        com.sun.management.ThreadMXBean.class);
    private final boolean cpuTimed = null != os && null != threads && threads.isThreadCpuTimeSupported()
        && threads.isThreadCpuTimeEnabled();
    private long markNs;
    private long markCompileMs;
    private long markBackgroundNs;

    /** Starts an interval: {@link #quiet()} tells whether the JVM's own threads worked since. */
    void mark() {
        markNs = System.nanoTime();
        markCompileMs = compileMs();
        markBackgroundNs = backgroundCpuNs();
    }

    /**
     * Returns whether, since {@link #mark()}, no compilation ended and the JVM's own threads used at most
     * {@value #QUIET_PERCENT}% of the wall time.
     *
     * @return true if quiet
     */
    boolean quiet() {
        final long wallNs = System.nanoTime() - markNs;
        return compileMs() == markCompileMs
            && backgroundCpuNs() - markBackgroundNs <= wallNs * QUIET_PERCENT / 100 + QUIET_SLACK_NS;
    }

    /**
     * Sleeps in steps of {@code stepMs} until one step was quiet, at most {@code maxMs}: asleep, the ranks leave the
     * cores to the compiler and collector.
     *
     * @param stepMs the step
     * @param maxMs  the longest wait
     */
    void awaitQuiet(final long stepMs, final long maxMs) {
        final long deadline = System.nanoTime() + maxMs * 1_000_000L;
        try {
            do {
                mark();
                Thread.sleep(stepMs); // polls counters: the JVM offers nothing to wait on
                if (quiet()) {
                    return;
                }
            } while (System.nanoTime() - deadline < 0);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long compileMs() {
        return jitTimed ? jit.getTotalCompilationTime() : 0;
    }

    /**
     * Fills the young generation with short-lived arrays until a collection has run (at most {@code maxMs}), so
     * that a timed loop starts with it empty. Not {@link System#gc()}: that full collection shrinks the heap to a
     * few tens of MB (G1, measured: 384 MB to 28 MB) and uncommits the rest on a background thread, so that the
     * timed loop then ran with a small young generation whose pages fault in again. Filling also touches the young
     * generation's pages once, which a JVM that has run for a while has done.
     *
     * @param maxMs the longest time spent filling
     * @return whether a collection ran
     */
    boolean collectYoung(final long maxMs) {
        final long before = collections();
        final long deadline = System.nanoTime() + maxMs * 1_000_000L;
        while (collections() == before && System.nanoTime() - deadline < 0) {
            for (int i = 0; i < 256; i++) {
                garbage = new byte[FILL_BYTES];
            }
        }
        garbage = null; // also after a timeout: the last array is not kept alive
        return collections() != before;
    }

    private static long collections() {
        long n = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private long backgroundCpuNs() {
        if (!cpuTimed) {
            return 0;
        }
        long javaThreads = 0;
        for (final long t : threads.getThreadCpuTime(threads.getAllThreadIds())) {
            if (t > 0) {
                javaThreads += t;
            }
        }
        return os.getProcessCpuTime() - javaThreads;
    }
}
