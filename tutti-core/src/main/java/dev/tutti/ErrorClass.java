package dev.tutti;

/**
 * The class of a {@link TuttiException}, mirroring MPI's error classes so that the {@code mpi} facade can map
 * each one to its {@code MPI_ERR_*} code in one place.
 */
public enum ErrorClass {
    /** A buffer argument is null, of an unsupported kind, or too small for the count. */
    BUFFER,
    /** A count is negative or does not fit the buffer. */
    COUNT,
    /** A datatype does not match the buffer or the peer's datatype. */
    TYPE,
    /** A tag is outside the allowed range, or a wildcard is used where none is allowed. */
    TAG,
    /** A rank is outside the communicator's group. */
    RANK,
    /** A root is outside the group that must name it, or the ranks of a collective named different roots. */
    ROOT,
    /** A received message is longer than the receive buffer. */
    TRUNCATE,
    /** A reduction operation is not defined for the datatype or its properties do not fit. */
    OP,
    /** The communicator is closed, freed or of the wrong kind for the call. */
    COMM,
    /** An argument other than the above is invalid (or the ranks called different collectives at one point). */
    ARG,
    /** A peer process failed, or the job was aborted because a rank failed. */
    PROC_FAILED,
    /** An object message could not be serialized or deserialized, or its class is not allowed. */
    SERIALIZATION,
    /** The operation did not complete in the allowed time. */
    TIMEOUT,
    /** A request was used in a way its state does not allow (for example waited on after it was freed). */
    REQUEST,
    /** An internal invariant was violated or an I/O error occurred below the library. */
    INTERN
}
