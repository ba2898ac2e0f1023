package mpi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffered mode of one rank: the buffer a program attached and the buffered sends still on their way. A buffered
 * send needs an attached buffer with room for its packed size plus {@code MPI.BSEND_OVERHEAD}; the data itself is
 * copied into a send of its own (Tutti sends eagerly), the attached buffer only accounts for the room, as MPI's
 * rules for {@code Bsend} require.
 */
final class Buffered {
    private ByteBuffer attached;
    private final List<Pending> pending = new ArrayList<>();
    private long used;

    private record Pending(dev.tutti.Request request, long bytes) {
    }

    synchronized void attach(final ByteBuffer buffer) {
        if (null == buffer) {
            throw Fail.error("MPI.Buffer_attach: userBuffer=null (expected a ByteBuffer)");
        }
        if (null != attached) {
            throw Fail.error("MPI.Buffer_attach: a buffer is already attached (call MPI.Buffer_detach first)");
        }
        attached = buffer;
    }

    /** Waits for every buffered send and detaches the buffer (if any). */
    void detach(final String call) {
        final List<Pending> wait;
        synchronized (this) {
            wait = new ArrayList<>(pending);
            pending.clear();
            used = 0;
            attached = null;
        }
        for (final Pending p : wait) {
            try {
                p.request().waitFor();
            } catch (final RuntimeException e) {
                throw Fail.wrap(call, e);
            }
        }
    }

    /**
     * Reserves room for a buffered send.
     *
     * @param call  the MPJ call
     * @param bytes the packed size of the message
     * @throws MPIException if no buffer is attached or it has no room left
     */
    synchronized void reserve(final String call, final long bytes) {
        if (null == attached) {
            throw Fail.error("Error in " + call + ": No buffer has been attached (call MPI.Buffer_attach first)");
        }
        pending.removeIf(p -> {
            if (p.request().test()) {
                used -= p.bytes();
                return true;
            }
            return false;
        });
        final long need = bytes + MPI.BSEND_OVERHEAD;
        if (used + need > attached.capacity()) {
            throw Fail.error("Error in " + call + ": No space left in buffer (" + need + " bytes needed, "
                + (attached.capacity() - used) + " of " + attached.capacity() + " free)");
        }
        used += need;
    }

    /** Records a buffered send reserved with {@link #reserve}. */
    synchronized void started(final dev.tutti.Request request, final long bytes) {
        pending.add(new Pending(request, bytes + MPI.BSEND_OVERHEAD));
    }
}
