package mpjsuite;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;

/**
 * Every collective with buffer offsets, for every root: Bcast, Gather(v), Scatter(v), Allgather(v), Alltoall(v) with
 * displacements in array elements, Reduce, Allreduce, Reduce_scatter, Scan with predefined and user operators,
 * MAXLOC/MINLOC on every pair type, and MPI.OBJECT in each of them (reductions with a user operator).
 */
public class Collectives {
    public static void main(final String[] args) throws Exception {
        new Collectives(args);
    }

    public Collectives(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        for (int root = 0; root < w.Size(); root++) {
            rooted(w, root);
        }
        everyone(w);
        reductions(w);
        locations(w);
        objects(w);
        mutableObjects(w);
        Check.complete("Collectives");
        MPI.Finalize();
    }

    private static void rooted(final Intracomm w, final int root) {
        final int me = w.Rank();
        final int n = w.Size();
        final int[] b = new int[6];
        if (me == root) {
            b[2] = 7;
            b[3] = 8 + root;
        }
        w.Bcast(b, 2, 2, MPI.INT, root);
        Check.equal(new int[] {0, 0, 7, 8 + root, 0, 0}, b, "Bcast from " + root);
        // Gather two elements each from offset 1 into offset 3
        final long[] g = new long[3 + 2 * n + 1];
        w.Gather(new long[] {-1, me, -me}, 1, 2, MPI.LONG, g, 3, 2, MPI.LONG, root);
        if (me == root) {
            for (int r = 0; r < n; r++) {
                Check.equal(r, g[3 + 2 * r], "Gather block " + r);
                Check.equal(-r, g[4 + 2 * r], "Gather block " + r);
            }
            Check.equal(0, g[0] + g[1] + g[2] + g[g.length - 1], "Gather leaves the rest");
        }
        // Gatherv: rank r gives r+1 elements, placed at displacement (n - 1 - r) * n (reverse order, gaps)
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int r = 0; r < n; r++) {
            counts[r] = r + 1;
            displs[r] = (n - 1 - r) * n;
        }
        final short[] mine = new short[1 + me + 1];
        for (int i = 0; i <= me; i++) {
            mine[1 + i] = (short) (100 * me + i);
        }
        final short[] gv = new short[2 + n * n];
        w.Gatherv(mine, 1, me + 1, MPI.SHORT, gv, 2, counts, displs, MPI.SHORT, root);
        if (me == root) {
            for (int r = 0; r < n; r++) {
                for (int i = 0; i <= r; i++) {
                    Check.equal(100 * r + i, gv[2 + displs[r] + i], "Gatherv rank " + r + " element " + i);
                }
            }
        }
        // Scatter and Scatterv: the inverse moves
        final float[] src = new float[1 + 3 * n];
        for (int i = 0; i < src.length; i++) {
            src[i] = i;
        }
        final float[] sc = new float[4];
        w.Scatter(src, 1, 3, MPI.FLOAT, sc, 1, 3, MPI.FLOAT, root);
        Check.equal(new float[] {0, 1 + 3 * me, 2 + 3 * me, 3 + 3 * me}, sc, "Scatter");
        final short[] back = new short[me + 2];
        w.Scatterv(gv, 2, counts, displs, MPI.SHORT, back, 1, me + 1, MPI.SHORT, root);
        for (int i = 0; i <= me; i++) {
            Check.equal(100 * me + i, back[1 + i], "Scatterv element " + i);
        }
        // Reduce at the root only; non-roots may give null
        final int[] red = me == root ? new int[3] : null;
        w.Reduce(new int[] {0, me, 1}, 1, red, 1, 2, MPI.INT, MPI.SUM, root);
        if (me == root) {
            Check.equal(new int[] {0, n * (n - 1) / 2, n}, red, "Reduce SUM");
        }
    }

    private static void everyone(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final double[] ag = new double[1 + 2 * n];
        w.Allgather(new double[] {me, me + 0.5}, 0, 2, MPI.DOUBLE, ag, 1, 2, MPI.DOUBLE);
        for (int r = 0; r < n; r++) {
            Check.equal(r + 0.5, ag[2 + 2 * r], "Allgather");
        }
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        int total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = 1 + r % 2;
            displs[r] = total + r; // a gap of r elements before each block
            total += counts[r] + r;
        }
        final byte[] mine = {9, (byte) me, (byte) (me + 50)};
        final byte[] agv = new byte[3 + total];
        w.Allgatherv(mine, 1, counts[me], MPI.BYTE, agv, 3, counts, displs, MPI.BYTE);
        for (int r = 0; r < n; r++) {
            Check.equal(r, agv[3 + displs[r]], "Allgatherv block " + r);
            if (2 == counts[r]) {
                Check.equal(r + 50, agv[4 + displs[r]], "Allgatherv block " + r);
            }
        }
        // Alltoall: block for rank r is {me, r}
        final int[] out = new int[2 + 2 * n];
        for (int r = 0; r < n; r++) {
            out[2 + 2 * r] = me;
            out[3 + 2 * r] = r;
        }
        final int[] in = new int[1 + 2 * n];
        w.Alltoall(out, 2, 2, MPI.INT, in, 1, 2, MPI.INT);
        for (int r = 0; r < n; r++) {
            Check.equal(r, in[1 + 2 * r], "Alltoall from " + r);
            Check.equal(me, in[2 + 2 * r], "Alltoall from " + r);
        }
        // Alltoallv: rank me sends r+1 copies of (me*100+r) to rank r, at send displacement 3r; receives me+1
        // elements from each rank at receive displacement 5r (displacements in array elements)
        final int[] sc = new int[n];
        final int[] sd = new int[n];
        final int[] rc = new int[n];
        final int[] rd = new int[n];
        for (int r = 0; r < n; r++) {
            sc[r] = r + 1;
            sd[r] = 3 * r + r * (r - 1) / 2;
            rc[r] = me + 1;
            rd[r] = (me + 2) * r;
        }
        final long[] so = new long[1 + sd[n - 1] + n];
        for (int r = 0; r < n; r++) {
            for (int i = 0; i <= r; i++) {
                so[1 + sd[r] + i] = me * 100L + r;
            }
        }
        final long[] ri = new long[2 + (me + 2) * n];
        w.Alltoallv(so, 1, sc, sd, MPI.LONG, ri, 2, rc, rd, MPI.LONG);
        for (int r = 0; r < n; r++) {
            for (int i = 0; i <= me; i++) {
                Check.equal(r * 100L + me, ri[2 + rd[r] + i], "Alltoallv from " + r);
            }
        }
        w.Barrier();
    }

    private static void reductions(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};
        final Op[] arith = {MPI.MAX, MPI.MIN, MPI.SUM, MPI.PROD};
        for (int t = 0; t < types.length; t++) {
            final int ti = t < 3 ? t : t + 1; // Data's index (no BOOLEAN)
            for (final Op op : arith) {
                final Object send = Data.array(ti, 3, 0);
                java.lang.reflect.Array.set(send, 1, Data.value(ti, 0, me % 2));
                final Object recv = Data.blank(ti, 4);
                w.Allreduce(send, 1, recv, 2, 1, types[t], op);
                final Object lo = Data.value(ti, 0, 0);
                final Object hi = Data.value(ti, 0, n > 1 ? 1 : 0);
                if (MPI.MAX == op) {
                    Check.equal(hi, java.lang.reflect.Array.get(recv, 2), "Allreduce MAX " + Data.NAMES[ti]);
                } else if (MPI.MIN == op) {
                    Check.equal(lo, java.lang.reflect.Array.get(recv, 2), "Allreduce MIN " + Data.NAMES[ti]);
                }
            }
        }
        final boolean[] flags = {true, 0 == me, false};
        final boolean[] and = new boolean[3];
        w.Allreduce(flags, 0, and, 0, 3, MPI.BOOLEAN, MPI.LAND);
        Check.equal(new boolean[] {true, n == 1, false}, and, "Allreduce LAND");
        w.Allreduce(flags, 0, and, 0, 3, MPI.BOOLEAN, MPI.LOR);
        Check.equal(new boolean[] {true, true, false}, and, "Allreduce LOR");
        w.Allreduce(flags, 0, and, 0, 3, MPI.BOOLEAN, MPI.LXOR);
        Check.equal(new boolean[] {n % 2 == 1, true, false}, and, "Allreduce LXOR");
        final int[] bits = {1 << me, ~0};
        final int[] or = new int[2];
        w.Allreduce(bits, 0, or, 0, 2, MPI.INT, MPI.BOR);
        Check.equal((1 << n) - 1, or[0], "Allreduce BOR");
        w.Allreduce(bits, 0, or, 0, 2, MPI.INT, MPI.BAND);
        Check.equal(n == 1 ? 1 : 0, or[0], "Allreduce BAND");
        w.Allreduce(bits, 0, or, 0, 2, MPI.INT, MPI.BXOR);
        Check.equal((1 << n) - 1, or[0], "Allreduce BXOR");
        // Scan (inclusive) from offsets
        final long[] scan = new long[3];
        w.Scan(new long[] {0, me + 1}, 1, scan, 2, 1, MPI.LONG, MPI.SUM);
        Check.equal((me + 1) * (me + 2) / 2, scan[2], "Scan SUM");
        // Reduce_scatter: rank r gets r+1 elements; element j of the vector is j everywhere
        final int[] counts = new int[n];
        int total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = r + 1;
            total += r + 1;
        }
        final int[] vec = new int[1 + total];
        for (int j = 0; j < total; j++) {
            vec[1 + j] = j;
        }
        final int[] part = new int[2 + me + 1];
        w.Reduce_scatter(vec, 1, part, 2, counts, MPI.INT, MPI.SUM);
        final int first = me * (me + 1) / 2;
        for (int i = 0; i <= me; i++) {
            Check.equal((first + i) * n, part[2 + i], "Reduce_scatter element " + i);
        }
        // a non-commutative user operator: string concatenation over ranks in order, offsets as the arrays give
        final Op cat = new Op(new User_function() {
            @Override
            public void Call(final Object invec, final int inoffset, final Object inoutvec, final int inoutoffset,
                final int count, final Datatype datatype) {
                final Object[] a = (Object[]) invec;
                final Object[] b = (Object[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    b[inoutoffset + i] = (String) a[inoffset + i] + b[inoutoffset + i];
                }
            }
        }, false);
        final Object[] word = {"?", String.valueOf(me)};
        final Object[] all = new Object[3];
        w.Allreduce(word, 1, all, 2, 1, MPI.OBJECT, cat);
        final StringBuilder expect = new StringBuilder();
        for (int r = 0; r < n; r++) {
            expect.append(r);
        }
        Check.equal(expect.toString(), all[2], "Allreduce of a non-commutative user operator on OBJECT");
        final Object[] prefix = new Object[1];
        w.Scan(word, 1, prefix, 0, 1, MPI.OBJECT, cat);
        Check.equal(expect.substring(0, me + 1), prefix[0], "Scan with a user operator");
        final Object[] atRoot = new Object[2];
        w.Reduce(word, 1, atRoot, 1, 1, MPI.OBJECT, cat, 0);
        if (0 == me) {
            Check.equal(expect.toString(), atRoot[1], "Reduce with a user operator");
        }
        // a user operator on int with non-zero offsets
        final Op max = new Op(new User_function() {
            @Override
            public void Call(final Object invec, final int inoffset, final Object inoutvec, final int inoutoffset,
                final int count, final Datatype datatype) {
                final int[] a = (int[]) invec;
                final int[] b = (int[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    b[inoutoffset + i] = Math.max(a[inoffset + i], b[inoutoffset + i]);
                }
            }
        }, true);
        final int[] m = new int[4];
        w.Allreduce(new int[] {-5, me, 3 * me}, 1, m, 2, 2, MPI.INT, max);
        Check.equal(new int[] {0, 0, n - 1, 3 * (n - 1)}, m, "Allreduce of a user operator with offsets");
    }

    private static void locations(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        // value: (me % 2) so ties are many; index: rank. MAXLOC keeps the lowest index of the max.
        final int[] ip = {0, 0, me % 2, me};
        final int[] io = new int[2];
        w.Allreduce(ip, 2, io, 0, 1, MPI.INT2, MPI.MAXLOC);
        Check.equal(new int[] {n > 1 ? 1 : 0, n > 1 ? 1 : 0}, io, "MAXLOC INT2");
        w.Allreduce(ip, 2, io, 0, 1, MPI.INT2, MPI.MINLOC);
        Check.equal(new int[] {0, 0}, io, "MINLOC INT2");
        final double[] dp = {me * 1.5, me, -me, me};
        final double[] dout = new double[4];
        w.Allreduce(dp, 0, dout, 0, 2, MPI.DOUBLE2, MPI.MAXLOC);
        Check.equal(new double[] {(n - 1) * 1.5, n - 1, 0, 0}, dout, "MAXLOC DOUBLE2, two pairs");
        final long[] lp = {10 - me, me};
        final long[] lo = new long[2];
        w.Allreduce(lp, 0, lo, 0, 1, MPI.LONG2, MPI.MINLOC);
        Check.equal(new long[] {10 - (n - 1), n - 1}, lo, "MINLOC LONG2");
        final float[] fp = {me, me};
        final float[] fo = new float[2];
        w.Reduce(fp, 0, fo, 0, 1, MPI.FLOAT2, MPI.MAXLOC, 0);
        if (0 == me) {
            Check.equal(new float[] {n - 1, n - 1}, fo, "MAXLOC FLOAT2");
        }
        final short[] sp = {(short) (5 - me), (short) me};
        final short[] so = new short[2];
        w.Allreduce(sp, 0, so, 0, 1, MPI.SHORT2, MPI.MAXLOC);
        Check.equal(new short[] {5, 0}, so, "MAXLOC SHORT2");
    }

    private static void objects(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final Object[] b = new Object[3];
        if (0 == me) {
            b[1] = new int[] {4, 5};
            b[2] = "two";
        }
        w.Bcast(b, 1, 2, MPI.OBJECT, 0);
        Check.equal(new Object[] {null, new int[] {4, 5}, "two"}, b, "Bcast OBJECT");
        final String[] g = new String[1 + n];
        w.Gather(new String[] {"r" + me}, 0, 1, MPI.OBJECT, g, 1, 1, MPI.OBJECT, n - 1);
        if (n - 1 == me) {
            for (int r = 0; r < n; r++) {
                Check.equal("r" + r, g[1 + r], "Gather OBJECT");
            }
        }
        final Object[] ag = new Object[2 * n];
        w.Allgather(new Object[] {me, "x" + me}, 0, 2, MPI.OBJECT, ag, 0, 2, MPI.OBJECT);
        for (int r = 0; r < n; r++) {
            Check.equal(r, ag[2 * r], "Allgather OBJECT");
        }
        final Object[] sc = new Object[1];
        final Object[] sc3 = new Object[3];
        w.Scatter(ag, 0, 2, MPI.OBJECT, sc3, 1, 2, MPI.OBJECT, 0);
        Check.equal(me, sc3[1], "Scatter OBJECT");
        final Object[] sv = new Object[2];
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int r = 0; r < n; r++) {
            counts[r] = 1;
            displs[r] = 2 * r + 1;
        }
        w.Scatterv(ag, 0, counts, displs, MPI.OBJECT, sv, 1, 1, MPI.OBJECT, 0);
        Check.equal("x" + me, sv[1], "Scatterv OBJECT");
        final Object[] gv = new Object[2 * n];
        w.Allgatherv(new Object[] {"y" + me}, 0, 1, MPI.OBJECT, gv, 0, counts, displs, MPI.OBJECT);
        Check.equal("y" + (n - 1), gv[2 * n - 1], "Allgatherv OBJECT");
        final Object[] ao = new Object[n];
        final Object[] ai = new Object[n];
        for (int r = 0; r < n; r++) {
            ao[r] = me + "->" + r;
        }
        w.Alltoall(ao, 0, 1, MPI.OBJECT, ai, 0, 1, MPI.OBJECT);
        for (int r = 0; r < n; r++) {
            Check.equal(r + "->" + me, ai[r], "Alltoall OBJECT");
        }
        final int[] one = new int[n];
        final int[] at = new int[n];
        for (int r = 0; r < n; r++) {
            one[r] = 1;
            at[r] = n - 1 - r;
        }
        w.Alltoallv(ao, 0, one, at, MPI.OBJECT, ai, 0, one, at, MPI.OBJECT);
        for (int r = 0; r < n; r++) {
            Check.equal(r + "->" + (n - 1 - me), ai[n - 1 - r], "Alltoallv OBJECT");
        }
        Check.that(null == sc[0], "untouched");
    }

    /** A user operator that adds into the objects of {@code inoutvec} in place, as the mpiJava object tests do. */
    private static final class Add extends User_function {
        @Override
        public void Call(final Object invec, final int inoffset, final Object inoutvec, final int inoutoffset,
            final int count, final Datatype datatype) {
            for (int i = 0; i < count; i++) {
                final Complex into = (Complex) ((Object[]) inoutvec)[inoutoffset + i];
                final Complex from = (Complex) ((Object[]) invec)[inoffset + i];
                into.re += from.re;
                into.im += from.im;
            }
        }
    }

    private static Complex[] complexes(final int n, final int scale) {
        final Complex[] c = new Complex[n];
        for (int i = 0; i < n; i++) {
            c[i] = new Complex(i * scale, -i);
        }
        return c;
    }

    private static void mutableObjects(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final int len = 100;
        final Op add = new Op(new Add(), false);
        final int root = n / 2;
        final Complex[] into = complexes(len, 0);
        w.Reduce(complexes(len, 1), 0, into, 0, len, MPI.OBJECT, add, root);
        if (me == root) {
            for (int k = 0; k < len; k++) {
                Check.equal(k * n, (long) into[k].re, "Reduce of objects a user operator changes in place " + k);
                Check.equal(-k * n, (long) into[k].im, "Reduce of objects, imaginary part " + k);
            }
        }
        for (int round = 0; round < 3; round++) {
            final Complex[] all = new Complex[len];
            w.Allreduce(complexes(len, 1 + me), 0, all, 0, len, MPI.OBJECT, add);
            for (int k = 0; k < len; k++) {
                Check.equal((long) k * n * (n + 1) / 2, (long) all[k].re, "Allreduce of objects " + k);
            }
        }
        final Complex[] pre = new Complex[4];
        w.Scan(complexes(4, 1), 0, pre, 0, 4, MPI.OBJECT, add);
        Check.equal(3L * (me + 1), (long) pre[3].re, "Scan of objects");
        final int[] counts = new int[n];
        java.util.Arrays.fill(counts, 2);
        final Complex[] part = new Complex[2];
        w.Reduce_scatter(complexes(2 * n, 1), 0, part, 0, counts, MPI.OBJECT, add);
        Check.equal((2L * me + 1) * n, (long) part[1].re, "Reduce_scatter of objects");
    }
}

/** A serialisable value of a class that is neither public nor in java.base. */
class Complex implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    float re;
    float im;

    Complex(final float re, final float im) {
        this.re = re;
        this.im = im;
    }
}
