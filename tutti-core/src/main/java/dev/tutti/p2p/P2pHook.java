package dev.tutti.p2p;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;

/**
 * What the correctness checker adds to the point-to-point layer when it is on ({@link P2pEngine#hook}): the
 * sender's call site carried in each message's type code ({@link SiteCode}), the signature check of a receive, and
 * the register of the waits a rank is blocked in (for deadlock detection). With the checker off the engine holds no
 * hook and each of these places costs one branch on a null field.
 */
public interface P2pHook {

    /**
     * Returns the type code a user's send carries: the datatype and the sender's call site ({@link SiteCode#mark}),
     * and for a blocking send under {@code --check=strict}, where every blocking send is unbuffered, the synchronous
     * bit ({@link SyncSend#SYNC}): the engine then sends it as a synchronous send, which returns only once the
     * destination has received it (a wait the deadlock detector sees). Called on the sending thread before the
     * message is handed to its transport.
     *
     * @param destWorld the destination's world rank
     * @param type      the datatype of the send buffer
     * @param blocking  whether it is a blocking standard send ({@link P2pEngine#send})
     * @return the type code
     */
    int sendCode(int destWorld, Datatype type, boolean blocking);

    /**
     * Returns the call site of a receive being posted, captured on the posting thread.
     *
     * @return the site, opaque to this layer
     */
    Object receiveSite();

    /**
     * Checks a matched message's type signature against the receive's, beyond the engine's own rule (element types
     * equal, or one side bytes).
     *
     * @param receive the receive
     * @param source  the sender's world rank
     * @param tag     the message's tag
     * @param code    the message's whole type code
     * @param length  the message's length in bytes
     * @param expected the receive's datatype
     * @param capacity the receive buffer's size in bytes
     * @param site    the receive's call site ({@link #receiveSite()}), or null
     * @return the error naming both sides, or null if the signatures match
     */
    TuttiException signature(RecvRequest receive, int source, int tag, int code, long length, Datatype expected,
        long capacity, Object site);

    /**
     * A thread starts to block in a wait on {@code request}.
     *
     * @param request the request
     * @return a token for {@link #unblocked}
     */
    Object blocked(AbstractRequest request);

    /**
     * A thread tested {@code request} ({@link AbstractRequest#test()}) and it was not done: a thread that keeps
     * polling one request is as blocked as one that waits in it, for deadlock detection.
     *
     * @param request the request
     * @param startNs when the test began ({@link System#nanoTime()})
     */
    void polled(AbstractRequest request, long startNs);

    /**
     * The wait that {@link #blocked} returned {@code token} for has ended.
     *
     * @param token the token
     */
    void unblocked(Object token);

    /**
     * A user's nonblocking send or receive was started: the checker notes it and its call site, to list it at
     * close if it never completed.
     *
     * @param request the request
     */
    void created(AbstractRequest request);

    /**
     * The rank is done with the job ({@link P2pEngine#closing()}): report what it leaves behind.
     *
     * @return the failure the rank's leaving ends with, if the checker reported a finding on it and is to fail the
     *         job for it; else null
     */
    TuttiException closing();

    /**
     * A user's nonblocking send was started ({@link P2pEngine#isend(int, int, int, dev.tutti.Buf)}): returns the
     * request the user gets, which may watch the send buffer until the user sees the send complete. Called after
     * {@link #created}.
     *
     * @param request the request
     * @param payload the memory the send reads
     * @return the user's request
     */
    default dev.tutti.Request started(final AbstractRequest request, final java.lang.foreign.MemorySegment payload) {
        return request;
    }
}
