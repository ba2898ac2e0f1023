package mpjdev;

import dev.tutti.ObjectRequest;
import java.util.function.Supplier;

/**
 * MPJ Express's device communicator, the type of {@code mpi.Comm#mpjdevComm} and of {@link MPJDev#WORLD}: blocking
 * sends and receives of {@link mpjbuf.Buffer} sections, as MPJ Express's own device tests use them.
 *
 * <p>Implementation note: each object stands for an {@code mpi} communicator and asks it for the calling rank's
 * Tutti communicator at every call (a supplier, since {@code COMM_WORLD}'s changes at each {@code MPI.Init}). A
 * buffer travels as one Tutti object message of its sections ({@link mpjbuf.Buffer#toMessage()}), on the same
 * communicator and tags as the {@code mpi} calls, as in MPJ Express. Holds no state of its own: thread-safe as far as
 * the Tutti communicator is.
 */
public final class Comm {
    private final Supplier<dev.tutti.Comm> tutti;

    /**
     * Made by {@code mpi.Comm} for its {@code mpjdevComm}; programs take {@link MPJDev#WORLD} or that field.
     *
     * @param tutti the calling rank's Tutti communicator, asked at each call
     */
    public Comm(final Supplier<dev.tutti.Comm> tutti) {
        this.tutti = tutti;
    }

    /**
     * @return the caller's rank
     * @throws MPJDevException if MPI is not initialized
     */
    public int id() {
        return tutti.get().rank();
    }

    /**
     * @return the number of processes
     * @throws MPJDevException if MPI is not initialized
     */
    public int size() {
        return tutti.get().size();
    }

    /**
     * Sends the buffer's sections (committed or not) and returns once they are on their way.
     *
     * @param buf   the buffer
     * @param dest  the destination rank
     * @param tag   the tag, {@code >= 0}
     * @param pt2pt recorded only (MPJ Express told point-to-point from collective traffic by it)
     * @throws MPJDevException if the send fails or an argument is bad
     */
    public void send(final mpjbuf.Buffer buf, final int dest, final int tag, final boolean pt2pt) {
        final String call = "mpjdev.Comm.send";
        try {
            tutti.get().sendObject(need(call, buf).toMessage(), dest, tag);
        } catch (final RuntimeException e) {
            throw failure(call, e);
        }
    }

    /**
     * Receives a buffer's sections into {@code buf}, replacing what it held; {@code buf.commit()} then makes them
     * readable.
     *
     * @param buf   the buffer (its capacity must take the static sections received)
     * @param src   the source rank, or {@code mpi.MPI.ANY_SOURCE}
     * @param tag   the tag, or {@code mpi.MPI.ANY_TAG}
     * @param pt2pt recorded only
     * @return the status: source, tag and the number of elements received
     * @throws MPJDevException if the receive fails, the message is no buffer's, or an argument is bad
     */
    public Status recv(final mpjbuf.Buffer buf, final int src, final int tag, final boolean pt2pt) {
        final String call = "mpjdev.Comm.recv";
        need(call, buf);
        try {
            final ObjectRequest<byte[]> r = tutti.get().irecvObject(mpi.MPI.ANY_SOURCE == src
                ? dev.tutti.Comm.ANY_SOURCE : src, mpi.MPI.ANY_TAG == tag ? dev.tutti.Comm.ANY_TAG : tag);
            final dev.tutti.Status st = r.waitFor();
            final int elements = buf.fromMessage(r.get());
            return new Status(st.source(), st.tag(), -1, null, elements);
        } catch (final RuntimeException e) {
            throw failure(call, e);
        }
    }

    /**
     * Waits until every process of the communicator has called it.
     *
     * @throws MPJDevException if the barrier fails
     */
    public void barrier() {
        try {
            tutti.get().barrier();
        } catch (final RuntimeException e) {
            throw failure("mpjdev.Comm.barrier", e);
        }
    }

    private static mpjbuf.Buffer need(final String call, final mpjbuf.Buffer buf) {
        if (null == buf) {
            throw new MPJDevException(call + ": buf=null (expected an mpjbuf.Buffer)");
        }
        return buf;
    }

    private static MPJDevException failure(final String call, final RuntimeException e) {
        if (e instanceof MPJDevException d) {
            return d;
        }
        return new MPJDevException(call + ": " + e.getMessage(), e);
    }
}
