package mpjdev;

import java.util.UUID;

/**
 * The envelope fields of a received or probed message, as MPJ Express's {@code mpi.Status} inherits them: programs
 * read {@link #source}, {@link #tag} and {@link #index} directly. The fields are public and mutable because they
 * are in MPJ Express; {@code mpi.Status} keeps what its methods need in fields of its own.
 */
public class Status {
    /** The sender's rank in the communicator (the remote group's on an intercommunicator). */
    public int source;
    /** The message tag. */
    public int tag;
    /** Position of the completed request in the array given to {@code Waitany}/{@code Testany}/... , else -1. */
    public int index;
    /** Items received, counted in the receive call's datatype (0 for a send or before completion). */
    public int count;
    /** Bytes of the elements received (elements times the element size; 0 for objects). */
    public int countInBytes;
    /** Basic elements received. */
    public int numEls;
    /** The element type of the message, or null if not known. */
    public mpjbuf.Type type;
    /** Unused here: MPJ Express's device identity of the sender; always null. */
    public UUID srcID;

    /** An empty status: every number 0 but {@link #index}, which is -1. */
    public Status() {
        this.index = -1;
    }

    /**
     * @param uid   the sender's device identity
     * @param tag   the tag
     * @param index the request index
     */
    public Status(final UUID uid, final int tag, final int index) {
        this.srcID = uid;
        this.tag = tag;
        this.index = index;
    }

    /**
     * @param srcID  the sender's device identity
     * @param tag    the tag
     * @param index  the request index
     * @param type   the element type
     * @param numEls the number of elements
     */
    public Status(final UUID srcID, final int tag, final int index, final mpjbuf.Type type, final int numEls) {
        this.srcID = srcID;
        this.tag = tag;
        this.index = index;
        this.type = type;
        this.numEls = numEls;
    }

    /**
     * @param source the sender's rank
     * @param tag    the tag
     * @param index  the request index
     * @param type   the element type
     * @param numEls the number of elements
     */
    public Status(final int source, final int tag, final int index, final mpjbuf.Type type, final int numEls) {
        this.source = source;
        this.tag = tag;
        this.index = index;
        this.type = type;
        this.numEls = numEls;
    }

    /**
     * @param source the sender's rank
     * @param tag    the tag
     * @param index  the request index
     */
    public Status(final int source, final int tag, final int index) {
        this.source = source;
        this.tag = tag;
        this.index = index;
    }
}
