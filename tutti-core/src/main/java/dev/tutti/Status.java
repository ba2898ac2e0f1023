package dev.tutti;

/**
 * The envelope of a received or probed message: its source, tag and size. Immutable.
 *
 * @param source       the sender's rank in the communicator's group
 * @param tag          the message tag
 * @param bytes        the message size in bytes
 * @param datatype     the sender's datatype ({@link Datatype#BYTE} if unknown)
 * @param cancelled    whether the request was cancelled instead of completed
 */
public record Status(int source, int tag, long bytes, Datatype datatype, boolean cancelled) {

    /** The status of a completed send or of an operation that carries no envelope. */
    public static final Status EMPTY = new Status(-1, -1, 0, Datatype.BYTE, false);

    /**
     * Returns the number of elements in the message, in the sender's datatype.
     *
     * @return {@code bytes / datatype.sizeBytes()}
     */
    public long count() {
        return bytes / datatype.sizeBytes();
    }

    /**
     * Returns the number of elements of the given type the message holds.
     *
     * @param type the element type to count in
     * @return {@code bytes / type.sizeBytes()}
     */
    public long count(final Datatype type) {
        return bytes / type.sizeBytes();
    }
}
