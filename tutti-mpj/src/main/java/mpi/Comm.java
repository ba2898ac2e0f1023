package mpi;

/**
 * A communicator: its group, point-to-point messages (every send mode, blocking, nonblocking and persistent),
 * probes, Pack/Unpack, attributes, intercommunicator creation. Every buffer is an array, an offset in elements and
 * a count in items of the datatype.
 *
 * <p>Implementation note: {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF} are one object each for all ranks of an
 * embedded job, so a communicator finds its Tutti communicator per call ({@link #tc}): the calling rank's world or
 * self for those two, the one it was made with for the others. The calls themselves are in {@link P2p} and
 * {@link Packing}.
 */
public class Comm {
    /** The communicator's group (null for {@code COMM_WORLD}/{@code COMM_SELF}, whose group is per rank). */
    public Group group;
    /** MPJ Express's device communicator: {@code mpjbuf.Buffer} sends and receives on this communicator. */
    public mpjdev.Comm mpjdevComm;

    /** Which communicator an object stands for. */
    enum Kind { WORLD, SELF, FIXED, NULL, NONMEMBER }

    final Kind kind;
    private final dev.tutti.Comm fixed;

    Comm(final Kind kind, final dev.tutti.Comm fixed) {
        this.kind = kind;
        this.fixed = fixed;
        this.group = null == fixed ? null : new Group(fixed.group());
        this.mpjdevComm = new mpjdev.Comm(() -> tc("mpjdev.Comm"));
    }

    /**
     * @param call the MPJ call, for messages
     * @return the calling rank's Tutti communicator for this object
     * @throws MPIException if MPI is not initialized, or this is COMM_NULL or a communicator the caller is not in
     */
    dev.tutti.Comm tc(final String call) {
        final Env e = Env.check(call);
        return switch (kind) {
            case WORLD -> e.world();
            case SELF -> e.self();
            case FIXED -> fixed;
            case NULL -> throw Fail.error(call + ": the communicator is MPI.COMM_NULL");
            case NONMEMBER -> throw Fail.error(call + ": this process is not a member of the communicator "
                + "(Intracomm.Create gave it one with Rank() -1)");
        };
    }

    /**
     * @return the number of processes (of the local group on an intercommunicator)
     * @throws MPIException if MPI is not initialized
     */
    public int Size() throws MPIException {
        if (Kind.NONMEMBER == kind) {
            return group.Size();
        }
        return tc("Comm.Size").size();
    }

    /**
     * @return the caller's rank, or -1 on a communicator from {@code Create} the caller is not in
     * @throws MPIException if MPI is not initialized
     */
    public int Rank() throws MPIException {
        if (Kind.NONMEMBER == kind) {
            return MPI.UNDEFINED;
        }
        return tc("Comm.Rank").rank();
    }

    /**
     * @return the group (the local group on an intercommunicator)
     * @throws MPIException if MPI is not initialized
     */
    public Group Group() throws MPIException {
        if (Kind.NONMEMBER == kind) {
            return group;
        }
        return new Group(tc("Comm.Group").group());
    }

    /**
     * @param comm1 a communicator
     * @param comm2 another
     * @return {@code MPI.IDENT} (the same), {@code MPI.CONGRUENT} (same group and order, another context),
     *         {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}
     * @throws MPIException for a null communicator
     */
    public static int Compare(final Comm comm1, final Comm comm2) throws MPIException {
        if (null == comm1 || null == comm2) {
            throw Fail.error("Comm.Compare: comm1=" + comm1 + ", comm2=" + comm2 + " (expected two communicators)");
        }
        final dev.tutti.Comm a = comm1.tc("Comm.Compare");
        final dev.tutti.Comm b = comm2.tc("Comm.Compare");
        return a == b ? MPI.IDENT : Group.compareCode(a.compare(b));
    }

    /**
     * Frees the communicator: nothing to do (Tutti releases it when unreachable), as in MPJ Express.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    public void Free() throws MPIException {
        // a no-op, as in MPJ Express: programs use communicators after Free
    }

    /**
     * @return whether this is an intercommunicator
     * @throws MPIException if MPI is not initialized
     */
    public boolean Test_inter() throws MPIException {
        return tc("Comm.Test_inter").isInter();
    }

