package dev.tutti.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One started rank: its process (a JVM, or the remote shell that runs it), the two pumps forwarding its output, and
 * a waiter that reports its exit.
 *
 * <p>Implementation notes. Three daemon threads per rank: the stdout pump, the stderr pump and the waiter. The
 * waiter waits for the process, then for both pumps to reach end of file (at most {@link #DRAIN_MS}, in case a
 * child of the rank keeps the pipes open), so that the last lines, including the exception a dying JVM prints,
 * have been forwarded and seen before it posts the {@link Exit} to the job's queue. The stderr pump alone feeds the
 * {@link StderrDigest} (synchronized, so a job thread reading it early sees a consistent state).
 */
final class RankProcess {
    /** How long the waiter lets the pumps drain after the process exited. */
    static final long DRAIN_MS = 1_000;

    /**
     * A rank's process ended.
     *
     * @param rank     the rank
     * @param exitCode its exit code ({@code 128 + signal} if a signal killed it)
     * @param nanos    when the waiter saw the process end ({@link System#nanoTime})
     */
    record Exit(int rank, int exitCode, long nanos) {
    }

    /** How forwarded lines are tagged (mpirun's {@code --tag-output}). */
    enum Tag {
        /** Lines as the rank wrote them. */
        NONE,
        /** {@code [1,rank]<stream>:}, in a job whose ranks all run on this machine. */
        RANK,
        /** {@code [1,rank][host]<stream>:}, for every rank of a job with ranks on other hosts, local ones too. */
        RANK_AND_HOST
    }

    private final int rank;
    private final String host;
    private final boolean local;
    private final Process process;
    private final Thread stdoutPump;
    private final Thread stderrPump;
    private final StderrDigest stderr = new StderrDigest();

    private RankProcess(final int rank, final String host, final boolean local, final Process process,
        final OutputStream out, final OutputStream err, final Tag tag, final StderrFilter filter) {
        this.rank = rank;
        this.host = host;
        this.local = local;
        this.process = process;
        this.stdoutPump = Thread.ofPlatform().daemon().name("tutti-rank-" + rank + "-stdout").unstarted(
            new LinePump(process.getInputStream(), out, prefix(tag, rank, host, "stdout"), null, null));
        this.stderrPump = Thread.ofPlatform().daemon().name("tutti-rank-" + rank + "-stderr").unstarted(
            new LinePump(process.getErrorStream(), err, prefix(tag, rank, host, "stderr"),
                this::onStderrLine, filter));
    }

    /**
     * Starts a rank.
     *
     * @param rank      the rank
     * @param host      the host it runs on
     * @param local     whether it runs on this machine
     * @param builder   the process to start
     * @param stdinLine a line to write to its standard input, which then stays open until the process exits
     *                  (remote ranks: the secret); null to close standard input at once (local ranks)
     * @param out       where its standard output goes
     * @param err       where its standard error goes
     * @param tag       how its lines are tagged
     * @param filter    which of its stderr lines are forwarded, or null for all
     * @param exits     where the waiter posts the exit
     * @return the running rank
     * @throws IOException if the process cannot be started
     */
    static RankProcess start(final int rank, final String host, final boolean local, final ProcessBuilder builder,
        final String stdinLine, final OutputStream out, final OutputStream err, final Tag tag,
        final StderrFilter filter, final BlockingQueue<Exit> exits) throws IOException {
        final Process process = builder.start();
        final RankProcess rp = new RankProcess(rank, host, local, process, out, err, tag, filter);
        rp.stdoutPump.start();
        rp.stderrPump.start();
        if (null == stdinLine) {
            process.getOutputStream().close();
        } else {
            try {
                process.getOutputStream().write((stdinLine + "\n").getBytes(StandardCharsets.UTF_8));
                process.getOutputStream().flush();
            } catch (final IOException e) {
                // The remote shell died before reading its input; its exit (reported by the waiter) and its
                // stderr say why.
                rp.closeStdin();
            }
        }
        Thread.ofPlatform().daemon().name("tutti-rank-" + rank + "-waiter").start(() -> rp.awaitExit(exits));
        return rp;
    }

    private void awaitExit(final BlockingQueue<Exit> exits) {
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        final long exitNanos = System.nanoTime();
        final long deadline = exitNanos + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        for (final Thread pump : new Thread[] {stdoutPump, stderrPump}) {
            try {
                pump.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        closeStdin();
        exits.add(new Exit(rank, process.exitValue(), exitNanos));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the rank to stop: closes its input (a remote rank's watcher then kills it) and sends SIGTERM. */
    void requestStop() {
        closeStdin();
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }

    /** Kills the rank and its descendants (SIGKILL). */
    void forceStop() {
        closeStdin();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private void closeStdin() {
        try {
            process.getOutputStream().close();
        } catch (final IOException e) {
            // Closing a pipe whose reader is gone fails with EPIPE; the pipe is released either way.
        }
    }

    /** @return the rank */
    int rank() {
        return rank;
    }

    /** @return the host it runs on */
    String host() {
        return host;
    }

    /** @return whether it runs on this machine */
    boolean isLocal() {
        return local;
    }

    /** @return the process (for a remote rank, the remote shell) */
    Process process() {
        return process;
    }

    /**
     * The line that best explains a failure, from what the rank printed on stderr ({@link StderrDigest}): the
     * exception it reported, else the java launcher's {@code Error:} line, else null.
     *
     * @return the line or null
     */
    String failureLine() {
        return stderr.failureLine();
    }

    /** @return the exception the rank reported and its causes, top first (empty if none) */
    List<String> exceptionChain() {
        return stderr.exceptionChain();
    }

    /**
     * When the rank failed as far as the launcher can tell: when its exception report was read, else when its
     * process ended.
     *
     * @param exit its exit
     * @return a {@link System#nanoTime} value
     */
    long failedAtNanos(final Exit exit) {
        return Math.min(stderr.exceptionNanos(), exit.nanos());
    }

    /** @return the last non-blank line the rank printed on stderr that is not part of a log record, or null */
    String lastStderrLine() {
        return stderr.lastLine();
    }

    private void onStderrLine(final byte[] bytes, final int length) {
        stderr.onLine(new String(bytes, 0, Math.min(length, 4 * StderrDigest.MAX_REPORTED_LINE_CHARS),
            Charset.defaultCharset()));
    }

    /** The bytes before each line of {@code stream} (see {@link Tag}). */
    private static byte[] prefix(final Tag tag, final int rank, final String host, final String stream) {
        final String text = switch (tag) {
            case NONE -> "";
            case RANK -> "[1," + rank + "]<" + stream + ">:";
            case RANK_AND_HOST -> "[1," + rank + "][" + host + "]<" + stream + ">:";
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
