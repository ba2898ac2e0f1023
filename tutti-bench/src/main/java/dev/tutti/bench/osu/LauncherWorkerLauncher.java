package dev.tutti.bench.osu;

import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;

import java.lang.management.ManagementFactory;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts benchmark ranks with {@code tutti-launcher} ({@link Launcher}): same java, class path and {@code -D}/{@code
 * -X} options as this JVM, every rank on this machine, output forwarded untagged (rank 0 prints the table).
 */
public final class LauncherWorkerLauncher implements WorkerLauncher {

    /** Creates the launcher adapter. */
    public LauncherWorkerLauncher() {
    }

    @Override
    public int launch(final int ranks, final String mainClass, final List<String> args, final Duration timeout) {
        return launch(ranks, mainClass, args, timeout, System.out);
    }

    @Override
    public int launch(final int ranks, final String mainClass, final List<String> args, final Duration timeout,
        final OutputStream stdout) {
        final Launcher.Builder b = Launcher.builder().ranks(ranks).oversubscribe(true).stdout(stdout)
            .jvmOptions(jvmOptionsToPass()).classpath(System.getProperty("java.class.path"))
            .mainClass(mainClass).args(args);
        if (!timeout.isZero()) {
            b.timeout(timeout);
        }
        final JobResult r = b.build().run();
        if (JobResult.Outcome.START_FAILED == r.outcome() || JobResult.Outcome.TIMED_OUT == r.outcome()) {
            throw new BenchmarkException("launch ranks=" + ranks + ": " + r.outcome() + ": " + r.description());
        }
        return r.exitStatus();
    }

    /**
     * Returns this JVM's {@code -D} and {@code -X} options (not debugger ones), so that the ranks run with the same
     * settings (e.g. {@code -Dtutti.idle.spins=...}).
     *
     * @return the options to pass to every rank
     */
    static List<String> jvmOptionsToPass() {
        final List<String> pass = new ArrayList<>();
        for (final String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-D") || (a.startsWith("-X") && !a.startsWith("-Xrunjdwp") && !a.startsWith("-Xdebug"))) {
                pass.add(a);
            }
        }
        return pass;
    }
}
