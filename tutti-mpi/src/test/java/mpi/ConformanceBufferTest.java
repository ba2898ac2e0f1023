package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Buffers as the Open MPI Java bindings take them: position and limit ignored, slice offsets, heap buffers from
 * their arrayOffset, direct buffers required (with Open MPI's messages) by nonblocking calls, allToAllw with byte
 * displacements and zero counts; and the small value classes (Status setters, Count, complex accessors).
 */
@Timeout(60)
class ConformanceBufferTest {

    @Test
    void shouldUseBuffersFromTheirStartNotTheirPosition() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int[] arr = {10, 11, 12, 13, 14};
            final IntBuffer wrapped = IntBuffer.wrap(arr, 2, 3); // position 2, but arrayOffset 0
            assertEquals(0, wrapped.arrayOffset());
            final IntBuffer direct = MPI.newIntBuffer(4);
            direct.position(3).limit(3);
            if (0 == rank) {
                w.send(wrapped, 2, MPI.INT, 1, 1); // elements 0 and 1 of arr
                direct.put(0, 40).put(1, 41);
                w.send(direct, 2, MPI.INT, 1, 2);
            } else {
                final int[] got = new int[2];
                w.recv(got, 2, MPI.INT, 0, 1);
                assertArrayEquals(new int[] {10, 11}, got);
                w.recv(direct, 2, MPI.INT, 0, 2); // limit 3 at position 3 does not matter
                assertEquals(40, direct.get(0));
                assertEquals(41, direct.get(1));
            }
            final ByteBuffer s = MPI.slice(MPI.newByteBuffer(16), 4);
            assertTrue(s.isDirect());
            assertEquals(ByteOrder.nativeOrder(), s.order());
            assertEquals(12, s.capacity());
            final DoubleBuffer hs = MPI.slice(new double[6], 4);
            assertEquals(4, hs.arrayOffset());
            assertFalse(hs.isDirect());
            MPI.Finalize();
        });
    }

    @Test
    void shouldRequireDirectBuffersWithOpenMpisMessages() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final IntBuffer heap = IntBuffer.allocate(4);
            final IntBuffer direct = MPI.newIntBuffer(4);
            assertEquals("The buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.iRecv(heap, 1, MPI.INT, 0, 0)).getMessage());
            assertEquals("The buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.sendInit(heap, 1, MPI.INT, 0, 0)).getMessage());
            assertEquals("The buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.iBcast(heap, 1, MPI.INT, 0)).getMessage());
            assertEquals("The send buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.iAllReduce(heap, direct, 1, MPI.INT, MPI.SUM)).getMessage());
            assertEquals("The recv. buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.iAllReduce(direct, heap, 1, MPI.INT, MPI.SUM)).getMessage());
            assertEquals("The recv. buffer must be direct.", assertThrows(IllegalArgumentException.class,
                () -> w.iScan(direct, heap, 1, MPI.INT, MPI.SUM)).getMessage());
            assertThrows(IllegalArgumentException.class, () -> new Message().imRecv(heap, 1, MPI.INT));
            w.barrier(); // nothing above started anything
            MPI.Finalize();
        });
    }

    /** allToAllw: per-peer types and byte displacements, a zero count whose displacement points nowhere. */
    @Test
    void shouldExchangeWithPerPeerTypesAndByteDisplacements() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            // to peer j: j ints (none to 0), as INT, at byte 16 * j of the send buffer
            final ByteBuffer send = MPI.newByteBuffer(48);
            final int[] sc = new int[3];
            final int[] sd = new int[3];
            final Datatype[] types = {MPI.INT, MPI.INT, MPI.INT};
            for (int j = 0; j < 3; j++) {
                sc[j] = j;
                sd[j] = 0 == j ? 4096 : 16 * j;
                for (int k = 0; k < j; k++) {
                    send.putInt(16 * j + 4 * k, 100 * rank + 10 * j + k);
                }
            }
            // from peer i: rank ints at byte 12 * (2 - i), in reverse order of peers
            final ByteBuffer recv = MPI.newByteBuffer(48);
            for (int b = 0; b < 48; b += 4) {
                recv.putInt(b, -1);
            }
            final int[] rc = {rank, rank, rank};
            final int[] rd = {24, 12, 0};
            w.allToAllw(send, sc, sd, types, recv, rc, rd, types);
            for (int i = 0; i < 3; i++) {
                for (int k = 0; k < rank; k++) {
                    assertEquals(100 * i + 10 * rank + k, recv.getInt(rd[i] + 4 * k));
                }
            }
            if (0 == rank) {
                for (int b = 0; b < 48; b += 4) {
                    assertEquals(-1, recv.getInt(b));
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldSetStatusFieldsAndCompareCounts() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Status s = w.sendRecv(new int[] {1, 2}, 2, MPI.INT, 1 - w.getRank(), 0, new int[2], 2, MPI.INT,
                MPI.ANY_SOURCE, 0);
            assertEquals(2, s.getElementsX(MPI.INT).getCount());
            s.setElements(MPI.INT, 5);
            assertEquals(5, s.getElements(MPI.INT));
            assertEquals(5, s.getCount(MPI.INT));
            s.setElementsX(MPI.SHORT, new Count(6));
            assertEquals(3, s.getCount(MPI.INT));
            s.setCancelled(true);
            assertTrue(s.isCancelled());
            final Count a = new Count(3);
            final Count b = new Count(4);
            assertTrue(a.compareTo(b) < 0);
            b.setCount(3);
            assertEquals(a, b);
            assertEquals(0, a.compareTo(b));
            // complex accessors view items in place
            final double[] z = {1, 2, 3, 4};
            final DoubleComplex second = DoubleComplex.get(z, 1);
            assertEquals(3.0, second.getReal());
            second.putImag(-4);
            assertEquals(-4.0, z[3]);
            final ByteBuffer bytes = MPI.newByteBuffer(16);
            FloatComplex.get(bytes, 1).putReal(2.5f);
            assertEquals(2.5f, bytes.getFloat(8));
            assertTrue(Intercomm.getParent().isNull());
            final double[] sum = Arrays.copyOf(z, 4);
            w.allReduce(sum, 2, MPI.DOUBLE_COMPLEX, MPI.SUM);
            assertArrayEquals(new double[] {2, 4, 6, -8}, sum);
            MPI.Finalize();
        });
    }
}
