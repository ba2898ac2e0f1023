package mpi;

import dev.tutti.Buf;
import dev.tutti.ObjectRequest;

import java.nio.Buffer;

/**
 * A communicator (MPI_Comm) over a Tutti communicator: point-to-point messages, collectives (on intra- and
 * intercommunicators; declared in the package's {@code CommCollectives}, the neighbour ones in
 * {@code CommNeighbors}), attributes, error handlers and abort. {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are
 * single objects shared by every rank of an embedded job: they find the calling rank's Tutti communicator at each
 * call (see {@link Env}). Every call reports errors through the communicator's error handler, by default
 * {@code MPI.ERRORS_ARE_FATAL}.
 *
 * <p>Send modes: buffered sends ({@code bSend}, {@code ibSend}, {@code bSendInit}) copy the message and complete
 * at once, a message above the eager limit in the space of {@link MPI#attachBuffer} ({@link Buffered});
 * synchronous sends ({@code sSend}, {@code isSend}, {@code sSendInit}) are Tutti's
 * ({@link dev.tutti.PointToPoint#ssend}): they complete only once the destination's receive has matched the
 * message; ready sends ({@code rSend} and its forms) are standard sends, which are correct ready sends.
 */
public class Comm extends CommCollectives implements Freeable, Cloneable {
    /** The split type of {@link Intracomm#splitType}: processes that share memory. */
    public static final int TYPE_SHARED = 0;

    Comm(final int predefined) {
        super(predefined);
    }

    Comm(final dev.tutti.Comm handle, final CommState state) {
        super(handle, state);
    }

    Comm(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        super(pending, state);
    }

    // ------------------------------------------------------------------------------ management

