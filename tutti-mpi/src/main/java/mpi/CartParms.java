package mpi;

/** What {@link CartComm#getTopo()} returns (MPI_Cart_get): the dimensions, periods and the caller's coordinates. */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(final int[] dims, final boolean[] periods, final int[] coords) {
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.coords = coords.clone();
    }

    /** @return the number of dimensions */
    public int getDimCount() {
        return dims.length;
    }

    /** @param i a dimension @return its number of processes */
    public int getDim(final int i) {
        return dims[i];
    }

    /** @param i a dimension @return whether it is periodic */
    public boolean getPeriod(final int i) {
        return periods[i];
    }

    /** @param i a dimension @return the calling process's coordinate in it */
    public int getCoord(final int i) {
        return coords[i];
    }
}