    /**
     * Makes an intercommunicator between {@code local_comm} and another group; called on the peer communicator
     * that holds both leaders (usually {@code COMM_WORLD}), by every process of both groups.
     *
     * @param local_comm    the caller's group's intracommunicator
     * @param local_leader  the leader's rank in {@code local_comm}
     * @param remote_leader the other group's leader's rank in this (peer) communicator
     * @param tag           a tag for the leaders' exchange on the peer communicator
     * @return the intercommunicator
     * @throws MPIException for a bad argument or a failed peer
     */
    public Intercomm Create_intercomm(final Comm local_comm, final int local_leader, final int remote_leader,
        final int tag) throws MPIException {
        final String call = "Comm.Create_intercomm";
        if (null == local_comm) {
            throw Fail.error(call + ": local_comm=null (expected the caller's intracommunicator)");
        }
        final dev.tutti.Comm peer = tc(call);
        if (!(local_comm.tc(call) instanceof dev.tutti.Communicator local)) {
            throw Fail.error(call + ": local_comm is an intercommunicator (expected an intracommunicator)");
        }
        try {
            return new Intercomm(local.createIntercomm(local_leader, peer, remote_leader, P2p.sendTag(call, tag)));
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * Reads an attribute. {@code MPI.TAG_UB}, {@code MPI.HOST} and {@code MPI.IO} are all 0 (as in MPJ Express),
     * so on {@code COMM_WORLD} each reads the one value set under key 0: the caller's rank.
     *
     * @param keyval the key
     * @return the value
     * @throws MPIException if no value is set under the key ("No corresponding value to key ...")
     */
    public Object Attr_get(final int keyval) throws MPIException {
        final dev.tutti.Comm c = tc("Comm.Attr_get");
        if (Kind.WORLD == kind && 0 == keyval) {
            return Integer.valueOf(c.rank());
        }
        throw Fail.error("Comm.Attr_get: No corresponding value to key " + keyval);
    }

    /**
     * Deletes an attribute: the predefined ones cannot be deleted, so this does nothing.
     *
     * @param keyval the key
     * @throws MPIException if MPI is not initialized
     */
    public void Attr_delete(final int keyval) throws MPIException {
        tc("Comm.Attr_delete");
    }

    // ---- point-to-point: see P2p

    /**
     * Sends a message (standard mode): returns when the buffer may be reused.
     *
     * @param buf      an array of the datatype's base type ({@code Object[]} for OBJECT, mpjbuf.Buffer for PACKED)
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank, or {@code MPI.PROC_NULL}
     * @param tag      the tag, {@code >= 0}
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Send(final Object buf, final int offset, final int count, final Datatype datatype, final int dest,
        final int tag) throws MPIException {
        P2p.send(this, "Comm.Send", P2p.Mode.STANDARD, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Sends in synchronous mode: returns once the receive has started.
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Ssend(final Object buf, final int offset, final int count, final Datatype datatype, final int dest,
        final int tag) throws MPIException {
        P2p.send(this, "Comm.Ssend", P2p.Mode.SYNCHRONOUS, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Sends in buffered mode: needs an attached buffer ({@code MPI.Buffer_attach}) with room for the message.
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @throws MPIException if no buffer is attached or it has no room, or for a bad argument
     */
    public void Bsend(final Object buf, final int offset, final int count, final Datatype datatype, final int dest,
        final int tag) throws MPIException {
        P2p.send(this, "MPI.Bsend", P2p.Mode.BUFFERED, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Sends in ready mode (as standard mode: a correct ready send is a correct standard one).
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @throws MPIException for a bad argument or a failed peer
     */
    public void Rsend(final Object buf, final int offset, final int count, final Datatype datatype, final int dest,
        final int tag) throws MPIException {
        P2p.send(this, "Comm.Rsend", P2p.Mode.STANDARD, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Starts a standard send.
     *
     * @param buf      the data (see {@link #Send}); not to be changed until the request completes
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return the request
     * @throws MPIException for a bad argument
     */
    public Request Isend(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return P2p.isend(this, "Comm.Isend", P2p.Mode.STANDARD, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Starts a buffered send (complete at once: the data is in the attached buffer's account).
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return the request
     * @throws MPIException if no buffer is attached or it has no room, or for a bad argument
     */
    public Request Ibsend(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return P2p.isend(this, "MPI.Ibsend", P2p.Mode.BUFFERED, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Starts a synchronous send: the request completes once the receive has started.
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return the request
     * @throws MPIException for a bad argument
     */
    public Request Issend(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return P2p.isend(this, "Comm.Issend", P2p.Mode.SYNCHRONOUS, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Starts a ready send (as {@link #Isend}).
     *
     * @param buf      the data (see {@link #Send})
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return the request
     * @throws MPIException for a bad argument
     */
    public Request Irsend(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return P2p.isend(this, "Comm.Irsend", P2p.Mode.STANDARD, buf, offset, count, datatype, dest, tag);
    }

    /**
     * Receives a message.
     *
     * @param buf      where the data goes (see {@link #Send})
     * @param offset   the first element used
     * @param count    capacity in items of {@code datatype}; a longer message is an error
     * @param datatype the datatype
     * @param source   the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag      the tag or {@code MPI.ANY_TAG}
     * @return the status: source, tag, count
     * @throws MPIException for a bad argument, a longer message, or a failed peer
     */
    public Status Recv(final Object buf, final int offset, final int count, final Datatype datatype,
        final int source, final int tag) throws MPIException {
        return P2p.recv(this, "Comm.Recv", buf, offset, count, datatype, source, tag);
    }

    /**
     * Starts a receive.
     *
     * @param buf      where the data goes; not to be read until the request completes
     * @param offset   the first element used
     * @param count    capacity in items of {@code datatype}
     * @param datatype the datatype
     * @param src      the source rank, {@code MPI.ANY_SOURCE} or {@code MPI.PROC_NULL}
     * @param tag      the tag or {@code MPI.ANY_TAG}
     * @return the request
     * @throws MPIException for a bad argument
     */
    public Request Irecv(final Object buf, final int offset, final int count, final Datatype datatype,
        final int src, final int tag) throws MPIException {
        return P2p.irecv(this, "Comm.Irecv", buf, offset, count, datatype, src, tag);
    }

    /**
     * @param source the source rank or {@code MPI.ANY_SOURCE}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return the status of a matching message that has arrived (count in basic elements), or null
     * @throws MPIException for a bad argument
     */
    public Status Iprobe(final int source, final int tag) throws MPIException {
        return P2p.probe(this, "Comm.Iprobe", source, tag, false);
    }

    /**
     * Waits for a matching message without receiving it.
     *
     * @param source the source rank or {@code MPI.ANY_SOURCE}
     * @param tag    the tag or {@code MPI.ANY_TAG}
     * @return its status (count in basic elements)
     * @throws MPIException for a bad argument or a failed peer
     */
    public Status Probe(final int source, final int tag) throws MPIException {
        return P2p.probe(this, "Comm.Probe", source, tag, true);
    }

    /**
     * @param incount  items
     * @param datatype their datatype (not OBJECT, whose size is known only once serialised)
     * @return the bytes {@link #Pack} needs for them: an 8-byte header and the data padded to 8 bytes
     * @throws MPIException for OBJECT or a bad argument
     */
    public int Pack_size(final int incount, final Datatype datatype) throws MPIException {
        return Packing.packSize("Comm.Pack_size", incount, datatype);
    }

    /**
     * Packs items into a buffer.
     *
     * @param inbuf    the data (see {@link #Send})
     * @param offset   the first element used
     * @param incount  items of {@code datatype}
     * @param datatype the datatype
     * @param outbuf   the packed buffer
     * @param position where in it to write, in bytes
     * @return the position after what was written
     * @throws MPIException if it does not fit, or for a bad argument
     */
    public int Pack(final Object inbuf, final int offset, final int incount, final Datatype datatype,
        final mpjbuf.Buffer outbuf, final int position) throws MPIException {
        return Packing.pack("Comm.Pack", inbuf, offset, incount, datatype, outbuf, position);
    }

    /**
     * Unpacks items from a buffer.
     *
     * @param inbuf    the packed buffer
     * @param position where the section starts, in bytes
     * @param outbuf   where the data goes
     * @param offset   the first element used
     * @param outcount capacity in items of {@code datatype}
     * @param datatype the datatype
     * @return the position after the section
     * @throws MPIException if the section's type differs or it holds more than {@code outcount} items
     */
    public int Unpack(final mpjbuf.Buffer inbuf, final int position, final Object outbuf, final int offset,
        final int outcount, final Datatype datatype) throws MPIException {
        return Packing.unpack("Comm.Unpack", inbuf, position, outbuf, offset, outcount, datatype);
    }

    /**
     * @param buf      the data (see {@link #Send}); read at each Start
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return a persistent buffered send
     * @throws MPIException never before Start
     */
    public Prequest Bsend_init(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return new Prequest(() -> Ibsend(buf, offset, count, datatype, dest, tag));
    }

    /**
     * @param buf      the data (see {@link #Send}); read at each Start
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return a persistent standard send
     * @throws MPIException never before Start
     */
    public Prequest Send_init(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return new Prequest(() -> Isend(buf, offset, count, datatype, dest, tag));
    }

    /**
     * @param buf      the data (see {@link #Send}); read at each Start
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return a persistent synchronous send
     * @throws MPIException never before Start
     */
    public Prequest Ssend_init(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return new Prequest(() -> Issend(buf, offset, count, datatype, dest, tag));
    }

    /**
     * @param buf      the data (see {@link #Send}); read at each Start
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param tag      the tag
     * @return a persistent ready send
     * @throws MPIException never before Start
     */
    public Prequest Rsend_init(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return new Prequest(() -> Irsend(buf, offset, count, datatype, dest, tag));
    }

    /**
     * @param buf      where the data goes, at each Start
     * @param offset   the first element used
     * @param count    capacity in items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the source rank (named {@code dest} in MPJ Express), {@code MPI.ANY_SOURCE} or
     *                 {@code MPI.PROC_NULL}
     * @param tag      the tag or {@code MPI.ANY_TAG}
     * @return a persistent receive
     * @throws MPIException never before Start
     */
    public Prequest Recv_init(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int tag) throws MPIException {
        return new Prequest(() -> Irecv(buf, offset, count, datatype, dest, tag));
    }

    /**
     * Sends one message and receives another, without deadlock however the peers pair up.
     *
     * @param sendbuf    the data to send
     * @param sendoffset its first element
     * @param sendcount  items of {@code sendtype}
     * @param sendtype   its datatype
     * @param dest       the destination rank
     * @param sendtag    the tag sent
     * @param recvbuf    where the received data goes
     * @param recvoffset its first element
     * @param recvcount  capacity in items of {@code recvtype}
     * @param recvtype   its datatype
     * @param source     the source rank or {@code MPI.ANY_SOURCE}
     * @param recvtag    the tag or {@code MPI.ANY_TAG}
     * @return the status of the receive
     * @throws MPIException for a bad argument or a failed peer
     */
    public Status Sendrecv(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final int dest, final int sendtag, final Object recvbuf, final int recvoffset, final int recvcount,
        final Datatype recvtype, final int source, final int recvtag) throws MPIException {
        return P2p.sendrecv(this, "Comm.Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, recvbuf,
            recvoffset, recvcount, recvtype, source, recvtag);
    }

    /**
     * Sends the buffer's data and receives a message into the same place.
     *
     * @param buf      the data, then the received data
     * @param offset   the first element used
     * @param count    items of {@code datatype}
     * @param datatype the datatype
     * @param dest     the destination rank
     * @param sendtag  the tag sent
     * @param source   the source rank or {@code MPI.ANY_SOURCE}
     * @param recvtag  the tag or {@code MPI.ANY_TAG}
     * @return the status of the receive
     * @throws MPIException for a bad argument or a failed peer
     */
    public Status Sendrecv_replace(final Object buf, final int offset, final int count, final Datatype datatype,
        final int dest, final int sendtag, final int source, final int recvtag) throws MPIException {
        return P2p.sendrecvReplace(this, "Comm.Sendrecv_replace", buf, offset, count, datatype, dest, sendtag,
            source, recvtag);
    }

    /**
     * @return {@code MPI.CART} on a {@link Cartcomm}, {@code MPI.GRAPH} on a {@link Graphcomm}, else -1
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Topo_test() throws MPIException {
        return MPI.UNDEFINED;
    }

    /**
     * Returns, as MPJ Express's {@code Abort} does, after one line on the standard error that names the rank and the
     * code: MPJ Express programs call it and go on (its own test suite calls it between two tests). A program that
     * must end the job throws out of {@code main} or calls {@code System.exit}; the job then ends non-zero.
     *
     * @param errorcode the code, reported
     * @throws MPIException if MPI is not initialized
     */
    public void Abort(final int errorcode) throws MPIException {
        final Env e = Env.check("Comm.Abort");
        System.err.println("tutti-mpj: rank " + e.world().rank() + " called Comm.Abort(" + errorcode
            + "), which returns, as in MPJ Express");
    }

    /**
     * @return this object: a plain communicator is not duplicated (intracommunicators and intercommunicators are)
     * @throws MPIException never; declared as in MPJ Express
     */
    @Override
    public Object clone() throws MPIException {
        return this;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case WORLD -> "MPI.COMM_WORLD";
            case SELF -> "MPI.COMM_SELF";
            case NULL -> "MPI.COMM_NULL";
            case NONMEMBER -> "Comm(not a member)";
            case FIXED -> getClass().getSimpleName() + "(" + fixed.name() + ")";
        };
    }
}
