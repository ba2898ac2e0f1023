package dev.tutti.transport.shm;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;
import dev.tutti.p2p.P2pContractTest;
import dev.tutti.testkit.ShmJob;

import dev.tutti.runtime.Configuration;
import dev.tutti.transport.shm.ShmConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What is particular to shm beyond the common p2p contract ({@link ShmP2pTest}): back-pressure from a full inbox,
 * ring wrap-around with every record size, many outstanding messages in all directions, single copy from the
 * shared arena, and collectives with more ranks than cores.
 */
@Timeout(60)
class ShmTransportTest {

    /**
     * Rank 1 does not poll until released; rank 0's eager sends fill its 4 KiB inbox, after which further sends
     * stay incomplete (nothing is buffered on the heap for them). Once rank 1 polls, all arrive in order.
     */
    @Test
    void shouldApplyBackPressureWhenTheReceiverDoesNotPoll() {
        final int count = 200;
        final CountDownLatch filled = new CountDownLatch(1);
        ShmJob.run(2, ShmJob.config().withRing(4096, 600), true, (world, shm) -> {
            if (0 == world.rank()) {
                final Request[] sends = new Request[count];
                for (int i = 0; i < count; i++) {
                    final byte[] msg = new byte[500];
                    Arrays.fill(msg, (byte) i);
                    sends[i] = world.isend(Buf.of(msg), 1, 0);
                }
                int done = 0;
                for (final Request r : sends) {
                    done += r.test() ? 1 : 0;
                }
                assertTrue(done > 0 && done <= 8, "a 4 KiB inbox holds at most 7 records of 524 bytes, done=" + done);
                assertFalse(sends[count - 1].test());
                filled.countDown();
                Request.waitAll(sends);
            } else {
                assertTrue(filled.await(30, TimeUnit.SECONDS));
                final byte[] got = new byte[500];
                for (int i = 0; i < count; i++) {
                    world.recv(Buf.of(got), 0, 0);
                    assertEquals((byte) i, got[0], "message " + i);
                    assertEquals((byte) i, got[499], "message " + i);
                }
            }
        });
    }

    /** Random sizes 0..1000 bytes through a 4 KiB ring: it wraps thousands of times, with padding records. */
    @Test
    void shouldWrapTheRingWithEverySize() {
        final int count = 5_000;
        ShmJob.run(2, ShmJob.config().withRing(4096, 1000), true, (world, shm) -> {
            final SplittableRandom sizes = new SplittableRandom(42);
            if (0 == world.rank()) {
                for (int i = 0; i < count; i++) {
                    world.send(Buf.of(ShmP2pTest.pattern(sizes.nextInt(0, 1001), i)), 1, i % 7);
                }
            } else {
                final byte[] buf = new byte[1000];
                for (int i = 0; i < count; i++) {
                    final int size = sizes.nextInt(0, 1001);
                    final Status s = world.recv(Buf.of(buf), 0, i % 7);
                    assertEquals(size, s.count(), "message " + i);
                    assertArrayEquals(ShmP2pTest.pattern(size, i), Arrays.copyOf(buf, size), "message " + i);
                }
            }
        });
    }

