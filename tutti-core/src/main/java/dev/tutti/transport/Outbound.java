package dev.tutti.transport;

import java.lang.foreign.MemorySegment;

/**
 * A message handed to a {@link Transport} for sending: its envelope, its payload and a completion callback.
 * Implemented by the point-to-point layer's send request.
 */
public interface Outbound {

    /** @return the context id (separates communicators, and p2p from collective traffic) */
    int context();

    /** @return the sender's rank in the world (the transport's rank numbering) */
    int source();

    /** @return the message tag */
    int tag();

    /**
     * @return the type code of the payload, carried for signature checks: the {@link dev.tutti.Datatype} ordinal,
     *         and for a collective message its call's header (opaque here: see {@code dev.tutti.type.TypeCode})
     */
    int typeCode();

    /**
     * Returns the payload. The transport reads it, possibly later (rendezvous), and calls
     * {@link #sent(Throwable)} once it no longer needs it.
     *
     * @return the payload bytes, possibly empty
     */
    MemorySegment payload();

    /**
     * Called once by the transport when the payload has been copied out (the buffer may be reused), or when the
     * send failed.
     *
     * @param failure null on success, else the cause
     */
    void sent(Throwable failure);
}
