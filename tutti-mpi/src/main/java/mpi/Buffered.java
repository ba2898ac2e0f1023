package mpi;

import dev.tutti.Buf;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Buffered mode (MPI 3.6): the buffer {@link MPI#attachBuffer} gave, and the messages of {@code bSend},
 * {@code ibSend} and started {@code bSendInit} requests that are still on their way. A buffered send completes
 * locally: its data is copied and sent in the background, so two processes that buffer-send to each other before
 * either receives do not wait for each other, as MPI requires of this mode.
 *
 * <p>A message of at most {@link #EAGER_BYTES} packed bytes goes the eager path and takes no space of the
 * attached buffer: it completes with no buffer attached, or with one too full to hold it. This is what Open MPI
 * does: its ob1 PML sends a buffered message that fits the transport's eager limit by copying it into a transport
 * fragment ({@code mca_pml_ob1_send_request_start_copy}), and only a larger one is copied into the attached buffer,
 * where a missing buffer or missing room is {@code MPI_ERR_BUFFER}. Programs written for Open MPI rely on it when
 * they {@code bSend} a few values without {@code attachBuffer}.
 *
 * <p>Implementation note: each message's data is packed into a copy of its own (not into the attached array,
 * whose space is only accounted for, as the mode's rules are about space), so a buffered send completes locally
 * whatever the transport does with the message; the copy of an eager one is Open MPI's fragment. A message above
 * {@link #EAGER_BYTES} takes its packed size plus {@code MPI.BSEND_OVERHEAD} bytes of the attached buffer until its
 * send completes; one that does not fit, or finds no buffer attached, is an ERR_BUFFER error. Completed sends are
 * reaped at each buffered send; {@link #detach} waits for all. A background send that fails (its peer left) is
 * reported by the next call here. All state is guarded by this object's lock; one instance per rank.
 */
final class Buffered {
    /**
     * The largest buffered message (packed bytes) sent on the eager path, without space of the attached buffer.
     * It is the smallest of Tutti's eager limits (the in-process transport's default, {@code tutti.inproc.eagerLimit};
     * shared memory's and tcp's are larger), so whether a buffered send needs an attached buffer does not depend on
     * the transport that reaches its destination, as a program must behave the same in the embedded mode and over
     * processes. Open MPI's eager limits are of the same order (4 KiB over shared memory, 64 KiB over tcp).
     */
    static final int EAGER_BYTES = 8 * 1024;

    /** A message on its way: its send and the bytes of the attached buffer it takes. */
    private record Pending(dev.tutti.Request send, long bytes) {
    }

    private final Deque<Pending> pending = new ArrayDeque<>();
    private byte[] area;
    private long used;
    private RuntimeException failure;

    /**
     * Attaches the buffer of buffered mode (MPI_Buffer_attach).
     *
     * @param buffer the buffer
     * @throws MpiErrors.MpiError ERR_BUFFER if a buffer is attached already, or for null
     */
    synchronized void attach(final byte[] buffer) {
        if (null == buffer) {
            throw MpiErrors.error(MPI.ERR_BUFFER, "attachBuffer: buffer=null, expected a byte array");
        }
        if (null != area) {
            throw MpiErrors.error(MPI.ERR_BUFFER, "attachBuffer: a buffer of " + area.length + " bytes is attached "
                + "already, expected detachBuffer first");
        }
        area = buffer;
        used = 0;
    }

    /**
     * Detaches the buffer (MPI_Buffer_detach), once every buffered message is out.
     *
     * @return the buffer attachBuffer gave, or null if none is attached
     */
    synchronized byte[] detach() {
        final byte[] b = area;
        try {
            drain();
        } finally {
            area = null;
            used = 0;
        }
        return b;
    }

    /** Waits until every buffered message is out (at detach, and at Finalize); a failure is thrown. */
    synchronized void drain() {
        while (!pending.isEmpty()) {
            final Pending p = pending.poll();
            try {
                p.send().waitFor();
            } catch (final RuntimeException e) {
                keep(e);
            }
            used -= p.bytes();
        }
        rethrow();
    }

    /**
     * Sends a message in buffered mode: copies it, takes its space in the attached buffer and starts its send.
     *
     * @param comm the communicator
     * @param data the message
     * @param dest the destination ({@code MPI.PROC_NULL}: nothing is sent)
     * @param tag  the tag
     * @return a request that is complete: the message was copied
     * @throws MpiErrors.MpiError ERR_BUFFER for a message above {@link #EAGER_BYTES} when no buffer is attached or the
     *                         message does not fit in the free part of the attached one
     */
    synchronized dev.tutti.Request send(final dev.tutti.Comm comm, final Buf data, final int dest, final int tag) {
        reap();
        rethrow();
        if (MPI.PROC_NULL == dest) {
            return DoneRequest.SENT;
        }
        final long bytes = data.byteSize();
        if (bytes <= EAGER_BYTES) {
            start(comm, data, dest, tag, 0);
            return DoneRequest.SENT;
        }
        final long need = bytes + MPI.BSEND_OVERHEAD;
        if (null == area) {
            throw MpiErrors.error(MPI.ERR_BUFFER, "bSend: no buffer is attached for a message of " + bytes + " bytes "
                + "(above the eager limit of " + EAGER_BYTES + "), expected MPI.attachBuffer with at least " + need
                + " bytes (the message's " + bytes + " + MPI.BSEND_OVERHEAD)");
        }
        if (used + need > area.length) {
            throw MpiErrors.error(MPI.ERR_BUFFER, "bSend: the message needs " + need + " bytes of the attached buffer "
                + "(" + bytes + " + MPI.BSEND_OVERHEAD; it is above the eager limit of " + EAGER_BYTES + "), "
                + (area.length - used) + " of its " + area.length + " are free");
        }
        start(comm, data, dest, tag, need);
        return DoneRequest.SENT;
    }

    /** Copies a message and starts its send, which holds {@code need} bytes of the attached buffer until done. */
    private void start(final dev.tutti.Comm comm, final Buf data, final int dest, final int tag, final long need) {
        final byte[] copy = new byte[Math.toIntExact(data.byteSize())];
        data.pack(MemorySegment.ofArray(copy));
        final dev.tutti.Datatype wire = dev.tutti.Datatype.BOOLEAN == data.datatype() ? dev.tutti.Datatype.BYTE
            : data.datatype();
        final dev.tutti.Request r = comm.isend(Buf.of(MemorySegment.ofArray(copy), wire), dest, tag);
        pending.add(new Pending(r, need));
        used += need;
    }

    /** Forgets the sends that have completed, giving their space back. */
    private void reap() {
        for (int n = pending.size(); n > 0; n--) {
            final Pending p = pending.poll();
            boolean done;
            try {
                done = p.send().test();
            } catch (final RuntimeException e) {
                keep(e);
                done = true;
            }
            if (done) {
                used -= p.bytes();
            } else {
                pending.add(p);
            }
        }
    }

    private void keep(final RuntimeException e) {
        if (null == failure) {
            failure = e;
        } else {
            failure.addSuppressed(e);
        }
    }

    private void rethrow() {
        final RuntimeException f = failure;
        if (null != f) {
            failure = null;
            throw f;
        }
    }
}
