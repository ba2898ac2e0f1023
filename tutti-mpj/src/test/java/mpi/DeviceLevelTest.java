package mpi;

import java.util.List;
import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.Type;
import mpjdev.MPJDev;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPJ Express's device level as its own test suite drives it (package {@code mpjdev.buffertest}): typed sections of
 * an {@code mpjbuf.Buffer}, written contiguously, by index and by strided patch, sent and received by
 * {@code MPJDev.WORLD} or {@code MPI.COMM_WORLD.mpjdevComm}.
 */
@Timeout(60)
class DeviceLevelTest {

    private static Buffer buffer(final int capacity) {
        return new Buffer(BufferFactory.create(capacity), MPJDev.getSendOverhead(), capacity);
    }

    @Test
    void shouldWriteAndReadSectionsEveryWay() {
        final Buffer b = buffer(8 + 3 * 4 + 8 + 2 * 8 + 8 + 8);
        b.putSectionHeader(Type.INT);
        b.write(new int[] {9, 1, 2, 3}, 1, 3);
        b.putSectionHeader(Type.DOUBLE);
        b.gather(new double[] {0.5, 1.5, 2.5, 3.5}, 2, 1, new int[] {0, 3, 1});
        b.putSectionHeader(Type.CHAR_DYNAMIC);
        final char[] grid = "abcdefghijkl".toCharArray();
        b.strGather(grid, 1, 2, 0, 2, new int[] {2, 3, 6, 2}); // rows 0 and 1 of a 2 x 3 patch: b d f, h j l
        b.putSectionHeader(Type.OBJECT);
        b.write(new Object[] {"x", List.of(1, 2)}, 0, 2);
        b.commit();

        final Buffer r = buffer(b.getCapacity());
        assertEquals(3 + 2 + 6 + 2, r.fromMessage(b.toMessage()));
        r.commit();
        assertEquals(Type.INT, r.getSectionHeader());
        assertEquals(3, r.getSectionSize());
        final int[] ints = new int[4];
        r.read(ints, 1, 3);
        assertArrayEquals(new int[] {0, 1, 2, 3}, ints);
        assertEquals(Type.DOUBLE, r.getSectionHeader());
        final double[] ds = new double[4];
        r.scatter(ds, 2, 0, new int[] {2, 0});
        assertArrayEquals(new double[] {1.5, 0, 3.5, 0}, ds);
        assertEquals(Type.CHAR_DYNAMIC, r.getSectionHeader());
        assertEquals(6, r.getSectionSize());
        final char[] back = new char[12];
        r.strScatter(back, 1, 2, 0, 2, new int[] {2, 3, 6, 2});
        assertEquals("\0b\0d\0f\0h\0j\0l", new String(back));
        assertEquals(Type.OBJECT, r.getSectionHeader());
        final Object[] objs = new Object[2];
        r.read(objs, 0, 2);
        assertArrayEquals(new Object[] {"x", List.of(1, 2)}, objs);
        assertThrows(IllegalStateException.class, r::getSectionHeader, "every section was read");
    }

    @Test
    void shouldRefuseMisuseNamingTheCall() {
        final Buffer b = buffer(8 + 8);
        b.putSectionHeader(Type.INT);
        b.write(new int[] {1, 2}, 0, 2);
        final IllegalStateException full = assertThrows(IllegalStateException.class,
            () -> b.write(new int[] {3}, 0, 1));
        assertTrue(full.getMessage().contains("mpjbuf.Buffer.write: needs 4 more bytes"), full.getMessage());
        final IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
            () -> b.write(new long[] {3}, 0, 1));
        assertTrue(type.getMessage().contains("for a section of type INT (expected a int[])"), type.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> b.gather(new int[3], 2, 0, new int[] {0, 5}));
        assertThrows(IllegalArgumentException.class, () -> b.gather(new int[3], 3, 0, new int[] {0, 1}));
        assertThrows(IllegalStateException.class, b::getSectionHeader, "not committed yet");
        final Buffer dyn = buffer(8);
        dyn.putSectionHeader(Type.LONG_DYNAMIC);
        dyn.write(new long[1000], 0, 1000);
        dyn.commit();
        assertThrows(IllegalStateException.class, () -> dyn.putSectionHeader(Type.INT), "committed");
        dyn.clear();
        dyn.putSectionHeader(Type.BYTE_DYNAMIC);
        final IllegalStateException small = assertThrows(IllegalStateException.class,
            () -> buffer(10).fromMessage(b.toMessage()));
        assertTrue(small.getMessage().contains("mpjdev.Comm.recv: needs 16 more bytes"), small.getMessage());
    }

    @Test
    void shouldSendBuffersBetweenRanksAcrossInitAndFinish() {
        MpjJobs.run(2, args -> {
            for (int round = 0; round < 2; round++) {
                MPJDev.init(args);
                final int me = MPJDev.WORLD.id();
                assertEquals(2, MPJDev.WORLD.size());
                if (0 == me) {
                    final Buffer b = buffer(8 + 5 * 4 + 8);
                    b.putSectionHeader(Type.FLOAT);
                    b.write(new float[] {1, 2, 3, 4, 5}, 0, 5);
                    b.putSectionHeader(Type.OBJECT);
                    b.write(new Object[] {"round " + round}, 0, 1);
                    b.commit();
                    MPJDev.WORLD.send(b, 1, 7 + round, true);
                    final Buffer viaMpi = buffer(8 + 4);
                    viaMpi.putSectionHeader(Type.INT);
                    viaMpi.write(new int[] {42}, 0, 1);
                    viaMpi.commit();
                    MPI.COMM_WORLD.mpjdevComm.send(viaMpi, 1, 3, true);
                } else {
                    final Buffer b = buffer(8 + 5 * 4 + 8);
                    final mpjdev.Status st = MPJDev.WORLD.recv(b, MPI.ANY_SOURCE, 7 + round, true);
                    assertEquals(0, st.source);
                    assertEquals(7 + round, st.tag);
                    b.commit();
                    assertEquals(Type.FLOAT, b.getSectionHeader());
                    final float[] f = new float[5];
                    b.read(f, 0, 5);
                    assertArrayEquals(new float[] {1, 2, 3, 4, 5}, f);
                    b.getSectionHeader();
                    final Object[] o = new Object[1];
                    b.read(o, 0, 1);
                    assertEquals("round " + round, o[0]);
                    final Buffer viaMpi = buffer(8 + 4);
                    MPI.COMM_WORLD.mpjdevComm.recv(viaMpi, 0, MPI.ANY_TAG, true);
                    viaMpi.commit();
                    viaMpi.getSectionHeader();
                    final int[] v = new int[1];
                    viaMpi.read(v, 0, 1);
                    assertEquals(42, v[0]);
                }
                MPJDev.finish();
            }
        });
    }
}
