package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point-to-point as the MPI standard (chapter 3) defines it: statuses of wildcard receives from several senders,
 * counts and elements (UNDEFINED when not whole), every send mode with count 0 and to PROC_NULL, slice offsets in
 * direct and heap buffers, PACKED matching any type, arrays of any element type, and error classes. Send modes and
 * request life cycles: {@link ConformanceModesTest}; probes: {@link ConformanceProbeTest}.
 */
@Timeout(60)
class ConformanceP2pTest {

    @Test
    void shouldFillTheStatusOfWildcardReceivesFromSeveralSenders() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            if (0 == rank) {
                final boolean[] seen = new boolean[4];
                for (int k = 0; k < 6; k++) { // two messages from each of 1, 2, 3, tags 10 * source + i
                    final int[] got = new int[3];
                    final Status s = w.recv(got, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    final int tag = got[0]; // every element is the tag: 10 * source + i
                    assertEquals(tag / 10, s.getSource());
                    assertEquals(tag, s.getTag());
                    assertEquals(1 + (tag / 10 + tag % 10) % 3, s.getCount(MPI.INT));
                    assertEquals(s.getCount(MPI.INT), s.getElements(MPI.INT));
                    seen[s.getSource()] = true;
                }
                assertTrue(seen[1] && seen[2] && seen[3]);
                w.barrier();
                final IntBuffer b = MPI.newIntBuffer(3);
                for (int k = 0; k < 3; k++) { // nonblocking wildcard receives: the status comes with the wait
                    final Status s = w.iRecv(b, 3, MPI.INT, MPI.ANY_SOURCE, 50).waitStatus();
                    assertEquals(b.get(0), s.getSource());
                    assertEquals(50, s.getTag());
                    assertEquals(1, s.getCount(MPI.INT));
                }
            } else {
                for (int i = 0; i < 2; i++) {
                    final int n = 1 + (rank + i) % 3;
                    final int tag = 10 * rank + i;
                    w.send(new int[] {tag, tag, tag}, n, MPI.INT, 0, tag);
                }
                w.barrier(); // the wildcard receives above took only the six
                w.send(new int[] {rank}, 1, MPI.INT, 0, 50);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCountItemsAndElementsAsMpiDoes() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            if (0 == w.getRank()) {
                w.send(new byte[] {1, 2, 3}, 3, MPI.BYTE, 1, 1);
                w.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 2);
                w.send(new int[] {1, 2, 3, 4}, 4, MPI.INT, 1, 3);
                final ByteBuffer di = MPI.newByteBuffer(32);
                w.send(di, 2, MPI.DOUBLE_INT, 1, 4);
                w.send(new int[0], 0, MPI.INT, 1, 5);
            } else {
                final Status bytes = w.recv(new byte[8], 8, MPI.BYTE, 0, 1);
                assertEquals(3, bytes.getCount(MPI.BYTE));
                assertEquals(MPI.UNDEFINED, bytes.getCount(MPI.INT));
                assertEquals(MPI.UNDEFINED, bytes.getElements(MPI.INT));
                final Status three = w.recv(new int[4], 2, pair, 0, 2);
                assertEquals(MPI.UNDEFINED, three.getCount(pair));
                assertEquals(3, three.getElements(pair));
                assertEquals(3, three.getCount(MPI.INT));
                final Status four = w.recv(new int[4], 2, pair, 0, 3);
                assertEquals(2, four.getCount(pair));
                assertEquals(4, four.getElements(pair));
                final Status pairs = w.recv(MPI.newByteBuffer(32), 2, MPI.DOUBLE_INT, 0, 4);
                assertEquals(2, pairs.getCount(MPI.DOUBLE_INT));
                assertEquals(4, pairs.getElements(MPI.DOUBLE_INT));
                final Status zero = w.recv(new int[2], 2, MPI.INT, 0, 5);
                assertEquals(0, zero.getCount(MPI.INT));
                assertEquals(0, zero.getElements(MPI.INT));
                assertEquals(0, zero.getSource());
                assertEquals(5, zero.getTag());
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldSendNothingInEveryModeAndToProcNull() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int other = 1 - rank;
            MPI.attachBuffer(new byte[4 * MPI.BSEND_OVERHEAD + 64]);
            final IntBuffer empty = MPI.newIntBuffer(0);
            final int[] none = new int[0];
            final int[] mark = {-3};
            // every mode to PROC_NULL completes at once
            w.send(none, 0, MPI.INT, MPI.PROC_NULL, 1);
            w.bSend(mark, 1, MPI.INT, MPI.PROC_NULL, 1);
            w.sSend(mark, 1, MPI.INT, MPI.PROC_NULL, 1);
            w.rSend(mark, 1, MPI.INT, MPI.PROC_NULL, 1);
            final Request[] nulls = {w.iSend(empty, 0, MPI.INT, MPI.PROC_NULL, 1),
                w.ibSend(empty, 0, MPI.INT, MPI.PROC_NULL, 1), w.isSend(empty, 0, MPI.INT, MPI.PROC_NULL, 1),
                w.irSend(empty, 0, MPI.INT, MPI.PROC_NULL, 1), w.iRecv(empty, 0, MPI.INT, MPI.PROC_NULL, 1)};
            final Status[] st = Request.waitAllStatus(nulls);
            assertEquals(MPI.PROC_NULL, st[4].getSource());
            assertEquals(MPI.ANY_TAG, st[4].getTag());
            assertEquals(0, st[4].getCount(MPI.INT));
            final Prequest pn = w.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 1);
            pn.start();
            final Status ps = pn.waitStatus();
            assertEquals(MPI.PROC_NULL, ps.getSource());
            assertEquals(0, ps.getCount(MPI.INT));
            // count 0 in every mode to a real process: the receive sees an empty message with the envelope
            if (0 == rank) {
                w.send(none, 0, MPI.INT, other, 2);
                w.bSend(none, 0, MPI.INT, other, 3);
                w.sSend(none, 0, MPI.INT, other, 4);
                w.barrier(); // the ready-mode receives are posted
                w.rSend(none, 0, MPI.INT, other, 5);
                Request.waitAll(new Request[] {w.iSend(empty, 0, MPI.INT, other, 6),
                    w.ibSend(empty, 0, MPI.INT, other, 7), w.isSend(empty, 0, MPI.INT, other, 8)});
                w.barrier();
                w.irSend(empty, 0, MPI.INT, other, 9).waitFor();
                final Prequest[] ps2 = {w.sendInit(empty, 0, MPI.INT, other, 10),
                    w.bSendInit(empty, 0, MPI.INT, other, 11), w.sSendInit(empty, 0, MPI.INT, other, 12)};
                Prequest.startAll(ps2);
                Request.waitAll(ps2);
                w.barrier();
                final Prequest r = w.rSendInit(empty, 0, MPI.INT, other, 13);
                r.start();
                r.waitFor();
            } else {
                final int[] buf = {-1};
                for (final int tag : new int[] {2, 3, 4}) {
                    final Status s = w.recv(buf, 1, MPI.INT, MPI.ANY_SOURCE, tag);
                    assertEquals(0, s.getCount(MPI.INT));
                    assertEquals(tag, s.getTag());
                }
                final Request ready = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 5);
                w.barrier();
                assertEquals(0, ready.waitStatus().getCount(MPI.INT));
                for (final int tag : new int[] {6, 7, 8}) {
                    assertEquals(0, w.recv(buf, 1, MPI.INT, 0, tag).getCount(MPI.INT));
                }
                final Request ready2 = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 9);
                final Request ready3 = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 13);
                w.barrier();
                assertEquals(0, ready2.waitStatus().getCount(MPI.INT));
                for (final int tag : new int[] {10, 11, 12}) {
                    assertEquals(0, w.recv(buf, 1, MPI.INT, 0, tag).getCount(MPI.INT));
                }
                w.barrier();
                assertEquals(0, ready3.waitStatus().getCount(MPI.INT));
                assertEquals(-1, buf[0]);
            }
            assertEquals(-3, mark[0]);
            final byte[] attached = MPI.detachBuffer();
            assertEquals(4 * MPI.BSEND_OVERHEAD + 64, attached.length);
            MPI.Finalize();
        });
    }

    @Test
    void shouldHonourSliceOffsetsOfDirectAndHeapBuffers() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                final IntBuffer d = MPI.newIntBuffer(6);
                for (int i = 0; i < 6; i++) {
                    d.put(i, 10 + i);
                }
                d.position(5); // position and limit are ignored
                w.iSend(MPI.slice(d, 2), 3, MPI.INT, 1, 1).waitFor();
                w.send(MPI.slice(d, 4), 2, MPI.INT, 1, 2);
                w.send(MPI.slice(new double[] {0, 0, 0, 2.5}, 3), 1, MPI.DOUBLE, 1, 3);
            } else {
                final IntBuffer in = MPI.newIntBuffer(6);
                assertTrue(MPI.slice(in, 1).isDirect());
                w.iRecv(MPI.slice(in, 1), 3, MPI.INT, 0, 1).waitFor();
                assertArrayEquals(new int[] {0, 12, 13, 14, 0, 0}, toArray(in));
                final int[] heap = new int[5];
                w.recv(MPI.slice(heap, 3), 2, MPI.INT, 0, 2);
                assertArrayEquals(new int[] {0, 0, 0, 14, 15}, heap);
                final double[] dd = new double[3];
                w.recv(MPI.slice(dd, 2), 1, MPI.DOUBLE, 0, 3);
                assertEquals(2.5, dd[2]);
            }
            MPI.Finalize();
        });
    }

    private static int[] toArray(final IntBuffer b) {
        final int[] a = new int[b.capacity()];
        for (int i = 0; i < a.length; i++) {
            a[i] = b.get(i);
        }
        return a;
    }

    /** PACKED matches any type: packed data received as ints, ints received as packed bytes. */
    @Test
    void shouldMatchPackedDataWithAnyType() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                final byte[] packed = new byte[w.packSize(3, MPI.INT) + w.packSize(1, MPI.DOUBLE)];
                int at = w.pack(new int[] {1, 2, 3}, 3, MPI.INT, packed, 0);
                at = w.pack(new double[] {4.5}, 1, MPI.DOUBLE, packed, at);
                assertEquals(20, at);
                w.send(packed, at, MPI.PACKED, 1, 1);
                w.send(new int[] {7, 8}, 2, MPI.INT, 1, 2);
            } else {
                final byte[] in = new byte[64];
                final Status s = w.recv(in, 64, MPI.PACKED, 0, 1);
                assertEquals(20, s.getCount(MPI.PACKED));
                final int[] ints = new int[3];
                final double[] d = new double[1];
                final int at = w.unpack(in, 0, ints, 3, MPI.INT);
                assertEquals(20, w.unpack(in, at, d, 1, MPI.DOUBLE));
                assertArrayEquals(new int[] {1, 2, 3}, ints);
                assertEquals(4.5, d[0]);
                final byte[] raw = new byte[8];
                assertEquals(8, w.recv(raw, 8, MPI.PACKED, 0, 2).getCount(MPI.BYTE));
                final int[] two = new int[2];
                w.unpack(raw, 0, two, 2, MPI.INT);
                assertArrayEquals(new int[] {7, 8}, two);
            }
            MPI.Finalize();
        });
    }

    /** The array's element type need not be the datatype's: the bytes of an int[] go as BYTE, DOUBLE, ... */
    @Test
    void shouldMoveItemsOfAnyTypeFromAnArray() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE,
                MPI.PACKED};
            final int[] data = new int[100];
            if (0 == w.getRank()) {
                Arrays.setAll(data, i -> 0x01010101 * (i + 1));
                for (final Datatype t : types) {
                    w.send(data, 5, t, 1, 1);
                }
            } else {
                for (final Datatype t : types) {
                    Arrays.fill(data, 0);
                    final Status s = w.recv(data, 5, t, 0, 1);
                    assertEquals(5, s.getCount(t), t::toString);
                    assertEquals(0x01010101, data[0], t::toString); // the first bytes arrived as they were
                }
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldReportErrorClassesUnderErrorsReturn() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int[] one = new int[1];
            assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> w.send(one, 1, MPI.INT, 0, -5))
                .getErrorClass());
            assertEquals(MPI.ERR_TAG, assertThrows(MPIException.class, () -> w.recv(one, 1, MPI.INT, 0, -5))
                .getErrorClass());
            assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> w.recv(one, 1, MPI.INT, 2, 0))
                .getErrorClass());
            assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> w.iSend(MPI.newIntBuffer(1), 1,
                MPI.INT, -7, 0)).getErrorClass());
            assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> w.send(one, 1, MPI.DATATYPE_NULL,
                0, 0)).getErrorClass());
            final Intracomm dup = w.dup();
            dup.free();
            assertTrue(dup.isNull());
            assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, () -> dup.send(one, 1, MPI.INT, 0, 0))
                .getErrorClass());
            assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, dup::barrier).getErrorClass());
            // a truncated nonblocking receive fails at its completion
            if (0 == w.getRank()) {
                w.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 8);
            } else {
                final Request r = w.iRecv(MPI.newIntBuffer(2), 2, MPI.INT, 0, 8);
                final MPIException e = assertThrows(MPIException.class, r::waitFor);
                assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
                assertNotEquals(0, e.getErrorCode());
            }
            MPI.Finalize();
        });
    }
}
