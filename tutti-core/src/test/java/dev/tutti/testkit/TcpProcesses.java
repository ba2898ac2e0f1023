package dev.tutti.testkit;

import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the ranks of a job as fresh JVM processes, each started with Tutti's launch variables and wired over tcp
 * through a real {@link RendezvousServer} on loopback (what {@code tutti run} does, without the launcher): for tests
 * of {@link Tutti#init()} and of what only a fresh JVM shows. Every process is destroyed and its output file deleted
 * at the end, whatever happened.
 */
public final class TcpProcesses {
    /** How one rank ended. */
    public record Rank(boolean ended, int exit, String output) {
    }

    private TcpProcesses() {
    }

    /**
     * Writes what a launcher gives a rank into a process's environment.
     *
     * @param env       the environment of the rank's process
     * @param rank      the rank
     * @param n         ranks
     * @param port      the rendezvous port on loopback
     * @param secret    the job secret
     * @param jobId     the job id
     * @param transport the transport setting
     */
    public static void launchEnvironment(final Map<String, String> env, final int rank, final int n, final int port,
        final String secret, final String jobId, final String transport) {
        env.put(LaunchInfo.RANK_ENV, Integer.toString(rank));
        env.put(LaunchInfo.SIZE_ENV, Integer.toString(n));
        env.put(LaunchInfo.RENDEZVOUS_ENV, "127.0.0.1:" + port);
        env.put(LaunchInfo.SECRET_ENV, secret);
        env.put(LaunchInfo.JOB_ID_ENV, jobId);
        env.put("TUTTI_TRANSPORT", transport);
    }

    /**
     * Starts {@code n} ranks of {@code main} and waits for them.
     *
     * @param n        ranks
     * @param jobId    the job id
     * @param jvmArgs  options for every rank's JVM (before {@code -cp})
     * @param main     the rank program
     * @param args     its arguments
     * @param waitSecs how long to wait for each rank
     * @return each rank's outcome, in rank order
     * @throws IOException          if a process or an output file cannot be made
     * @throws InterruptedException if interrupted (the test's timeout)
     */
    public static List<Rank> run(final int n, final String jobId, final List<String> jvmArgs, final Class<?> main,
        final List<String> args, final long waitSecs) throws IOException, InterruptedException {
        // tcp forced: on one host, auto would pick shm
        return run(n, jobId, jvmArgs, main, args, waitSecs, "tcp", (rank, env) -> { });
    }

    /**
     * Starts {@code n} ranks of {@code main} with a transport and more environment per rank, and waits for them.
     *
     * @param n         ranks
     * @param jobId     the job id
     * @param jvmArgs   options for every rank's JVM (before {@code -cp})
     * @param main      the rank program
     * @param args      its arguments
     * @param waitSecs  how long to wait for each rank
     * @param transport the transport setting
     * @param env       adds to a rank's environment, given its rank
     * @return each rank's outcome, in rank order
     * @throws IOException          if a process or an output file cannot be made
     * @throws InterruptedException if interrupted (the test's timeout)
     */
    public static List<Rank> run(final int n, final String jobId, final List<String> jvmArgs, final Class<?> main,
        final List<String> args, final long waitSecs, final String transport,
        final java.util.function.BiConsumer<Integer, Map<String, String>> env)
        throws IOException, InterruptedException {
        final String secret = HexFormat.of().formatHex(TcpJob.randomBytes(16));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process[] ranks = new Process[n];
        final Path[] outputs = new Path[n];
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", n, secret)) {
            for (int r = 0; r < n; r++) {
                outputs[r] = Files.createTempFile("tutti-" + jobId + "-rank" + r + "-", ".log");
                final List<String> cmd = new ArrayList<>(List.of(java));
                cmd.addAll(jvmArgs);
                cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
                cmd.addAll(args);
                final ProcessBuilder pb = new ProcessBuilder(cmd);
                launchEnvironment(pb.environment(), r, n, server.port(), secret, jobId, transport);
                env.accept(r, pb.environment());
                pb.redirectErrorStream(true).redirectOutput(outputs[r].toFile());
                ranks[r] = pb.start();
            }
            final List<Rank> outcomes = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                final boolean ended = ranks[r].waitFor(waitSecs, TimeUnit.SECONDS);
                outcomes.add(new Rank(ended, ended ? ranks[r].exitValue() : -1,
                    Files.readString(outputs[r], StandardCharsets.UTF_8)));
            }
            return outcomes;
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
}
