package dev.tutti.launcher;

import java.io.IOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

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
    /** How long after a first failure the job waits at most for the exit of a rank that a failure blames. */
    static final long ATTRIBUTION_MAX_MS = 3_000;

    private final Launcher launcher;
    private final IntFunction<String> rendezvous;
    private final String secret;
    private final String jobId;
    private final RankProcess[] ranks;
    private final boolean[] exited;
    /** Which ranks have exited with status 0: a failure that blames one of them blames its early exit. */
    private final boolean[] exitedZero;
    private final BlockingQueue<RankProcess.Exit> exits = new LinkedBlockingQueue<>();
    /** The exception texts the ranks' stderr filters have let through, shared by them. */
    private final Set<String> reportedExceptions = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    Job(final Launcher launcher, final IntFunction<String> rendezvous, final String secret, final String jobId) {
        this.launcher = launcher;
        this.rendezvous = rendezvous;
        this.secret = secret;
        this.jobId = jobId;
        this.ranks = new RankProcess[launcher.ranks()];
        this.exited = new boolean[launcher.ranks()];
        this.exitedZero = new boolean[launcher.ranks()];
    }

    JobResult run() {
        final Thread hook = launcher.stopOnShutdown()
            ? Thread.ofPlatform().name("tutti-launcher-shutdown").unstarted(this::stopAndClean) : null;
        if (null != hook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return supervise();
        } finally {
            stopAndClean();
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
     * What the supervisor does when it returns and what the shutdown hook does when this JVM is interrupted (Ctrl-C,
     * SIGTERM): the JVM halts when its hooks end, whatever the supervisor is doing, so the hook cannot leave the
     * clean-up to the supervisor's finally block. Both steps are idempotent; stop() is synchronized.
     */
    private void stopAndClean() {
        stop();
        removeShmFile();
    }

    /*
     * Deletes the job's shared-memory file on this host (in the directory the ranks were given, see
     * Launcher.rankShmFile), which the last rank deletes itself when the job ends normally but which a crashed or
     * killed rank leaves behind. Every rank has stopped by now. Files on remote hosts are removed by the next job
     * that starts there (stale-file detection in the transport).
     */
    private void removeShmFile() {
        final java.nio.file.Path file = launcher.rankShmFile(jobId, secret);
        try {
            java.nio.file.Files.deleteIfExists(file);
        } catch (final IOException e) {
            dev.tutti.runtime.Log.of(Job.class).log(System.Logger.Level.WARNING,
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
        List<RankProcess.Exit> failures = List.of();
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
                exitedZero[e.rank()] = 0 == e.exitCode();
                done++;
                if (0 != e.exitCode()) {
                    failures = new ArrayList<>(List.of(e));
                    done += collectConsequences(failures, exited, started - done);
                    failed = FailureBlame.rootCause(failures, ranks, exitedZero);
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
                    + (stillRunning.size() == 1 ? " " : "s ")
                    + String.join(", ", stillRunning.stream().map(rp -> Integer.toString(rp.rank())).toList())
                    + " still running; printed their thread stacks and stopped them");
        }
        if (null != failed && !stoppedByHook) {
            final int leaver = FailureBlame.leftEarly(failed, ranks, exitedZero);
            if (leaver >= 0) {
                return new JobResult(statusOf(failed.exitCode()), JobResult.Outcome.LEFT_EARLY, leaver,
                    describeEarlyExit(ranks[leaver], failures.stream().map(RankProcess.Exit::rank)
                        .filter(r -> FailureBlame.goesBackTo(r, leaver, ranks)).toList()));
            }
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
     * operations on that peer end with an exception naming it), and it may exit first. While a failure collected so
     * far blames a rank that is still running, the wait goes on (up to {@link #ATTRIBUTION_MAX_MS}): that rank is
     * going down, possibly slowly (shutdown hooks), and its exit and exception tell what happened. Collecting them
     * lets {@link FailureBlame#rootCause} blame the rank that failed on its own.
     *
     * @param failures  the failures so far; more are added
     * @param exited    which ranks have exited; updated
     * @param remaining how many started ranks have not exited
     * @return how many exits were collected
     */
    private int collectConsequences(final List<RankProcess.Exit> failures, final boolean[] exited,
        final int remaining) throws InterruptedException {
        int more = 0;
        final long start = System.nanoTime();
        final long windowEnd = start + TimeUnit.MILLISECONDS.toNanos(ATTRIBUTION_MS);
        final long hardEnd = start + TimeUnit.MILLISECONDS.toNanos(ATTRIBUTION_MAX_MS);
        while (more < remaining) {
            final long now = System.nanoTime();
            final long until = now - windowEnd < 0 ? windowEnd
                : FailureBlame.awaitsBlamedRank(failures, ranks, exited) ? hardEnd : now;
            if (until - now <= 0) {
                break;
            }
            final RankProcess.Exit e = exits.poll(until - now, TimeUnit.NANOSECONDS);
            if (null != e) {
                exited[e.rank()] = true;
                exitedZero[e.rank()] = 0 == e.exitCode();
                more++;
                if (0 != e.exitCode()) {
                    failures.add(e);
                }
            }
        }
        return more;
    }

    /** Starts rank r under the stop lock; returns null, or why it could not be started. */
    private synchronized String start(final int r) {
        if (stopping) {
            return "this JVM is shutting down; rank " + r + " was not started";
        }
        final Placement placement = launcher.placement();
        final boolean local = placement.isLocal(r);
        // In a job with ranks on other hosts every rank's lines name its host, so that all lines read alike.
        final RankProcess.Tag tag = !launcher.tagOutput() ? RankProcess.Tag.NONE
            : placement.anyRemote() ? RankProcess.Tag.RANK_AND_HOST : RankProcess.Tag.RANK;
        try {
            ranks[r] = RankProcess.start(r, placement.host(r), local,
                launcher.processBuilder(r, rendezvous.apply(r), secret, jobId), local ? null : secret,
                launcher.stdout(), launcher.stderr(), tag,
                launcher.verbose() ? null : new StderrFilter(r, reportedExceptions, Charset.defaultCharset()), exits);
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
     * One line naming a rank that exited 0 while its peers still needed it, and the ranks that failed without it.
     *
     * @param leaver  the rank that exited 0
     * @param victims the failed ranks whose failure goes back to it
     * @return e.g. {@code rank 2 exited 0 while its peers still needed it: ranks 0, 3 failed without it}
     */
    static String describeEarlyExit(final RankProcess leaver, final List<Integer> victims) {
        final StringBuilder sb = new StringBuilder("rank ").append(leaver.rank());
        if (!leaver.isLocal()) {
            sb.append(" on ").append(leaver.host());
        }
        sb.append(" exited 0 while its peers still needed it: rank").append(1 == victims.size() ? " " : "s ");
        sb.append(String.join(", ", victims.stream().sorted().map(String::valueOf).toList()));
        return sb.append(" failed without it").toString();
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
