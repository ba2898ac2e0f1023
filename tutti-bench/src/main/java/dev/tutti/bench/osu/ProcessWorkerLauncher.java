package dev.tutti.bench.osu;

import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal launcher for benchmark ranks on this machine (the stand-in until {@code tutti-launcher} is ready):
 * starts a rendezvous on the loopback interface, then one JVM per rank with this JVM's {@code java}, class path
 * and {@code -D}/{@code -X} options, with the launch environment of {@link LaunchInfo}. The ranks' output goes
 * straight to this process's output.
 *
 * <p>Implementation notes. Exits are observed through {@link Process#onExit()} callbacks that feed one queue;
 * the launching thread takes from it, so there is no polling. The first non-zero exit stops the remaining
 * ranks (destroy, then destroy forcibly after {@link #GRACE}), as does the timeout.
 */
public final class ProcessWorkerLauncher implements WorkerLauncher {
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final int SECRET_BYTES = 32;

    private final String javaExecutable;
    private final String classPath;
    private final List<String> jvmArgs;

    /**
     * Creates a launcher.
     *
     * @param javaExecutable the {@code java} to run
     * @param classPath      the class path of the ranks
     * @param jvmArgs        extra JVM options, before the main class
     */
    public ProcessWorkerLauncher(final String javaExecutable, final String classPath, final List<String> jvmArgs) {
        this.javaExecutable = javaExecutable;
        this.classPath = classPath;
        this.jvmArgs = List.copyOf(jvmArgs);
    }

    /**
     * Returns a launcher whose ranks run like this JVM: same {@code java}, class path, and the {@code -D} and
     * {@code -X} options it was started with (agents and debug options are not passed on).
     *
     * @return the launcher
     */
    public static ProcessWorkerLauncher forThisJvm() {
        final String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return new ProcessWorkerLauncher(java, System.getProperty("java.class.path"), jvmOptionsToPass());
    }

    /**
     * Returns the options of this JVM that ranks should share: {@code -D} properties (Tutti's settings among
     * them) and {@code -X} options (heap size), but not debugger or agent options, which would clash.
     *
     * @return the options, in the order this JVM got them
     */
    public static List<String> jvmOptionsToPass() {
        final List<String> pass = new ArrayList<>();
        for (final String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-D") || (a.startsWith("-X") && !a.startsWith("-Xrunjdwp") && !a.startsWith("-Xdebug"))) {
                pass.add(a);
            }
        }
        return pass;
    }

    @Override
    public int launch(final int ranks, final String mainClass, final List<String> args, final Duration timeout) {
        final byte[] secretBytes = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secretBytes);
        final String secret = HexFormat.of().formatHex(secretBytes);
        final String jobId = "bench-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
        try (RendezvousServer rendezvous = startRendezvous(ranks, secret)) {
            final String address = "127.0.0.1:" + rendezvous.port();
            final List<ProcessBuilder> builders = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                final ProcessBuilder pb = new ProcessBuilder(command(mainClass, args)).inheritIO();
                final Map<String, String> env = pb.environment();
                env.put(LaunchInfo.RANK_ENV, Integer.toString(r));
                env.put(LaunchInfo.SIZE_ENV, Integer.toString(ranks));
                env.put(LaunchInfo.RENDEZVOUS_ENV, address);
                env.put(LaunchInfo.SECRET_ENV, secret);
                env.put(LaunchInfo.JOB_ID_ENV, jobId);
                builders.add(pb);
            }
            return runAll(builders, timeout);
        }
    }

    private static RendezvousServer startRendezvous(final int ranks, final String secret) {
        try {
            return RendezvousServer.start("127.0.0.1", ranks, secret);
        } catch (final UnsupportedOperationException e) {
            throw new BenchmarkException("launch ranks=" + ranks + " over tcp: the rendezvous is not available in "
                + "this build of tutti-core (" + e.getMessage() + ")", e);
        }
    }

    private List<String> command(final String mainClass, final List<String> args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable);
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Starts every process and waits for all of them; the first non-zero exit stops the others.
     *
     * @param builders one per rank
     * @param timeout  the longest the job may run, or zero for no limit
     * @return 0, or the first non-zero exit code
     * @throws BenchmarkException if a process cannot be started or the timeout elapses
     */
    static int runAll(final List<ProcessBuilder> builders, final Duration timeout) {
        final List<Process> started = new ArrayList<>();
        final BlockingQueue<Process> exited = new LinkedBlockingQueue<>();
        try {
            for (final ProcessBuilder pb : builders) {
                final Process p = pb.start();
                started.add(p);
                p.onExit().thenAccept(exited::add);
            }
        } catch (final IOException e) {
            stop(started);
            throw new BenchmarkException("launch: cannot start rank " + started.size() + " (" + builders
                .get(started.size()).command().getFirst() + "): " + e.getMessage(), e);
        }
        final long deadline = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        try {
            for (int done = 0; done < started.size(); done++) {
                final Process p = exited.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (null == p) {
                    stop(started);
                    throw new BenchmarkException("launch: job of ranks=" + started.size() + " exceeded timeout="
                        + timeout + "; the ranks were stopped");
                }
                if (0 != p.exitValue()) {
                    stop(started);
                    return p.exitValue();
                }
            }
            return 0;
        } catch (final InterruptedException e) {
            stop(started);
            Thread.currentThread().interrupt();
            throw new BenchmarkException("launch: interrupted while waiting for the ranks; they were stopped", e);
        }
    }

    private static void stop(final List<Process> processes) {
        for (final Process p : processes) {
            p.destroy();
        }
        for (final Process p : processes) {
            try {
                if (!p.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                }
            } catch (final InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "ProcessWorkerLauncher[java=" + javaExecutable + ", classPath entries="
            + classPath.split(File.pathSeparator).length + ", jvmArgs=" + jvmArgs + "]";
    }
}
