package xdev;

/**
 * The root of the MPJ Express exception chain ({@code mpi.MPIException} → {@code mpjdev.MPJDevException} → this):
 * unchecked, so that programs written for MPJ Express, which call MPI in methods without {@code throws} clauses,
 * compile unchanged.
 */
public class XDevException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with no message. */
    public XDevException() {
        super();
    }

    /** @param msg what failed */
    public XDevException(final String msg) {
        super(msg);
    }

    /** @param cause the underlying failure */
    public XDevException(final Throwable cause) {
        super(cause);
    }

    /**
     * @param msg   what failed
     * @param cause the underlying failure
     */
    protected XDevException(final String msg, final Throwable cause) {
        super(msg, cause);
    }
}
