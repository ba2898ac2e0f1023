package dev.tutti;

/**
 * Point-to-point messaging: blocking and nonblocking sends and receives of {@link Buf} buffers, probes, and
 * object messages ({@code sendObject}, ...), on both communicator kinds. On an intercommunicator the ranks named
 * ({@code dest}, {@code source}) are ranks of the remote group.
 *
 * <p>Messages from one sender to one receiver on one communicator are received in the order they were sent when
 * they match the same receive (MPI's non-overtaking rule). Every method may be called from several threads of a
 * rank at once. Arguments are checked before anything is sent; a bad one throws {@link TuttiException} naming
 * the operation, the argument, its value and the allowed range, and the communicator stays usable.
 */
public interface PointToPoint {
    /**
     * Sends a message and returns when the buffer may be reused. Small messages return at once (eager); large
     * ones may wait until the receiver has posted a matching receive.
     *
     * @param buf  the data
     * @param dest the destination rank, or {@link Comm#PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @throws TuttiException for a bad argument, or if the destination failed
     */
    void send(Buf buf, int dest, int tag);

    /**
     * Starts a send.
     *
     * @param buf  the data; not to be modified until the request completes
     * @param dest the destination rank, or {@link Comm#PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @return the request
     * @throws TuttiException for a bad argument
     */
    Request isend(Buf buf, int dest, int tag);

    /**
     * Sends a message in synchronous mode (MPI_Ssend): returns only once a receive at the destination has matched
     * it (a blocking or nonblocking receive, or one after a probe) and the buffer may be reused, whatever its size.
     * A program correct with synchronous sends needs no buffering from the library.
     *
     * @param buf  the data
     * @param dest the destination rank, or {@link Comm#PROC_NULL} (returns at once)
     * @param tag  the tag, {@code 0..TAG_UB}
     * @throws TuttiException for a bad argument, or if the destination failed or left before it received it
     */
    void ssend(Buf buf, int dest, int tag);

    /**
     * Starts a send in synchronous mode (MPI_Issend): the request completes only once a receive at the destination
     * has matched the message and the buffer may be reused.
     *
     * @param buf  the data; not to be modified until the request completes
     * @param dest the destination rank, or {@link Comm#PROC_NULL} (the request is complete at once)
     * @param tag  the tag, {@code 0..TAG_UB}
     * @return the request; it fails, naming the destination, if the destination fails or leaves first
     * @throws TuttiException for a bad argument
     */
    Request issend(Buf buf, int dest, int tag);

    /**
     * Receives a message into {@code buf}, whose count is the capacity.
     *
     * @param buf    where the data goes
     * @param source the source rank, {@link Comm#ANY_SOURCE} or {@link Comm#PROC_NULL}
     * @param tag    the tag or {@link Comm#ANY_TAG}
     * @return the status: actual source, tag and size
     * @throws TuttiException for a bad argument; of class {@link ErrorClass#TRUNCATE} if the message is longer
     *                        than the buffer; of class {@link ErrorClass#TYPE} if its datatype differs
     */
    Status recv(Buf buf, int source, int tag);

    /**
     * Starts a receive.
     *
     * @param buf    where the data goes; not to be read until the request completes
     * @param source the source rank, {@link Comm#ANY_SOURCE} or {@link Comm#PROC_NULL}
     * @param tag    the tag or {@link Comm#ANY_TAG}
     * @return the request; its status names the actual source and tag
     * @throws TuttiException for a bad argument
     */
    Request irecv(Buf buf, int source, int tag);

    /**
     * Sends one message and receives another, without deadlock however the peers pair up.
     *
     * @param sendBuf the data to send
     * @param dest    destination rank or {@link Comm#PROC_NULL}
     * @param sendTag tag of the sent message
     * @param recvBuf where the received data goes
     * @param source  source rank, {@link Comm#ANY_SOURCE} or {@link Comm#PROC_NULL}
     * @param recvTag tag to receive or {@link Comm#ANY_TAG}
     * @return the status of the receive
     * @throws TuttiException for a bad argument or a failed transfer
     */
    Status sendrecv(Buf sendBuf, int dest, int sendTag, Buf recvBuf, int source, int recvTag);

    /**
     * Waits until a matching message has arrived and returns its envelope without receiving it.
     *
     * @param source the source rank or {@link Comm#ANY_SOURCE}
     * @param tag    the tag or {@link Comm#ANY_TAG}
     * @return the status of the message
     * @throws TuttiException for a bad argument, or if the peer fails while waiting
     */
    Status probe(int source, int tag);

    /**
     * Returns the envelope of a matching message that has arrived, or null.
     *
     * @param source the source rank or {@link Comm#ANY_SOURCE}
     * @param tag    the tag or {@link Comm#ANY_TAG}
     * @return the status, or null if no matching message has arrived yet
     * @throws TuttiException for a bad argument
     */
    Status iprobe(int source, int tag);

    /**
     * Sends any serializable value. The receiver needs no size: {@link #recvObject} allocates exactly what
     * arrives.
     *
     * @param value the value (may be null)
     * @param dest  destination rank or {@link Comm#PROC_NULL}
     * @param tag   the tag
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    void sendObject(Object value, int dest, int tag);

    /**
     * Starts sending a value; the value is serialized before this returns, so it may then be changed.
     *
     * @param value the value
     * @param dest  destination rank or {@link Comm#PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    Request isendObject(Object value, int dest, int tag);

    /**
     * Receives a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link Comm#ANY_SOURCE}
     * @param tag    tag or {@link Comm#ANY_TAG}
     * @param <T>    the expected type
     * @return the value
     * @throws TuttiException for a bad argument, a failed transfer, or a class the allow-list rejects
     */
    <T> T recvObject(int source, int tag);

    /**
     * Starts receiving a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link Comm#ANY_SOURCE}
     * @param tag    tag or {@link Comm#ANY_TAG}
     * @param <T>    the expected type
     * @return the request; {@link ObjectRequest#get()} returns the value
     * @throws TuttiException for a bad argument
     */
    <T> ObjectRequest<T> irecvObject(int source, int tag);
}
