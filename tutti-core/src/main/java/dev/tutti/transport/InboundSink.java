package dev.tutti.transport;

import java.lang.foreign.MemorySegment;

/**
 * Where a transport hands what arrives: implemented by the point-to-point engine of the receiving rank.
 * Methods may be called from any thread (a sending thread for inproc, an I/O thread for tcp, a polling thread for
 * shm); implementations are thread-safe.
 */
public interface InboundSink {

    /**
     * A message arrived (or was announced) and must be matched.
     *
     * @param message the message
     */
    void arrive(Inbound message);

    /**
     * Offers a small message whose bytes the caller holds only during this call: if a posted receive matches it,
     * the bytes are copied into that receive now and true is returned; otherwise nothing happens and false is
     * returned, and the caller must then hand the message to {@link #arrive} (before any later message of the same
     * sender). Saves an {@link Inbound} object per expected message.
     *
     * @param context  context id
     * @param source   sender's world rank
     * @param tag      tag
     * @param typeCode type code
     * @param bytes    memory holding the payload
     * @param offset   where the payload starts in {@code bytes}
     * @param length   payload bytes
     * @return whether the message was received
     */
    default boolean arriveNow(final int context, final int source, final int tag, final int typeCode,
        final MemorySegment bytes, final long offset, final long length) {
        return false;
    }

    /**
     * The connection to a peer is lost: operations that depend on it must fail.
     *
     * @param worldRank the peer
     * @param cause     what happened
     */
    void peerFailed(int worldRank, Throwable cause);

    /**
     * A peer closed normally (said goodbye): nothing more will come from it, so operations that wait specifically
     * for it must fail; operations that may be satisfied by other peers are unaffected.
     *
     * @param worldRank the peer
     */
    void peerLeft(int worldRank);
}
