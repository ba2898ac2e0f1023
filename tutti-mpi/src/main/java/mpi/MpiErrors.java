package mpi;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

import java.util.regex.Pattern;

/**
 * Error classes and the two error handlers: maps Tutti's {@link ErrorClass} to MPI's classes, holds MPI's error
 * strings, and either throws an {@link MPIException} (ERRORS_RETURN) or ends the job (ERRORS_ARE_FATAL).
 */
final class MpiErrors {
    /** MPI's error string of each class 0..53, as Open MPI reports them. */
    private static final String[] STRINGS = {
        "MPI_SUCCESS: no errors",
        "MPI_ERR_BUFFER: invalid buffer pointer",
        "MPI_ERR_COUNT: invalid count argument",
        "MPI_ERR_TYPE: invalid datatype",
        "MPI_ERR_TAG: invalid tag",
        "MPI_ERR_COMM: invalid communicator",
        "MPI_ERR_RANK: invalid rank",
        "MPI_ERR_REQUEST: invalid request",
        "MPI_ERR_ROOT: invalid root",
        "MPI_ERR_GROUP: invalid group",
        "MPI_ERR_OP: invalid reduce operation",
        "MPI_ERR_TOPOLOGY: invalid communicator topology",
        "MPI_ERR_DIMS: invalid topology dimension",
        "MPI_ERR_ARG: invalid argument of some other kind",
        "MPI_ERR_UNKNOWN: unknown error",
        "MPI_ERR_TRUNCATE: message truncated",
        "MPI_ERR_OTHER: known error not in list",
        "MPI_ERR_INTERN: internal error",
        "MPI_ERR_IN_STATUS: error code is in status",
        "MPI_ERR_PENDING: pending request",
        "MPI_ERR_ACCESS: invalid access mode",
        "MPI_ERR_AMODE: invalid amode argument",
        "MPI_ERR_ASSERT: invalid assert argument",
        "MPI_ERR_BAD_FILE: bad file",
        "MPI_ERR_BASE: invalid base",
        "MPI_ERR_CONVERSION: error in data conversion",
        "MPI_ERR_DISP: invalid displacement",
        "MPI_ERR_DUP_DATAREP: error duplicating data representation",
        "MPI_ERR_FILE_EXISTS: file exists already",
        "MPI_ERR_FILE_IN_USE: file already in use",
        "MPI_ERR_FILE: invalid file",
        "MPI_ERR_INFO_KEY: invalid key argument for info object",
        "MPI_ERR_INFO_NOKEY: unknown key for given info object",
        "MPI_ERR_INFO_VALUE: invalid value argument for info object",
        "MPI_ERR_INFO: invalid info object",
        "MPI_ERR_IO: input/output error",
        "MPI_ERR_KEYVAL: invalid key value",
        "MPI_ERR_LOCKTYPE: invalid lock",
        "MPI_ERR_NAME: invalid name argument",
        "MPI_ERR_NO_MEM: out of memory",
        "MPI_ERR_NOT_SAME: objects are not identical",
        "MPI_ERR_NO_SPACE: no space left on device",
        "MPI_ERR_NO_SUCH_FILE: no such file or directory",
        "MPI_ERR_PORT: invalid port",
        "MPI_ERR_QUOTA: out of quota",
        "MPI_ERR_READ_ONLY: file is read only",
        "MPI_ERR_RMA_CONFLICT: rma conflict during operation",
        "MPI_ERR_RMA_SYNC: error executing rma sync",
        "MPI_ERR_SERVICE: unknown service name",
        "MPI_ERR_SIZE: invalid size",
        "MPI_ERR_SPAWN: could not spawn processes",
        "MPI_ERR_UNSUPPORTED_DATAREP: requested data representation not supported",
        "MPI_ERR_UNSUPPORTED_OPERATION: requested operation not supported",
        "MPI_ERR_WIN: invalid window",
    };

    /** A Tutti message that reports another rank's failure or departure (what the launcher blames on that rank). */
    private static final Pattern PEER_FAILED = Pattern.compile("\\brank \\d+ (?:failed|closed|has left the job)");

    private MpiErrors() {
    }

    /**
     * An MPI error raised inside this package before it reaches a handler: unchecked, so that helpers can throw it
     * through lambdas; {@link #handle} turns it into an {@link MPIException} or a job abort.
     */
    static final class MpiError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int errorClass;

        MpiError(final int errorClass, final String detail) {
            super(detail);
            this.errorClass = errorClass;
        }

