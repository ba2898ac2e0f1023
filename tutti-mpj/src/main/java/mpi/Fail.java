package mpi;

import dev.tutti.TuttiException;

/**
 * Where every failure of a call becomes the {@link MPIException} it throws: argument errors made here, and Tutti's
 * failures wrapped with the name of the MPJ call. Under {@code MPI.ERRORS_ARE_FATAL} the failure first ends the
 * job ({@link Env#abort}).
 */
final class Fail {
    private Fail() {
    }

    /**
     * @param message the call, the argument, its value and what was expected
     * @return the exception to throw
     */
    static MPIException error(final String message) {
        return handled(new MPIException(message));
    }

    /**
     * @param call the MPJ call that failed, e.g. {@code Comm.Recv}
     * @param e    the failure
     * @return the exception to throw: {@code e} itself if it is one already
     */
    static MPIException wrap(final String call, final RuntimeException e) {
        if (e instanceof MPIException m) {
            return m;
        }
        final String what = e instanceof TuttiException ? "" : e.getClass().getName() + ": ";
        return handled(new MPIException(call + ": " + what + e.getMessage(), e));
    }

    private static MPIException handled(final MPIException e) {
        final Env env = Env.current();
        if (null != env && env.handler().fatal && env.isInitialized()) {
            throw env.abort(1, e);
        }
        return e;
    }
}
