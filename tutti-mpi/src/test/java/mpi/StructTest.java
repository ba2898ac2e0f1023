package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link Struct} subclasses, the pair structs ({@code MPI.int2}, ...) with MINLOC, and the complex accessors. */
@Timeout(60)
class StructTest {

    /**
     * A particle: an int id, a double[2] position, 4 bytes of padding by setOffset, then a short; the extent is 32,
     * the end of the fields (26) rounded up to the doubles' alignment, as MPI's struct type (and C) pads.
     */
    static final class Particle extends Struct {
        final int id = addInt();
        final int pos = setOffset(8).addDouble(2);
        final int tag = addShort();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double pos(final int i) {
                return getDouble(pos, i);
            }

            short tag() {
                return getShort(tag);
            }

            void set(final int i, final double x, final double y, final short t) {
                putInt(id, i);
                putDouble(pos, 0, x);
                putDouble(pos, 1, y);
                putShort(tag, t);
            }
        }
    }

    @Test
    void shouldSendStructSubclassesAndFixTheLayout() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Particle p = new Particle();
            assertEquals(32, p.getExtent());
            assertThrows(AssertionError.class, p::addInt);
            final Datatype t = p.getType();
            assertEquals(32, t.getExtent());
            assertEquals(22, t.getSize()); // 4 + 16 + 2 bytes of data
            final ByteBuffer b = MPI.newByteBuffer(3 * 32);
            if (0 == w.getRank()) {
                for (int i = 0; i < 3; i++) {
                    final Particle.Data d = p.getData(b, i);
                    d.set(i, i + 0.5, -i, (short) (10 * i));
                    b.putInt(i * 32 + 4, -1); // the gap: not sent
                }
                w.send(b, 3, t, 1, 0);
            } else {
                for (int i = 0; i < 3 * 32; i += 2) {
                    b.putShort(i, (short) 7);
                }
                final Status s = w.recv(b, 3, t, 0, 0);
                assertEquals(3, s.getCount(t));
                for (int i = 0; i < 3; i++) {
                    final Particle.Data d = p.getData(b, i);
                    assertEquals(i, d.id());
                    assertEquals(i + 0.5, d.pos(0));
                    assertEquals(-i, d.pos(1));
                    assertEquals(10 * i, d.tag());
                    assertEquals((short) 7, b.getShort(i * 32 + 4)); // the gap kept its value
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldFindMinlocThroughThePairStructs() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            assertEquals(8, MPI.int2.getExtent());
            assertEquals(16, MPI.doubleInt.getExtent());
            final ByteBuffer in = MPI.newByteBuffer(16);
            final ByteBuffer out = MPI.newByteBuffer(16);
            final Int2.Data a = MPI.int2.getData(in, 0);
            a.putValue(10 - rank);
            a.putIndex(rank);
            final Int2.Data b = MPI.int2.getData(in, 1);
            b.putValue(rank % 2);
            b.putIndex(rank);
            w.allReduce(in, out, 2, MPI.INT2, MPI.MINLOC);
            final Int2.Data r0 = MPI.int2.getData(out, 0);
            final Int2.Data r1 = MPI.int2.getData(out, 1);
            assertEquals(8, r0.getValue());
            assertEquals(2, r0.getIndex());
            assertEquals(0, r1.getValue());
            assertEquals(0, r1.getIndex()); // ties take the lower index
            final ByteBuffer d = MPI.newByteBuffer(16);
            final DoubleInt.Data di = MPI.doubleInt.getData(d);
            di.putValue(rank * 1.5);
            di.putIndex(rank);
            w.allReduce(d, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
            assertEquals(3.0, MPI.doubleInt.<DoubleInt.Data>getData(d).getValue());
            assertEquals(2, MPI.doubleInt.<DoubleInt.Data>getData(d).getIndex());
            MPI.Finalize();
        });
    }

    @Test
    void shouldViewComplexItems() {
        final double[] z = {1, 2, 3, 4};
        final DoubleComplex c = DoubleComplex.get(z, 1);
        assertEquals(3, c.getReal());
        c.putImag(-4);
        assertEquals(-4, z[3]);
        final float[] f = new float[4];
        FloatComplex.get(f, 1).putReal(5f);
        assertEquals(5f, f[2]);
        assertEquals(2, FloatComplex.get(f).getBuffer().capacity());
    }
}
