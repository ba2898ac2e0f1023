package mpi;

/**
 * The failure of an MPI call: unchecked (it extends {@code RuntimeException} through
 * {@code mpjdev.MPJDevException} and {@code xdev.XDevException}), as in MPJ Express, so programs that call MPI in
 * methods without {@code throws} clauses compile. The message names the call, the argument and value at fault and
 * what was expected; a failure of Tutti's is the cause.
 */
public class MPIException extends mpjdev.MPJDevException {
    private static final long serialVersionUID = 1L;

    /** An exception with no message. */
    public MPIException() {
        super();
    }

    /** @param message what failed */
    public MPIException(final String message) {
        super(message);
    }

    /** @param cause the underlying failure (its message becomes this one's) */
    public MPIException(final Throwable cause) {
        super(cause);
    }

    /**
     * @param message what failed
     * @param cause   the underlying failure
     */
    MPIException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
