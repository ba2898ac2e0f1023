package dev.tutti.transport;

import java.lang.foreign.MemorySegment;

/**
 * Moves messages reliably and in order between this rank and its peers. One instance per rank (and kind); the
 * point-to-point engine routes each destination to one transport.
 *
 * <p>Ordering contract: two messages sent by one thread to one destination arrive at the destination's
 * {@link InboundSink} in send order. A transport may deliver the data eagerly (copied out before
 * {@link #send} returns) or by rendezvous (the payload is read when the receiver matches), but either way it
 * never blocks {@code send} waiting for the receiver to post a receive.
 *
 * <p>Thread-safety: {@code send} may be called concurrently from several threads.
 */
public interface Transport extends AutoCloseable {

    /**
     * Starts sending a message; calls {@link Outbound#sent} when the payload buffer may be reused.
     *
     * @param destWorldRank the destination's world rank
     * @param message       the message
     */
    void send(int destWorldRank, Outbound message);

    /**
     * Sends a message at once if the transport can copy it out before returning (a small message, nothing queued
     * before it to that destination); the ordering contract of {@link #send} holds between both methods. Spares
     * the caller a request object on the common path of a blocking send.
     *
     * @param destWorldRank the destination's world rank
     * @param context       context id
     * @param tag           tag
     * @param typeCode      type code
     * @param payload       the bytes, reusable when this returns true
     * @return true if sent; false if nothing was done (use {@link #send})
     */
    default boolean trySendNow(final int destWorldRank, final int context, final int tag, final int typeCode,
        final MemorySegment payload) {
        return false;
    }

    /**
     * Drives progress for transports that must be polled (shared memory); returns the amount of work done.
     * Transports that progress on their own threads return 0.
     *
     * @return 0 if nothing was done
     */
    default int poll() {
        return 0;
    }

    /**
     * As {@link #poll()}, called by a waiting thread that is about to park (it found nothing to do for a while): a
     * transport whose waiting threads read for it hands the reading back to its own thread, which wakes the parked
     * thread when its message comes. The default polls.
     *
     * @return 0 if nothing was done
     */
    default int pollBeforePark() {
        return poll();
    }

    /**
     * Returns the memory this rank's peers on this transport can write into directly (the collectives keep the slots
     * of persistent calls there), or null when the transport has none.
     *
     * @return the direct memory, or null
     */
    default DirectMemory directMemory() {
        return null;
    }

    /** Releases the transport's resources. Pending sends fail. */
    @Override
    void close();

    /**
     * Leaves at once because this rank failed: no goodbye, so every peer fails this rank (and the operations that
     * need it) at once instead of treating it as closed normally; pending sends and receives fail. The default, for
     * transports without peers in other processes, is {@link #close()}.
     */
    default void abort() {
        close();
    }
}
