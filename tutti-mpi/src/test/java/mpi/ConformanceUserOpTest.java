package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User operations on derived datatypes, as Open MPI's bindings run them: the function gets {@code count * extent}
 * bytes per operand (direct, native order; or the base type's array through the default ByteBuffer form), item
 * {@code i} at {@code i * extent} in the type's own layout, with the caller's very datatype; the gaps of the
 * caller's buffers stay untouched. Every collective that reduces, in-place forms, count 0, reduceLocal, and counts
 * large enough for Tutti's splitting algorithms, checked element by element against a reference computed here.
 */
@Timeout(60)
class ConformanceUserOpTest {
    private static final int N = 4;
    /** A gap's sentinel: never written by a reduction. */
    private static final int GAP = -7;

    /** Dual numbers (a + b e, e^2 = 0), item i at ints {3i, 3i + 2} of a vector(2, 1, 2, INT): commutative. */
    private static final class Dual extends UserFunction {
        Datatype seen;

        @Override
        public void call(final Object inVec, final Object inOutVec, final int count, final Datatype t) {
            seen = t;
            final int[] x = (int[]) inVec;
            final int[] y = (int[]) inOutVec;
            assertEquals(3 * count, y.length);
            for (int i = 0; i < count; i++) {
                final int a = x[3 * i];
                final int b = x[3 * i + 2];
                final int c = y[3 * i];
                final int d = y[3 * i + 2];
                y[3 * i] = a * c;
                y[3 * i + 2] = a * d + b * c;
            }
        }
    }

    /** The operand of rank r, item i: (r + i + 1) + (i - r) e. */
    private static int[] dualItem(final int r, final int i) {
        return new int[] {r + i + 1, i - r};
    }

    private static int[] dualTimes(final int[] x, final int[] y) {
        return new int[] {x[0] * y[0], x[0] * y[1] + x[1] * y[0]};
    }

    /** @return the product of items i of ranks from..to (inclusive) */
    private static int[] dualFold(final int from, final int to, final int i) {
        int[] p = dualItem(from, i);
        for (int r = from + 1; r <= to; r++) {
            p = dualTimes(p, dualItem(r, i));
        }
        return p;
    }

    /** @return items first.. of rank r in the strided layout, gaps set to GAP */
    private static int[] strided(final int r, final int first, final int n) {
        final int[] b = new int[3 * n];
        for (int i = 0; i < n; i++) {
            final int[] v = dualItem(r, first + i);
            b[3 * i] = v[0];
            b[3 * i + 1] = GAP;
            b[3 * i + 2] = v[1];
        }
        return b;
    }

    /** Checks the items (and that every gap still holds GAP) of a strided buffer. */
    private static void assertStrided(final int[] want, final int[] got, final int n, final String what) {
        for (int i = 0; i < n; i++) {
            assertEquals(want[2 * i], got[3 * i], what + " item " + i);
            assertEquals(want[2 * i + 1], got[3 * i + 2], what + " item " + i);
            assertEquals(GAP, got[3 * i + 1], what + " gap of item " + i);
        }
    }

    /** @return the reference: items first..first+n of the fold over ranks from..to, two ints each */
    private static int[] dualRef(final int from, final int to, final int first, final int n) {
        final int[] out = new int[2 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(dualFold(from, to, first + i), 0, out, 2 * i, 2);
        }
        return out;
    }

    private static int[] gaps(final int n) {
        final int[] b = new int[3 * n];
        Arrays.fill(b, GAP);
        return b;
    }

    @Test
    void shouldReduceAStridedVectorThroughEveryCollective() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype t = Datatype.createVector(2, 1, 2, MPI.INT);
            t.commit();
            assertEquals(3, t.getExtent());
            final Dual f = new Dual();
            final Op dual = new Op(f, true);
            for (final int n : new int[] {1, 5, 2501}) { // 2501 items: 20 kB of data, past Tutti's split threshold
                final int[] all = gaps(n);
                w.allReduce(strided(rank, 0, n), all, n, t, dual);
                assertStrided(dualRef(0, N - 1, 0, n), all, n, "allReduce n=" + n);
                assertSame(t, f.seen);
                final int[] inPlace = strided(rank, 0, n);
                w.allReduce(inPlace, n, t, dual);
                assertStrided(dualRef(0, N - 1, 0, n), inPlace, n, "allReduce in place n=" + n);
                final int[] atRoot = gaps(n);
                w.reduce(strided(rank, 0, n), atRoot, n, t, dual, 1);
                if (1 == rank) {
                    assertStrided(dualRef(0, N - 1, 0, n), atRoot, n, "reduce n=" + n);
                }
                final int[] scan = gaps(n);
                w.scan(strided(rank, 0, n), scan, n, t, dual);
                assertStrided(dualRef(0, rank, 0, n), scan, n, "scan n=" + n);
                final int[] ex = gaps(n);
                w.exScan(strided(rank, 0, n), ex, n, t, dual);
                if (rank > 0) {
                    assertStrided(dualRef(0, rank - 1, 0, n), ex, n, "exScan n=" + n);
                }
                final int[] block = gaps(n);
                w.reduceScatterBlock(strided(rank, 0, n * N), block, n, t, dual);
                assertStrided(dualRef(0, N - 1, rank * n, n), block, n, "reduceScatterBlock n=" + n);
            }
            final int[] counts = {1, 2, 0, 1};
            final int[] starts = {0, 1, 3, 3};
            final int[] part = gaps(2);
            w.reduceScatter(strided(rank, 0, 4), part, counts, t, dual);
            assertStrided(dualRef(0, N - 1, starts[rank], counts[rank]), part, counts[rank], "reduceScatter");
            final int[] whole = strided(rank, 0, 4);
            w.reduceScatter(whole, counts, t, dual); // input from the buffer, this rank's block at its start
            assertStrided(dualRef(0, N - 1, starts[rank], counts[rank]), whole, counts[rank], "reduceScatter in place");
            // count 0: nothing read, nothing written
            final int[] none = gaps(1);
            w.allReduce(new int[0], none, 0, t, dual);
            assertArrayEquals(gaps(1), none);
            Intracomm.reduceLocal(new int[0], none, 0, t, dual);
            assertArrayEquals(gaps(1), none);
            // reduceLocal: inOut = in op inOut, gaps of inOut untouched
            final int[] io = strided(2, 0, 3);
            Intracomm.reduceLocal(strided(1, 0, 3), io, 3, t, dual);
            assertStrided(dualRef(1, 2, 0, 3), io, 3, "reduceLocal");
            MPI.Finalize();
        });
    }

    /** 2x2 int matrices, entry k at int 2k of a vector(4, 1, 2, INT) (extent 7 ints): not commutative. */
    @Test
    void shouldApplyANonCommutativeOperationOnAStridedTypeInRankOrder() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype t = Datatype.createVector(4, 1, 2, MPI.INT);
            t.commit();
            final Op product = new Op(new UserFunction() {
                @Override
                public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype d) {
                    assertTrue(in.isDirect() && inOut.isDirect());
                    assertEquals(28 * count, in.capacity());
                    assertEquals(ByteOrder.nativeOrder(), in.order());
                    for (int m = 0; m < count; m++) {
                        final int[] a = new int[4];
                        final int[] b = new int[4];
                        for (int k = 0; k < 4; k++) {
                            a[k] = in.getInt(28 * m + 8 * k);
                            b[k] = inOut.getInt(28 * m + 8 * k);
                        }
                        final int[] c = times(a, b);
                        for (int k = 0; k < 4; k++) {
                            inOut.putInt(28 * m + 8 * k, c[k]);
                        }
                    }
                }
            }, false);
            final int[] mine = new int[14];
            Arrays.fill(mine, GAP);
            for (int m = 0; m < 2; m++) {
                for (int k = 0; k < 4; k++) {
                    mine[7 * m + 2 * k] = matrix(rank + m)[k];
                }
            }
            final int[] all = new int[14];
            Arrays.fill(all, GAP);
            w.allReduce(mine, all, 2, t, product);
            final int[] scan = new int[14];
            Arrays.fill(scan, GAP);
            w.scan(mine, scan, 2, t, product);
            for (int m = 0; m < 2; m++) {
                int[] want = matrix(m);
                int[] prefix = null;
                for (int r = 1; r < N; r++) {
                    if (r - 1 == rank) {
                        prefix = want;
                    }
                    want = times(want, matrix(r + m));
                }
                if (N - 1 == rank) {
                    prefix = want;
                }
                for (int k = 0; k < 4; k++) {
                    assertEquals(want[k], all[7 * m + 2 * k], "allReduce matrix " + m + " entry " + k);
                    assertEquals(prefix[k], scan[7 * m + 2 * k], "scan matrix " + m + " entry " + k);
                }
                for (int g = 1; g < 7; g += 2) {
                    assertEquals(GAP, all[7 * m + g]);
                    assertEquals(GAP, scan[7 * m + g]);
                }
            }
            MPI.Finalize();
        });
    }

    private static int[] times(final int[] x, final int[] y) {
        return new int[] {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
            x[2] * y[1] + x[3] * y[3]};
    }

    private static int[] matrix(final int r) {
        return new int[] {1 + r, 2, r, 3 - r};
    }

    /**
     * A struct {double at 0, gap, int at 12} (extent 16) through the ByteBuffer form: sum of doubles, max of ints; at 2
     * ranks (threads with a core each: the on-host region, past its cells) and 4.
     */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, N})
    void shouldReduceAStructWithAGapThroughTheByteBufferForm(final int ranks) {
        MpiJobs.run(ranks, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype t = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 12},
                new Datatype[] {MPI.DOUBLE, MPI.INT});
            t.commit();
            assertEquals(16, t.getExtent());
            final Datatype[] seen = new Datatype[1];
            final Op op = new Op(new UserFunction() {
                @Override
                public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype d) {
                    seen[0] = d;
                    assertEquals(16 * count, inOut.capacity());
                    for (int i = 0; i < count; i++) {
                        inOut.putDouble(16 * i, in.getDouble(16 * i) + inOut.getDouble(16 * i));
                        inOut.putInt(16 * i + 12, Math.max(in.getInt(16 * i + 12), inOut.getInt(16 * i + 12)));
                    }
                }
            }, true);
            final int n = 1511; // 18 kB of data, whose halves and quarters end mid-item on 64-byte lines
            final ByteBuffer in = MPI.newByteBuffer(16 * n);
            final ByteBuffer out = MPI.newByteBuffer(16 * n);
            for (int i = 0; i < n; i++) {
                in.putDouble(16 * i, rank * 0.5 + i);
                in.putInt(16 * i + 8, 1000 + rank); // the gap: not data
                in.putInt(16 * i + 12, (rank * 7 + i) % 5);
                out.putInt(16 * i + 8, GAP);
            }
            w.allReduce(in, out, n, t, op);
            assertSame(t, seen[0]);
            for (int i = 0; i < n; i++) {
                assertEquals(0.25 * ranks * (ranks - 1) + ranks * i, out.getDouble(16 * i), "item " + i);
                int max = 0;
                for (int r = 0; r < ranks; r++) {
                    max = Math.max(max, (r * 7 + i) % 5);
                }
                assertEquals(max, out.getInt(16 * i + 12), "item " + i);
                assertEquals(GAP, out.getInt(16 * i + 8), "gap of item " + i);
            }
            // reduceLocal on byte arrays, byte for byte
            final byte[] a = new byte[32];
            final byte[] b = new byte[32];
            final ByteBuffer av = ByteBuffer.wrap(a).order(ByteOrder.nativeOrder());
            final ByteBuffer bv = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
            Arrays.fill(b, (byte) 0x5a);
            av.putDouble(0, 1.5).putInt(12, 4).putDouble(16, -2).putInt(28, 9);
            bv.putDouble(0, 2.25).putInt(12, 6).putDouble(16, 3).putInt(28, 1);
            final byte[] want = b.clone();
            final ByteBuffer wv = ByteBuffer.wrap(want).order(ByteOrder.nativeOrder());
            wv.putDouble(0, 3.75).putInt(12, 6).putDouble(16, 1).putInt(28, 9);
            Intracomm.reduceLocal(a, b, 2, t, op);
            assertArrayEquals(want, b);
            MPI.Finalize();
        });
    }

    /** Items of 3 ints with no gap (12 bytes: several Tutti units each) are never split between calls; 2 and 4 ranks. */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, N})
    void shouldNeverSplitAnItemOfSeveralUnits(final int ranks) {
        MpiJobs.run(ranks, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype t = Datatype.createContiguous(3, MPI.INT);
            t.commit();
            final Op poly = new Op(new UserFunction() { // (a + b x + c x^2) products mod x^3: commutative
                @Override
                public void call(final Object inVec, final Object inOutVec, final int count, final Datatype d) {
                    final int[] x = (int[]) inVec;
                    final int[] y = (int[]) inOutVec;
                    for (int i = 0; i < count; i++) {
                        final int a = x[3 * i];
                        final int b = x[3 * i + 1];
                        final int c = x[3 * i + 2];
                        final int p = y[3 * i];
                        final int q = y[3 * i + 1];
                        final int s = y[3 * i + 2];
                        y[3 * i] = a * p;
                        y[3 * i + 1] = a * q + b * p;
                        y[3 * i + 2] = a * s + b * q + c * p;
                    }
                }
            }, true);
            final int n = 3011; // 36 kB: halves and quarters of 9033 ints split items unless Tutti keeps them whole
            final int[] mine = new int[3 * n];
            for (int j = 0; j < mine.length; j++) {
                mine[j] = rank + j % 7 + 1;
            }
            final int[] all = new int[3 * n];
            w.allReduce(mine, all, n, t, poly);
            for (int i = 0; i < n; i++) {
                int p = 1;
                int q = 0;
                int s = 0;
                for (int r = 0; r < ranks; r++) {
                    final int a = r + (3 * i) % 7 + 1;
                    final int b = r + (3 * i + 1) % 7 + 1;
                    final int c = r + (3 * i + 2) % 7 + 1;
                    final int np = a * p;
                    final int nq = a * q + b * p;
                    final int ns = a * s + b * q + c * p;
                    p = np;
                    q = nq;
                    s = ns;
                }
                assertEquals(p, all[3 * i], "item " + i);
                assertEquals(q, all[3 * i + 1], "item " + i);
                assertEquals(s, all[3 * i + 2], "item " + i);
            }
            MPI.Finalize();
        });
    }

    /**
     * The operands' memory is reused between calls of a thread: a loop of reductions stays right, a function that
     * reduces again inside itself gets operands of its own, and operands above the kept size work too.
     */
    @Test
    void shouldKeepOperandsApartWhenReusedOrNested() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype t = Datatype.createVector(2, 1, 2, MPI.INT);
            t.commit();
            final Op dual = new Op(new Dual(), true);
            for (int round = 0; round < 2000; round++) {
                final int n = 1 + round % 7;
                final int[] all = gaps(n);
                w.allReduce(strided(rank, round, n), all, n, t, dual);
                final int[] want = new int[2 * n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(dualTimes(dualItem(0, round + i), dualItem(1, round + i)), 0, want, 2 * i, 2);
                }
                assertStrided(want, all, n, "round " + round);
            }
            final Op nested = new Op(new UserFunction() { // runs dual on the operands through reduceLocal
                @Override
                public void call(final Object inVec, final Object inOutVec, final int count, final Datatype d)
                    throws MPIException {
                    final int[] x = ((int[]) inVec).clone();
                    final int[] y = (int[]) inOutVec;
                    Intracomm.reduceLocal(x, y, count, d, dual);
                }
            }, true);
            final int[] io = strided(2, 0, 3);
            Intracomm.reduceLocal(strided(1, 0, 3), io, 3, t, nested);
            assertStrided(dualRef(1, 2, 0, 3), io, 3, "nested");
            final int big = (OperandScratch.RETAIN_BYTES / 12) + 10; // operands above the kept size
            final int[] bio = strided(2, 0, big);
            Intracomm.reduceLocal(strided(1, 0, big), bio, big, t, dual);
            assertStrided(dualRef(1, 2, 0, big), bio, big, "large");
            MPI.Finalize();
        });
    }
}
