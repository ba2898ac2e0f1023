package dev.tutti;

/**
 * The correctness checker found that the ranks of a communicator made collective calls that do not match (another
 * operation, root, reduction, tag, type signature or count, or a blocking call against a nonblocking one), or that a
 * rank will never make the call its peers wait in. Thrown only with the checker on (setting {@code tutti.check},
 * {@link Tutti.Options#check(boolean)}), by the call on every rank involved, before any of its data has moved. The
 * message names the communicator, the call's number on it, and each rank's call with its arguments and call site,
 * e.g. {@code collective mismatch on 'WORLD' (call #17): rank 0 bcast(root=0, 4 x int) at Solver.java:42; rank 2
 * reduce(root=0, op=SUM, 4 x int) at Solver.java:57}.
 */
public class CollectiveMismatchException extends TuttiException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param errorClass the kind of disagreement (for example {@link ErrorClass#ROOT} for roots that differ)
     * @param message    the full report
     */
    public CollectiveMismatchException(final ErrorClass errorClass, final String message) {
        super(errorClass, message);
    }

    /**
     * Creates an exception that rethrows another on the caller's thread (a nonblocking call's wait).
     *
     * @param original the exception found where the call was compared
     */
    public CollectiveMismatchException(final CollectiveMismatchException original) {
        super(original.errorClass(), original.getMessage(), original);
    }
}