    /**
     * Every rank isends 1000 small and 10 large messages to every other before receiving anything, and receives
     * them partly posted, partly unexpected; everything arrives intact and in order per pair.
     */
    @Test
    void shouldCarryManyOutstandingMessagesInAllDirections() {
        final int n = 3;
        final int small = 1_000;
        final int large = 10;
        ShmJob.run(n, ShmJob.config().withRing(16 * 1024, 1024), true, (world, shm) -> {
            final int me = world.rank();
            final List<Request> reqs = new ArrayList<>();
            final int[][] smallIn = new int[n][small];
            final byte[][][] largeIn = new byte[n][large][];
            for (int p = 0; p < n; p++) {
                if (p != me) {
                    for (int i = 0; i < large / 2; i++) {
                        largeIn[p][i] = new byte[100_000];
                        reqs.add(world.irecv(Buf.of(largeIn[p][i]), p, 1));
                    }
                }
            }
            for (int p = 0; p < n; p++) {
                if (p != me) {
                    for (int i = 0; i < small; i++) {
                        reqs.add(world.isend(Buf.of(new int[] {me * 100_000 + i}), p, 0));
                    }
                    for (int i = 0; i < large; i++) {
                        reqs.add(world.isend(Buf.of(ShmP2pTest.pattern(100_000, me * 1000 + p * 100 + i)), p, 1));
                    }
                }
            }
            for (int p = 0; p < n; p++) {
                if (p != me) {
                    for (int i = 0; i < small; i++) {
                        reqs.add(world.irecv(Buf.of(smallIn[p], i, 1), p, 0));
                    }
                    for (int i = large / 2; i < large; i++) {
                        largeIn[p][i] = new byte[100_000];
                        reqs.add(world.irecv(Buf.of(largeIn[p][i]), p, 1));
                    }
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
            for (int p = 0; p < n; p++) {
                if (p != me) {
                    for (int i = 0; i < small; i++) {
                        assertEquals(p * 100_000 + i, smallIn[p][i]);
                    }
                    for (int i = 0; i < large; i++) {
                        assertArrayEquals(ShmP2pTest.pattern(100_000, p * 1000 + me * 100 + i), largeIn[p][i]);
                    }
                }
            }
        });
    }

    /** A payload in the sender's shared arena is copied once by the receiver, also truncated, also unexpected. */
    @Test
    void shouldCopyOnceFromTheSharedArena() {
        ShmJob.run(2, (world, shm) -> {
            final int bytes = 4 << 20;
            if (0 == world.rank()) {
                final MemorySegment buf = shm.allocShared(bytes);
                for (long i = 0; i < bytes; i += 8) {
                    buf.set(ValueLayout.JAVA_LONG, i, i * 31);
                }
                world.send(Buf.of(buf, Datatype.LONG), 1, 0);
                world.send(Buf.of(buf, Datatype.LONG), 1, 1);
                assertEquals(2, shm.singleCopySends());
                shm.freeShared(buf);
                assertThrows(TuttiException.class, () -> shm.freeShared(buf));
                final MemorySegment again = shm.allocShared(bytes); // the same block, as documented: zeroed
                for (long i = 0; i < bytes; i += 8) {
                    assertEquals(0L, again.get(ValueLayout.JAVA_LONG, i), "a reused arena block keeps old bytes");
                }
                shm.freeShared(again);
                final TuttiException tooBig = assertThrows(TuttiException.class, () -> shm.allocShared(1L << 40));
                assertEquals(ErrorClass.ARG, tooBig.errorClass());
            } else {
                final long[] got = new long[bytes / 8];
                world.recv(Buf.of(got), 0, 0);
                for (int i = 0; i < got.length; i++) {
                    assertEquals(i * 8L * 31, got[i], "long " + i);
                }
                final long[] half = new long[bytes / 16];
                final TuttiException t = assertThrows(TuttiException.class, () -> world.recv(Buf.of(half), 0, 1));
                assertEquals(ErrorClass.TRUNCATE, t.errorClass());
                assertEquals((half.length - 1) * 8L * 31, half[half.length - 1]);
            }
        });
    }

    /**
     * Pushed messages (chunks streamed before any receive matched) received in the reverse order of sending: the
     * first ones fill the chunk channel (8 slots of 64 KiB here, 512 KiB) before the last one's chunks can follow,
     * so the receiver must move them to the heap to get at the last one. Also a truncating receive of a pushed
     * message, and one posted long after the chunks arrived.
     */
    @Test
    void shouldReceivePushedMessagesInAnyOrder() {
        final int count = 6;
        final int bytes = 300_000;
        ShmJob.run(2, ShmJob.config().withChunks(64 * 1024, 8).withPushLimit(512 * 1024), true, (world, shm) -> {
            if (0 == world.rank()) {
                final List<Request> sends = new ArrayList<>();
                for (int tag = 0; tag < count; tag++) {
                    sends.add(world.isend(Buf.of(P2pContractTest.pattern(bytes, tag)), 1, tag));
                }
                Request.waitAll(sends.toArray(new Request[0]));
                world.send(Buf.of(P2pContractTest.pattern(bytes, 99)), 1, 99);
                world.send(Buf.of(P2pContractTest.pattern(bytes, 100)), 1, 100);
                world.barrier();
            } else {
                for (int tag = count - 1; tag >= 0; tag--) {
                    final byte[] got = new byte[bytes];
                    world.recv(Buf.of(got), 0, tag);
                    assertArrayEquals(P2pContractTest.pattern(bytes, tag), got, "tag " + tag);
                }
                final byte[] head = new byte[1000];
                final TuttiException t = assertThrows(TuttiException.class, () -> world.recv(Buf.of(head), 0, 99));
                assertEquals(ErrorClass.TRUNCATE, t.errorClass());
                assertArrayEquals(Arrays.copyOf(P2pContractTest.pattern(bytes, 99), head.length), head);
                final byte[] late = new byte[bytes];
                world.recv(Buf.of(late), 0, 100);
                assertArrayEquals(P2pContractTest.pattern(bytes, 100), late);
                world.barrier();
            }
        });
    }

    /**
     * Threads of one rank push messages to another at once: a message's chunks may arrive before its announcement
     * can be read (another thread claimed an earlier inbox record and has not committed it yet), and the receiver
     * must wait for the announcement rather than take the chunk for a stray. (With a receiver that took such a
     * chunk for a stray when its inbox looked empty, this failed in about every other run.)
     */
    @Test
    void shouldReceivePushedMessagesFromManyThreadsAtOnce() {
        final int threads = 4;
        final int perThread = 500;
        final int bytes = 20_000;
        ShmJob.run(2, ShmJob.config().withRing(1 << 20, 16 * 1024), true, (world, shm) -> {
            if (0 == world.rank()) {
                P2pContractTest.inThreads(threads, tag -> {
                    for (int i = 0; i < perThread; i++) {
                        world.send(Buf.of(P2pContractTest.pattern(bytes, tag * 1000 + i)), 1, tag);
                    }
                });
            } else {
                final Request[] recvs = new Request[threads * perThread];
                final byte[][] got = new byte[recvs.length][];
                for (int t = 0; t < threads; t++) {
                    for (int i = 0; i < perThread; i++) {
                        got[t * perThread + i] = new byte[bytes];
                        recvs[t * perThread + i] = world.irecv(Buf.of(got[t * perThread + i]), 0, t);
                    }
                }
                Request.waitAll(recvs);
                for (int t = 0; t < threads; t++) {
                    for (int i = 0; i < perThread; i++) {
                        assertArrayEquals(P2pContractTest.pattern(bytes, t * 1000 + i), got[t * perThread + i],
                            "thread " + t + " message " + i);
                    }
                }
            }
            world.barrier();
        });
    }

    /**
     * A pushed message whose send completed is still received after its sender closed: the goodbye makes the
     * receiver move its chunks to the heap before the sender counts as gone.
     */
    @Test
    void shouldReceiveAPushedMessageAfterItsSenderLeft() {
        final int bytes = 200_000;
        final CountDownLatch left = new CountDownLatch(1);
        ShmJob.run(2, ShmJob.config(), false, (world, shm) -> {
            if (0 == world.rank()) {
                world.send(Buf.of(P2pContractTest.pattern(bytes, 5)), 1, 5);
                shm.close();
                left.countDown();
            } else {
                assertTrue(left.await(30, TimeUnit.SECONDS));
                // Probing polls: the announcement and the goodbye are read before any receive is posted.
                assertEquals(bytes, world.iprobe(0, 5).count(Datatype.BYTE));
                final byte[] got = new byte[bytes];
                world.recv(Buf.of(got), 0, 5);
                assertArrayEquals(P2pContractTest.pattern(bytes, 5), got);
                shm.close();
            }
        });
    }

    /** Four ranks on two cores (oversubscribed idle strategy): allreduce, bcast and alltoall at several sizes. */
    @Test
    void shouldRunCollectivesWithMoreRanksThanCores() {
        final int n = 4;
        ShmJob.run(n, ShmJob.config(), true, Configuration.oversubscribedIdleStrategy(), (world, shm) -> {
            final int me = world.rank();
            for (final int count : new int[] {1, 256, 65_536, 524_288}) {
                final long[] in = new long[count];
                Arrays.fill(in, me + 1);
                final long[] sum = new long[count];
                world.allreduce(Buf.of(in), Buf.of(sum), Op.SUM);
                assertEquals((long) n * (n + 1) / 2, sum[count - 1], "allreduce count " + count);
                final long[] b = new long[count];
                if (2 == me) {
                    Arrays.fill(b, 77);
                }
                world.bcast(Buf.of(b), 2);
                assertEquals(77, b[count - 1], "bcast count " + count);
                final int per = Math.max(1, count / n);
                final long[] send = new long[per * n];
                for (int i = 0; i < send.length; i++) {
                    send[i] = me * 1_000_000L + i;
                }
                final long[] recv = new long[per * n];
                world.alltoall(Buf.of(send), Buf.of(recv));
                for (int p = 0; p < n; p++) {
                    assertEquals(p * 1_000_000L + me * per, recv[p * per], "alltoall from " + p);
                }
            }
            world.barrier();
        });
    }

    /** Settings mismatch between ranks is refused, naming the setting. */
    @Test
    void shouldRefuseARankWhoseSettingsDifferFromTheFile() {
        final ShmConfig a = ShmJob.config();
        final ShmConfig b = a.withRing(a.ringBytes() * 2, a.eagerLimit());
        final java.nio.file.Path file = Configuration.shmFile("mismatch-" + ProcessHandle.current().pid(), "00");
        final dev.tutti.transport.shm.ShmTransport first = dev.tutti.transport.shm.ShmTransport.join(file, "m", 0, 2,
            new dev.tutti.p2p.P2pEngine(0, 2, Configuration.idleStrategy()), a);
        try {
            final TuttiException e = assertThrows(TuttiException.class,
                () -> dev.tutti.transport.shm.ShmTransport.join(file, "m", 1, 2,
                    new dev.tutti.p2p.P2pEngine(1, 2, Configuration.idleStrategy()), b));
            assertTrue(e.getMessage().contains(dev.tutti.internal.Settings.SHM_RING_BYTES.name()), e.getMessage());
        } finally {
            first.start(new boolean[2]);
            first.close();
        }
        assertFalse(java.nio.file.Files.exists(file));
    }
}
