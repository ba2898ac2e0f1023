package dev.tutti.bench.osu;

/**
 * A benchmark could not run or produced a wrong result: bad data received, a job of the wrong size, a launch that
 * failed. The message names the operation, the rank, the size and what was expected.
 */
public final class BenchmarkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, in {@code key=value} form
     */
    public BenchmarkException(final String message) {
        super(message);
    }

    /**
     * Creates the exception with a cause.
     *
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public BenchmarkException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
