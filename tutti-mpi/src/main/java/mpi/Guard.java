package mpi;

import java.util.function.Supplier;

/**
 * The error handling of a {@link Win} or a {@link File}: its handler, name and attributes, and the wrappers that
 * route a call's failure to the handler (as {@link CommBase} does for communicators).
 */
final class Guard {
    private final CommState state;
    private final int nullClass;
    private volatile boolean freed;

    /**
     * @param name      the object's name in error reports
     * @param handler   its first handler
     * @param nullClass the error class of a call on the freed (or closed) object
     */
    Guard(final String name, final Errhandler handler, final int nullClass) {
        this.state = CommState.unnamed(name);
        this.state.handler(handler);
        this.nullClass = nullClass;
    }

    CommState state() {
        return state;
    }

    /** Marks the object freed: later calls fail with the null class. */
    void free() {
        freed = true;
    }

    boolean isFreed() {
        return freed;
    }

    /** Runs a call on the live object, after the initialization check, routing failures to the handler. */
    void run(final String call, final CommBase.Body body) throws MPIException {
        get(call, () -> {
            body.run();
            return null;
        });
    }

    /** As {@link #run}, returning a value. */
    <T> T get(final String call, final Supplier<T> body) throws MPIException {
        MPI.check();
        try {
            if (freed) {
                throw MpiErrors.error(nullClass, call + ": " + state.name() + " is freed");
            }
            return body.get();
        } catch (final RuntimeException e) {
            throw MpiErrors.handle(state.handler(), call, state.name(), e);
        }
    }

    /** @return the failure of an operation Tutti does not provide: thrown, whatever the handler */
    MPIException unsupported(final String call) throws MPIException {
        MPI.check();
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, MpiErrors.string(MPI.ERR_UNSUPPORTED_OPERATION),
            MpiErrors.unsupported(call));
    }

    void setHandler(final Errhandler h) throws MPIException {
        MPI.check();
        state.handler(h);
    }

    Errhandler handler() throws MPIException {
        MPI.check();
        return new Errhandler(state.handler().isFatal());
    }

    /** MPI_*_call_errhandler: under ERRORS_ARE_FATAL the job ends with the code, under ERRORS_RETURN it returns. */
    void call(final String call, final int errorCode) {
        MpiErrors.callHandler(state.handler(), call, state.name(), errorCode);
    }
}
