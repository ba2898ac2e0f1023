package mpi;

import java.util.function.Supplier;

/**
 * A persistent request ({@code Comm.Send_init}, {@code Recv_init}, ...): {@link #Start()} starts the operation it
 * describes, {@code Wait}/{@code Test} complete it, and it can be started again.
 */
public class Prequest extends Request {
    private final Supplier<Request> starter;

    Prequest(final Supplier<Request> starter) {
        super((mpjdev.Request) null);
        this.starter = starter;
    }

    /**
     * Starts the operation.
     *
     * @throws MPIException if it cannot start (a bad argument, a failed peer)
     */
    public void Start() throws MPIException {
        activate(starter.get());
    }

    /**
     * Starts every request of the array.
     *
     * @param array_of_request the requests (null elements are skipped)
     * @throws MPIException if one cannot start
     */
    public static void Startall(final Prequest[] array_of_request) throws MPIException {
        for (final Prequest p : array_of_request) {
            if (null != p) {
                p.Start();
            }
        }
    }
}
