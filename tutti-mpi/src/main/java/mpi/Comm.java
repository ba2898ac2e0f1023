package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ObjectRequest;

import java.nio.Buffer;

/**
 * A communicator (MPI_Comm) over a Tutti communicator: point-to-point messages, collectives (on intra- and
 * intercommunicators), attributes, error handlers and abort. {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are
 * single objects shared by every rank of an embedded job: they find the calling rank's Tutti communicator at each
 * call (see {@link Env}). Every call reports errors through the communicator's error handler, by default
 * {@code MPI.ERRORS_ARE_FATAL}.
 *
 * <p>Send modes: {@code bSend}, {@code sSend} and {@code rSend} are standard sends for now (Tutti has no
 * synchronous mode yet, and a standard send is a correct buffered or ready send).
 */
public class Comm extends CommNeighbors implements Freeable, Cloneable {
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
                throw Errors.error(MPI.ERR_COMM, "free: " + state().name() + " cannot be freed");
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

    /** Sends in buffered mode (MPI_Bsend); a standard send here. */
    public final void bSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        sendNow("MPI_Bsend", "bSend", buf, count, type, dest, tag);
    }

    /** Sends in synchronous mode (MPI_Ssend); a standard send here. */
    public final void sSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        sendNow("MPI_Ssend", "sSend", buf, count, type, dest, tag);
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

    /** Starts a buffered-mode send (MPI_Ibsend). @return the request */
    public final Request ibSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Ibsend", () -> tc().isend(Bufs.of("ibSend", buf, count, type), dest, tag), buf);
    }

    /** Starts a synchronous-mode send (MPI_Issend). @return the request */
    public final Request isSend(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        direct(buf);
        return start("MPI_Issend", () -> tc().isend(Bufs.of("isSend", buf, count, type), dest, tag), buf);
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

    /** @return a persistent buffered send (MPI_Bsend_init) */
    public final Prequest bSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        return persistentSend("MPI_Bsend_init", buf, count, type, dest, tag);
    }

    /** @return a persistent synchronous send (MPI_Ssend_init) */
    public final Prequest sSendInit(final Buffer buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException {
        return persistentSend("MPI_Ssend_init", buf, count, type, dest, tag);
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
        return CommState.newKeyval();
    }

    /** @param keyval a key; nothing to release */
    public static void freeKeyval(final int keyval) throws MPIException {
        MPI.check();
    }

    /** Stores a Serializable value as a copy under a key (MPI_Comm_set_attr). */
    public final void setAttr(final int keyval, final Object value) throws MPIException {
        run("MPI_Comm_set_attr", () -> state().put(keyval, value));
    }

    /** @return a fresh copy of the value under a key, a predefined attribute, or null (MPI_Comm_get_attr) */
    public final Object getAttr(final int keyval) throws MPIException {
        return get("MPI_Comm_get_attr", () -> attr(keyval));
    }

    /** Removes the value under a key. */
    public final void deleteAttr(final int keyval) throws MPIException {
        run("MPI_Comm_delete_attr", () -> state().delete(keyval));
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

    // ------------------------------------------------------------------------------------------ collectives
    // Counts are in items of the datatype; the forms without a second buffer are MPI's in-place variants.

    /** Waits until every process has called it (MPI_Barrier). */
    public final void barrier() throws MPIException {
        run("MPI_Barrier", () -> Coll.barrier(tc(), false));
    }

    /** @return the request of a nonblocking barrier (MPI_Ibarrier) */
    public final Request iBarrier() throws MPIException {
        return start("MPI_Ibarrier", () -> Coll.barrier(tc(), true), null);
    }

    /** Broadcasts from {@code root} (MPI_Bcast). */
    public final void bcast(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Bcast", () -> Coll.bcast(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking broadcast (MPI_Ibcast) */
    public final Request iBcast(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Ibcast", () -> Coll.bcast(tc(), true, buf, count, type, root), buf);
    }

    /** Gathers every process's block at {@code root} (MPI_Gather). */
    public final void gather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Gather", () -> Coll.gather(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype, root));
    }

    /** In-place gather: at the root {@code buf} receives and holds its own block already. */
    public final void gather(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Gather", () -> Coll.gatherInPlace(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking gather (MPI_Igather) */
    public final Request iGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Igather", () -> Coll.gather(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place gather */
    public final Request iGather(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Igather", () -> Coll.gatherInPlace(tc(), true, buf, count, type, root), buf);
    }

    /** Gathers blocks of different sizes at {@code root} (MPI_Gatherv). */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.FULL, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype, root));
    }

    /** The root's in-place gatherv: its own block is already in {@code recvbuf}. */
    public final void gatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.ROOT_IN_PLACE, null, 0, null, recvbuf,
            recvcount, displs, recvtype, root));
    }

    /** A non-root's gatherv, when the root gathers in place. */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException {
        run("MPI_Gatherv", () -> Coll.gatherv(tc(), false, Coll.Form.NON_ROOT, sendbuf, sendcount, sendtype, null,
            null, null, null, root));
    }

    /** @return the request of a nonblocking gatherv (MPI_Igatherv) */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.FULL, sendbuf, sendcount, sendtype,
            recvbuf, recvcount, displs, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of the root's nonblocking in-place gatherv */
    public final Request iGatherv(final Buffer recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException {
        direct(recvbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.ROOT_IN_PLACE, null, 0, null,
            recvbuf, recvcount, displs, recvtype, root), recvbuf);
    }

    /** @return the request of a non-root's nonblocking gatherv */
    public final Request iGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final int root) throws MPIException {
        direct(sendbuf);
        return start("MPI_Igatherv", () -> Coll.gatherv(tc(), true, Coll.Form.NON_ROOT, sendbuf, sendcount,
            sendtype, null, null, null, null, root), sendbuf);
    }

    /** Scatters blocks from {@code root} (MPI_Scatter). */
    public final void scatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        run("MPI_Scatter", () -> Coll.scatter(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype, root));
    }

    /** In-place scatter: at the root {@code buf} is the send buffer (its own block stays), elsewhere the receive one. */
    public final void scatter(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException {
        run("MPI_Scatter", () -> Coll.scatterInPlace(tc(), false, buf, count, type, root));
    }

    /** @return the request of a nonblocking scatter (MPI_Iscatter) */
    public final Request iScatter(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iscatter", () -> Coll.scatter(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place scatter */
    public final Request iScatter(final Buffer buf, final int count, final Datatype type, final int root)
        throws MPIException {
        direct(buf);
        return start("MPI_Iscatter", () -> Coll.scatterInPlace(tc(), true, buf, count, type, root), buf);
    }

    /** Scatters blocks of different sizes from {@code root} (MPI_Scatterv). */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.FULL, sendbuf, sendcount, displs, sendtype,
            recvbuf, recvcount, recvtype, root));
    }

    /** The root's in-place scatterv: its own block stays in {@code sendbuf}. */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final int root) throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.ROOT_IN_PLACE, sendbuf, sendcount, displs,
            sendtype, null, 0, null, root));
    }

    /** A non-root's scatterv, when the root scatters in place. */
    public final void scatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        run("MPI_Scatterv", () -> Coll.scatterv(tc(), false, Coll.Form.NON_ROOT, null, null, null, null, recvbuf,
            recvcount, recvtype, root));
    }

    /** @return the request of a nonblocking scatterv (MPI_Iscatterv) */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Buffer recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.FULL, sendbuf, sendcount, displs,
            sendtype, recvbuf, recvcount, recvtype, root), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of the root's nonblocking in-place scatterv */
    public final Request iScatterv(final Buffer sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final int root) throws MPIException {
        direct(sendbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.ROOT_IN_PLACE, sendbuf, sendcount,
            displs, sendtype, null, 0, null, root), sendbuf);
    }

    /** @return the request of a non-root's nonblocking scatterv */
    public final Request iScatterv(final Buffer recvbuf, final int recvcount, final Datatype recvtype,
        final int root) throws MPIException {
        direct(recvbuf);
        return start("MPI_Iscatterv", () -> Coll.scatterv(tc(), true, Coll.Form.NON_ROOT, null, null, null, null,
            recvbuf, recvcount, recvtype, root), recvbuf);
    }

    /** Gathers every process's block at every process (MPI_Allgather). */
    public final void allGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Allgather", () -> Coll.allGather(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype));
    }

    /** In-place allgather: each process's block is already in place in {@code buf}. */
    public final void allGather(final Object buf, final int count, final Datatype type) throws MPIException {
        run("MPI_Allgather", () -> Coll.allGather(tc(), false, null, 0, null, buf, count, type));
    }

    /** @return the request of a nonblocking allgather (MPI_Iallgather) */
    public final Request iAllGather(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallgather", () -> Coll.allGather(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allgather */
    public final Request iAllGather(final Buffer buf, final int count, final Datatype type) throws MPIException {
        direct(buf);
        return start("MPI_Iallgather", () -> Coll.allGather(tc(), true, null, 0, null, buf, count, type), buf);
    }

    /** Allgather with blocks of different sizes (MPI_Allgatherv). */
    public final void allGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        run("MPI_Allgatherv", () -> Coll.allGatherv(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            displs, recvtype));
    }

    /** In-place allgatherv. */
    public final void allGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype) throws MPIException {
        run("MPI_Allgatherv", () -> Coll.allGatherv(tc(), false, null, 0, null, recvbuf, recvcount, displs,
            recvtype));
    }

    /** @return the request of a nonblocking allgatherv (MPI_Iallgatherv) */
    public final Request iAllGatherv(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype)
        throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallgatherv", () -> Coll.allGatherv(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allgatherv */
    public final Request iAllGatherv(final Buffer buf, final int[] count, final int[] displs, final Datatype type)
        throws MPIException {
        direct(buf);
        return start("MPI_Iallgatherv", () -> Coll.allGatherv(tc(), true, null, 0, null, buf, count, displs, type),
            buf);
    }

    /** Sends block i to process i and receives block j from process j (MPI_Alltoall). */
    public final void allToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        run("MPI_Alltoall", () -> Coll.allToAll(tc(), false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
            recvtype));
    }

    /** @return the request of a nonblocking alltoall (MPI_Ialltoall) */
    public final Request iAllToAll(final Buffer sendbuf, final int sendcount, final Datatype sendtype,
        final Buffer recvbuf, final int recvcount, final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ialltoall", () -> Coll.allToAll(tc(), true, sendbuf, sendcount, sendtype, recvbuf,
            recvcount, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Alltoall with blocks of different sizes (MPI_Alltoallv). */
    public final void allToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        run("MPI_Alltoallv", () -> Coll.allToAllv(tc(), false, sendbuf, sendcount, sdispls, sendtype, recvbuf,
            recvcount, rdispls, recvtype));
    }

    /** @return the request of a nonblocking alltoallv (MPI_Ialltoallv) */
    public final Request iAllToAllv(final Buffer sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Buffer recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ialltoallv", () -> Coll.allToAllv(tc(), true, sendbuf, sendcount, sdispls, sendtype,
            recvbuf, recvcount, rdispls, recvtype), new Object[] {sendbuf, recvbuf});
    }

    /** Alltoall with a datatype per block and displacements in bytes (MPI_Alltoallw). */
    public final void allToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException {
        direct(sendBuf, recvBuf);
        run("MPI_Alltoallw", () -> Coll.allToAllw(tc(), false, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
            recvCount, rDispls, recvTypes));
    }

    /** @return the request of a nonblocking alltoallw (MPI_Ialltoallw) */
    public final Request iAllToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException {
        direct(sendBuf, recvBuf);
        return start("MPI_Ialltoallw", () -> Coll.allToAllw(tc(), true, sendBuf, sendCount, sDispls, sendTypes,
            recvBuf, recvCount, rDispls, recvTypes), new Object[] {sendBuf, recvBuf});
    }

    /** Reduces every process's vector into {@code recvbuf} at {@code root} (MPI_Reduce). */
    public final void reduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException {
        run("MPI_Reduce", () -> Coll.reduce(tc(), false, sendbuf, recvbuf, false, count, type, op, root));
    }

    /** In-place reduce: at the root {@code buf} holds its input and receives the result; elsewhere it is the input. */
    public final void reduce(final Object buf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException {
        run("MPI_Reduce", () -> Coll.reduce(tc(), false, null, buf, true, count, type, op, root));
    }

    /** @return the request of a nonblocking reduce (MPI_Ireduce) */
    public final Request iReduce(final Buffer sendbuf, final Buffer recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce", () -> Coll.reduce(tc(), true, sendbuf, recvbuf, false, count, type, op, root),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce */
    public final Request iReduce(final Buffer buf, final int count, final Datatype type, final Op op,
        final int root) throws MPIException {
        direct(buf);
        return start("MPI_Ireduce", () -> Coll.reduce(tc(), true, null, buf, true, count, type, op, root), buf);
    }

    /** Reduces every process's vector into every process's {@code recvbuf} (MPI_Allreduce). */
    public final void allReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException {
        final Env e = Env.check(); // the hot path, without run's lambda
        try {
            Coll.allReduce(tc(e), false, sendbuf, recvbuf, false, count, type, op);
        } catch (final RuntimeException x) {
            throw fail("MPI_Allreduce", x);
        }
    }

    /** In-place allreduce: {@code buf} is input and output. */
    public final void allReduce(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Allreduce", () -> Coll.allReduce(tc(), false, null, buf, true, count, type, op));
    }

    /** @return the request of a nonblocking allreduce (MPI_Iallreduce) */
    public final Request iAllReduce(final Buffer sendbuf, final Buffer recvbuf, final int count,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Iallreduce", () -> Coll.allReduce(tc(), true, sendbuf, recvbuf, false, count, type, op),
            new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place allreduce */
    public final Request iAllReduce(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Iallreduce", () -> Coll.allReduce(tc(), true, null, buf, true, count, type, op), buf);
    }

    /** Reduces and scatters blocks of {@code recvcounts[i]} items (MPI_Reduce_scatter). */
    public final void reduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException {
        run("MPI_Reduce_scatter", () -> Coll.reduceScatter(tc(), false, sendbuf, recvbuf, false, recvcounts, type,
            op));
    }

    /** In-place reduce-scatter: {@code buf} holds the input; this process's block of the result goes first. */
    public final void reduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Reduce_scatter", () -> Coll.reduceScatter(tc(), false, null, buf, true, counts, type, op));
    }

    /** @return the request of a nonblocking reduce-scatter (MPI_Ireduce_scatter) */
    public final Request iReduceScatter(final Buffer sendbuf, final Buffer recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce_scatter", () -> Coll.reduceScatter(tc(), true, sendbuf, recvbuf, false,
            recvcounts, type, op), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce-scatter */
    public final Request iReduceScatter(final Buffer buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Ireduce_scatter", () -> Coll.reduceScatter(tc(), true, null, buf, true, counts, type, op),
            buf);
    }

    /** Reduces and scatters blocks of {@code recvcount} items (MPI_Reduce_scatter_block). */
    public final void reduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException {
        run("MPI_Reduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), false, sendbuf, recvbuf, false,
            recvcount, type, op));
    }

    /** In-place reduce-scatter-block: {@code buf} holds the input; this process's block goes first. */
    public final void reduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        run("MPI_Reduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), false, null, buf, true, count, type,
            op));
    }

    /** @return the request of a nonblocking reduce-scatter-block (MPI_Ireduce_scatter_block) */
    public final Request iReduceScatterBlock(final Buffer sendbuf, final Buffer recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException {
        direct(sendbuf, recvbuf);
        return start("MPI_Ireduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), true, sendbuf, recvbuf,
            false, recvcount, type, op), new Object[] {sendbuf, recvbuf});
    }

    /** @return the request of a nonblocking in-place reduce-scatter-block */
    public final Request iReduceScatterBlock(final Buffer buf, final int count, final Datatype type, final Op op)
        throws MPIException {
        direct(buf);
        return start("MPI_Ireduce_scatter_block", () -> Coll.reduceScatterBlock(tc(), true, null, buf, true,
            count, type, op), buf);
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
        MPI.check();
        state().name(name);
    }

    /** @return the name ({@code MPI_COMM_WORLD} for the world) */
    public final String getName() throws MPIException {
        MPI.check();
        return state().name();
    }

    @Override
    public String toString() {
        return "mpi." + getClass().getSimpleName() + "[" + (DERIVED == predefined ? own.name()
            : WORLD == predefined ? "MPI_COMM_WORLD" : "MPI_COMM_SELF") + "]";
    }
}
