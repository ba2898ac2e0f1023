package mpjsuite;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Derived datatypes as MPJ Express counts them (array elements): Contiguous, Vector, Hvector, Indexed, Hindexed and
 * Struct with LB/UB markers, their Size, Extent, Lb and Ub, and messages through them, with offsets, also of
 * MPI.OBJECT.
 */
public class DerivedTypes {
    public static void main(final String[] args) throws Exception {
        new DerivedTypes(args);
    }

    public DerivedTypes(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        bounds();
        final int me = w.Rank();
        final int peer = me ^ 1;
        if (peer < w.Size()) {
            messages(w, me < peer, peer);
        }
        Check.complete("DerivedTypes");
        MPI.Finalize();
    }

    private static void shape(final Datatype t, final int size, final int extent, final int lb, final int ub,
        final String what) {
        Check.equal(size, t.Size(), what + " Size");
        Check.equal(extent, t.Extent(), what + " Extent");
        Check.equal(lb, t.Lb(), what + " Lb");
        Check.equal(ub, t.Ub(), what + " Ub");
    }

    private static void bounds() {
        shape(MPI.INT, 1, 1, 0, 1, "INT");
        shape(MPI.DOUBLE, 1, 1, 0, 1, "DOUBLE");
        shape(MPI.OBJECT, 1, 1, 0, 1, "OBJECT");
        shape(MPI.INT2, 2, 2, 0, 2, "INT2");
        Check.equal(4, MPI.INT.getByteSize(), "INT.getByteSize()");
        Check.equal(8, MPI.DOUBLE.getByteSize(), "DOUBLE.getByteSize()");
        Check.equal(MPI.INT.getType(), MPI.INT2.getType(), "INT2 keeps INT's base type");
        final Datatype c3 = Datatype.Contiguous(3, MPI.INT);
        shape(c3, 3, 3, 0, 3, "Contiguous(3, INT)");
        shape(Datatype.Vector(2, 2, 5, MPI.INT), 4, 7, 0, 7, "Vector(2, 2, 5, INT)");
        shape(Datatype.Vector(2, 1, 2, c3), 6, 9, 0, 9, "Vector(2, 1, 2, Contiguous(3))");
        shape(Datatype.Hvector(2, 1, 2, c3), 6, 5, 0, 5, "Hvector(2, 1, 2, Contiguous(3))");
        shape(Datatype.Indexed(new int[] {1, 2}, new int[] {4, 0}, MPI.INT), 3, 5, 0, 5, "Indexed");
        shape(Datatype.Indexed(new int[] {1}, new int[] {2}, c3), 3, 3, 6, 9, "Indexed of Contiguous(3)");
        shape(Datatype.Hindexed(new int[] {1}, new int[] {2}, c3), 3, 3, 2, 5, "Hindexed of Contiguous(3)");
        final Datatype c4 = Datatype.Contiguous(4, MPI.INT);
        shape(Datatype.Struct(new int[] {1, 1}, new int[] {0, 97}, new Datatype[] {c4, MPI.UB}), 4, 97, 0, 97,
            "Struct{Contiguous(4) at 0, UB at 97}");
        shape(Datatype.Struct(new int[] {1, 1}, new int[] {0, 97}, new Datatype[] {c4, MPI.INT}), 5, 98, 0, 98,
            "Struct{Contiguous(4) at 0, INT at 97}");
        shape(Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 3, 94}, new Datatype[] {c4, MPI.LB, MPI.UB}), 4,
            91, 3, 94, "Struct with LB at 3 and UB at 94");
        shape(Datatype.Struct(new int[] {2, 1, 1}, new int[] {0, -3, 96}, new Datatype[] {c4, MPI.LB, MPI.UB}), 8,
            99, -3, 96, "Struct with LB at -3");
        shape(Datatype.Struct(new int[] {2, 1, 1}, new int[] {2, -3, 86}, new Datatype[] {c4, MPI.LB, MPI.UB}), 8,
            89, -3, 86, "Struct of two Contiguous(4) at 2");
        boolean refused = false;
        try {
            Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        } catch (final mpi.MPIException e) {
            refused = true;
        }
        Check.that(refused, "a Struct of two base types is refused");
        final Datatype t = Datatype.Contiguous(2, MPI.LONG);
        t.Commit();
        t.free();
        Check.equal(2, t.Size(), "a freed type still describes its layout");
    }

    private static void messages(final Intracomm w, final boolean low, final int peer) {
        // Vector(3, 2, 4, INT) from offset 1 of 0..19: elements 1,2, 5,6, 9,10; two items (the second at extent 10)
        final Datatype v = Datatype.Vector(3, 2, 4, MPI.INT);
        final Datatype ix = Datatype.Indexed(new int[] {2, 1}, new int[] {3, 0}, MPI.INT);
        final Datatype st = Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 5},
            new Datatype[] {MPI.DOUBLE, Datatype.Contiguous(2, MPI.DOUBLE), MPI.UB});
        final Datatype ov = Datatype.Vector(2, 1, 3, MPI.OBJECT);
        if (low) {
            final int[] a = new int[40];
            for (int i = 0; i < a.length; i++) {
                a[i] = i;
            }
            w.Send(a, 1, 2, v, peer, 1);
            w.Send(a, 2, 1, ix, peer, 2);
            final double[] d = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
            w.Send(d, 1, 2, st, peer, 3);
            w.Send(new Object[] {"a", "b", "c", "d", "e"}, 1, 1, ov, peer, 4);
            w.Send(a, 0, 2, MPI.INT, peer, 5);
        } else {
            final int[] in = new int[12];
            Status s = w.Recv(in, 0, 12, MPI.INT, peer, 1);
            Check.equal(12, s.Get_count(MPI.INT), "Vector sent, INT received: count");
            Check.equal(new int[] {1, 2, 5, 6, 9, 10, 11, 12, 15, 16, 19, 20}, in, "Vector data");
            final int[] spread = new int[24];
            s = w.Recv(spread, 0, 1, v, peer, 2);
            Check.equal(new int[] {5, 6, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, spread,
                "Indexed sent as 3 INTs, received through a Vector (2 then 1 of the next block)");
            Check.equal(3, s.Get_elements(MPI.INT), "Get_elements");
            final double[] d = new double[12];
            s = w.Recv(d, 1, 2, st, peer, 3);
            Check.equal(new double[] {0, 1, 0, 3, 4, 0, 6, 0, 8, 9, 0, 0}, d, "Struct with UB: data");
            Check.equal(2, s.Get_count(st), "Get_count in the receive's datatype");
            Check.equal(6, s.Get_elements(MPI.DOUBLE), "Get_elements of a Struct");
            final Object[] o = new Object[6];
            s = w.Recv(o, 0, 1, ov, peer, 4);
            Check.equal(new Object[] {"b", null, null, "e", null, null}, o, "Vector of OBJECT");
            final int[] pairs = new int[6];
            final Datatype c3 = Datatype.Contiguous(3, MPI.INT);
            s = w.Recv(pairs, 0, 2, Datatype.Contiguous(2, MPI.INT), peer, 5);
            Check.equal(1, s.Get_count(Datatype.Contiguous(2, MPI.INT)), "Get_count of one pair");
            Check.equal(2, s.Get_elements(c3), "Get_elements counts basic elements");
        }
    }
}
