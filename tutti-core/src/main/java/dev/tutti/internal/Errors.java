package dev.tutti.internal;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

/**
 * Factories for error messages, so that every message names the operation, where it happened, the argument, its
 * value and what was expected, in one form ({@code op (comm=..., rank=...): arg=value, expected ...}).
 */
public final class Errors {
    private Errors() {
    }

    /**
     * A rank argument outside the group.
     *
     * @param op      the operation
     * @param where   the communicator description
     * @param arg     the argument name
     * @param value   its value
     * @param size    the group size
     * @param allowed extra allowed values, e.g. {@code " or PROC_NULL"}
     * @return the exception
     */
    public static TuttiException rank(final String op, final String where, final String arg, final int value,
        final int size, final String allowed) {
        return new TuttiException(ErrorClass.RANK, op + " (" + where + "): " + arg + "=" + value
            + " is out of range, expected 0.." + (size - 1) + allowed);
    }

    /**
     * A root argument outside the group.
     *
     * @param op    the operation
     * @param where the communicator description
     * @param value the root
     * @param size  the group size
     * @return the exception
     */
    public static TuttiException root(final String op, final String where, final int value, final int size) {
        return new TuttiException(ErrorClass.ROOT, op + " (" + where + "): root=" + value
            + " is out of range, expected 0.." + (size - 1));
    }

    /**
     * A tag argument outside the allowed range.
     *
     * @param op      the operation
     * @param where   the communicator description
     * @param value   the tag
     * @param upper   the largest allowed tag
     * @param allowed extra allowed values, e.g. {@code " or ANY_TAG"}
     * @return the exception
     */
    public static TuttiException tag(final String op, final String where, final int value, final int upper,
        final String allowed) {
        return new TuttiException(ErrorClass.TAG, op + " (" + where + "): tag=" + value
            + " is out of range, expected 0.." + upper + allowed);
    }

    /**
     * A null argument.
     *
     * @param op    the operation
     * @param where the communicator description
     * @param arg   the argument name
     * @return the exception
     */
    public static TuttiException nullArg(final String op, final String where, final String arg) {
        return new TuttiException(ErrorClass.BUFFER, op + " (" + where + "): " + arg + "=null, expected a "
            + "buffer");
    }

    /**
     * A peer that closed (said goodbye): what every operation that still needed it fails with.
     *
     * @param worldRank the peer
     * @return the exception, of class {@link ErrorClass#PROC_FAILED}
     */
    public static TuttiException peerLeft(final int worldRank) {
        return new TuttiException(ErrorClass.PROC_FAILED, "rank " + worldRank + " closed (left the job), so nothing "
            + "more can be received from or sent to it");
    }

    /**
     * {@code Buf.IN_PLACE} where a real buffer is needed (every point-to-point buffer, and collective arguments
     * that MPI does not let be in place).
     *
     * @param op    the operation
     * @param where the communicator description
     * @param arg   the argument name
     * @param uses  where in-place is allowed instead, for the message (e.g. "only as the send buffer of a
     *              collective")
     * @return the exception
     */
    public static TuttiException inPlace(final String op, final String where, final String arg, final String uses) {
        return new TuttiException(ErrorClass.BUFFER, op + " (" + where + "): " + arg + "=IN_PLACE, expected a "
            + "buffer (IN_PLACE is " + uses + ")");
    }

    /**
     * A count argument that is negative or larger than its buffer.
     *
     * @param op       the operation
     * @param where    the communicator description
     * @param arg      the argument name
     * @param value    the count
     * @param capacity the buffer's element count
     * @return the exception
     */
    public static TuttiException count(final String op, final String where, final String arg, final long value,
        final long capacity) {
        return new TuttiException(ErrorClass.COUNT, op + " (" + where + "): " + arg + "=" + value
            + " does not fit, expected 0.." + capacity + " (the buffer's element count)");
    }

    /**
     * A generic invalid argument.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      the communicator description
     * @param detail     what is wrong, in {@code key=value, expected ...} form
     * @return the exception
     */
    public static TuttiException invalid(final ErrorClass errorClass, final String op, final String where,
        final String detail) {
        return new TuttiException(errorClass, op + " (" + where + "): " + detail);
    }
}
