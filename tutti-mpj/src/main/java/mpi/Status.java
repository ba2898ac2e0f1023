package mpi;

/**
 * The envelope of a received or probed message: {@link #source}, {@link #tag}, {@link #index} (public fields of
 * {@code mpjdev.Status}), and the counts behind {@link #Get_count} and {@link #Get_elements}.
 *
 * <p>Implementation note: {@code numEls} holds the basic elements received and {@code count} the items of the
 * receive call's datatype ({@code numEls / Size()}); {@code type} is the base type, so a count asked in a datatype of
 * another base type is refused. After a probe the items are basic elements. An {@code MPI.OBJECT} message seen by
 * a probe has not been deserialised, so its count is not known ({@link MPI#UNDEFINED}). A receive into a datatype of
 * no elements reports the count it asked for and {@link MPI#UNDEFINED} elements.
 */
public class Status extends mpjdev.Status implements Freeable {
    private boolean cancelled;

    /**
     * A copy of a device status's fields.
     *
     * @param s the status to copy, or null for an empty one
     */
    public Status(final mpjdev.Status s) {
        super();
        if (null != s) {
            this.source = s.source;
            this.tag = s.tag;
            this.index = s.index;
            this.count = s.count;
            this.countInBytes = s.countInBytes;
            this.numEls = s.numEls;
            this.type = s.type;
            this.srcID = s.srcID;
        }
    }

    /** An empty status. */
    public Status() {
        super();
    }

    /**
     * @param source    the sender (MPJ numbering)
     * @param tag       the tag (MPJ numbering)
     * @param elements  basic elements received, or -1 if not known
     * @param itemSize  elements per item of the receive's datatype
     * @param base      the base type
     * @param cancelled whether the request was cancelled
     */
    static Status of(final int source, final int tag, final int elements, final int itemSize, final Base base,
        final boolean cancelled) {
        final Status s = new Status();
        s.source = source;
        s.tag = tag;
        s.index = -1;
        s.numEls = elements;
        s.count = elements < 0 ? MPI.UNDEFINED : 0 == itemSize ? 0 : elements / itemSize;
        s.countInBytes = elements < 0 ? 0 : elements * base.bytes;
        s.type = base.statusType();
        s.cancelled = cancelled;
        return s;
    }

    /**
     * The number of items received, in the receive call's datatype (after a probe, in basic elements).
     *
     * @param datatype a datatype of the message's base type
     * @return the count
     * @throws MPIException if {@code datatype}'s base type is not the message's
     */
    public int Get_count(final Datatype datatype) throws MPIException {
        checkBase("Status.Get_count", datatype);
        return count;
    }

    /**
     * Whether the request was cancelled before it matched a message.
     *
     * @return true if cancelled
     * @throws MPIException never; declared as in MPJ Express
     */
    public boolean Test_cancelled() throws MPIException {
        return cancelled;
    }

    /** Frees the status: nothing to release. */
    @Override
    public void free() {
        // nothing held
    }

    /**
     * The number of basic elements received.
     *
     * @param datatype a datatype of the message's base type
     * @return the count
     * @throws MPIException if {@code datatype}'s base type is not the message's
     */
    public int Get_elements(final Datatype datatype) throws MPIException {
        checkBase("Status.Get_elements", datatype);
        return numEls;
    }

    private void checkBase(final String call, final Datatype datatype) {
        if (null == datatype) {
            throw Fail.error(call + ": datatype=null (expected the datatype of the receive)");
        }
        final mpjbuf.Type t = datatype.base().statusType();
        if (null != type && t != type) {
            throw Fail.error(call + ": datatype " + datatype + " has base type " + datatype.base() + ", but the "
                + "message holds " + type + " elements (expected a datatype of that base type)");
        }
    }
}
