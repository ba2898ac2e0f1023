package dev.tutti.launcher;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of a {@link Launcher}: starts the ranks, waits for their exits, and stops them all on the first failure,
 * on timeout, on interruption or at JVM shutdown.
 *
 * <p>Implementation notes. The launcher's thread (the supervisor) starts the ranks and then consumes
 * {@link RankProcess.Exit}s from one queue, posted by each rank's waiter thread after the rank's output has been
 * drained; so when the supervisor sees a failed exit, the exception line the rank printed has been captured. Stopping
 * is {@link #stop()}, {@code synchronized} so that the supervisor and the shutdown hook never interleave, and
 * idempotent: it sets {@link #stopping} (volatile; read by the supervisor to tell a consequence of stopping from a
 * failure), sends SIGTERM to every live rank, waits up to the grace period, sends SIGKILL to the rest and waits
 * for them. Ranks are started under the same lock, so the hook never misses a rank that is being started.
 * After stopping, the supervisor collects the remaining exits with a bound, so {@link #run()} always returns
 * within grace + {@link RankProcess#DRAIN_MS} + {@link #KILL_WAIT_MS} of deciding to stop.
 */
final class Job {
    /** Longest wait for a killed process to be reaped. */
    static final long KILL_WAIT_MS = 2_000;
    /** How long after a first failure the job waits for the failures it causes, to blame the right rank. */
    static final long ATTRIBUTION_MS = 500;
    /** A Tutti exception that only reports that another rank failed or left. */
    private static final java.util.regex.Pattern CONSEQUENCE = java.util.regex.Pattern.compile(
        "TuttiException: .*?\\brank (\\d+) (?:failed|has left the job)");

    private final Launcher launcher;
    private final String rendezvous;
    private final String secret;
    private final String jobId;
    private final RankProcess[] ranks;
    private final boolean[] exited;
    private final BlockingQueue<RankProcess.Exit> exits = new LinkedBlockingQueue<>();
    private volatile boolean stopping;

    Job(final Launcher launcher, final String rendezvous, final String secret, final String jobId) {
        this.launcher = launcher;
        this.rendezvous = rendezvous;
        this.secret = secret;
        this.jobId = jobId;
        this.ranks = new RankProcess[launcher.ranks()];
        this.exited = new boolean[launcher.ranks()];
    }

    JobResult run() {
        final Thread hook = launcher.stopOnShutdown()
            ? Thread.ofPlatform().name("tutti-launcher-shutdown").unstarted(this::stop) : null;
        if (null != hook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return supervise();
        } finally {
            stop();
            removeShmFile();
            if (null != hook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (final IllegalStateException e) {
                    // The JVM is already shutting down and the hook is running or has run; nothing to remove.
                }
            }
        }
    }

    /*
     * Deletes the job's shared-memory file on this host (Configuration.shmFile), which the last rank deletes itself
     * when the job ends normally but which a crashed or killed rank leaves behind. Every rank has stopped by now.
     * Files on remote hosts are removed by the next job that starts there (stale-file detection in the transport).
     */
    private void removeShmFile() {
        final java.nio.file.Path file = dev.tutti.runtime.Configuration.shmFile(jobId, secret);
        try {
            java.nio.file.Files.deleteIfExists(file);
        } catch (final IOException e) {
            System.getLogger(Job.class.getName()).log(System.Logger.Level.WARNING,
                "cannot delete the job''s shared-memory file {0}: {1}", file, e);
        }
    }

    private JobResult supervise() {
        int started = 0;
        for (int r = 0; r < ranks.length; r++) {
            final String failure = start(r);
            if (null != failure) {
                final boolean shuttingDown = stopping;
                stop();
                collectExits(started);
                return shuttingDown
                    ? new JobResult(JobResult.INTERRUPTED_STATUS, JobResult.Outcome.INTERRUPTED, -1, failure)
                    : new JobResult(JobResult.START_FAILED_STATUS, JobResult.Outcome.START_FAILED, r, failure);
            }
            started++;
        }
        final long timeoutNs = null == launcher.timeout() ? 0 : launcher.timeout().toNanos();
        final long deadline = System.nanoTime() + timeoutNs;
        int done = 0;
        RankProcess.Exit failed = null;
        boolean timedOut = false;
        try {
            while (done < started) {
                final RankProcess.Exit e = 0 == timeoutNs ? exits.take()
                    : exits.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (null == e) {
                    timedOut = true;
                    break;
                }
                exited[e.rank()] = true;
                done++;
                if (0 != e.exitCode()) {
                    final List<RankProcess.Exit> failures = new java.util.ArrayList<>(List.of(e));
                    done += collectConsequences(failures, exited);
                    failed = rootCause(failures);
                    break;
                }
            }
            if (timedOut) {
                StackDumper.dump(launcher.javaCommand(), running(), launcher.stderr());
            }
        } catch (final InterruptedException e) {
            stop();
            collectExits(started - done);
            Thread.currentThread().interrupt();
            return new JobResult(JobResult.INTERRUPTED_STATUS, JobResult.Outcome.INTERRUPTED, -1,
                "interrupted; stopped the ranks");
        }
        final boolean stoppedByHook = stopping;
        final List<RankProcess> stillRunning = running();
        stop();
        collectExits(started - done);
        if (timedOut) {
            return new JobResult(JobResult.TIMEOUT_STATUS, JobResult.Outcome.TIMED_OUT, -1,
                "timed out after " + describe(launcher.timeout().toMillis()) + " with rank"
                    + (stillRunning.size() == 1 ? " " : "s ") + String.join(", ", stillRunning.stream().map(rp -> Integer.toString(rp.rank())).toList())
                    + " still running; printed their thread stacks and stopped them");
        }
        if (null != failed && !stoppedByHook) {
            final RankProcess rp = ranks[failed.rank()];
            return new JobResult(statusOf(failed.exitCode()), JobResult.Outcome.RANK_FAILED, failed.rank(),
                describeFailure(rp, failed.exitCode()));
        }
        if (stoppedByHook) {
            return new JobResult(JobResult.INTERRUPTED_STATUS, JobResult.Outcome.INTERRUPTED, -1,
                "this JVM is shutting down; stopped the ranks");
        }
        return new JobResult(0, JobResult.Outcome.SUCCEEDED, -1, "");
    }

    /**
     * After a first failure, waits briefly for the failures it causes: a rank whose peer dies fails too (its
     * operations on that peer end with an exception naming it), and it may exit first. Collecting them lets
     * {@link #rootCause} blame the rank that failed on its own.
     */
    private int collectConsequences(final List<RankProcess.Exit> failures, final boolean[] exited)
        throws InterruptedException {
        int more = 0;
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTRIBUTION_MS);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            final RankProcess.Exit e = exits.poll(left, TimeUnit.NANOSECONDS);
            if (null == e) {
                break;
            }
            exited[e.rank()] = true;
            more++;
            if (0 != e.exitCode()) {
                failures.add(e);
            }
        }
        return more;
    }

    /**
     * Picks the failure to report: the first one whose exception does not merely report another failed rank
     * ({@code TuttiException: ... rank N failed / has left the job}) that also failed.
     */
    private RankProcess.Exit rootCause(final List<RankProcess.Exit> failures) {
        final java.util.Set<Integer> failedRanks = new java.util.HashSet<>();
        failures.forEach(f -> failedRanks.add(f.rank()));
        for (final RankProcess.Exit f : failures) {
            final int blamed = blamedRank(ranks[f.rank()].failureLine());
            if (blamed < 0 || blamed == f.rank() || !failedRanks.contains(blamed)) {
                return f;
            }
        }
        return failures.getFirst();
    }

    /**
     * Returns the rank a failure line blames, or -1.
     *
     * @param line the exception line of a rank's stderr, or null
     * @return the rank named by a Tutti peer-failure message, else -1
     */
    static int blamedRank(final String line) {
        if (null == line) {
            return -1;
        }
        final java.util.regex.Matcher m = CONSEQUENCE.matcher(line);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** Starts rank r under the stop lock; returns null, or why it could not be started. */
    private synchronized String start(final int r) {
        if (stopping) {
            return "this JVM is shutting down; rank " + r + " was not started";
        }
        final Placement placement = launcher.placement();
        final boolean local = placement.isLocal(r);
        try {
            ranks[r] = RankProcess.start(r, placement.host(r), local,
                launcher.processBuilder(r, rendezvous, secret, jobId), local ? null : secret, launcher.stdout(),
                launcher.stderr(), launcher.tagOutput(), exits);
            return null;
        } catch (final IOException e) {
            return "rank " + r + (local ? "" : " on " + placement.host(r)) + " could not be started: "
                + e.getMessage();
        }
    }

    /** Stops every live rank: SIGTERM, the grace period, SIGKILL; returns when they are gone (bounded). */
    synchronized void stop() {
        stopping = true;
        final List<RankProcess> live = new ArrayList<>();
        for (final RankProcess rp : ranks) {
            if (null != rp && rp.process().isAlive()) {
                live.add(rp);
            }
        }
        if (live.isEmpty()) {
            return;
        }
        live.forEach(RankProcess::requestStop);
        boolean interrupted = false;
        try {
            final long graceDeadline = System.nanoTime() + launcher.stopGrace().toNanos();
            for (final RankProcess rp : live) {
                rp.process().waitFor(Math.max(0, graceDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (final InterruptedException e) {
            interrupted = true;
        }
        for (final RankProcess rp : live) {
            if (rp.process().isAlive()) {
                rp.forceStop();
            }
        }
        final long killDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
        for (final RankProcess rp : live) {
            try {
                rp.process().waitFor(Math.max(0, killDeadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (bounded) for the exits of stopped ranks, so their last output is forwarded before run returns. */
    private void collectExits(final int expected) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RankProcess.DRAIN_MS + 500);
        int got = 0;
        boolean interrupted = Thread.interrupted();
        while (got < expected) {
            try {
                final RankProcess.Exit e = exits.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (null == e) {
                    break;
                }
                exited[e.rank()] = true;
                got++;
            } catch (final InterruptedException ex) {
                interrupted = true;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private List<RankProcess> running() {
        final List<RankProcess> list = new ArrayList<>();
        for (int r = 0; r < ranks.length; r++) {
            if (null != ranks[r] && !exited[r]) {
                list.add(ranks[r]);
            }
        }
        return list;
    }

    private static int statusOf(final int exitCode) {
        final int status = exitCode & 0xff;
        return 0 == status ? 1 : status;
    }

    /**
     * One line naming the rank and the cause.
     *
     * @param rp       the rank
     * @param exitCode its exit code
     * @return e.g. {@code rank 2 failed (exit 1): java.lang.IllegalStateException: boom}
     */
    static String describeFailure(final RankProcess rp, final int exitCode) {
        final StringBuilder sb = new StringBuilder("rank ").append(rp.rank());
        if (!rp.isLocal()) {
            sb.append(" on ").append(rp.host());
        }
        sb.append(" failed (").append(describeExit(exitCode, !rp.isLocal())).append(')');
        final String line = rp.failureLine();
        if (null != line) {
            sb.append(": ").append(line);
        } else if (null != rp.lastStderrLine()) {
            sb.append("; last line on its stderr: ").append(rp.lastStderrLine());
        }
        return sb.toString();
    }

    /**
     * Describes an exit code: {@code exit 3}, or {@code killed by signal 9 (SIGKILL)} for 129..192 (how the JDK and
     * sh report a death by signal; a program that calls {@code System.exit(137)} looks the same).
     *
     * @param exitCode the code
     * @param remote   whether it came through ssh (255 is then ssh's own failure)
     * @return the description
     */
    static String describeExit(final int exitCode, final boolean remote) {
        if (exitCode > 128 && exitCode <= 128 + 64) {
            final int signal = exitCode - 128;
            return "killed by signal " + signal + signalName(signal) + ", exit " + exitCode;
        }
        if (remote && 255 == exitCode) {
            return "exit 255: ssh could not run the command";
        }
        return "exit " + exitCode;
    }

    private static String signalName(final int signal) {
        return switch (signal) {
            case 1 -> " (SIGHUP)";
            case 2 -> " (SIGINT)";
            case 3 -> " (SIGQUIT)";
            case 4 -> " (SIGILL)";
            case 6 -> " (SIGABRT)";
            case 7 -> " (SIGBUS)";
            case 8 -> " (SIGFPE)";
            case 9 -> " (SIGKILL)";
            case 11 -> " (SIGSEGV)";
            case 13 -> " (SIGPIPE)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
    }

    private static String describe(final long millis) {
        return 0 == millis % 1000 ? millis / 1000 + " s" : millis + " ms";
    }
}
