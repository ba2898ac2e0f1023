package mpi;

import dev.tutti.Buf;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * A matched message (MPI_Message): {@link #mProbe} or {@link #imProbe} finds a message, takes it out of the
 * matching queue and binds this handle to it; {@link #mRecv} or {@link #imRecv} receives exactly that message and
 * makes the handle null again. A probe of {@code MPI.PROC_NULL} gives the no-process message
 * ({@link #isNoProc()}), whose receive returns at once.
 *
 * <p>Implementation note: Tutti's point-to-point layer has no matched probe, so the probe here is a probe followed
 * by a receive of the probed (source, tag) into a byte array the handle holds; the later receive unpacks those
 * bytes into the user's buffer. Taking the message at probe time is what MPI requires: a matched message is no
 * longer seen by other probes and receives, so two wildcard matched probes in a row get two different messages.
 * Because messages between two processes on one communicator and tag are not overtaken, the message received is
 * the probed one, unless another thread of the same process receives from that (source, tag) between the two
 * steps of the probe (possible only with {@code MPI.THREAD_MULTIPLE}). Cost: one copy of the message.
 */
public final class Message {
    private Comm comm;
    private int source;
    private int tag;
    private boolean noProc;
    /** The bound message's bytes, packed as sent (null for the no-process message). */
    private byte[] data;

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
     * Waits for a matching message, takes it out of the matching queue and binds this handle to it (MPI_Mprobe).
     *
     * @param source the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status
     */
    public Status mProbe(final int source, final int tag, final Comm comm) throws MPIException {
        return bind("MPI_Mprobe", comm, comm.probe(source, tag));
    }

    /**
     * Binds this handle to a matching message if one has arrived (MPI_Improbe), taking it out of the queue.
     *
     * @param source the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @param comm   the communicator
     * @return the message's status, or null if none has arrived (the handle is unchanged)
     */
    public Status imProbe(final int source, final int tag, final Comm comm) throws MPIException {
        final Status s = comm.iProbe(source, tag);
        return null == s ? null : bind("MPI_Improbe", comm, s);
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
        if (null == b.data) {
            return b.comm.recv(buf, count, type, MPI.PROC_NULL, MPI.ANY_TAG);
        }
        return b.comm.get("MPI_Mrecv", () -> deliver("mRecv", b, buf, count, type));
    }

    /**
     * Receives the bound message (MPI_Imrecv); the handle becomes null. The message was taken by the probe, so the
     * request is complete when it is returned.
     *
     * @param buf   the receive buffer, direct
     * @param count its capacity in items
     * @param type  the datatype
     * @return the request
     */
    public Request imRecv(final Buffer buf, final int count, final Datatype type) throws MPIException {
        CommBase.direct(buf);
        final Bound b = take("MPI_Imrecv");
        if (null == b.data) {
            return b.comm.iRecv(buf, count, type, MPI.PROC_NULL, MPI.ANY_TAG);
        }
        final Status s = b.comm.get("MPI_Imrecv", () -> deliver("imRecv", b, buf, count, type));
        return new Request(b.comm, new DoneRequest(new dev.tutti.Status(s.getSource(), s.getTag(), b.data.length,
            dev.tutti.Datatype.BYTE, false)), null);
    }

    /** Binds the handle to the probed message, receiving its bytes (none for the no-process message). */
    private Status bind(final String call, final Comm c, final Status s) throws MPIException {
        final boolean none = MPI.PROC_NULL == s.getSource();
        final byte[] bytes = none ? null : new byte[Math.toIntExact(s.bytes())];
        if (!none) {
            c.get(call, () -> c.tc().recv(Buf.of(bytes), s.getSource(), s.getTag()));
        }
        comm = c;
        noProc = none;
        source = s.getSource();
        tag = none ? MPI.ANY_TAG : s.getTag();
        data = bytes;
        return s;
    }

    /** Unpacks the bound message into the user's buffer. */
    private static Status deliver(final String what, final Bound b, final Object buf, final int count,
        final Datatype type) {
        final int n = b.data.length;
        if (null != type && count >= 0 && n > (long) count * type.sizeBytes) {
            throw MpiErrors.error(MPI.ERR_TRUNCATE, what + ": the message of " + n + " bytes from rank=" + b.source
                + " tag=" + b.tag + " exceeds the receive buffer of count=" + count + " x " + type);
        }
        final int size = null == type ? 1 : Math.max(1, type.sizeBytes);
        final int items = null != type && null != type.shape ? n / size : (n + size - 1) / size;
        Bufs.of(what, 0 == items ? null : buf, items, type).unpack(MemorySegment.ofArray(b.data));
        return new Status(b.source, b.tag, n, false);
    }

    /** What a receive of the bound message gets. */
    private record Bound(Comm comm, int source, int tag, byte[] data) {
    }

    /** Returns what the bound message is and makes the handle null. */
    private Bound take(final String call) throws MPIException {
        MPI.check();
        if (null == comm) {
            throw new MPIException(MPI.ERR_REQUEST, MpiErrors.string(MPI.ERR_REQUEST), MpiErrors.error(MPI.ERR_REQUEST,
                call + ": the message handle is null, expected one bound by mProbe or imProbe"));
        }
        final Bound b = new Bound(comm, source, tag, data);
        comm = null;
        noProc = false;
        data = null;
        return b;
    }
}
