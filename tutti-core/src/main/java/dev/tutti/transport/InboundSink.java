package dev.tutti.transport;

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
