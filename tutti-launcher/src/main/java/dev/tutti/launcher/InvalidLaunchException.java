package dev.tutti.launcher;

/**
 * A job description that cannot be run: no program, a rank count below 1, both a class path and a jar, a missing
 * or malformed hostfile, more ranks than explicitly declared slots, a malformed environment variable. Thrown before
 * any process is started; {@code tutti run} reports it as a usage error (exit code 2).
 */
public final class InvalidLaunchException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the argument, its value and what was expected
     */
    public InvalidLaunchException(final String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what is wrong, naming the argument, its value and what was expected
     * @param cause   the underlying failure (for example the I/O error reading a hostfile)
     */
    public InvalidLaunchException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
