package mpi;

/**
 * A failed MPI call. Under {@link MPI#ERRORS_RETURN} it carries the MPI error code and class ({@link #getErrorCode},
 * {@link #getErrorClass}, compare with {@code MPI.ERR_*}) and MPI's error string as its message; the Tutti exception
 * behind it, when there is one, is its cause. Misuse of the library itself (not initialized, already finalized)
 * gives one with code and class 0 whatever the handler.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /** @param message the message; code and class are 0 */
    public MPIException(final String message) {
        super(message);
        this.errorCode = 0;
        this.errorClass = 0;
    }

    /** @param cause the cause; code and class are 0 */
    public MPIException(final Throwable cause) {
        super(cause);
        this.errorCode = 0;
        this.errorClass = 0;
    }

    MPIException(final int errorClass, final String message, final Throwable cause) {
        super(message, cause);
        this.errorCode = errorClass;
        this.errorClass = errorClass;
    }

    /** @return the MPI error code (equal to the class for every error this library raises) */
    public int getErrorCode() {
        return errorCode;
    }

    /** @return the MPI error class, one of {@code MPI.ERR_*} */
    public int getErrorClass() {
        return errorClass;
    }
}
