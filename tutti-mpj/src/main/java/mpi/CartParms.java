package mpi;

/** What {@link Cartcomm#Get()} returns: the grid's dimensions, periodicity and the caller's coordinates. */
public class CartParms {
    /** The extent of each dimension. */
    public int[] dims;
    /** Whether each dimension wraps around. */
    public boolean[] periods;
    /** The caller's coordinates. */
    public int[] coords;

    CartParms(final int[] dims, final boolean[] periods, final int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }
}
