package dev.tutti;

/**
 * The correctness checker found the job deadlocked: every live rank has been blocked in Tutti for longer than the
 * checker's threshold and none of their waits can ever complete. Thrown only with the checker on (setting
 * {@code tutti.check}, {@link Tutti.Options#check(boolean)}), by the blocked call on every rank. The message lists
 * each rank's blocked call with its arguments and call site, and the cycle of waits or the partner that is missing,
 * e.g. {@code deadlock: ... rank 3 waits in barrier() on 'WORLD' ...; ranks 0, 1, 2 wait in recv from rank 3, tag 7
 * ...; cycle: rank 0 -> rank 3 -> rank 0}.
 */
public class DeadlockException extends TuttiException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message the full report
     */
    public DeadlockException(final String message) {
        super(ErrorClass.TIMEOUT, message);
    }

    /**
     * Creates an exception that rethrows another on the caller's thread (the wait that was blocked).
     *
     * @param original the exception the checker made
     */
    public DeadlockException(final DeadlockException original) {
        super(original.errorClass(), original.getMessage(), original);
    }
}
