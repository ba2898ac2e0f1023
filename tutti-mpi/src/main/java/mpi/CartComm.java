package mpi;

import dev.tutti.Communicator;
import dev.tutti.ObjectRequest;

import java.util.Arrays;

/**
 * A communicator with a Cartesian topology (MPI_Cart_create): processes on a grid of {@code dims}, numbered in row
 * order (the last dimension varies fastest), each dimension periodic or not. Ranks are kept ({@code reorder} is
 * a hint Tutti does not use); processes beyond the grid get a null communicator. The neighbour collectives of
 * {@link Comm} exchange with the {@code 2 * dims.length} neighbours at {@code -1} and {@code +1} in each dimension.
 */
public final class CartComm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;
    private final Topology topology;

    private CartComm(final dev.tutti.Comm handle, final CommState state, final int[] dims, final boolean[] periods,
        final Topology topology) {
        super(handle, state);
        this.dims = dims;
        this.periods = periods;
        this.topology = topology;
    }

    private CartComm(final ObjectRequest<Communicator> pending, final CommState state, final int[] dims,
        final boolean[] periods, final Topology topology) {
        super(pending, state);
        this.dims = dims;
        this.periods = periods;
        this.topology = topology;
    }

    /**
     * The body of {@link Intracomm#createCart} and {@link #sub}: splits off the grid's processes and builds the
     * topology over them.
     *
     * @param parent  the communicator to split
     * @param state   the new communicator's handler, name and attributes
     * @param colour  the split colour, or UNDEFINED for a process outside the grid
     * @param dims    the grid
     * @param periods the periodic dimensions
     * @return the communicator (null where colour is UNDEFINED)
     */
    static CartComm create(final Communicator parent, final CommState state, final int colour, final int[] dims,
        final boolean[] periods) {
        final Communicator c = parent.split(colour, parent.rank());
        final boolean[] wraps = Arrays.copyOf(periods, dims.length);
        if (null == c) {
            return new CartComm((dev.tutti.Comm) null, new CommState("MPI_COMM_NULL"), dims, wraps, null);
        }
        final int[] neighbours = new int[2 * dims.length];
        final int[] coords = coords(dims, c.rank());
        for (int d = 0; d < dims.length; d++) {
            neighbours[2 * d] = step(dims, wraps, coords, d, -1);
            neighbours[2 * d + 1] = step(dims, wraps, coords, d, 1);
        }
        return new CartComm(c, state, dims.clone(), wraps, new Topology(MPI.CART, neighbours, neighbours, c.dup()));
    }

    /**
     * Returns the number of processes of a grid, after checking it. The grid has {@code dims.length} dimensions;
     * {@code periods} may be longer, its extra entries unread, as MPI reads ndims entries and Open MPI's bindings
     * take ndims from {@code dims}.
     */
    static int checkGrid(final String what, final int[] dims, final boolean[] periods) {
        if (null == dims) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": dims=null, expected an array");
        }
        if (null == periods || periods.length < dims.length) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": dims.length=" + dims.length + " periods" + (null == periods
                ? "=null" : ".length=" + periods.length) + ", expected at least " + dims.length + " periods (one per "
                + "dimension)");
        }
        long n = 1;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] <= 0) {
                throw MpiErrors.error(MPI.ERR_DIMS, what + ": dims[" + d + "]=" + dims[d] + ", expected > 0");
            }
            n *= dims[d];
            if (n > Integer.MAX_VALUE) {
                throw MpiErrors.error(MPI.ERR_DIMS, what + ": the grid " + Arrays.toString(dims) + " is too large");
            }
        }
        return (int) n;
    }

    @Override
    Topology topology() {
        return topology;
    }

    private int myRank() {
        return tc().rank();
    }

    /** @return a duplicate; failures are wrapped in a RuntimeException */
    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /** @return a duplicate with the same topology (MPI_Comm_dup) */
    @Override
    public CartComm dup() throws MPIException {
        return get("MPI_Comm_dup", () -> new CartComm(dupHandle(), state().copy(state().name() + "/dup"), dims,
            periods, topology.dup()));
    }

    /** @return a duplicate made in the background (MPI_Comm_idup) */
    @Override
    public CartComm iDup() throws MPIException {
        return get("MPI_Comm_idup", () -> new CartComm(((Communicator) tc()).idup(),
            state().copy(state().name() + "/idup"), dims, periods, topology.idup()));
    }

    /** @return a duplicate, as {@link #dup()} */
    @Override
    public CartComm dupWithInfo(final Info info) throws MPIException {
        return dup();
    }

    /** @return the dimensions, periods and the calling process's coordinates (MPI_Cart_get) */
    public CartParms getTopo() throws MPIException {
        return get("MPI_Cart_get", () -> new CartParms(dims, periods, coords(dims, myRank())));
    }

    /**
     * Returns the rank at coordinates (MPI_Cart_rank); a coordinate of a periodic dimension is taken modulo its
     * size.
     *
     * @param coords one coordinate per dimension
     * @return the rank
     */
    public int getRank(final int[] coords) throws MPIException {
        return get("MPI_Cart_rank", () -> {
            tc();
            if (null == coords || coords.length < dims.length) { // MPI reads one per dimension: more are unread
                throw MpiErrors.error(MPI.ERR_ARG, "getRank: coords" + (null == coords ? "=null" : ".length="
                    + coords.length) + ", expected at least " + dims.length + " entries (one per dimension)");
            }
            final int[] c = Arrays.copyOf(coords, dims.length);
            for (int d = 0; d < dims.length; d++) {
                if (periods[d]) {
                    c[d] = Math.floorMod(c[d], dims[d]);
                } else if (c[d] < 0 || c[d] >= dims[d]) {
                    throw MpiErrors.error(MPI.ERR_ARG, "getRank: coords[" + d + "]=" + c[d] + ", expected 0.."
                        + (dims[d] - 1) + " in a non-periodic dimension");
                }
            }
            return rankOf(dims, c);
        });
    }

    /** @param rank a rank of this communicator @return its coordinates (MPI_Cart_coords) */
    public int[] getCoords(final int rank) throws MPIException {
        return get("MPI_Cart_coords", () -> {
            if (rank < 0 || rank >= tc().size()) {
                throw MpiErrors.error(MPI.ERR_RANK, "getCoords: rank=" + rank + ", expected 0.." + (tc().size() - 1));
            }
            return coords(dims, rank);
        });
    }

    /**
     * Returns the neighbours along a dimension (MPI_Cart_shift).
     *
     * @param direction the dimension
     * @param disp      the displacement (negative: backwards)
     * @return the ranks {@code disp} steps back (source) and on (destination); {@code MPI.PROC_NULL} past a
     *         non-periodic edge
     */
    public ShiftParms shift(final int direction, final int disp) throws MPIException {
        return get("MPI_Cart_shift", () -> {
            if (direction < 0 || direction >= dims.length) {
                throw MpiErrors.error(MPI.ERR_DIMS, "shift: direction=" + direction + ", expected 0.."
                    + (dims.length - 1));
            }
            final int[] c = coords(dims, myRank());
            return new ShiftParms(step(dims, periods, c, direction, -disp), step(dims, periods, c, direction, disp));
        });
    }

    /**
     * Splits into sub-grids (MPI_Cart_sub): the processes that share their coordinates in the dropped dimensions.
     *
     * @param remainDims per dimension, whether the sub-grid keeps it
     * @return the calling process's sub-grid
     */
    public CartComm sub(final boolean[] remainDims) throws MPIException {
        return get("MPI_Cart_sub", () -> {
            if (null == remainDims || remainDims.length < dims.length) { // as getRank: more entries are unread
                throw MpiErrors.error(MPI.ERR_ARG, "sub: remainDims" + (null == remainDims ? "=null" : ".length="
                    + remainDims.length) + ", expected at least " + dims.length + " entries (one per dimension)");
            }
            final int[] c = coords(dims, myRank());
            int colour = 0;
            int kept = 0;
            for (int d = 0; d < dims.length; d++) {
                if (remainDims[d]) {
                    kept++;
                } else {
                    colour = colour * dims[d] + c[d];
                }
            }
            final int[] subDims = new int[kept];
            final boolean[] subPeriods = new boolean[kept];
            for (int d = 0, k = 0; d < dims.length; d++) {
                if (remainDims[d]) {
                    subDims[k] = dims[d];
                    subPeriods[k++] = periods[d];
                }
            }
            return create((Communicator) tc(), state().derive(state().name() + "/sub"), colour, subDims, subPeriods);
        });
    }

    /**
     * Where a process would be placed on a grid (MPI_Cart_map): Tutti keeps ranks.
     *
     * @param dims    the grid
     * @param periods the periodic dimensions
     * @return the calling process's rank, or {@code MPI.UNDEFINED} if it falls outside the grid
     */
    public int map(final int[] dims, final boolean[] periods) throws MPIException {
        return get("MPI_Cart_map", () -> {
            final int n = checkGrid("map", dims, periods);
            return myRank() < n ? myRank() : MPI.UNDEFINED;
        });
    }

    /**
     * Chooses a balanced grid (MPI_Dims_create): fills the zero entries of {@code dims} so that the product of all
     * entries is {@code nnodes}, the filled ones as close to each other as the factors allow, in non-increasing
     * order.
     *
     * @param nnodes the number of processes
     * @param dims   the dimensions: positive entries are kept, zero entries are filled
     */
    public static void createDims(final int nnodes, final int[] dims) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Dims_create", () -> Dims.fill(nnodes, dims));
    }

    // ---------------------------------------------------------------------------------------- arithmetic

    /** @return the coordinates of a rank, in row order */
    static int[] coords(final int[] dims, final int rank) {
        final int[] c = new int[dims.length];
        int r = rank;
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = r % dims[d];
            r /= dims[d];
        }
        return c;
    }

    private static int rankOf(final int[] dims, final int[] coords) {
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            r = r * dims[d] + coords[d];
        }
        return r;
    }

    /** @return the rank {@code disp} steps from {@code coords} along {@code d}, or PROC_NULL past an edge */
    private static int step(final int[] dims, final boolean[] periods, final int[] coords, final int d,
        final int disp) {
        final int[] c = coords.clone();
        final long to = (long) c[d] + disp;
        if (periods[d]) {
            c[d] = Math.floorMod(to, dims[d]);
        } else if (to < 0 || to >= dims[d]) {
            return MPI.PROC_NULL;
        } else {
            c[d] = (int) to;
        }
        return rankOf(dims, c);
    }
}
