package dev.tutti.bench.osu;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * Starts the ranks of a multi-process benchmark and waits for them: the one thing {@code --transport tcp} needs
 * from a launcher. {@link LauncherWorkerLauncher} (the job launcher of {@code tutti run}) is the implementation;
 * tests may supply another.
 */
@FunctionalInterface
public interface WorkerLauncher {

    /**
     * Starts {@code ranks} processes, each running {@code mainClass} with {@code args} in a job environment
     * ({@code TUTTI_RANK}, {@code TUTTI_SIZE}, rendezvous, secret) so that {@code Tutti.init()} joins the job, and
     * waits until all have exited. Their output goes to this process's output. If one fails, the others are
     * stopped.
     *
     * @param ranks     the number of ranks
     * @param mainClass the main class of each rank
     * @param args      its arguments
     * @param timeout   the longest the job may run, or {@link Duration#ZERO} for no limit
     * @return 0 if every rank exited with 0, else the exit code of the first rank that failed
     * @throws BenchmarkException if the job cannot be started or exceeded the timeout
     */
    int launch(int ranks, String mainClass, List<String> args, Duration timeout);

    /**
     * As {@link #launch(int, String, List, Duration)}, with the ranks' standard output going to {@code stdout}
     * (whole lines, as they come). This default ignores {@code stdout}: the output goes to this process's.
     *
     * @param ranks     the number of ranks
     * @param mainClass the main class of each rank
     * @param args      its arguments
     * @param timeout   the longest the job may run, or {@link Duration#ZERO} for no limit
     * @param stdout    where the ranks' standard output goes
     * @return 0 if every rank exited with 0, else the exit code of the first rank that failed
     * @throws BenchmarkException if the job cannot be started or exceeded the timeout
     */
    default int launch(final int ranks, final String mainClass, final List<String> args, final Duration timeout,
        final OutputStream stdout) {
        return launch(ranks, mainClass, args, timeout);
    }
}
