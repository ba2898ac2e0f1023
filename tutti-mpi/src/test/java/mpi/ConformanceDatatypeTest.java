package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Datatypes as MPI (4.1) defines them where the conformance suites look: extents rounded up to the largest
 * alignment of a type's parts (a {double, int} struct has extent 16), sizes and extents of structs of structs with
 * gaps, getElements/getCount of partial messages received with a struct type of mixed element sizes, and gaps left
 * untouched by a send, a receive and pack/unpack.
 */
@Timeout(60)
class ConformanceDatatypeTest {

    /** {double; int}: 12 bytes of data, extent 16. */
    static final class DoubleAndInt extends Struct {
        final int d = addDouble();
        final int i = addInt();

        @Override
        protected Data newData() {
            return new Data() { };
        }
    }

    /** {short at 0; int at 4}: 6 bytes of data, extent 8. */
    static final class ShortAndInt extends Struct {
        final int s = addShort();
        final int i = setOffset(4).addInt();

        @Override
        protected Data newData() {
            return new Data() { };
        }
    }

    /** {int[2] at 0; pair[2 shortint] at 16; shortint[2] at 64}: 32 bytes of data, extent 80. */
    static final class Nested extends Struct {
        Nested(final Datatype pair, final Datatype shortInt) throws MPIException {
            addInt(2);
            setOffset(16).addData(pair);
            setOffset(64).addData(shortInt, 2);
        }

        @Override
        protected Data newData() {
            return new Data() { };
        }
    }

