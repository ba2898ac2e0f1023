package mpjsuite;

import mpi.CartParms;
import mpi.Cartcomm;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.ShiftParms;

/**
 * Cartesian and graph topologies: Dims_create, Create_cart (row-major, extra processes get null), Get, Coords, Rank,
 * Shift (MPI.PROC_NULL off a non-periodic edge), Sub, Map, Topo_test; Create_graph, Get, Neighbours, Map.
 */
public class Topologies {
    public static void main(final String[] args) throws Exception {
        new Topologies(args);
    }

    public Topologies(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        dims();
        cart(w);
        graph(w);
        Check.complete("Topologies");
        MPI.Finalize();
    }

    private static void dims() {
        final int[] d2 = new int[2];
        Cartcomm.Dims_create(6, d2);
        Check.equal(new int[] {3, 2}, d2, "Dims_create(6, 2 dims)");
        final int[] preset = {2, 0};
        Cartcomm.Dims_create(6, preset);
        Check.equal(new int[] {2, 3}, preset, "Dims_create keeps a preset dimension");
        final int[] d3 = new int[3];
        Cartcomm.Dims_create(6, d3);
        Check.equal(new int[] {3, 2, 1}, d3, "Dims_create(6, 3 dims)");
        final int[] d12 = new int[3];
        Cartcomm.Dims_create(12, d12);
        Check.equal(new int[] {3, 2, 2}, d12, "Dims_create(12, 3 dims)");
    }

    private static void cart(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final int rows = n / 2;
        if (rows < 1) {
            return;
        }
        // rows x 2 grid, non-periodic; with an odd size the last process is outside the grid
        final Cartcomm grid = w.Create_cart(new int[] {rows, 2}, new boolean[] {false, false}, false);
        if (me >= 2 * rows) {
            Check.that(null == grid, "a process beyond the grid gets null");
        } else {
            Check.equal(MPI.CART, grid.Topo_test(), "Topo_test");
            final CartParms p = grid.Get();
            Check.equal(new int[] {rows, 2}, p.dims, "Get dims");
            Check.equal(new boolean[] {false, false}, p.periods, "Get periods");
            Check.equal(new int[] {me / 2, me % 2}, p.coords, "Get coords (row-major)");
            Check.equal(new int[] {me / 2, me % 2}, grid.Coords(me), "Coords");
            Check.equal(me, grid.Rank(new int[] {me / 2, me % 2}), "Rank");
            final ShiftParms down = grid.Shift(0, 1);
            Check.equal(me / 2 > 0 ? me - 2 : MPI.PROC_NULL, down.rank_source, "Shift(0, 1) source");
            Check.equal(me / 2 < rows - 1 ? me + 2 : MPI.PROC_NULL, down.rank_dest, "Shift(0, 1) dest");
            final ShiftParms left = grid.Shift(1, -1);
            Check.equal(0 == me % 2 ? me + 1 : MPI.PROC_NULL, left.rank_source, "Shift(1, -1) source");
            Check.equal(1 == me % 2 ? me - 1 : MPI.PROC_NULL, left.rank_dest, "Shift(1, -1) dest");
            // a shift's ranks work in Sendrecv, also off the edge (PROC_NULL moves nothing)
            final int[] got = {-7};
            grid.Sendrecv(new int[] {me}, 0, 1, MPI.INT, down.rank_dest, 3, got, 0, 1, MPI.INT, down.rank_source, 3);
            Check.equal(me / 2 > 0 ? me - 2 : -7, got[0], "Sendrecv along a shift");
            final Cartcomm row = grid.Sub(new boolean[] {false, true});
            Check.equal(2, row.Size(), "Sub (rows) size");
            Check.equal(me % 2, row.Rank(), "Sub (rows) rank");
            final Cartcomm col = grid.Sub(new boolean[] {true, false});
            Check.equal(rows, col.Size(), "Sub (columns) size");
            Check.equal(me / 2, col.Rank(), "Sub (columns) rank");
            final Cartcomm point = grid.Sub(new boolean[] {false, false});
            Check.equal(1, point.Size(), "Sub of no dimension");
            Check.equal(me, grid.Map(new int[] {rows, 2}, new boolean[] {false, false}), "Map");
            Check.equal(0 == me ? 0 : MPI.UNDEFINED, grid.Map(new int[] {1}, new boolean[] {false}),
                "Map onto a smaller grid");
            Check.that(grid.clone() instanceof Cartcomm, "a Cartcomm's clone is a Cartcomm");
        }
        // periodic: wraps round
        final Cartcomm ring = w.Create_cart(new int[] {n}, new boolean[] {true}, false);
        final ShiftParms s = ring.Shift(0, 1);
        Check.equal((me + n - 1) % n, s.rank_source, "periodic Shift source");
        Check.equal((me + 1) % n, s.rank_dest, "periodic Shift dest");
        final ShiftParms far = ring.Shift(0, n + 1);
        Check.equal((me + 1) % n, far.rank_dest, "periodic Shift by more than the size");
    }

    private static void graph(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        // a star: node 0 linked to every other node
        final int[] index = new int[n];
        final int[] edges = new int[2 * (n - 1)];
        int e = 0;
        for (int i = 1; i < n; i++) {
            edges[e++] = i;
        }
        index[0] = n - 1;
        for (int i = 1; i < n; i++) {
            edges[e++] = 0;
            index[i] = index[i - 1] + 1;
        }
        final Graphcomm g = w.Create_graph(index, edges, false);
        Check.equal(MPI.GRAPH, g.Topo_test(), "Topo_test of a graph");
        final GraphParms p = g.Get();
        Check.equal(index, p.index, "Graph Get index");
        Check.equal(edges, p.edges, "Graph Get edges");
        final int[] nb = g.Neighbours(me);
        Check.equal(0 == me ? n - 1 : 1, nb.length, "Neighbours count");
        if (0 != me) {
            Check.equal(0, nb[0], "Neighbours of a leaf");
        }
        Check.equal(me, g.Map(index, edges), "Graph Map");
        Check.that(g.clone() instanceof Graphcomm, "a Graphcomm's clone is a Graphcomm");
    }
}