    /** @return a duplicate; failures are wrapped in a RuntimeException */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (final MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** @return a duplicate (MPI_Comm_dup): same group, new context, attributes and handler copied */
    public Comm dup() throws MPIException {
        return get("MPI_Comm_dup", () -> wrap(dupHandle(), state().copy(state().name() + "/dup")));
    }

    /** @return a duplicate created in the background (MPI_Comm_idup): usable once {@link #getRequest()} completes */
    public Comm iDup() throws MPIException {
        return get("MPI_Comm_idup", this::iDupNow);
    }

    /** @param info hints (ignored) @return a duplicate, as {@link #dup()} */
    public Comm dupWithInfo(final Info info) throws MPIException {
        return dup();
    }

    /** @return the request of an {@link #iDup()} that created this communicator, else a null request */
    public final Request getRequest() {
        return request;
    }

    /** @return the number of processes (the local group's on an intercommunicator) */
    public final int getSize() throws MPIException {
        return get("MPI_Comm_size", () -> tc().size());
    }

    /** @return the calling process's rank */
    public final int getRank() throws MPIException {
        return get("MPI_Comm_rank", () -> tc().rank());
    }

    /**
     * Compares two communicators.
     *
     * @param comm1 one
     * @param comm2 the other
     * @return {@code MPI.IDENT}, {@code MPI.CONGRUENT}, {@code MPI.SIMILAR} or {@code MPI.UNEQUAL}
     */
    public static int compare(final Comm comm1, final Comm comm2) throws MPIException {
        return comm1.get("MPI_Comm_compare", () -> Group.comparison(comm1.tc().compare(comm2.tc())));
    }

    /** Frees the communicator (collective); the handle becomes null. */
    @Override
    public final void free() throws MPIException {
        run("MPI_Comm_free", () -> {
            if (DERIVED != predefined) {
                throw MpiErrors.error(MPI.ERR_COMM, "free: " + state().name() + " cannot be freed");
            }
            freeWithTopology();
            handle = null;
        });
    }

    /** @return whether the handle is null (MPI_COMM_NULL: freed, or not a member) */
    public final boolean isNull() {
        return DERIVED == predefined && null == handle && null == pending;
    }

    /** @param info hints to keep */
    public final void setInfo(final Info info) throws MPIException {
        MPI.check();
        this.info = info;
    }

    /** @return the hints set, or an empty {@link Info} */
    public final Info getInfo() throws MPIException {
        MPI.check();
        final Info i = info;
        return null == i ? new Info() : i.dup();
    }

    /** Disconnects (MPI_Comm_disconnect): frees the communicator once its traffic is done. */
    public final void disconnect() throws MPIException {
        free();
    }

    /** @return the group of the communicator (the local group of an intercommunicator) */
    public final Group getGroup() throws MPIException {
        return get("MPI_Comm_group", () -> new Group(tc().group()));
    }

    /** @return whether this is an intercommunicator */
    public final boolean isInter() throws MPIException {
        return get("MPI_Comm_test_inter", () -> tc().isInter());
    }

    /**
     * Builds an intercommunicator (MPI_Intercomm_create), called on the peer communicator that holds both leaders.
     *
     * @param localComm    the local group's intracommunicator
     * @param localLeader  the local leader's rank in {@code localComm}
     * @param remoteLeader the remote leader's rank in this (peer) communicator
     * @param tag          a tag for the leaders' messages
     * @return the intercommunicator
     */
    public final Intercomm createIntercomm(final Comm localComm, final int localLeader, final int remoteLeader,
        final int tag) throws MPIException {
        return get("MPI_Intercomm_create", () -> intercomm(localComm, localLeader, remoteLeader, tag));
    }

    // ------------------------------------------------------------------------------------ point-to-point

    /** Sends {@code count} items (MPI_Send). */
    public final void send(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        sendNow("MPI_Send", "send", buf, count, type, dest, tag);
    }

    /** Receives at most {@code count} items (MPI_Recv). @return the status */
    public final Status recv(final Object buf, final int count, final Datatype type, final int source,
        final int tag) throws MPIException {
        return recvNow(buf, count, type, source, tag);
    }

    /** Sends and receives in one call (MPI_Sendrecv). @return the status of the receive */
    public final Status sendRecv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int dest,
        final int sendtag, final Object recvbuf, final int recvcount, final Datatype recvtype, final int source,
        final int recvtag) throws MPIException {
        return get("MPI_Sendrecv", () -> Status.of(tc().sendrecv(Bufs.of("sendRecv", sendbuf, sendcount, sendtype),
            dest, sendtag, Bufs.of("sendRecv", recvbuf, recvcount, recvtype), source, recvtag)));
    }

    /** Sends a buffer and receives into the same buffer (MPI_Sendrecv_replace). @return the status */
    public final Status sendRecvReplace(final Object buf, final int count, final Datatype type, final int dest,
        final int sendtag, final int source, final int recvtag) throws MPIException {
        return get("MPI_Sendrecv_replace", () -> sendRecvReplace(Bufs.of("sendRecvReplace", buf, count, type), dest,
            sendtag, source, recvtag));
    }

