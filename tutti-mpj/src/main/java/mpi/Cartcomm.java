package mpi;

import dev.tutti.Communicator;

/**
 * A communicator with a Cartesian grid: rank {@code r} sits at the row-major coordinates of {@code r} (last
 * dimension fastest). Out-of-range coordinates in {@link #Rank(int[])} wrap in periodic dimensions and are refused
 * in the others.
 */
public class Cartcomm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    Cartcomm(final dev.tutti.Comm c, final int[] dims, final boolean[] periods) {
        super(Kind.FIXED, c);
        this.dims = dims;
        this.periods = periods;
    }

    static Cartcomm create(final Intracomm parent, final int[] dims, final boolean[] periods) {
        final String call = "Intracomm.Create_cart";
        final Communicator c = parent.intra(call);
        if (null == dims || null == periods || dims.length != periods.length) {
            throw Fail.error(call + ": dims and periods must be arrays of one length (got "
                + (null == dims ? "null" : dims.length) + " and " + (null == periods ? "null" : periods.length) + ")");
        }
        long n = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] <= 0) {
                throw Fail.error(call + ": dims[" + i + "]=" + dims[i] + " (expected > 0)");
            }
            n *= dims[i];
        }
        if (n > c.size()) {
            throw Fail.error(call + ": the grid has " + n + " points but the communicator " + c.size()
                + " processes (expected at most as many points as processes)");
        }
        try {
            final boolean in = c.rank() < n;
            final Communicator grid = c.split(in ? 0 : dev.tutti.Comm.UNDEFINED, c.rank());
            return in ? new Cartcomm(grid, dims.clone(), periods.clone()) : null;
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * @return a new communicator with the same grid and a new context
     * @throws MPIException for a failed peer
     */
    @Override
    public Object clone() throws MPIException {
        return new Cartcomm(dup("Cartcomm.clone"), dims.clone(), periods.clone());
    }

    /**
     * @param coords coordinates (wrapped in periodic dimensions)
     * @return the rank at them
     * @throws MPIException for a wrong number of coordinates or one outside a non-periodic dimension
     */
    public int Rank(final int[] coords) throws MPIException {
        tc("Cartcomm.Rank");
        if (null == coords || coords.length != dims.length) {
            throw Fail.error("Cartcomm.Rank: coords has " + (null == coords ? "null" : coords.length)
                + " entries (expected " + dims.length + ")");
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (periods[i]) {
                c = Math.floorMod(c, dims[i]);
            } else if (c < 0 || c >= dims[i]) {
                throw Fail.error("Cartcomm.Rank: coords[" + i + "]=" + c + " (expected 0.." + (dims[i] - 1)
                    + ": the dimension is not periodic)");
            }
            r = r * dims[i] + c;
        }
        return r;
    }

    /**
     * @param rank a rank of the grid
     * @return its coordinates
     * @throws MPIException for a rank outside the grid
     */
    public int[] Coords(final int rank) throws MPIException {
        final int size = tc("Cartcomm.Coords").size();
        if (rank < 0 || rank >= size) {
            throw Fail.error("Cartcomm.Coords: rank=" + rank + " (expected 0.." + (size - 1) + ")");
        }
        final int[] c = new int[dims.length];
        int r = rank;
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = r % dims[i];
            r /= dims[i];
        }
        return c;
    }

    /**
     * @param direction the dimension
     * @param disp      the displacement (positive: towards higher coordinates)
     * @return the ranks to receive from and send to; {@code MPI.PROC_NULL} off the edge of a non-periodic dimension
     *         (MPJ Express answered -1, which no call takes), so that a send or receive there moves nothing
     * @throws MPIException for a direction outside the grid
     */
    public ShiftParms Shift(final int direction, final int disp) throws MPIException {
        final int me = tc("Cartcomm.Shift").rank();
        if (direction < 0 || direction >= dims.length) {
            throw Fail.error("Cartcomm.Shift: direction=" + direction + " (expected 0.." + (dims.length - 1) + ")");
        }
        final int[] c = Coords(me);
        return new ShiftParms(neighbour(c, direction, -disp), neighbour(c, direction, disp));
    }

    private int neighbour(final int[] coords, final int direction, final int disp) {
        final int[] c = coords.clone();
        c[direction] += disp;
        if (!periods[direction] && (c[direction] < 0 || c[direction] >= dims[direction])) {
            return MPI.PROC_NULL;
        }
        return Rank(c);
    }

    /**
     * Splits the grid into subgrids that keep the dimensions {@code remain_dims} marks.
     *
     * @param remain_dims whether each dimension is kept
     * @return the caller's subgrid
     * @throws MPIException for a wrong number of entries or a failed peer
     */
    public Cartcomm Sub(final boolean[] remain_dims) throws MPIException {
        final String call = "Cartcomm.Sub";
        final Communicator c = intra(call);
        if (null == remain_dims || remain_dims.length != dims.length) {
            throw Fail.error(call + ": remain_dims has " + (null == remain_dims ? "null" : remain_dims.length)
                + " entries (expected " + dims.length + ")");
        }
        final int[] me = Coords(c.rank());
        int color = 0;
        int kept = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remain_dims[i]) {
                kept++;
            } else {
                color = color * dims[i] + me[i];
            }
        }
        final int[] subDims = new int[kept];
        final boolean[] subPeriods = new boolean[kept];
        for (int i = 0, k = 0; i < dims.length; i++) {
            if (remain_dims[i]) {
                subDims[k] = dims[i];
                subPeriods[k++] = periods[i];
            }
        }
        try {
            return new Cartcomm(c.split(color, c.rank()), subDims, subPeriods);
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * @param dims    a grid
     * @param periods its periodicity
     * @return the caller's rank on such a grid: its rank if below the grid's size, else -1
     * @throws MPIException for bad arrays
     */
    public int Map(final int[] dims, final boolean[] periods) throws MPIException {
        final int me = tc("Cartcomm.Map").rank();
        if (null == dims) {
            throw Fail.error("Cartcomm.Map: dims=null (expected the grid's extents)");
        }
        long n = 1;
        for (final int d : dims) {
            n *= d;
        }
        return me < n ? me : MPI.UNDEFINED;
    }

    /**
     * @return the grid and the caller's coordinates
     * @throws MPIException if MPI is not initialized
     */
    public CartParms Get() throws MPIException {
        return new CartParms(dims, periods, Coords(tc("Cartcomm.Get").rank()));
    }

    /** @return {@code MPI.CART} */
    @Override
    public int Topo_test() throws MPIException {
        return MPI.CART;
    }

    /**
     * Fills {@code dims} with a balanced factorisation of {@code nnodes}: entries that are already positive are
     * kept, the zero ones are chosen as close to each other as possible, in non-increasing order, so that the
     * product is {@code nnodes} (MPI's rule).
     *
     * @param nnodes the number of processes
     * @param dims   the dimensions; zero entries are filled
     * @throws MPIException if the positive entries do not divide {@code nnodes}, or an entry is negative
     */
    public static void Dims_create(final int nnodes, final int[] dims) throws MPIException {
        final String call = "Cartcomm.Dims_create";
        if (null == dims || nnodes <= 0) {
            throw Fail.error(call + ": nnodes=" + nnodes + ", dims=" + (null == dims ? "null" : "int[" + dims.length
                + "]") + " (expected nnodes > 0 and an array)");
        }
        int rest = nnodes;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw Fail.error(call + ": dims[" + i + "]=" + dims[i] + " (expected >= 0)");
            }
            if (dims[i] > 0) {
                if (0 != rest % dims[i]) {
                    throw Fail.error(call + ": the preset dims do not divide nnodes=" + nnodes);
                }
                rest /= dims[i];
            } else {
                free++;
            }
        }
        if (0 == free) {
            if (1 != rest) {
                throw Fail.error(call + ": the preset dims multiply to less than nnodes=" + nnodes);
            }
            return;
        }
        final int[] f = new int[free];
        java.util.Arrays.fill(f, 1);
        // prime factors, largest first, each to the currently smallest dimension
        final java.util.List<Integer> primes = new java.util.ArrayList<>();
        int m = rest;
        for (int p = 2; (long) p * p <= m; p++) {
            while (0 == m % p) {
                primes.add(p);
                m /= p;
            }
        }
        if (m > 1) {
            primes.add(m);
        }
        for (int i = primes.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int k = 1; k < free; k++) {
                if (f[k] < f[smallest]) {
                    smallest = k;
                }
            }
            f[smallest] *= primes.get(i);
        }
        java.util.Arrays.sort(f);
        for (int i = 0, k = free - 1; i < dims.length; i++) {
            if (0 == dims[i]) {
                dims[i] = f[k--];
            }
        }
    }
}