    @Test
    void shouldPadExtentsToTheLargestAlignment() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final DoubleAndInt di = new DoubleAndInt();
            assertEquals(16, di.getExtent());
            final Datatype dit = di.getType();
            assertEquals(16, dit.getExtent());
            assertEquals(12, dit.getSize());
            final Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.DOUBLE, MPI.INT});
            assertEquals(16, s.getExtent());
            assertEquals(12, Datatype.createStruct(new int[] {1, 1, 1}, new int[] {0, 4, 8},
                new Datatype[] {MPI.INT, MPI.SHORT, MPI.INT}).getExtent());
            assertEquals(4, Datatype.createStruct(new int[] {3}, new int[] {0}, new Datatype[] {MPI.BYTE})
                .getExtent() + 1); // bytes need no padding: 3 stays 3
            assertEquals(3, Datatype.createHVector(2, 1, 3, MPI.SHORT).getExtent()); // 5 bytes padded to 6: 3 shorts
            final Datatype r = Datatype.createResized(s, 0, 12); // explicit bounds are kept
            assertEquals(12, r.getExtent());
            assertEquals(24, Datatype.createContiguous(2, r).getExtent());
            final ShortAndInt si = new ShortAndInt();
            final Datatype pair = Datatype.createContiguous(2, si.getType());
            assertEquals(16, pair.getExtent());
            assertEquals(12, pair.getSize());
            assertEquals(8, MPI.int2.getExtent()); // the pair structs: as their C structs
            assertEquals(8, MPI.shortInt.getExtent());
            assertEquals(8, MPI.floatInt.getExtent());
            assertEquals(16, MPI.longInt.getExtent());
            assertEquals(16, MPI.doubleInt.getExtent());
            assertEquals(8, MPI.INT2.getSize()); // MPI_Type_size of the pair types: the members, no padding
            assertEquals(6, MPI.SHORT_INT.getSize());
            assertEquals(8, MPI.FLOAT_INT.getSize());
            assertEquals(12, MPI.LONG_INT.getSize());
            assertEquals(12, MPI.DOUBLE_INT.getSize());
            assertEquals(8, MPI.SHORT_INT.getExtent());
            assertEquals(16, MPI.DOUBLE_INT.getExtent());
            final Nested n = new Nested(pair, si.getType());
            assertEquals(80, n.getExtent());
            assertEquals(80, n.getType().getExtent());
            assertEquals(32, n.getType().getSize());
            MPI.Finalize();
        });
    }

    /**
     * MPI_Type_size of types built on the pair types counts their members only (Open MPI: no padding anywhere), while
     * extents keep the padding; Status counts of such types stay in whole items and basic elements.
     */
    @Test
    void shouldSizeTypesBuiltOnPairTypesWithoutPadding() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Datatype two = Datatype.createContiguous(2, MPI.SHORT_INT);
            assertEquals(12, two.getSize());
            assertEquals(16, two.getExtent());
            assertEquals(18, Datatype.createVector(3, 1, 2, MPI.SHORT_INT).getSize());
            assertEquals(40, Datatype.createVector(3, 1, 2, MPI.SHORT_INT).getExtent());
            assertEquals(12, Datatype.createHVector(2, 1, 20, MPI.SHORT_INT).getSize());
            assertEquals(18, Datatype.createIndexed(new int[] {1, 2}, new int[] {0, 3}, MPI.SHORT_INT).getSize());
            assertEquals(12, Datatype.createHIndexed(new int[] {2}, new int[] {0}, MPI.SHORT_INT).getSize());
            assertEquals(6, Datatype.createResized(MPI.SHORT_INT, 0, 16).getSize());
            assertEquals(24, Datatype.createContiguous(2, MPI.LONG_INT).getSize());
            assertEquals(36, Datatype.createContiguous(3, MPI.DOUBLE_INT).getSize());
            assertEquals(24, Datatype.createVector(2, 1, 3, MPI.DOUBLE_INT).getSize());
            assertEquals(16, Datatype.createContiguous(2, MPI.FLOAT_INT).getSize());
            assertEquals(16, Datatype.createVector(2, 1, 2, MPI.INT2).getSize());
            assertEquals(24, Datatype.createContiguous(2, two).getSize()); // nested
            assertEquals(12, two.dup().getSize());
            // a struct with gaps around a pair type: {SHORT_INT at 0, DOUBLE at 8, LONG_INT x2 at 16}
            final Datatype st = Datatype.createStruct(new int[] {1, 1, 2}, new int[] {0, 8, 16},
                new Datatype[] {MPI.SHORT_INT, MPI.DOUBLE, MPI.LONG_INT});
            assertEquals(6 + 8 + 24, st.getSize());
            assertEquals(48, st.getExtent());
            assertEquals(12, Datatype.createStruct(new int[] {2}, new int[] {4}, new Datatype[] {MPI.SHORT_INT})
                .getSize());
            // the count and the elements of a message of such types: 3 x contiguous(2, SHORT_INT)
            two.commit();
            final Intracomm w = MPI.COMM_WORLD;
            final int other = 1 - w.getRank();
            final ByteBuffer out = MPI.newByteBuffer(64);
            for (int i = 0; i < 6; i++) {
                final ShortInt.Data d = MPI.shortInt.getData(out, i);
                d.putValue((short) (100 + i));
                d.putIndex(i);
            }
            final ByteBuffer in = MPI.newByteBuffer(64);
            Status s = w.sendRecv(out, 3, two, other, 1, in, 4, two, other, 1);
            assertEquals(3, s.getCount(two));
            assertEquals(12, s.getElements(two));
            assertEquals(6, s.getCount(MPI.SHORT_INT));
            assertEquals(12, s.getElements(MPI.SHORT_INT));
            for (int i = 0; i < 6; i++) {
                final ShortInt.Data d = MPI.shortInt.getData(in, i);
                assertEquals(100 + i, d.getValue());
                assertEquals(i, d.getIndex());
            }
            s = w.sendRecv(out, 3, MPI.SHORT_INT, other, 2, in, 4, two, other, 2); // one and a half items
            assertEquals(MPI.UNDEFINED, s.getCount(two));
            assertEquals(6, s.getElements(two));
            st.commit();
            s = w.sendRecv(out, 1, st, other, 3, in, 1, st, other, 3);
            assertEquals(1, s.getCount(st));
            assertEquals(2 + 1 + 4, s.getElements(st));
            MPI.Finalize();
        });
    }

    /** Received bytes counted in basic elements of a {double, int} type: a partial double is UNDEFINED. */
    @Test
    void shouldCountTheElementsOfPartialStructs() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype four = Datatype.createContiguous(4, new DoubleAndInt().getType());
            four.commit();
            final ByteBuffer out = MPI.newByteBuffer(256);
            final ByteBuffer in = MPI.newByteBuffer(256);
            final int[][] cases = {{33, MPI.UNDEFINED, MPI.UNDEFINED}, {56, 9, MPI.UNDEFINED},
                {60, 10, MPI.UNDEFINED}, {96, 16, 2}};
            for (final int[] c : cases) {
                final Status s = w.sendRecv(out, c[0], MPI.BYTE, 0, 0, in, 3, four, 0, 0);
                assertEquals(c[1], s.getElements(four), c[0] + " bytes");
                assertEquals(c[2], s.getCount(four), c[0] + " bytes");
                assertEquals(c[0], s.getCount(MPI.BYTE));
            }
            MPI.Finalize();
        });
    }

    /** A struct of structs with gaps: sent, received, packed and unpacked byte for byte, the gaps untouched. */
    @Test
    void shouldLeaveTheGapsOfNestedStructsAlone() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final ShortAndInt si = new ShortAndInt();
            final Datatype pair = Datatype.createContiguous(2, si.getType());
            final Datatype nested = new Nested(pair, si.getType()).getType();
            final boolean[] data = new boolean[160];
            for (int i = 0; i < 160; i++) { // data bytes of two items of extent 80
                final int b = i % 80;
                data[i] = b < 8 || (b >= 16 && b < 32 || b >= 64) && 2 != b % 8 && 3 != b % 8; // short, gap, int
            }
            final ByteBuffer src = MPI.newByteBuffer(2000);
            for (int i = 0; i < 2000; i++) {
                src.put(i, (byte) (i % 255 + 1));
            }
            final ByteBuffer got = MPI.newByteBuffer(2000);
            w.sendRecv(src, 2, nested, 1 - w.getRank(), 1, got, 2, nested, 1 - w.getRank(), 1);
            final byte[] packed = new byte[w.packSize(2, nested)];
            assertEquals(64, packed.length);
            w.pack(src, 2, nested, packed, 0);
            final ByteBuffer unpacked = MPI.newByteBuffer(2000);
            assertEquals(64, w.unpack(packed, 0, unpacked, 2, nested));
            for (int i = 0; i < 160; i++) {
                final byte want = data[i] ? src.get(i) : 0;
                assertEquals(want, got.get(i), "received byte " + i);
                assertEquals(want, unpacked.get(i), "unpacked byte " + i);
            }
            assertTrue(w.packSize(1, MPI.INT) == 4);
            MPI.Finalize();
        });
    }

    /** Structs of structs of ints used with an int[]: a 10 x 10 x 10 transpose through pack and unpack. */
    @Test
    void shouldTransposeThroughNestedStructsOfInts() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            final Datatype out = nest(new int[] {4, 40, 400});
            final Datatype in = nest(new int[] {400, 40, 4});
            out.commit();
            in.commit();
            assertEquals(4000, out.getExtent());
            assertEquals(4000, in.getExtent());
            final int[] m = new int[1000];
            for (int i = 0; i < 1000; i++) {
                m[i] = i;
            }
            final byte[] packed = new byte[4000];
            assertEquals(4000, MPI.COMM_WORLD.pack(m, 1, out, packed, 0));
            final int[] t = new int[1000];
            MPI.COMM_WORLD.unpack(packed, 0, t, 1, in);
            for (int i = 0; i < 10; i++) {
                for (int j = 0; j < 10; j++) {
                    for (int k = 0; k < 10; k++) {
                        assertEquals(100 * i + 10 * j + k, t[100 * k + 10 * j + i]);
                    }
                }
            }
            MPI.Finalize();
        });
    }

    /**
     * A vector with a negative stride reaches before its origin: from a slice, the bytes before it are the
     * buffer's own (direct and heap), for pack, unpack and a message.
     */
    @Test
    void shouldReachBeforeTheOriginOfASlice() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype back = Datatype.createVector(12, 1, -2, MPI.SHORT); // shorts at 0, -2, ..., -22
            back.commit();
            assertEquals(-22, back.getLb());
            assertEquals(23, back.getExtent());
            final ByteBuffer src = MPI.newByteBuffer(96);
            for (int i = 0; i < 96; i++) {
                src.put(i, (byte) (i + 1));
            }
            final byte[] packed = new byte[48];
            w.pack(MPI.slice(src, 48), 2, back, packed, 0);
            assertEquals(49, packed[0]); // item 0 from byte 48 down to byte 4
            assertEquals(50, packed[1]);
            assertEquals(5, packed[22]);
            assertEquals(95, packed[24]); // item 1 from byte 94 (48 + 46) down to byte 50
            assertEquals(51, packed[46]);
            final ByteBuffer direct = MPI.newByteBuffer(96);
            w.unpack(packed, 0, MPI.slice(direct, 48), 2, back);
            final byte[] heap = new byte[96];
            w.unpack(packed, 0, MPI.slice(heap, 48), 2, back);
            for (int i = 0; i < 96; i++) {
                final boolean data = i >= 4 && i < 50 && i % 4 < 2 || i >= 50 && i % 4 >= 2; // item 0, item 1
                final byte want = data ? src.get(i) : 0;
                assertEquals(want, direct.get(i), "direct byte " + i);
                assertEquals(want, heap[i], "heap byte " + i);
            }
            // and as a message into a slice of a direct buffer
            final ByteBuffer got = MPI.newByteBuffer(96);
            w.sendRecv(MPI.slice(src, 48), 2, back, 1 - w.getRank(), 3, MPI.slice(got, 48), 2, back,
                1 - w.getRank(), 3);
            for (int i = 0; i < 96; i++) {
                assertEquals(direct.get(i), got.get(i), "received byte " + i);
            }
            MPI.Finalize();
        });
    }

    /** A large message of blocks sent dense and received strided (and the other way round), chars. */
    @Test
    void shouldMoveLargeStridedBlocks() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype dense = Datatype.createVector(73, 1536, 1536, MPI.CHAR);
            final Datatype strided = Datatype.createVector(73, 1536, 1552, MPI.CHAR);
            dense.commit();
            strided.commit();
            assertEquals(72 * 1552 + 1536, strided.getExtent());
            final char[] out = new char[262_144];
            for (int i = 0; i < out.length; i++) {
                out[i] = (char) ('a' + i % 26);
            }
            final char[] in = new char[262_144];
            if (0 == w.getRank()) {
                w.send(out, 1, dense, 1, 51);
                w.recv(in, 1, dense, 1, 52);
                for (int j = 0; j < 73 * 1536; j++) {
                    assertEquals(out[j / 1536 * 1552 + j % 1536], in[j]);
                }
            } else {
                w.recv(in, 1, strided, 0, 51);
                for (int j = 0; j < 73; j++) {
                    for (int k = 0; k < 1536; k += 97) {
                        assertEquals(out[j * 1536 + k], in[j * 1552 + k]);
                    }
                    assertEquals((char) 0, in[j * 1552 + 1540]); // the gaps stay
                }
                w.send(out, 1, strided, 0, 52);
            }
            MPI.Finalize();
        });
    }

    /** Three levels of structs of 10 blocks each, block i of level l at byte {@code i * strides[l]}. */
    private static Datatype nest(final int[] strides) throws MPIException {
        Datatype t = MPI.INT;
        for (final int stride : strides) {
            final int[] lengths = new int[10];
            final int[] displs = new int[10];
            final Datatype[] types = new Datatype[10];
            for (int i = 0; i < 10; i++) {
                lengths[i] = 1;
                displs[i] = i * stride;
                types[i] = t;
            }
            t = Datatype.createStruct(lengths, displs, types);
        }
        return t;
    }
}
