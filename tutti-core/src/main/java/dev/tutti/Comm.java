package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The point-to-point part of every communicator (intra- and inter-): a group of ranks that communicate, with its
 * own message space: messages sent on one communicator are never
 * received on another, and collective traffic never mixes with point-to-point traffic.
 *
 * <p>Thread-safety: every method may be called from several threads of a rank at once (MPI_THREAD_MULTIPLE).
 * Point-to-point messages from one sender to one receiver on one communicator are received in the order they were
 * sent (MPI's non-overtaking rule) when they match the same receive.
 *
 * <p>Arguments are checked before anything is sent; a bad argument throws {@link TuttiException} naming the
 * operation, the argument, its value and the allowed range, and the communicator stays usable.
 */
public abstract class Comm {
    /** Receive from any source. */
    public static final int ANY_SOURCE = -1;
    /** Receive with any tag. */
    public static final int ANY_TAG = -1;
    /** The null process: a send to it or a receive from it completes at once and moves nothing. */
    public static final int PROC_NULL = -2;
    /** The largest point-to-point tag. */
    public static final int TAG_UB = Integer.MAX_VALUE;

    private final P2pEngine engine;
    private final int p2pContext;
    private final int rank;
    private final int size;
    private final String name;
    private final int[] worldRanks;
    private final ObjectSerializer serializer;
    private final View view = new View();

    Comm(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final ObjectSerializer serializer) {
        this.engine = engine;
        this.name = name;
        this.p2pContext = p2pContext;
        this.worldRanks = worldRanks;
        this.size = null == worldRanks ? engine.worldSize() : worldRanks.length;
        this.rank = null == worldRanks ? engine.worldRank() : indexOf(worldRanks, engine.worldRank());
        this.serializer = serializer;
    }

    private static int indexOf(final int[] ranks, final int r) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == r) {
                return i;
            }
        }
        throw new IllegalArgumentException("world rank " + r + " is not a member");
    }

    /** @return this process's rank in the group, 0..size-1 */
    public int rank() {
        return rank;
    }

    /** @return the number of ranks in the group */
    public int size() {
        return size;
    }

    /** @return the communicator's name, shown in error messages */
    public String name() {
        return name;
    }

    // ------------------------------------------------------------------------------------------ point-to-point

    /**
     * Sends a message and returns when the buffer may be reused. Small messages return at once (eager); large
     * ones may wait until the receiver has posted a matching receive.
     *
     * @param buf  the data
     * @param dest the destination rank, or {@link #PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @throws TuttiException for a bad argument, or if the destination failed
     */
    public void send(final Buf buf, final int dest, final int tag) {
        isend(buf, dest, tag).waitFor();
    }

    /**
     * Starts a send.
     *
     * @param buf  the data; not to be modified until the request completes
     * @param dest the destination rank, or {@link #PROC_NULL}
     * @param tag  the tag, {@code 0..TAG_UB}
     * @return the request
     * @throws TuttiException for a bad argument
     */
    public Request isend(final Buf buf, final int dest, final int tag) {
        checkBuf("isend", buf);
        checkDest("isend", dest);
        checkSendTag("isend", tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.isend(p2pContext, toWorld(dest), tag, buf);
    }

    /**
     * Receives a message into {@code buf}, whose count is the capacity.
     *
     * @param buf    where the data goes
     * @param source the source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status: actual source, tag and size
     * @throws TuttiException for a bad argument; of class {@link ErrorClass#TRUNCATE} if the message is longer
     *                        than the buffer; of class {@link ErrorClass#TYPE} if its datatype differs
     */
    public Status recv(final Buf buf, final int source, final int tag) {
        return irecv(buf, source, tag).waitFor();
    }

    /**
     * Starts a receive.
     *
     * @param buf    where the data goes; not to be read until the request completes
     * @param source the source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the request; its status names the actual source and tag
     * @throws TuttiException for a bad argument
     */
    public Request irecv(final Buf buf, final int source, final int tag) {
        checkBuf("irecv", buf);
        checkSource("irecv", source);
        checkRecvTag("irecv", tag);
        if (PROC_NULL == source) {
            return CompletedRequest.NULL_PEER;
        }
        return engine.irecv(p2pContext, toWorldOrAny(source), tag, buf, view);
    }

    /**
     * Sends one message and receives another, without deadlock however the peers pair up.
     *
     * @param sendBuf the data to send
     * @param dest    destination rank or {@link #PROC_NULL}
     * @param sendTag tag of the sent message
     * @param recvBuf where the received data goes
     * @param source  source rank, {@link #ANY_SOURCE} or {@link #PROC_NULL}
     * @param recvTag tag to receive or {@link #ANY_TAG}
     * @return the status of the receive
     * @throws TuttiException for a bad argument or a failed transfer
     */
    public Status sendrecv(final Buf sendBuf, final int dest, final int sendTag, final Buf recvBuf,
        final int source, final int recvTag) {
        checkBuf("sendrecv", sendBuf);
        checkBuf("sendrecv", recvBuf);
        checkDest("sendrecv", dest);
        checkSendTag("sendrecv", sendTag);
        checkSource("sendrecv", source);
        checkRecvTag("sendrecv", recvTag);
        final Request r = irecv(recvBuf, source, recvTag);
        final Request s = isend(sendBuf, dest, sendTag);
        return Request.waitAll(r, s)[0];
    }

    /**
     * Waits until a matching message has arrived and returns its envelope without receiving it.
     *
     * @param source the source rank or {@link #ANY_SOURCE}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status of the message
     * @throws TuttiException for a bad argument, or if the peer fails while waiting
     */
    public Status probe(final int source, final int tag) {
        checkSource("probe", source);
        checkRecvTag("probe", tag);
        if (PROC_NULL == source) {
            return new Status(PROC_NULL, ANY_TAG, 0, Datatype.BYTE, false);
        }
        final dev.tutti.runtime.IdleStrategy idle = engine.idleStrategy();
        for (int i = 0;; i++) {
            final Status s = engine.iprobe(p2pContext, toWorldOrAny(source), tag, view);
            if (null != s) {
                return s;
            }
            idle.idle(i);
        }
    }

    /**
     * Returns the envelope of a matching message that has arrived, or null.
     *
     * @param source the source rank or {@link #ANY_SOURCE}
     * @param tag    the tag or {@link #ANY_TAG}
     * @return the status, or null if no matching message has arrived yet
     * @throws TuttiException for a bad argument
     */
    public Status iprobe(final int source, final int tag) {
        checkSource("iprobe", source);
        checkRecvTag("iprobe", tag);
        if (PROC_NULL == source) {
            return new Status(PROC_NULL, ANY_TAG, 0, Datatype.BYTE, false);
        }
        return engine.iprobe(p2pContext, toWorldOrAny(source), tag, view);
    }

    // ----------------------------------------------------------------------------------------- object messages

    /**
     * Sends any serializable value. The receiver needs no size: {@link #recvObject} allocates exactly what
     * arrives.
     *
     * @param value the value (may be null)
     * @param dest  destination rank or {@link #PROC_NULL}
     * @param tag   the tag
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    public void sendObject(final Object value, final int dest, final int tag) {
        isendObject(value, dest, tag).waitFor();
    }

    /**
     * Starts sending a value; the value is serialized before this returns, so it may then be changed.
     *
     * @param value the value
     * @param dest  destination rank or {@link #PROC_NULL}
     * @param tag   the tag
     * @return the request
     * @throws TuttiException for a bad argument or a value that cannot be serialized
     */
    public Request isendObject(final Object value, final int dest, final int tag) {
        checkDest("isendObject", dest);
        checkSendTag("isendObject", tag);
        if (PROC_NULL == dest) {
            return CompletedRequest.NULL_PEER;
        }
        final byte[] bytes = serializer.serialize(value);
        return engine.isend(p2pContext, toWorld(dest), tag, Datatype.OBJECT, MemorySegment.ofArray(bytes));
    }

    /**
     * Receives a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link #ANY_SOURCE}
     * @param tag    tag or {@link #ANY_TAG}
     * @param <T>    the expected type
     * @return the value
     * @throws TuttiException for a bad argument, a failed transfer, or a class the allow-list rejects
     */
    public <T> T recvObject(final int source, final int tag) {
        return this.<T>irecvObject(source, tag).get();
    }

    /**
     * Starts receiving a value sent with {@link #sendObject}.
     *
     * @param source source rank or {@link #ANY_SOURCE}
     * @param tag    tag or {@link #ANY_TAG}
     * @param <T>    the expected type
     * @return the request; {@link ObjectRequest#get()} returns the value
     * @throws TuttiException for a bad argument
     */
    public <T> ObjectRequest<T> irecvObject(final int source, final int tag) {
        checkSource("irecvObject", source);
        checkRecvTag("irecvObject", tag);
        if (PROC_NULL == source) {
            return new ObjectReceive<>(null, serializer);
        }
        final RecvRequest r = engine.irecvAllocating(p2pContext, toWorldOrAny(source), tag, Datatype.OBJECT, view);
        return new ObjectReceive<>(r, serializer);
    }

    // ------------------------------------------------------------------------------------------------ internals

    P2pEngine engine() {
        return engine;
    }

    int p2pContext() {
        return p2pContext;
    }

    int[] worldRanks() {
        return worldRanks;
    }

    ObjectSerializer serializer() {
        return serializer;
    }

    CommView view() {
        return view;
    }

    int toWorld(final int commRank) {
        return null == worldRanks ? commRank : worldRanks[commRank];
    }

    private int toWorldOrAny(final int source) {
        return ANY_SOURCE == source ? P2pEngine.ANY : toWorld(source);
    }

    String describe() {
        return "comm=" + name + ", rank=" + rank;
    }

    private void checkBuf(final String op, final Buf buf) {
        if (null == buf) {
            throw Errors.nullArg(op, describe(), "buf");
        }
    }

    private void checkDest(final String op, final int dest) {
        if ((dest < 0 || dest >= size) && PROC_NULL != dest) {
            throw Errors.rank(op, describe(), "dest", dest, size, " or PROC_NULL");
        }
    }

    private void checkSource(final String op, final int source) {
        if ((source < 0 || source >= size) && PROC_NULL != source && ANY_SOURCE != source) {
            throw Errors.rank(op, describe(), "source", source, size, " or ANY_SOURCE or PROC_NULL");
        }
    }

    private void checkSendTag(final String op, final int tag) {
        if (tag < 0) {
            throw Errors.tag(op, describe(), tag, TAG_UB, "");
        }
    }

    private void checkRecvTag(final String op, final int tag) {
        if (tag < 0 && ANY_TAG != tag) {
            throw Errors.tag(op, describe(), tag, TAG_UB, " or ANY_TAG");
        }
    }

    @Override
    public String toString() {
        return "Communicator(" + describe() + ", size=" + size + ")";
    }

    /** The communicator as the point-to-point layer sees it. */
    private final class View implements CommView {
        @Override
        public int toLocal(final int worldRank) {
            if (null == worldRanks) {
                return worldRank;
            }
            for (int i = 0; i < worldRanks.length; i++) {
                if (worldRanks[i] == worldRank) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public String describe() {
            return Comm.this.describe();
        }
    }

    /** An object receive: deserializes on first {@link #get()}. */
    private static final class ObjectReceive<T> implements ObjectRequest<T> {
        private final RecvRequest recv;
        private final ObjectSerializer serializer;

        ObjectReceive(final RecvRequest recv, final ObjectSerializer serializer) {
            this.recv = recv;
            this.serializer = serializer;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get() {
            if (null == recv) {
                return null;
            }
            recv.waitFor();
            return (T) serializer.deserialize(recv.receivedBytes());
        }

        @Override
        public boolean test() {
            return null == recv || recv.test();
        }

        @Override
        public Status waitFor() {
            return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor();
        }

        @Override
        public Status waitFor(final long timeout, final TimeUnit unit) {
            return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor(timeout, unit);
        }

        @Override
        public void cancel() {
            if (null != recv) {
                recv.cancel();
            }
        }
    }
}
