package mpi;

/** A handle whose MPI object can be released ({@code free()}); afterwards the handle is null. */
public interface Freeable {
    /**
     * Releases the object.
     *
     * @throws MPIException if the release fails
     */
    void free() throws MPIException;
}
