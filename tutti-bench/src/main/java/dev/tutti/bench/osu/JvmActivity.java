package dev.tutti.bench.osu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Tells whether this JVM's own threads (JIT compilers, garbage collector, VM thread) were busy: the benchmark times
 * a size only once they are quiet.
 *
 * <p>Implementation note: the JVM's threads are hidden from {@code ThreadMXBean}'s thread list, so their CPU time
 * is the process's CPU time minus that of every listed (Java) thread; the JIT's total compilation time (ms) changes
 * when a compilation ends. On a host whose cores all run busy-polling ranks, a compiler or GC thread that shares a
 * rank's core stalls the rank for whole scheduler slices of milliseconds ({@code perf sched timehist} shows C1/C2
 * compiler threads beside most long stalls of a 4-rank run on 2 cores). The compiler threads' own CPU time
 * ({@link #compilerNsSinceMark}) comes from Linux's per-thread {@code schedstat} (nanoseconds, unlike the clock
 * ticks of {@code stat}), found by the threads' names; elsewhere a compilation that ended stands for it. Not
 * thread-safe: one per rank.
 */
class JvmActivity {
    /** Background CPU up to this share (percent) of the wall time counts as quiet... */
    private static final int QUIET_PERCENT = 5;
    /** ...plus this much (ns), for the bookkeeping of the counters themselves. */
    private static final long QUIET_SLACK_NS = 200_000;
    /** Arrays that {@link #collectYoung} allocates: below G1's humongous size for any region size. */
    private static final int FILL_BYTES = 64 * 1024;
    /** Where {@link #compilerCpuNs} finds the JVM's threads. */
    private static final Path TASKS = Path.of("/proc/self/task");
    /** What {@link #compilerNsSinceMark} reports for a compilation that ended where thread times cannot be read. */
    static final long COMPILATION_ENDED_NS = 1_000_000;
    /** Looks at the compiler threads {@link #compileCompilerWatch} takes: past HotSpot's top-tier threshold (5,000). */
    private static final int WATCH_WARMUP_LOOKS = 6_000;
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
    private long markCompilersMs;
    private long markCompilersNs;
    /** Whether each thread (by id) seen in {@link #TASKS} is a compiler thread. */
    private final Map<String, Boolean> compilerTasks = new HashMap<>();

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

    /**
     * Runs the look at the compiler threads {@value #WATCH_WARMUP_LOOKS} times, so that its own code (a directory
     * listing, file reads, a stream) has been compiled before the first loop it watches; else the compilers work on
     * it during the loops and make them run again, and the rehearsals, which wait for quiet, take seconds longer.
     */
    void compileCompilerWatch() {
        for (int i = 0; i < WATCH_WARMUP_LOOKS; i++) {
            markCompilers();
        }
    }

    /** Starts watching the JIT compiler threads: {@link #compilerNsSinceMark} tells how much they ran since. */
    void markCompilers() {
        markCompilersMs = compileMs();
        markCompilersNs = compilerCpuNs();
    }

    /**
     * Returns the CPU time of the JIT compiler threads since {@link #markCompilers()}: what a compilation took from
     * the cores the ranks run on. Where the threads' times cannot be read, {@value #COMPILATION_ENDED_NS} ns if a
     * compilation ended meanwhile, else 0.
     *
     * @return nanoseconds
     */
    long compilerNsSinceMark() {
        final long now = compilerCpuNs();
        if (now >= 0 && markCompilersNs >= 0) {
            return Math.max(0, now - markCompilersNs);
        }
        return compileMs() != markCompilersMs ? COMPILATION_ENDED_NS : 0;
    }

    /**
     * @return the CPU time (ns) of this JVM's C1 and C2 compiler threads so far, or -1 where it cannot be read (not
     *         Linux); a compiler thread that exits takes its time with it, which only makes a difference smaller
     */
    long compilerCpuNs() {
        try (Stream<Path> tasks = Files.list(TASKS)) {
            return tasks.mapToLong(this::compilerThreadNs).sum();
        } catch (final IOException | UncheckedIOException | SecurityException e) {
            return -1;
        }
    }

    /**
     * @return the CPU time (ns) of one thread of this JVM if it is a JIT compiler thread, else (or gone) 0; each
     *         thread's name is read once ({@code compilerTasks}), so that a look costs a listing and a read per
     *         compiler thread, and little code that could itself need compiling
     */
    private long compilerThreadNs(final Path task) {
        try {
            final String tid = task.getFileName().toString();
            Boolean compiler = compilerTasks.get(tid);
            if (null == compiler) {
                final String name = Files.readString(task.resolve("comm"));
                compiler = name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler");
                compilerTasks.put(tid, compiler);
            }
            if (!compiler) {
                return 0;
            }
            final String stat = Files.readString(task.resolve("schedstat"));
            return Long.parseLong(stat.substring(0, stat.indexOf(' ')));
        } catch (final IOException | NumberFormatException | StringIndexOutOfBoundsException e) {
            return 0; // the thread exited between the listing and the read
        }
    }

    long compileMs() {
        return jitTimed ? jit.getTotalCompilationTime() : 0;
    }

    /**
     * Fills the young generation with short-lived arrays until a collection has run (at most {@code maxMs}), so
     * that a timed loop starts with it empty. Not {@link System#gc()}: that full collection shrinks the heap to a
     * few tens of MB (G1) and uncommits the rest on a background thread, so that the timed loop would run with a
     * small young generation whose pages fault in again. Filling also touches the young
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
