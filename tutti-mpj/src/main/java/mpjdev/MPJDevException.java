package mpjdev;

/** The middle of MPJ Express's exception chain: a superclass of {@code mpi.MPIException}; unchecked. */
public class MPJDevException extends xdev.XDevException {
    private static final long serialVersionUID = 1L;

    /** An exception with no message. */
    public MPJDevException() {
        super();
    }

    /** @param cause the underlying failure */
    public MPJDevException(final Throwable cause) {
        super(cause);
    }

    /** @param s what failed */
    public MPJDevException(final String s) {
        super(s);
    }

    /**
     * @param s     what failed
     * @param cause the underlying failure
     */
    protected MPJDevException(final String s, final Throwable cause) {
        super(s, cause);
    }
}
