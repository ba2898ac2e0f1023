package mpi;

/**
 * The envelope of a completed receive or a probe (MPI_Status): source, tag, error, size and whether the request
 * was cancelled; {@link #getIndex()} is set by {@link Request#waitAnyStatus} and friends. No public constructor.
 */
public final class Status {
    private final int source;
    private final int tag;
    private int error;
    private long bytes;
    private boolean cancelled;
    private int index = MPI.UNDEFINED;

    Status(final int source, final int tag, final long bytes, final boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        this.cancelled = cancelled;
    }

    /**
     * Converts Tutti's status.
     *
     * @param s the status, or null
     * @return the mpi status (an empty one for null)
     */
    static Status of(final dev.tutti.Status s) {
        if (null == s) {
            return empty();
        }
        return new Status(s.source(), s.tag(), s.bytes(), s.cancelled());
    }

    /** @return the status of a request that moved no message: any source, any tag, nothing received */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, false);
    }

    /** @return the message's size in bytes */
    long bytes() {
        return bytes;
    }

    /**
     * Sets the index for the "any"/"some" calls of {@link Request}.
     *
     * @param i the index
     * @return this
     */
    Status index(final int i) {
        index = i;
        return this;
    }

    /**
     * Returns the number of items of a datatype the message held.
     *
     * @param datatype the datatype
     * @return the count, or {@code MPI.UNDEFINED} if the message is not a whole number of items
     */
    public int getCount(final Datatype datatype) throws MPIException {
        MPI.check();
        final int e = datatype.sizeBytes;
        if (0 == e) {
            return 0 == bytes ? 0 : MPI.UNDEFINED;
        }
        return 0 == bytes % e ? (int) (bytes / e) : MPI.UNDEFINED;
    }

    /** @return whether the request was cancelled */
    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /**
     * Returns the number of basic elements of a datatype the message held (two per item of a pair type).
     *
     * @param datatype the datatype
     * @return the count, or {@code MPI.UNDEFINED} if the message is not a whole number of basic elements
     */
    public int getElements(final Datatype datatype) throws MPIException {
        MPI.check();
        final long size = datatype.sizeBytes;
        if (0 == size) {
            return 0 == bytes ? 0 : MPI.UNDEFINED;
        }
        final int[] sizes = datatype.signature;
        if (null == sizes) { // every basic element has one size
            final long e = size / Math.max(1, datatype.elementsPerItem);
            return 0 == bytes % e ? (int) (bytes / e) : MPI.UNDEFINED;
        }
        // whole items, then the basic elements of the last, partial item in type-map order
        long n = bytes / size * datatype.elementsPerItem;
        long rest = bytes % size;
        for (int i = 0; i < sizes.length && rest >= sizes[i] && rest > 0; i++) {
            rest -= sizes[i];
            n++;
        }
        return 0 == rest ? (int) n : MPI.UNDEFINED;
    }

    /** @param datatype the datatype @return {@link #getElements} as a {@link Count} */
    public Count getElementsX(final Datatype datatype) throws MPIException {
        return new Count(getElements(datatype));
    }

    /** @param datatype the datatype @param count basic elements the status shall report */
    public void setElements(final Datatype datatype, final int count) throws MPIException {
        MPI.check();
        bytes = (long) count * (datatype.sizeBytes / Math.max(1, datatype.elementsPerItem));
    }

    /** @param datatype the datatype @param count basic elements the status shall report */
    public void setElementsX(final Datatype datatype, final Count count) throws MPIException {
        setElements(datatype, (int) count.getCount());
    }

    /** @param flag whether the status shall report a cancelled request */
    public void setCancelled(final boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    /** @return the source rank ({@code MPI.PROC_NULL} for a receive from it) */
    public int getSource() {
        return source;
    }

    /** @return the tag */
    public int getTag() {
        return tag;
    }

    /** @return the error code of the request ({@code MPI.SUCCESS}) */
    public int getError() {
        return error;
    }

    /** @return the index set by the "any" calls of {@link Request}, else {@code MPI.UNDEFINED} */
    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + bytes + (cancelled ? ", cancelled" : "")
            + "]";
    }
}
