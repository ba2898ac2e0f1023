package mpi;

import java.util.function.Supplier;

/**
 * A persistent request ({@code sendInit}, {@code recvInit}, ...): {@link #start()} runs its operation, which is
 * completed with the methods of {@link Request}; the request then becomes inactive and may be started again.
 */
public final class Prequest extends Request {
    private final Supplier<dev.tutti.Request> starter;
    private final Object buffers;
    private volatile boolean freed;

    Prequest(final Comm comm, final Supplier<dev.tutti.Request> starter, final Object buffers) {
        super(comm, null, null);
        this.starter = starter;
        this.buffers = buffers;
    }

    @Override
    boolean persistent() {
        return !freed;
    }

    /** Starts the operation (MPI_Start); starting an active request (started, not yet completed) is ERR_REQUEST. */
    public void start() throws MPIException {
        MPI.check();
        if (freed) {
            throw new MPIException(MPI.ERR_REQUEST, MpiErrors.string(MPI.ERR_REQUEST),
                MpiErrors.error(MPI.ERR_REQUEST, "start: the persistent request was freed"));
        }
        if (active()) {
            throw fail("MPI_Start", MpiErrors.error(MPI.ERR_REQUEST, "start: the persistent request is active (started "
                + "and not completed), expected a wait or test first"));
        }
        try {
            activate(starter.get(), buffers);
        } catch (final RuntimeException e) {
            throw fail("MPI_Start", e);
        }
    }

    /** @param requests the requests to start (MPI_Startall) */
    public static void startAll(final Prequest[] requests) throws MPIException {
        for (final Prequest r : requests) {
            r.start();
        }
    }

    /** Frees the request; an operation in progress completes in the background. */
    @Override
    public void free() throws MPIException {
        super.free();
        freed = true;
    }
}