    /**
     * Sends in buffered mode (MPI_Bsend): the message is copied and sent in the background, so the call returns
     * at once. A message of at most 8 KiB goes the eager path, as in Open MPI, and needs no attached buffer; a
     * larger one takes space of the buffer {@link MPI#attachBuffer} gave until it is out (ERR_BUFFER without
     * enough). See {@code Buffered}.
     */
    public final void bSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        final Env e = Env.check();
        run("MPI_Bsend", () -> e.buffered().send(tc(e), Bufs.of("bSend", buf, count, type, e.bufCache()), dest, tag));
    }

    /** Sends in synchronous mode (MPI_Ssend): returns once the destination's receive has matched the message. */
    public final void sSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        ssendNow(buf, count, type, dest, tag);
    }

    /** Sends in ready mode (MPI_Rsend); a standard send here. */
    public final void rSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        sendNow("MPI_Rsend", "rSend", buf, count, type, dest, tag);
    }

    /** Starts a send (MPI_Isend). @return the request */
    public final Request iSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Isend", () -> tc().isend(Bufs.of("iSend", buf, count, type), dest, tag), buf);
    }

    /** Starts a buffered-mode send (MPI_Ibsend), as {@link #bSend}. @return the request, complete at once */
    public final Request ibSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        final Env e = Env.check();
        return start("MPI_Ibsend", () -> e.buffered().send(tc(e), Bufs.of("ibSend", buf, count, type), dest, tag),
            null);
    }

    /**
     * Starts a synchronous-mode send (MPI_Issend). @return the request: it completes once the destination's receive
     * has matched the message
     */
    public final Request isSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Issend", () -> tc().issend(Bufs.of("isSend", buf, count, type), dest, tag), buf);
    }

    /** Starts a ready-mode send (MPI_Irsend). @return the request */
    public final Request irSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Irsend", () -> tc().isend(Bufs.of("irSend", buf, count, type), dest, tag), buf);
    }

    /** Starts a receive (MPI_Irecv). @return the request */
    public final Request iRecv(final Buffer buf, final int count, final Datatype type, final int source,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Irecv", () -> tc().irecv(Bufs.of("iRecv", buf, count, type), source, tag), buf);
    }

    private Prequest persistentSend(final String call, final Buffer buf, final int count, final Datatype type,
        final int dest, final int tag) throws MPIException {
        direct(buf);
        final Buf b = get(call, () -> Bufs.of(call, buf, count, type));
        return new Prequest(this, () -> tc().isend(b, dest, tag), buf);
    }

    /** @return a persistent standard send (MPI_Send_init) */
    public final Prequest sendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        return persistentSend("MPI_Send_init", buf, count, type, dest, tag);
    }

    /** @return a persistent buffered send (MPI_Bsend_init): each start copies the message, as {@link #bSend} */
    public final Prequest bSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        final Buf b = get("MPI_Bsend_init", () -> Bufs.of("bSendInit", buf, count, type));
        final Env e = Env.check();
        return new Prequest(this, () -> e.buffered().send(tc(e), b, dest, tag), buf);
    }

    /** @return a persistent synchronous send (MPI_Ssend_init): each start is an {@link #isSend} */
    public final Prequest sSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        final Buf b = get("MPI_Ssend_init", () -> Bufs.of("sSendInit", buf, count, type));
        return new Prequest(this, () -> tc().issend(b, dest, tag), buf);
    }

    /** @return a persistent ready send (MPI_Rsend_init) */
    public final Prequest rSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        return persistentSend("MPI_Rsend_init", buf, count, type, dest, tag);
    }

    /** @return a persistent receive (MPI_Recv_init) */
    public final Prequest recvInit(final Buffer buf, final int count, final Datatype type, final int source,
        final int tag) throws MPIException {
        direct(buf);
        final Buf b = get("MPI_Recv_init", () -> Bufs.of("recvInit", buf, count, type));
        return new Prequest(this, () -> tc().irecv(b, source, tag), buf);
    }

    /**
     * Packs items into a byte array (MPI_Pack).
     *
     * @return the position after the packed data
     */
    public final int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf,
        final int position) throws MPIException {
        return get("MPI_Pack", () -> Packing.pack(inbuf, incount, type, outbuf, position));
    }

    /**
     * Unpacks items from a byte array (MPI_Unpack).
     *
     * @return the position after the unpacked data
     */
    public final int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount,
        final Datatype type) throws MPIException {
        return get("MPI_Unpack", () -> Packing.unpack(inbuf, position, outbuf, outcount, type));
    }

    /** @return the bytes {@code incount} items of {@code type} take when packed (MPI_Pack_size) */
    public final int packSize(final int incount, final Datatype type) throws MPIException {
        return get("MPI_Pack_size", () -> incount * type.live("packSize").sizeBytes);
    }

    /** @return the status of a matching message that has arrived, or null (MPI_Iprobe) */
    public final Status iProbe(final int source, final int tag) throws MPIException {
        return get("MPI_Iprobe", () -> {
            final dev.tutti.Status s = tc().iprobe(source, tag);
            return null == s ? null : Status.of(s);
        });
    }

    /** @return the status of a matching message, once one has arrived (MPI_Probe) */
    public final Status probe(final int source, final int tag) throws MPIException {
        return get("MPI_Probe", () -> Status.of(tc().probe(source, tag)));
    }

    // ------------------------------------------------------------------------------ attributes, errors

    /** @return a new attribute key */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Keyvals.create(Keyvals.Kind.COMM);
    }

    /** @param keyval a key from {@link #createKeyval()}: it can no longer store values (MPI_Comm_free_keyval) */
    public static void freeKeyval(final int keyval) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Comm_free_keyval", () -> Keyvals.free(Keyvals.Kind.COMM, keyval));
    }

    /** Stores a Serializable value as a copy under a key (MPI_Comm_set_attr). */
    public final void setAttr(final int keyval, final Object value) throws MPIException {
        run("MPI_Comm_set_attr", () -> {
            Keyvals.writable("setAttr", Keyvals.Kind.COMM, keyval);
            state().put(keyval, value);
        });
    }

    /** @return a fresh copy of the value under a key, a predefined attribute, or null (MPI_Comm_get_attr) */
    public final Object getAttr(final int keyval) throws MPIException {
        return get("MPI_Comm_get_attr", () -> {
            Keyvals.readable(keyval);
            return attr(keyval);
        });
    }

    /** Removes the value under a key. */
    public final void deleteAttr(final int keyval) throws MPIException {
        run("MPI_Comm_delete_attr", () -> {
            Keyvals.deletable(Keyvals.Kind.COMM, keyval);
            state().delete(keyval);
        });
    }

    /** @return the topology: {@code MPI.CART}, {@code MPI.GRAPH}, {@code MPI.DIST_GRAPH} or {@code MPI.UNDEFINED} */
    public final int getTopology() throws MPIException {
        return get("MPI_Topo_test", this::topologyKind);
    }

    /**
     * Ends the whole job with {@code errorcode} as its exit status (MPI_Abort). Does not return.
     *
     * @param errorcode the status
     */
    public final void abort(final int errorcode) throws MPIException {
        MPI.check();
        throw abortNow(errorcode);
    }

    /** @param errhandler the handler for later errors on this communicator */
    public final void setErrhandler(final Errhandler errhandler) throws MPIException {
        MPI.check();
        state().handler(errhandler);
    }

    /** @return the current handler */
    public final Errhandler getErrhandler() throws MPIException {
        MPI.check();
        return new Errhandler(state().handler().isFatal());
    }

    /**
     * Invokes the error handler with a code: under ERRORS_ARE_FATAL the job ends with that status; under
     * ERRORS_RETURN it returns normally.
     *
     * @param errorCode the code
     */
    public void callErrhandler(final int errorCode) throws MPIException {
        callHandler(errorCode);
    }

    /**
     * Combines two local vectors, {@code inOutBuf = inBuf op inOutBuf} (MPI_Reduce_local). Supported for user
     * operations and the operations this package computes itself; others throw ERR_UNSUPPORTED_OPERATION.
     */
    public static void reduceLocal(final Object inBuf, final Object inOutBuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Reduce_local", () -> Reductions.local(inBuf, inOutBuf, count, type, op));
    }

    /** @param name the new name */
    public final void setName(final String name) throws MPIException {
        run("MPI_Comm_set_name", () -> state().name(CommState.fit("setName", name)));
    }

    /**
     * Returns the name: {@code MPI_COMM_WORLD} and {@code MPI_COMM_SELF} for the predefined ones, the name last
     * set, or an empty string for a new communicator that was never named (as MPI says and Open MPI does).
     *
     * @return the name
     */
    public final String getName() throws MPIException {
        MPI.check();
        return state().shownName();
    }

    @Override
    public String toString() {
        return "mpi." + getClass().getSimpleName() + "[" + (DERIVED == predefined ? own.name()
            : WORLD == predefined ? "MPI_COMM_WORLD" : "MPI_COMM_SELF") + "]";
    }
}
