package mpi;

/**
 * An error handler: {@code MPI.ERRORS_RETURN} (the default: a failed call throws {@link MPIException}) or
 * {@code MPI.ERRORS_ARE_FATAL} (a failed call ends the whole job, as MPI's default handler does), set with
 * {@code MPI.Errorhandler_set}.
 */
public class Errhandler {
    final boolean fatal;

    Errhandler(final boolean fatal) {
        this.fatal = fatal;
    }

    @Override
    public String toString() {
        return fatal ? "MPI.ERRORS_ARE_FATAL" : "MPI.ERRORS_RETURN";
    }
}
