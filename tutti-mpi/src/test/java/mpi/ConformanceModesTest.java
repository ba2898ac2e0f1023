package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Send modes and request life cycles at their corners: buffered mode really buffers (crossing large sends
 * complete, the attached array comes back, derived types and booleans; messages up to the eager limit need no
 * attached buffer, as in Open MPI, larger ones still do), persistent requests of every mode with
 * everyone, freed receives that still match, and a waitAll whose request fails (every request completes, then
 * MPI_ERR_IN_STATUS).
 */
@Timeout(60)
class ConformanceModesTest {

    /** Buffered mode really buffers: both sides send large messages before either receives. */
    @Test
    void shouldBufferLargeSendsSoThatCrossingSendsComplete() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int other = 1 - w.getRank();
            final int big = 1_000_000;
            MPI.attachBuffer(new byte[2 * big + MPI.BSEND_OVERHEAD]);
            final byte[] data = new byte[big];
            Arrays.fill(data, (byte) (w.getRank() + 1));
            w.bSend(data, big, MPI.BYTE, other, 1); // must return before the other side receives
            data[0] = 9; // the message was copied out
            final IntBuffer small = MPI.newIntBuffer(1).put(0, 5);
            final Request r = w.ibSend(small, 1, MPI.INT, other, 2);
            r.waitFor();
            final byte[] in = new byte[big];
            w.recv(in, big, MPI.BYTE, other, 1);
            assertEquals(other + 1, in[0]);
            assertEquals(other + 1, in[big - 1]);
            assertEquals(5, w.recv(new int[1], 1, MPI.INT, other, 2).getCount(MPI.INT) * 5);
            MPI.detachBuffer();
            MPI.Finalize();
        });
    }

    @Test
    void shouldSendBufferedAndGetTheAttachedArrayBack() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final byte[] area = new byte[3 * (MPI.BSEND_OVERHEAD + 4 * 8)];
            MPI.attachBuffer(area);
            if (0 == w.getRank()) {
                final int[] data = {1, 2, 3, 4, 5, 6, 7, 8};
                w.bSend(data, 8, MPI.INT, 1, 1);
                data[0] = 100; // the message was copied out
                final IntBuffer d = MPI.newIntBuffer(8).put(0, 9);
                w.ibSend(d, 8, MPI.INT, 1, 2).waitFor();
                final Prequest p = w.bSendInit(d, 1, MPI.INT, 1, 3);
                p.start();
                p.waitFor();
                p.free();
            } else {
                final int[] got = new int[8];
                w.recv(got, 8, MPI.INT, 0, 1);
                assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, got);
                w.recv(got, 8, MPI.INT, 0, 2);
                assertEquals(9, got[0]);
                assertEquals(1, w.recv(got, 8, MPI.INT, 0, 3).getCount(MPI.INT));
            }
            // a derived type and booleans in buffered mode
            final Datatype column = Datatype.createVector(3, 1, 2, MPI.INT);
            column.commit();
            if (0 == w.getRank()) {
                w.bSend(new int[] {1, -1, 2, -1, 3}, 1, column, 1, 4);
                w.bSend(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, 1, 5);
            } else {
                final int[] got = {9, 9, 9, 9, 9};
                assertEquals(3, w.recv(got, 1, column, 0, 4).getElements(column));
                assertArrayEquals(new int[] {1, 9, 2, 9, 3}, got);
                final boolean[] flags = new boolean[3];
                w.recv(flags, 3, MPI.BOOLEAN, 0, 5);
                assertArrayEquals(new boolean[] {true, false, true}, flags);
            }
            assertSame(area, MPI.detachBuffer());
            MPI.Finalize();
        });
    }

    /**
     * Buffered sends that fit the eager path complete without an attached buffer, and without room in one, as in
     * Open MPI (whose ob1 PML copies them into a transport fragment); the data arrives as sent.
     */
    @Test
    void shouldSendSmallBufferedMessagesWithoutAnAttachedBuffer() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int other = 1 - w.getRank();
            final int[] three = {w.getRank(), 7, 8};
            w.bSend(three, 3, MPI.INT, other, 1); // both ranks send before either receives
            three[0] = -1; // the message was copied out
            final Request r = w.ibSend(MPI.newIntBuffer(2).put(0, 40 + w.getRank()).put(1, 41), 2, MPI.INT, other, 2);
            assertTrue(r.test()); // complete at once: the message was copied
            final IntBuffer one = MPI.newIntBuffer(1).put(0, 60 + w.getRank());
            final Prequest p = w.bSendInit(one, 1, MPI.INT, other, 3);
            p.start();
            p.waitFor();
            p.free();
            final byte[] edge = new byte[Buffered.EAGER_BYTES]; // the largest eager message
            Arrays.fill(edge, (byte) (w.getRank() + 1));
            w.bSend(edge, edge.length, MPI.BYTE, other, 4);
            // an attached buffer too small for the message: the eager path does not use it
            final byte[] area = new byte[MPI.BSEND_OVERHEAD + 4];
            MPI.attachBuffer(area);
            final int[] hundred = new int[100];
            Arrays.fill(hundred, 70 + w.getRank());
            w.bSend(hundred, 100, MPI.INT, other, 5);
            final int[] in = new int[100];
            w.recv(in, 3, MPI.INT, other, 1);
            assertArrayEquals(new int[] {other, 7, 8}, Arrays.copyOf(in, 3));
            w.recv(in, 2, MPI.INT, other, 2);
            assertArrayEquals(new int[] {40 + other, 41}, Arrays.copyOf(in, 2));
            w.recv(in, 1, MPI.INT, other, 3);
            assertEquals(60 + other, in[0]);
            final byte[] edgeIn = new byte[edge.length];
            w.recv(edgeIn, edgeIn.length, MPI.BYTE, other, 4);
            final byte[] edgeExpected = new byte[edge.length];
            Arrays.fill(edgeExpected, (byte) (other + 1));
            assertArrayEquals(edgeExpected, edgeIn);
            w.recv(in, 100, MPI.INT, other, 5);
            final int[] hundredExpected = new int[100];
            Arrays.fill(hundredExpected, 70 + other);
            assertArrayEquals(hundredExpected, in);
            assertSame(area, MPI.detachBuffer());
            MPI.Finalize();
        });
    }

    private static void assertBufferError(final String detail, final Executable call) {
        final MPIException e = assertThrows(MPIException.class, call);
        assertEquals(MPI.ERR_BUFFER, e.getErrorClass(), e::toString);
        assertTrue(e.getCause().getMessage().contains(detail), e.getCause()::getMessage);
    }

    /** A buffered send above the eager limit still needs room in an attached buffer: ERR_BUFFER without it. */
    @Test
    void shouldStillRefuseLargeBufferedSendsWithoutRoom() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int other = 1 - w.getRank();
            final int big = Buffered.EAGER_BYTES + 1;
            final byte[] data = new byte[big];
            Arrays.fill(data, (byte) (3 + w.getRank()));
            assertBufferError("bSend: no buffer is attached for a message of " + big + " bytes",
                () -> w.bSend(data, big, MPI.BYTE, other, 1));
            assertBufferError("no buffer is attached", () -> w.ibSend(MPI.newByteBuffer(big), big, MPI.BYTE, other,
                1));
            MPI.attachBuffer(new byte[MPI.BSEND_OVERHEAD + big - 1]);
            assertBufferError("bSend: the message needs " + (big + MPI.BSEND_OVERHEAD) + " bytes of the attached "
                + "buffer", () -> w.bSend(data, big, MPI.BYTE, other, 1));
            MPI.detachBuffer();
            // with room, the same message goes, and the communicator is still usable
            MPI.attachBuffer(new byte[MPI.BSEND_OVERHEAD + big]);
            w.bSend(data, big, MPI.BYTE, other, 1);
            final byte[] in = new byte[big];
            w.recv(in, big, MPI.BYTE, other, 1);
            final byte[] expected = new byte[big];
            Arrays.fill(expected, (byte) (3 + other));
            assertArrayEquals(expected, in);
            MPI.detachBuffer();
            MPI.Finalize();
        });
    }

    /**
     * The eager limit of buffered sends is within each of Tutti's transports' eager limits (their defaults), so a
     * buffered send needs an attached buffer on no transport where a standard send would not go eagerly.
     */
    @Test
    void shouldKeepTheBufferedEagerLimitWithinEveryTransportsEagerLimit() {
        assertTrue(Buffered.EAGER_BYTES <= dev.tutti.internal.Settings.INPROC_EAGER_LIMIT.intDefault());
        assertTrue(Buffered.EAGER_BYTES <= dev.tutti.internal.Settings.SHM_EAGER_LIMIT.intDefault());
        assertTrue(Buffered.EAGER_BYTES <= dev.tutti.internal.Settings.EAGER_LIMIT.intDefault());
    }

    /**
     * A truncated receive among several in waitAll: the call completes every request, then reports the error
     * (MPI_ERR_IN_STATUS: the class of each request is in its status).
     */
    @Test
    void shouldCompleteEveryRequestOfAWaitAllThatFails() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            if (0 == w.getRank()) {
                w.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 1);
                w.send(new int[] {4}, 1, MPI.INT, 1, 2);
            } else {
                final IntBuffer small = MPI.newIntBuffer(1);
                final IntBuffer ok = MPI.newIntBuffer(1);
                final Request[] rs = {w.iRecv(small, 1, MPI.INT, 0, 1), w.iRecv(ok, 1, MPI.INT, 0, 2)};
                final MPIException e = assertThrows(MPIException.class, () -> Request.waitAll(rs));
                assertEquals(MPI.ERR_IN_STATUS, e.getErrorClass());
                assertTrue(rs[0].isNull() && rs[1].isNull());
                assertEquals(4, ok.get(0));
            }
            MPI.Finalize();
        });
    }

    /** Freed active receives (plain and persistent) still match what is sent later; sends to oneself. */
    @Test
    void shouldLetFreedReceivesMatchLaterSends() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            final IntBuffer a = MPI.newIntBuffer(1);
            final IntBuffer b = MPI.newIntBuffer(1);
            final Request r = w.iRecv(a, 1, MPI.INT, me, 0);
            r.free();
            assertTrue(r.isNull());
            final Prequest inactive = w.recvInit(b, 1, MPI.INT, me, 1);
            inactive.free();
            final Prequest active = w.recvInit(b, 1, MPI.INT, me, 2);
            active.start();
            active.free();
            w.send(new int[] {11}, 1, MPI.INT, me, 0);
            w.send(new int[] {22}, 1, MPI.INT, me, 2);
            w.barrier();
            while (11 != a.get(0) || 22 != b.get(0)) { // the freed receives complete in the background
                w.iProbe(MPI.ANY_SOURCE, 999); // a call that lets the library progress, if it needs calls
            }
            assertEquals(MPI.UNDEFINED, Request.testAny(new Request[] {r, active}));
            MPI.Finalize();
        });
    }

    /** Persistent requests of every send mode to oneself and to the others, started one by one. */
    @Test
    void shouldRunPersistentRequestsOfEveryModeWithEveryone() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int tasks = w.getSize();
            final IntBuffer me = MPI.newIntBuffer(1).put(0, w.getRank());
            final IntBuffer data = MPI.newIntBuffer(tasks);
            MPI.attachBuffer(new byte[10_000 + MPI.BSEND_OVERHEAD]);
            for (int mode = 0; mode < 4; mode++) {
                final Prequest[] req = new Prequest[2 * tasks];
                for (int i = 0; i < tasks; i++) {
                    req[2 * i] = switch (mode) {
                        case 0 -> w.sendInit(me, 1, MPI.INT, i, 1);
                        case 1 -> w.sSendInit(me, 1, MPI.INT, i, 1);
                        case 2 -> w.rSendInit(me, 1, MPI.INT, i, 1);
                        default -> w.bSendInit(me, 1, MPI.INT, i, 1);
                    };
                    req[2 * i + 1] = w.recvInit(MPI.slice(data, i), 1, MPI.INT, i, 1);
                    data.put(i, -1);
                }
                w.barrier();
                for (final Prequest p : req) {
                    p.start();
                }
                final Status[] st = Request.waitAllStatus(req);
                for (int i = 0; i < tasks; i++) {
                    assertEquals(i, data.get(i));
                    assertEquals(4, st[2 * i + 1].getCount(MPI.BYTE));
                    assertEquals(i, st[2 * i + 1].getSource());
                }
                for (final Prequest p : req) {
                    p.free();
                }
            }
            MPI.detachBuffer();
            MPI.Finalize();
        });
    }
}