        int errorClass() {
            return errorClass;
        }
    }

    /**
     * Thrown in a rank of an embedded test job that aborted (MPI_Abort, or an error under ERRORS_ARE_FATAL):
     * the rank's thread ends with it and the job fails with it, carrying the exit status a process would have had.
     */
    static final class AbortError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int status;

        AbortError(final int status, final String message) {
            super(message);
            this.status = status;
        }

        /** @return the exit status the job would have had */
        int status() {
            return status;
        }
    }

    /**
     * Returns MPI's error string of a class.
     *
     * @param errorClass the class
     * @return the string, or a generic one for a code outside 0..53
     */
    static String string(final int errorClass) {
        return errorClass >= 0 && errorClass < STRINGS.length ? STRINGS[errorClass]
            : "MPI_ERR_UNKNOWN: unknown error (code " + errorClass + ")";
    }

    /**
     * Maps a Tutti error class to MPI's.
     *
     * @param c the Tutti class
     * @return the MPI class
     */
    static int mpiClass(final ErrorClass c) {
        return switch (c) {
            case BUFFER -> MPI.ERR_BUFFER;
            case COUNT -> MPI.ERR_COUNT;
            case TYPE -> MPI.ERR_TYPE;
            case TAG -> MPI.ERR_TAG;
            case RANK -> MPI.ERR_RANK;
            case ROOT -> MPI.ERR_ROOT;
            case TRUNCATE -> MPI.ERR_TRUNCATE;
            case OP -> MPI.ERR_OP;
            case COMM -> MPI.ERR_COMM;
            case ARG -> MPI.ERR_ARG;
            case REQUEST -> MPI.ERR_REQUEST;
            case INTERN -> MPI.ERR_INTERN;
            case PROC_FAILED, SERIALIZATION, TIMEOUT -> MPI.ERR_OTHER;
        };
    }

    /**
     * Builds the unchecked error of a class.
     *
     * @param errorClass the MPI class
     * @param detail     what was wrong, naming the argument and value
     * @return the error, to throw
     */
    static MpiError error(final int errorClass, final String detail) {
        return new MpiError(errorClass, detail);
    }

    /**
     * Builds the error of an operation this library does not provide (yet).
     *
     * @param what the operation
     * @return the error, to throw
     */
    static MpiError unsupported(final String what) {
        return new MpiError(MPI.ERR_UNSUPPORTED_OPERATION, what + " is not supported by Tutti's mpi layer yet");
    }

    /**
     * Applies a handler to a failure of a call: under ERRORS_RETURN returns the exception to throw; under
     * ERRORS_ARE_FATAL reports the error on stderr as Open MPI does and ends the job with the error code as its
     * exit status (never returns).
     *
     * @param handler the handler of the object the call was made on
     * @param call    the MPI function, e.g. {@code MPI_Send}
     * @param on      the object's name, e.g. {@code MPI_COMM_WORLD}
     * @param failure a {@link TuttiException}, an {@link MpiError} or any other runtime exception
     * @return the exception to throw
     */
    static MPIException handle(final Errhandler handler, final String call, final String on,
        final RuntimeException failure) {
        for (Throwable t = failure; null != t; t = t.getCause()) {
            if (t instanceof AbortError a) {
                throw a; // the job is already going down because a rank aborted: report that abort only
            }
        }
        final int cls = failure instanceof MpiError m ? m.errorClass()
            : failure instanceof TuttiException t ? mpiClass(t.errorClass()) : MPI.ERR_OTHER;
        final MPIException e = new MPIException(cls, string(cls), failure);
        if (null == handler || !handler.isFatal()) {
            return e;
        }
        final String rank = rankText();
        final Env env = Env.current();
        if ((null == env || !env.isTestHarness()) && failure instanceof TuttiException t
            && (ErrorClass.PROC_FAILED == t.errorClass()
            || PEER_FAILED.matcher(String.valueOf(t.getMessage())).find())) {
            // A consequence of a peer's failure: its trace lets the launcher blame that peer (and report its
            // status), not this rank's error code.
            failure.printStackTrace();
        }
        System.err.println("*** An error occurred in " + call + "\n*** reported by process [" + rank + "]\n*** on "
            + on + "\n*** " + string(cls) + " (" + failure.getMessage() + ")\n*** MPI_ERRORS_ARE_FATAL (processes in "
            + "this communicator will now abort,\n***    and potentially your MPI job)");
        throw abort(cls, "error " + cls + " in " + call + " on " + on + ": " + failure.getMessage(), e);
    }

    /**
     * Invokes a handler with an error code (MPI_*_call_errhandler): under ERRORS_ARE_FATAL reports it as Open MPI
     * does and ends the job with the code as its exit status; under ERRORS_RETURN returns normally.
     *
     * @param handler the object's handler
     * @param call    the MPI function
     * @param on      the object's name
     * @param code    the error code
     */
    static void callHandler(final Errhandler handler, final String call, final String on, final int code) {
        if (handler.isFatal()) {
            System.err.println("*** An error occurred in " + call + " on " + on + "\n*** " + string(code)
                + "\n*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n***    and "
                + "potentially your MPI job)");
            throw abort(code, call + "(" + code + ")", null);
        }
    }

    /**
     * Ends the job with an exit status: in a process, aborts the rank in Tutti (peers fail at once) and exits the
     * JVM; in an embedded test job, fails the job and returns the error that ends this rank's thread.
     *
     * @param status the exit status (low 8 bits are what the process reports)
     * @param why    the reason
     * @param cause  the underlying exception or null
     * @return the error to throw in an embedded job (a process never returns)
     */
    static AbortError abort(final int status, final String why, final Throwable cause) {
        final AbortError a = new AbortError(status, "MPI abort with status " + status + ": " + why);
        if (null != cause) {
            a.initCause(cause);
        }
        final Env env = Env.current();
        if (null != env && null != env.tutti()) {
            env.tutti().abort(a);
        }
        if (null == env || !env.isTestHarness()) {
            System.err.flush();
            System.out.flush();
            System.exit(status);
        }
        return a;
    }

    private static String rankText() {
        final Env env = Env.current();
        return null != env && null != env.world() ? Integer.toString(env.world().rank()) : "?";
    }
}
