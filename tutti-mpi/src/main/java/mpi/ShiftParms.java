package mpi;

/** What {@link CartComm#shift} returns (MPI_Cart_shift): the ranks to receive from and to send to. */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(final int source, final int dest) {
        this.source = source;
        this.dest = dest;
    }

    /** @return the rank {@code disp} steps back, or {@code MPI.PROC_NULL} past a non-periodic edge */
    public int getRankSource() {
        return source;
    }

    /** @return the rank {@code disp} steps on, or {@code MPI.PROC_NULL} past a non-periodic edge */
    public int getRankDest() {
        return dest;
    }
}
