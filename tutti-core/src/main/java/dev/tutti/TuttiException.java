package dev.tutti;

/**
 * The one exception Tutti throws for failed operations. It is unchecked; its {@link #errorClass()} tells the kind
 * of failure and its message names the operation, the communicator, the ranks and the values involved, in
 * {@code key=value} form.
 *
 * <p>An exception thrown by argument validation is thrown before anything is sent: the communicator stays usable.
 */
public class TuttiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;

    /**
     * Creates an exception.
     *
     * @param errorClass the kind of failure
     * @param message    the full message
     */
    public TuttiException(final ErrorClass errorClass, final String message) {
        super(message);
        this.errorClass = errorClass;
    }

    /**
     * Creates an exception with a cause.
     *
     * @param errorClass the kind of failure
     * @param message    the full message
     * @param cause      the underlying failure
     */
    public TuttiException(final ErrorClass errorClass, final String message, final Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /**
     * Returns the kind of failure.
     *
     * @return the error class, never null
     */
    public ErrorClass errorClass() {
        return errorClass;
    }
}
