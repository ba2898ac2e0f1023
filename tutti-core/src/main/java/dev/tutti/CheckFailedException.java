package dev.tutti;

/**
 * The correctness checker reported a finding on this rank that did not stop a call where it happened, and the job
 * is to fail for it (the checker's default; {@code --check=warn}, {@link Tutti.Options#warn(boolean)}, only reports):
 * something the rank left behind at close (a request never completed, a persistent request left active or never
 * freed, a communicator never freed, a message never received) or a buffer written while an operation owned it. The
 * report itself is on the rank's standard error (and in the JSON report, if any), one line per finding with its call
 * site; the message counts them by kind, e.g. {@code check: rank 1 has 2 findings (1 leak, 1 buffer-in-use), reported
 * above}. Thrown once the rank has left the job: by {@link Tutti#runLocal} when every rank has returned (the rank's
 * own exception, if it threw, comes first), and by a process's {@link Tutti#close()}, so that its process ends with
 * a non-zero status, as a sanitizer's does after its report.
 */
public class CheckFailedException extends TuttiException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message what the checker found, by kind
     */
    public CheckFailedException(final String message) {
        super(ErrorClass.REQUEST, message);
    }

    /**
     * Creates an exception that passes on a rank's ({@link Tutti#runLocal}: the job's, naming the rank).
     *
     * @param message what the checker found, by kind
     * @param cause   the rank's exception
     */
    public CheckFailedException(final String message, final CheckFailedException cause) {
        super(ErrorClass.REQUEST, message, cause);
    }
}
