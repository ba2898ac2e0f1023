package mpi;

/**
 * What {@link Cartcomm#Shift} returns: the ranks to receive from and send to; {@code MPI.PROC_NULL} off the edge of
 * a dimension that does not wrap.
 */
public class ShiftParms {
    /** The rank to receive from. */
    public int rank_source;
    /** The rank to send to. */
    public int rank_dest;

    ShiftParms(final int rankSource, final int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }
}
