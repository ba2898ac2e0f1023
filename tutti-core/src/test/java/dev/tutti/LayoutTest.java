package dev.tutti;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Derived datatypes ({@link Layout}) as buffers: extents by MPI's rules, and random nested layouts moved by
 * point-to-point, bcast, gather, scatter and allreduce, checked against an independent model of the type map (element offsets listed
 * by hand from each constructor's definition): exactly the described elements arrive, in type-map order, and every
 * element in a gap keeps its poison.
 */
@Timeout(60)
class LayoutTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(30));
    static final Layout D = Layout.of(Datatype.DOUBLE);
    static final double POISON = -7.5;

    /** A layout and its model: element offsets in type-map order, lower bound and extent in elements. */
    record Model(Layout layout, int[] offs, int lb, int ext) {
        int reach(final int count) {
            return 0 == count ? 0 : (count - 1) * ext + Arrays.stream(offs).max().orElse(0) + 1;
        }
    }

    static Model base() {
        return new Model(D, new int[] {0}, 0, 1);
    }

    /** Copies of {@code m} at element displacements {@code at[k] + j * m.ext}, {@code j < bl[k]}: MPI's rule. */
    static Model place(final Layout l, final int[] bl, final int[] at, final Model m) {
        final List<Integer> o = new ArrayList<>();
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (int k = 0; k < bl.length; k++) {
            for (int j = 0; j < bl[k]; j++) {
                final int c = at[k] + j * m.ext;
                lo = Math.min(lo, c + m.lb);
                hi = Math.max(hi, c + m.lb + m.ext);
                for (final int x : m.offs) {
                    o.add(c + x);
                }
            }
        }
        return new Model(l, o.stream().mapToInt(Integer::intValue).toArray(), lo, hi - lo);
    }

    static Model random(final Random r, final int depth) {
        final Model m = 0 == depth ? base() : random(r, depth - 1);
        switch (r.nextInt(0 == depth ? 3 : 5)) {
            case 0 -> { // vector
                final int count = 1 + r.nextInt(4);
                final int bl = 1 + r.nextInt(3);
                final int stride = bl + r.nextInt(3);
                final int[] bls = new int[count];
                final int[] at = new int[count];
                for (int i = 0; i < count; i++) {
                    bls[i] = bl;
                    at[i] = i * stride * m.ext;
                }
                return place(Layout.vector(count, bl, stride, m.layout), bls, at, m);
            }
            case 1 -> { // indexed, increasing non-overlapping blocks
                final int n = 1 + r.nextInt(4);
                final int[] bls = new int[n];
                final int[] dis = new int[n];
                final int[] at = new int[n];
                int next = r.nextInt(3);
                for (int i = 0; i < n; i++) {
                    bls[i] = r.nextInt(3);
                    dis[i] = next;
                    at[i] = next * m.ext;
                    next += bls[i] + r.nextInt(3);
                }
                if (0 == Arrays.stream(bls).sum()) {
                    bls[0] = 1;
                }
                return place(Layout.indexed(bls, dis, m.layout), bls, at, m);
            }
            case 2 -> { // 2-D subarray of a rows x cols array of m
                final int rows = 1 + r.nextInt(4);
                final int cols = 1 + r.nextInt(4);
                final int sr = 1 + r.nextInt(rows);
                final int sc = 1 + r.nextInt(cols);
                final int r0 = r.nextInt(rows - sr + 1);
                final int c0 = r.nextInt(cols - sc + 1);
                final Layout l = Layout.subarray(new int[] {rows, cols}, new int[] {sr, sc}, new int[] {r0, c0},
                    false, m.layout);
                final int[] bls = new int[sr];
                final int[] at = new int[sr];
                for (int i = 0; i < sr; i++) {
                    bls[i] = sc;
                    at[i] = ((r0 + i) * cols + c0) * m.ext;
                }
                final Model p = place(l, bls, at, m);
                return new Model(l, p.offs, 0, rows * cols * m.ext);
            }
            case 3 -> { // resized wider, possibly with a lower bound below the data
                final int lb = m.lb - r.nextInt(2);
                final int ext = m.ext + (m.lb - lb) + r.nextInt(3);
                return new Model(Layout.resized(m.layout, lb * 8L, ext * 8L), m.offs, lb, ext);
            }
            default -> { // contiguous
                final int count = 1 + r.nextInt(3);
                final int[] bls = {count};
                return place(Layout.contiguous(count, m.layout), bls, new int[] {0}, m);
            }
        }
    }

    static double[] filled(final int n, final int rank) {
        final double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = 1000 * rank + i + 1;
        }
        return a;
    }

    static double[] poisoned(final int n) {
        final double[] a = new double[n];
        Arrays.fill(a, POISON);
        return a;
    }

    /** Item {@code k} of {@code from} lands as item {@code at + k}; everything else stays poisoned. */
    static void expectItems(final Model m, final double[] from, final int count, final double[] got, final int at,
        final double[] expected) {
        for (int k = 0; k < count; k++) {
            for (final int o : m.offs) {
                expected[(at + k) * m.ext + o] = from[k * m.ext + o];
            }
        }
    }

    static double[] packed(final Model m, final double[] from, final int count) {
        final double[] p = new double[count * m.offs.length];
        int i = 0;
        for (int k = 0; k < count; k++) {
            for (final int o : m.offs) {
                p[i++] = from[k * m.ext + o];
            }
        }
        return p;
    }

    @Property(tries = 25)
    void shouldMoveExactlyTheDescribedElements(@ForAll final long seed) {
        final Random r = new Random(seed);
        final Model m = random(r, r.nextInt(3));
        final int count = r.nextInt(4);
        assertEquals(m.offs.length, m.layout.size(), m.layout + " size");
        assertEquals(m.ext * 8L, m.layout.extentBytes(), m.layout + " extent");
        assertEquals(m.lb * 8L, m.layout.lbBytes(), m.layout + " lb");
        final int n = m.reach(count) + 2;
        final int p = 3;
        Tutti.runLocal(p, OPTS, w -> {
            final int me = w.rank();
            final double[] mine = filled(n, me);
            // point-to-point: layout to layout, and layout to a plain buffer (type-map order)
            if (0 == me) {
                w.send(Buf.of(mine, m.layout, count), 1, 1);
                w.send(Buf.of(mine, m.layout, count), 1, 2);
            } else if (1 == me) {
                final double[] got = poisoned(n);
                final Status s = w.recv(Buf.of(got, m.layout, count), 0, 1);
                assertEquals(count * m.offs.length, s.count());
                final double[] want = poisoned(n);
                expectItems(m, filled(n, 0), count, got, 0, want);
                assertArrayEquals(want, got, "p2p " + m.layout + " x " + count);
                final double[] plain = new double[count * m.offs.length];
                w.recv(Buf.of(plain), 0, 2);
                assertArrayEquals(packed(m, filled(n, 0), count), plain, "p2p to plain");
            }
            // bcast from the last rank
            final double[] b = p - 1 == me ? filled(n, me) : poisoned(n);
            w.bcast(Buf.of(b, m.layout, count), p - 1);
            final double[] wantB = p - 1 == me ? filled(n, me) : poisoned(n);
            expectItems(m, filled(n, p - 1), count, b, 0, wantB);
            assertArrayEquals(wantB, b, "bcast at rank " + me);
            // gather at rank 0: rank i's items are items [i * count, (i + 1) * count)
            final int gn = m.reach(count * p) + 1;
            final double[] g = poisoned(gn);
            w.gather(Buf.of(mine, m.layout, count), 0 == me ? Buf.of(g, m.layout, count * p) : null, 0);
            if (0 == me) {
                final double[] wantG = poisoned(gn);
                for (int i = 0; i < p; i++) {
                    expectItems(m, filled(n, i), count, g, i * count, wantG);
                }
                assertArrayEquals(wantG, g, "gather");
            }
            // scatter from rank 1: rank i gets items [i * count, (i + 1) * count) of the root's
            final double[] all = filled(gn, 1);
            final double[] sc = poisoned(n);
            w.scatter(1 == me ? Buf.of(all, m.layout, count * p) : null, Buf.of(sc, m.layout, count), 1);
            final double[] wantS = poisoned(n);
            for (int k = 0; k < count; k++) {
                for (final int o : m.offs) {
                    wantS[k * m.ext + o] = all[(me * count + k) * m.ext + o];
                }
            }
            assertArrayEquals(wantS, sc, "scatter at rank " + me);
            // allreduce: a reduction over the packed elements, written back through the layout
            final double[] red = poisoned(n);
            w.allreduce(Buf.of(mine, m.layout, count), Buf.of(red, m.layout, count), Op.SUM);
            final double[] sum = new double[n];
            for (int i = 0; i < p; i++) {
                final double[] f = filled(n, i);
                for (int j = 0; j < n; j++) {
                    sum[j] += f[j];
                }
            }
            final double[] wantR = poisoned(n);
            expectItems(m, sum, count, red, 0, wantR);
            assertArrayEquals(wantR, red, "allreduce at rank " + me);
        });
    }

    /** A 2 x 3 x 4 block of a 4 x 5 x 6 array, sent from its subarray to a plain buffer and to another array's. */
    @Test
    void shouldMoveASubarrayOfA3dArray() {
        final Layout sub = Layout.subarray(new int[] {4, 5, 6}, new int[] {2, 3, 4}, new int[] {1, 1, 2}, false, D);
        final double[] packed = new double[24];
        final double[] want = poisoned(120);
        int k = 0;
        for (int i = 1; i < 3; i++) {
            for (int j = 1; j < 4; j++) {
                for (int l = 2; l < 6; l++) {
                    packed[k++] = (i * 5 + j) * 6 + l + 1;
                    want[(i * 5 + j) * 6 + l] = (i * 5 + j) * 6 + l + 1;
                }
            }
        }
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                w.send(Buf.of(filled(120, 0), sub, 1), 1, 0);
                w.send(Buf.of(filled(120, 0), sub, 1), 1, 1);
            } else {
                final double[] plain = new double[24];
                w.recv(Buf.of(plain), 0, 0);
                assertArrayEquals(packed, plain);
                final double[] got = poisoned(120);
                w.recv(Buf.of(got, sub, 1), 0, 1);
                assertArrayEquals(want, got);
            }
        });
    }

    @Test
    void shouldComputeExtentsByMpiRules() {
        final Layout v = Layout.vector(3, 2, 4, D); // blocks at 0, 4, 8 of 2 doubles
        assertEquals(6, v.size());
        assertEquals(10 * 8, v.extentBytes());
        assertEquals(3, v.blocks());
        final Layout r = Layout.resized(v, -8, 128);
        assertEquals(-8, r.lbBytes());
        assertEquals(128, r.extentBytes());
        assertEquals(0, r.trueLbBytes());
        assertEquals(80, r.trueExtentBytes());
        // a vector of the resized type: copies 16 doubles apart
        assertEquals(2 * 128, Layout.contiguous(2, r).extentBytes());
        final Layout h = Layout.hvector(2, 1, 12, Layout.of(Datatype.INT));
        assertEquals(16, h.extentBytes());
        final Layout s = Layout.struct(new int[] {1, 1}, new long[] {0, 9}, new Layout[] {Layout.of(Datatype.BYTE),
            Layout.of(Datatype.BYTE)});
        assertEquals(10, s.extentBytes());
        final Layout sub = Layout.subarray(new int[] {4, 5, 6}, new int[] {2, 3, 4}, new int[] {1, 1, 2}, false, D);
        assertEquals(24, sub.size());
        assertEquals(4 * 5 * 6 * 8, sub.extentBytes());
        assertEquals(((1 * 5 + 1) * 6 + 2) * 8, sub.trueLbBytes());
        final Layout f = Layout.subarray(new int[] {6, 5, 4}, new int[] {4, 3, 2}, new int[] {2, 1, 1}, true, D);
        assertEquals(sub.trueLbBytes(), f.trueLbBytes());
        assertEquals(sub.blocks(), f.blocks());
    }

    @Test
    void shouldViewContiguousItemsWithoutStaging() {
        final double[] a = new double[20];
        final Buf c = Buf.of(a, 2, Layout.contiguous(3, D), 4);
        assertNull(c.layout());
        assertNotNull(c.segment());
        assertEquals(12, c.count());
        final Buf one = Buf.of(a, Layout.vector(1, 5, 7, D), 1);
        assertNull(one.layout());
        final Buf v = Buf.of(a, Layout.vector(2, 1, 2, D), 3);
        assertNotNull(v.layout());
        assertNull(v.segment());
        assertEquals(6, v.count());
        assertEquals(4, v.slice(2, 4).count());
        assertThrows(TuttiException.class, () -> v.slice(1, 2));
        for (int i = 0; i < a.length; i++) {
            a[i] = i;
        }
        final MemorySegment out = MemorySegment.ofArray(new double[6]);
        v.pack(out);
        assertArrayEquals(new double[] {0, 2, 3, 5, 6, 8}, out.toArray(java.lang.foreign.ValueLayout.JAVA_DOUBLE));
    }

    @Test
    void shouldRefuseBadLayoutsAndBuffers() {
        final double[] a = new double[10];
        final TuttiException outside = assertThrows(TuttiException.class,
            () -> Buf.of(a, Layout.vector(3, 1, 5, D), 1));
        assertEquals(ErrorClass.COUNT, outside.errorClass());
        assertTrue(outside.getMessage().contains("Buf.of"), outside.getMessage());
        assertThrows(TuttiException.class, () -> Buf.of(new int[4], Layout.contiguous(2, D), 1));
        assertThrows(TuttiException.class, () -> Layout.vector(-1, 1, 1, D));
        assertThrows(TuttiException.class, () -> Layout.of(Datatype.BOOLEAN));
        assertThrows(TuttiException.class, () -> Layout.struct(new int[] {1, 1}, new long[] {0, 8},
            new Layout[] {D, Layout.of(Datatype.INT)}));
        assertThrows(TuttiException.class, () -> Layout.subarray(new int[] {4}, new int[] {3}, new int[] {2}, false,
            D));
        assertThrows(TuttiException.class, () -> Buf.of(a, 1, Layout.hindexed(new int[] {1}, new long[] {-16}, D),
            1)); // reaches below the array
        assertEquals(1, Buf.of(a, 2, Layout.hindexed(new int[] {1}, new long[] {-16}, D), 1).count());
    }
}
