package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reductions as MPI (5.9) defines them: predefined operations on every type they apply to (logical ones on
 * integers, bitwise ones on bytes and chars, unsigned BYTE and CHAR), MINLOC/MAXLOC ties on every pair type,
 * user operations that are not commutative (applied in rank order, {@code inOut = in op inOut}), the ByteBuffer
 * form of {@link UserFunction} with the caller's very datatype, and reduceLocal.
 */
@Timeout(60)
class ConformanceReductionTest {
    private static final int N = 4;

    /** 2x2 int matrix product, row-major, wrapping: associative and not commutative. */
    private static int[] times(final int[] x, final int[] y) {
        return new int[] {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
            x[2] * y[1] + x[3] * y[3]};
    }

    private static int[] matrix(final int r) {
        return new int[] {1 + r, 2, r, 3 - r};
    }

    /** inOut = in x inOut, per matrix: MPI's order (in is the lower ranks' operand). */
    private static final UserFunction PRODUCT = new UserFunction() {
        @Override
        public void call(final Object inVec, final Object inOutVec, final int count, final Datatype type) {
            final int[] in = (int[]) inVec;
            final int[] io = (int[]) inOutVec;
            for (int m = 0; m < count / 4; m++) {
                final int[] a = {in[4 * m], in[4 * m + 1], in[4 * m + 2], in[4 * m + 3]};
                final int[] b = {io[4 * m], io[4 * m + 1], io[4 * m + 2], io[4 * m + 3]};
                System.arraycopy(times(a, b), 0, io, 4 * m, 4);
            }
        }
    };

