package dev.tutti.launcher;

/**
 * How a job ended.
 *
 * @param exitStatus  the status {@code tutti run} exits with: 0 on success, the first failed rank's exit code
 *                    ({@code 128 + signal} if a signal killed it, at least 1), {@link #TIMEOUT_STATUS},
 *                    {@link #START_FAILED_STATUS} or {@link #INTERRUPTED_STATUS}
 * @param outcome     what happened
 * @param failedRank  the rank whose failure ended the job (for {@link Outcome#LEFT_EARLY}, the rank that exited 0
 *                    while its peers still needed it), or -1
 * @param description one line naming the rank and the cause, e.g.
 *                    {@code rank 2 failed (exit 1): java.lang.IllegalStateException: boom}: the exception the rank
 *                    reported on stderr (its first uncaught exception, else the last stack trace it printed; the top
 *                    exception, followed by {@code (caused by ROOT)} when the root cause adds something), else the
 *                    java launcher's {@code Error:} line, else {@code ; last line on its stderr: ...} with its last
 *                    line that is not a log record; or
 *                    {@code rank 2 exited 0 while its peers still needed it: ranks 0, 3 failed without it};
 *                    empty on success
 */
public record JobResult(int exitStatus, Outcome outcome, int failedRank, String description) {
    /** Exit status of a job that ran longer than its timeout (as GNU {@code timeout}). */
    public static final int TIMEOUT_STATUS = 124;
    /** Exit status of a job whose rendezvous or a rank could not be started (as a shell's "cannot execute"). */
    public static final int START_FAILED_STATUS = 127;
    /** Exit status of a job stopped because the launcher was interrupted (as a shell after SIGINT). */
    public static final int INTERRUPTED_STATUS = 130;

    /** What ended a job. */
    public enum Outcome {
        /** Every rank exited with status 0. */
        SUCCEEDED,
        /** A rank exited non-zero or was killed; the others were stopped. */
        RANK_FAILED,
        /**
         * A rank exited with status 0 while its peers still needed it (they failed without it and the others were
         * stopped); {@link #failedRank()} is that rank, the exit status the first failed peer's.
         */
        LEFT_EARLY,
        /** The rendezvous or a rank could not be started; the ranks already started were stopped. */
        START_FAILED,
        /** The job ran longer than its timeout; the ranks' stacks were printed and they were stopped. */
        TIMED_OUT,
        /** The launcher's thread was interrupted or its JVM is shutting down; the ranks were stopped. */
        INTERRUPTED
    }

    /** @return whether every rank exited with status 0 */
    public boolean succeeded() {
        return Outcome.SUCCEEDED == outcome;
    }
}
