package mpi;

import java.nio.Buffer;

/**
 * A matched message (MPI_Message): {@link #mProbe} or {@link #imProbe} finds a message and binds this handle to
 * it; {@link #mRecv} or {@link #imRecv} receives exactly that message and makes the handle null again. A probe of
 * {@code MPI.PROC_NULL} gives the no-process message ({@link #isNoProc()}), whose receive returns at once.
 *
 * <p>Implementation note: Tutti's point-to-point layer has no matched probe yet, so the handle records the probed
 * message's source and tag and the receive asks for that (source, tag). Because messages between two processes on
 * one communicator and tag are not overtaken, the oldest message from that source with that tag is the probed one,
 * and the receive gets it, unless another thread of the same process receives it in between: with
 * {@code MPI.THREAD_MULTIPLE}, threads that mix matched probes with ordinary receives on one (source, tag) may race.
 */
public final class Message {
    private Comm comm;
    private int source;
    private int tag;
    private boolean noProc;

    /** Creates a null message handle (MPI_MESSAGE_NULL). */
    public Message() {
    }

    /** @return whether the handle is null: not bound to a probed message */
    public boolean isNull() {
        return null == comm;
    }

    /** @return whether this is the message of a probe of {@code MPI.PROC_NULL} (MPI_MESSAGE_NO_PROC) */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * Waits for a matching message and binds this handle to it (MPI_Mprobe).
     *
     * @param source the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status
     */
    public Status mProbe(final int source, final int tag, final Comm comm) throws MPIException {
        return bind(comm, comm.probe(source, tag));
    }

    /**
     * Binds this handle to a matching message if one has arrived (MPI_Improbe).
     *
     * @param source the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status, or null if none has arrived (the handle is unchanged)
     */
    public Status imProbe(final int source, final int tag, final Comm comm) throws MPIException {
        final Status s = comm.iProbe(source, tag);
        return null == s ? null : bind(comm, s);
    }

    /**
     * Receives the bound message (MPI_Mrecv); the handle becomes null.
     *
     * @param buf   the receive buffer
     * @param count its capacity in items
     * @param type  the datatype
     * @return the status
     */
    public Status mRecv(final Object buf, final int count, final Datatype type) throws MPIException {
        final Bound b = take("MPI_Mrecv");
        return b.comm.recv(buf, count, type, b.source, b.tag);
    }

    /**
     * Starts receiving the bound message (MPI_Imrecv); the handle becomes null.
     *
     * @param buf   the receive buffer, direct
     * @param count its capacity in items
     * @param type  the datatype
     * @return the request
     */
    public Request imRecv(final Buffer buf, final int count, final Datatype type) throws MPIException {
        final Bound b = take("MPI_Imrecv");
        return b.comm.iRecv(buf, count, type, b.source, b.tag);
    }

    private Status bind(final Comm c, final Status s) {
        comm = c;
        noProc = MPI.PROC_NULL == s.getSource();
        source = s.getSource();
        tag = noProc ? MPI.ANY_TAG : s.getTag();
        return s;
    }

    /** What a receive of the bound message asks for. */
    private record Bound(Comm comm, int source, int tag) {
    }

    /** Returns what the bound message is and makes the handle null. */
    private Bound take(final String call) throws MPIException {
        MPI.check();
        if (null == comm) {
            throw new MPIException(MPI.ERR_REQUEST, Errors.string(MPI.ERR_REQUEST), Errors.error(MPI.ERR_REQUEST,
                call + ": the message handle is null, expected one bound by mProbe or imProbe"));
        }
        final Bound b = new Bound(comm, source, tag);
        comm = null;
        noProc = false;
        return b;
    }
}