    @Test
    void shouldApplyANonCommutativeOperationInRankOrder() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Op product = new Op(PRODUCT, false);
            assertFalse(product.isCommutative());
            int[] want = matrix(0);
            final int[][] prefix = new int[N][];
            prefix[0] = want;
            for (int r = 1; r < N; r++) {
                want = times(want, matrix(r));
                prefix[r] = want;
            }
            final int[] all = new int[4];
            w.allReduce(matrix(rank), all, 4, MPI.INT, product);
            assertArrayEquals(want, all);
            final int[] atRoot = new int[4];
            w.reduce(matrix(rank), atRoot, 4, MPI.INT, product, 1);
            if (1 == rank) {
                assertArrayEquals(want, atRoot);
            }
            final int[] scan = new int[4];
            w.scan(matrix(rank), scan, 4, MPI.INT, product);
            assertArrayEquals(prefix[rank], scan);
            final int[] ex = new int[4];
            w.exScan(matrix(rank), ex, 4, MPI.INT, product);
            if (rank > 0) {
                assertArrayEquals(prefix[rank - 1], ex);
            }
            final int[] inPlace = matrix(rank);
            w.allReduce(inPlace, 4, MPI.INT, product);
            assertArrayEquals(want, inPlace);
            // two matrices per item run: element-wise over count
            final int[] two = new int[8];
            System.arraycopy(matrix(rank), 0, two, 0, 4);
            System.arraycopy(matrix(N - 1 - rank), 0, two, 4, 4);
            w.allReduce(two, 8, MPI.INT, product);
            int[] rev = matrix(N - 1);
            for (int r = 1; r < N; r++) {
                rev = times(rev, matrix(N - 1 - r));
            }
            assertArrayEquals(want, java.util.Arrays.copyOf(two, 4));
            assertArrayEquals(rev, java.util.Arrays.copyOfRange(two, 4, 8));
            // reduceLocal: inOut = in op inOut
            final int[] io = matrix(2);
            Comm.reduceLocal(matrix(1), io, 4, MPI.INT, product);
            assertArrayEquals(times(matrix(1), matrix(2)), io);
            MPI.Finalize();
        });
    }

    @Test
    void shouldApplyPredefinedOperationsToEveryTypeTheyTake() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] logical = {rank, 0 == rank ? 0 : 5, 3 == rank ? 7 : 0};
            final int[] land = new int[3];
            w.allReduce(logical, land, 3, MPI.INT, MPI.LAND);
            assertArrayEquals(new int[] {0, 0, 0}, land);
            final int[] lor = new int[3];
            w.allReduce(logical, lor, 3, MPI.INT, MPI.LOR);
            assertArrayEquals(new int[] {1, 1, 1}, lor);
            final int[] lxor = new int[3];
            w.allReduce(logical, lxor, 3, MPI.INT, MPI.LXOR);
            assertArrayEquals(new int[] {1, 1, 1}, lxor); // 3 true, 3 true, 1 true
            final boolean[] bx = {rank < 2, true};
            w.allReduce(bx, 2, MPI.BOOLEAN, MPI.LXOR);
            assertArrayEquals(new boolean[] {false, false}, bx);
            final boolean[] bor = {2 == rank};
            w.allReduce(bor, 1, MPI.BOOLEAN, MPI.LOR);
            assertTrue(bor[0]);
            final long[] bits = {1L << rank, ~(1L << rank)};
            final long[] bor2 = new long[2];
            w.allReduce(bits, bor2, 2, MPI.LONG, MPI.BOR);
            assertArrayEquals(new long[] {15, -1}, bor2);
            final long[] band = new long[2];
            w.allReduce(bits, band, 2, MPI.LONG, MPI.BAND);
            assertArrayEquals(new long[] {0, ~15L}, band);
            final short[] sx = {(short) (1 << rank)};
            w.allReduce(sx, 1, MPI.SHORT, MPI.BXOR);
            assertEquals(15, sx[0]);
            final byte[] bytes = {(byte) (0xF0 | rank), (byte) (3 == rank ? 0x80 : 1)};
            final byte[] bmin = new byte[2];
            w.allReduce(bytes, bmin, 2, MPI.BYTE, MPI.MIN); // unsigned: 0x80 is 128
            assertArrayEquals(new byte[] {(byte) 0xF0, 1}, bmin);
            final byte[] bband = new byte[2];
            w.allReduce(bytes, bband, 2, MPI.BYTE, MPI.BAND);
            assertEquals((byte) 0xF0, bband[0]);
            final char[] chars = {(char) (0 == rank ? 0xFFFF : 'a' + rank)};
            w.allReduce(chars, 1, MPI.CHAR, MPI.MAX); // unsigned 16 bits
            assertEquals((char) 0xFFFF, chars[0]);
            final float[] fc = {1, rank}; // sum of complex numbers
            w.allReduce(fc, 1, MPI.FLOAT_COMPLEX, MPI.SUM);
            assertArrayEquals(new float[] {4, 6}, fc);
            final double[] dmin = {rank - 1.5};
            w.allReduce(dmin, 1, MPI.DOUBLE, MPI.MIN);
            assertEquals(-1.5, dmin[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldBreakLocationTiesByTheLowestIndexOnEveryPairType() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int value = 1 == rank || 3 == rank ? 9 : rank; // max 9 at ranks 1 and 3; min 0 at rank 0
            final int index = 10 * (N - rank); // indices decrease with rank: the tie picks rank 3's
            final ByteBuffer sl = MPI.newByteBuffer(8);
            ((ShortInt.Data) MPI.shortInt.getData(sl, 0)).putValue((short) value);
            ((ShortInt.Data) MPI.shortInt.getData(sl, 0)).putIndex(index);
            final ByteBuffer slOut = MPI.newByteBuffer(8);
            w.allReduce(sl, slOut, 1, MPI.SHORT_INT, MPI.MAXLOC);
            assertEquals(9, ((ShortInt.Data) MPI.shortInt.getData(slOut, 0)).getValue());
            assertEquals(10, ((ShortInt.Data) MPI.shortInt.getData(slOut, 0)).getIndex());
            final ByteBuffer ll = MPI.newByteBuffer(32);
            for (int i = 0; i < 2; i++) {
                ((LongInt.Data) MPI.longInt.getData(ll, i)).putValue(0 == i ? value : -value);
                ((LongInt.Data) MPI.longInt.getData(ll, i)).putIndex(index);
            }
            final ByteBuffer llOut = MPI.newByteBuffer(32);
            w.allReduce(ll, llOut, 2, MPI.LONG_INT, MPI.MAXLOC);
            assertEquals(9, ((LongInt.Data) MPI.longInt.getData(llOut, 0)).getValue());
            assertEquals(10, ((LongInt.Data) MPI.longInt.getData(llOut, 0)).getIndex());
            // item 1 holds -value: its max is rank 0's 0
            assertEquals(0, ((LongInt.Data) MPI.longInt.getData(llOut, 1)).getValue());
            assertEquals(40, ((LongInt.Data) MPI.longInt.getData(llOut, 1)).getIndex());
            final ByteBuffer fl = MPI.newByteBuffer(8);
            ((FloatInt.Data) MPI.floatInt.getData(fl, 0)).putValue(value);
            ((FloatInt.Data) MPI.floatInt.getData(fl, 0)).putIndex(index);
            final ByteBuffer flOut = MPI.newByteBuffer(8);
            w.reduce(fl, flOut, 1, MPI.FLOAT_INT, MPI.MINLOC, 2);
            if (2 == rank) {
                assertEquals(0f, ((FloatInt.Data) MPI.floatInt.getData(flOut, 0)).getValue());
                assertEquals(40, ((FloatInt.Data) MPI.floatInt.getData(flOut, 0)).getIndex());
            }
            final ByteBuffer i2 = MPI.newByteBuffer(8);
            ((Int2.Data) MPI.int2.getData(i2, 0)).putValue(value);
            ((Int2.Data) MPI.int2.getData(i2, 0)).putIndex(index);
            w.allReduce(i2, 1, MPI.INT2, MPI.MAXLOC); // in place
            assertEquals(9, ((Int2.Data) MPI.int2.getData(i2, 0)).getValue());
            assertEquals(10, ((Int2.Data) MPI.int2.getData(i2, 0)).getIndex());
            MPI.Finalize();
        });
    }

    /**
     * Predefined ops on derived types of pair and complex items: MAXLOC over two DOUBLE_INT pairs in a contiguous
     * type (negative values: doubles compared as doubles) and MINLOC over a strided vector of SHORT_INT pairs (its gap
     * untouched), SUM and PROD (complex products) over a contiguous type of DOUBLE_COMPLEX, and PROD over a strided
     * vector of them (its gap untouched).
     */
    @Test
    void shouldApplyPredefinedOperationsToDerivedTypesOfPairsAndComplexes() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype twoPairs = Datatype.createContiguous(2, MPI.DOUBLE_INT);
            twoPairs.commit();
            final ByteBuffer dp = MPI.newByteBuffer(32);
            final ByteBuffer dpOut = MPI.newByteBuffer(32);
            for (int i = 0; i < 2; i++) {
                ((DoubleInt.Data) MPI.doubleInt.getData(dp, i)).putValue(0 == i ? rank : -rank);
                ((DoubleInt.Data) MPI.doubleInt.getData(dp, i)).putIndex(100 + rank);
            }
            w.allReduce(dp, dpOut, 1, twoPairs, MPI.MAXLOC);
            assertEquals(N - 1, ((DoubleInt.Data) MPI.doubleInt.getData(dpOut, 0)).getValue());
            assertEquals(100 + N - 1, ((DoubleInt.Data) MPI.doubleInt.getData(dpOut, 0)).getIndex());
            assertEquals(0, ((DoubleInt.Data) MPI.doubleInt.getData(dpOut, 1)).getValue());
            assertEquals(100, ((DoubleInt.Data) MPI.doubleInt.getData(dpOut, 1)).getIndex());
            final Datatype strided = Datatype.createVector(2, 1, 2, MPI.SHORT_INT); // pairs 0 and 2, pair 1 a gap
            strided.commit();
            final ByteBuffer sp = MPI.newByteBuffer(24);
            final ByteBuffer spOut = MPI.newByteBuffer(24);
            for (int i = 0; i < 3; i++) {
                ((ShortInt.Data) MPI.shortInt.getData(sp, i)).putValue((short) (i * 10 + rank));
                ((ShortInt.Data) MPI.shortInt.getData(sp, i)).putIndex(rank);
                ((ShortInt.Data) MPI.shortInt.getData(spOut, i)).putValue((short) -7);
            }
            w.allReduce(sp, spOut, 1, strided, MPI.MINLOC);
            for (final int i : new int[] {0, 2}) {
                assertEquals(i * 10, ((ShortInt.Data) MPI.shortInt.getData(spOut, i)).getValue());
                assertEquals(0, ((ShortInt.Data) MPI.shortInt.getData(spOut, i)).getIndex());
            }
            assertEquals(-7, ((ShortInt.Data) MPI.shortInt.getData(spOut, 1)).getValue(), "the gap is untouched");
            final Datatype twoComplex = Datatype.createContiguous(2, MPI.DOUBLE_COMPLEX);
            twoComplex.commit();
            final double[] c = {rank, 1, 2 * rank, -1};
            final double[] cOut = new double[4];
            w.allReduce(c, cOut, 1, twoComplex, MPI.SUM);
            final int sum = N * (N - 1) / 2;
            assertArrayEquals(new double[] {sum, N, 2 * sum, -N}, cOut);
            final double[] z = {1, rank, 0, 1}; // (1 + i rank) and i: the products are complex products
            final double[] zOut = new double[4];
            w.allReduce(z, zOut, 1, twoComplex, MPI.PROD);
            double re = 1;
            double im = 0;
            for (int r = 0; r < N; r++) { // (1 + 0i)(1 + 1i)(1 + 2i)...
                final double nre = re - im * r;
                im = re * r + im;
                re = nre;
            }
            double ire = 1;
            double iim = 0;
            for (int r = 0; r < N; r++) { // i^N
                final double nre = -iim;
                iim = ire;
                ire = nre;
            }
            assertArrayEquals(new double[] {re, im, ire, iim}, zOut, 1e-9);
            final Datatype gapped = Datatype.createVector(2, 1, 2, MPI.DOUBLE_COMPLEX); // numbers 0 and 2
            gapped.commit();
            final double[] g = {1, rank, 5, 5, 0, 1};
            final double[] gOut = {9, 9, -3, -3, 9, 9};
            w.allReduce(g, gOut, 1, gapped, MPI.PROD);
            assertArrayEquals(new double[] {re, im, -3, -3, ire, iim}, gOut, 1e-9, "the gap is untouched");
            twoPairs.free();
            strided.free();
            twoComplex.free();
            gapped.free();
            MPI.Finalize();
        });
    }

    /** MPI's classic example: complex numbers as a derived type of two doubles and a user product. */
    @Test
    void shouldApplyAUserOperationToAContiguousDerivedType() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype[] seen = new Datatype[1];
            final Op product = new Op(new UserFunction() {
                @Override
                public void call(final Object inVec, final Object inOutVec, final int count, final Datatype t) {
                    seen[0] = t;
                    final double[] a = (double[]) inVec;
                    final double[] b = (double[]) inOutVec;
                    for (int i = 0; i < count; i++) {
                        final double re = a[2 * i] * b[2 * i] - a[2 * i + 1] * b[2 * i + 1];
                        final double im = a[2 * i] * b[2 * i + 1] + a[2 * i + 1] * b[2 * i];
                        b[2 * i] = re;
                        b[2 * i + 1] = im;
                    }
                }
            }, true);
            // two doubles in a row, as a contiguous type and as a (gapless) vector type
            for (final Datatype complex : new Datatype[] {Datatype.createContiguous(2, MPI.DOUBLE),
                Datatype.createVector(2, 1, 1, MPI.DOUBLE)}) {
                complex.commit();
                final double[] z = {0, 1, rank + 1.0, 0}; // i and (rank + 1)
                final double[] out = new double[4];
                w.allReduce(z, out, 2, complex, product);
                assertArrayEquals(new double[] {1, 0, 24, 0}, out, 1e-12); // i^4 = 1, 4! = 24
                assertSame(complex, seen[0]);
                final double[] atRoot = new double[4];
                w.reduce(z, atRoot, 2, complex, product, 3);
                if (3 == rank) {
                    assertArrayEquals(new double[] {1, 0, 24, 0}, atRoot, 1e-12);
                }
                final double[] io = {2, 0, 0, 1};
                Comm.reduceLocal(new double[] {0, 1, 3, 0}, io, 2, complex, product);
                assertArrayEquals(new double[] {0, 2, 0, 3}, io, 1e-12);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCallTheByteBufferFormWithTheCallersDatatype() {
        MpiJobs.run(N, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final Datatype[] seen = new Datatype[1];
            final Op sumOfValues = new Op(new UserFunction() { // sums the values of INT2 pairs, keeps min index
                @Override
                public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype t)
                    throws MPIException {
                    seen[0] = t;
                    assertTrue(in.isDirect());
                    assertEquals(8 * count, in.capacity());
                    for (int i = 0; i < count; i++) {
                        final Int2.Data a = MPI.int2.getData(in, i);
                        final Int2.Data b = MPI.int2.getData(inOut, i);
                        b.putValue(a.getValue() + b.getValue());
                        b.putIndex(Math.min(a.getIndex(), b.getIndex()));
                    }
                }
            }, true);
            final ByteBuffer in = MPI.newByteBuffer(16);
            for (int i = 0; i < 2; i++) {
                ((Int2.Data) MPI.int2.getData(in, i)).putValue(rank + i);
                ((Int2.Data) MPI.int2.getData(in, i)).putIndex(rank + 5);
            }
            final ByteBuffer out = MPI.newByteBuffer(16);
            w.allReduce(in, out, 2, MPI.INT2, sumOfValues);
            assertEquals(6, ((Int2.Data) MPI.int2.getData(out, 0)).getValue());
            assertEquals(10, ((Int2.Data) MPI.int2.getData(out, 1)).getValue());
            assertEquals(5, ((Int2.Data) MPI.int2.getData(out, 1)).getIndex());
            if (N > 1) {
                assertSame(MPI.INT2, seen[0]);
            }
            MPI.Finalize();
        });
    }

    /** reduceLocal (MPI_Reduce_local) with predefined operations of every kind: inOut = in op inOut, locally. */
    @Test
    void shouldReduceLocallyWithPredefinedOperations() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final int[] io = {1, 5, -3};
            Comm.reduceLocal(new int[] {10, 20, 30}, io, 3, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {11, 25, 27}, io);
            final double[] d = {1.5, -2};
            Comm.reduceLocal(new double[] {0.5, 7}, d, 2, MPI.DOUBLE, MPI.MAX);
            assertArrayEquals(new double[] {1.5, 7}, d, 0);
            final byte[] u = {(byte) 200, 3};
            Comm.reduceLocal(new byte[] {100, (byte) 250}, u, 2, MPI.BYTE, MPI.MAX); // unsigned, as Open MPI
            assertArrayEquals(new byte[] {(byte) 200, (byte) 250}, u);
            final boolean[] b = {true, false};
            Comm.reduceLocal(new boolean[] {true, true}, b, 2, MPI.BOOLEAN, MPI.LXOR);
            assertArrayEquals(new boolean[] {false, true}, b);
            final ByteBuffer pin = MPI.newByteBuffer(8);
            final ByteBuffer pio = MPI.newByteBuffer(8);
            ((Int2.Data) MPI.int2.getData(pin)).putValue(4);
            ((Int2.Data) MPI.int2.getData(pin)).putIndex(3);
            ((Int2.Data) MPI.int2.getData(pio)).putValue(4);
            ((Int2.Data) MPI.int2.getData(pio)).putIndex(9);
            Comm.reduceLocal(pin, pio, 1, MPI.INT2, MPI.MINLOC);
            assertEquals(3, ((Int2.Data) MPI.int2.getData(pio)).getIndex()); // a tie: the lower index
            final Datatype strided = Datatype.createVector(2, 1, 2, MPI.INT);
            strided.commit();
            final int[] sio = {1, -7, 2};
            Comm.reduceLocal(new int[] {3, 0, 4}, sio, 1, strided, MPI.PROD);
            assertArrayEquals(new int[] {3, -7, 8}, sio); // the gap stays
            final float[] z = {0, 1}; // i
            Comm.reduceLocal(new float[] {0, 1}, z, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
            assertArrayEquals(new float[] {-1, 0}, z, 0); // i * i
            Comm.reduceLocal(new int[0], new int[0], 0, MPI.INT, MPI.SUM);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_OP, org.junit.jupiter.api.Assertions.assertThrows(MPIException.class,
                () -> Comm.reduceLocal(new float[1], new float[1], 1, MPI.FLOAT, MPI.LAND)).getErrorClass());
            MPI.Finalize();
        });
    }
}
