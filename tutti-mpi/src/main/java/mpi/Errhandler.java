package mpi;

/**
 * An error handler: {@link MPI#ERRORS_ARE_FATAL} (an error ends the whole job, its error code being the exit
 * status) or {@link MPI#ERRORS_RETURN} (an error is thrown as {@link MPIException}). {@code getErrhandler()}
 * returns a new object for the current handler, which {@code setErrhandler} accepts back.
 */
public final class Errhandler {
    private final boolean fatal;

    Errhandler(final boolean fatal) {
        this.fatal = fatal;
    }

    /** @return whether errors end the job */
    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return fatal ? "MPI_ERRORS_ARE_FATAL" : "MPI_ERRORS_RETURN";
    }
}
