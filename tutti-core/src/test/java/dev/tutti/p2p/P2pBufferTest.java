package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.ObjectRequest;
import dev.tutti.ObjectSerializer;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.TypedData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point semantics over the in-process transport: buffers, ordering, wildcards, requests, protocols. */
@Timeout(60)
class P2pBufferTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    @Test
    void shouldMoveEveryPrimitiveTypeWithOffsets() {
        Tutti.runLocal(2, OPTS, w -> {
            int salt = 0;
            for (final Datatype t : TypedData.PRIMITIVES) {
                for (final int n : new int[] {0, 1, 13, 70_000}) {
                    salt++;
                    if (0 == w.rank()) {
                        final Object a = TypedData.filled(t, 5, n, 3, salt, TypedData.Values.SMALL);
                        w.send(TypedData.buf(a, 5, n), 1, salt);
                    } else {
                        final Object a = TypedData.array(t, 2 + n);
                        final Status s = w.recv(TypedData.buf(a, 2, n), 0, salt);
                        assertEquals(n, s.count(), t + " n=" + n);
                        assertEquals(t, s.datatype());
                        assertArrayEquals(TypedData.canonical(t, n, salt, TypedData.Values.SMALL),
                            TypedData.read(a, t, 2, n), t + " n=" + n);
                    }
                }
            }
        });
    }

    @Test
    void shouldMoveByteBuffersAndSegments() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                final ByteBuffer heap = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
                final ByteBuffer direct = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
                for (int i = 0; i < 16; i++) {
                    heap.putInt(i * 4, i);
                    direct.putInt(i * 4, -i);
                }
                heap.position(8);
                w.send(Buf.of(heap, Datatype.INT), 1, 0);
                w.send(Buf.of(direct), 1, 1);
                try (Arena arena = Arena.ofShared()) {
                    final MemorySegment seg = arena.allocate(8 * 100);
                    for (int i = 0; i < 100; i++) {
                        seg.setAtIndex(ValueLayout.JAVA_LONG, i, i * 3L);
                    }
                    w.send(Buf.of(seg, Datatype.LONG, 10, 20), 1, 2);
                }
            } else {
                final int[] ints = new int[14];
                w.recv(Buf.of(ints), 0, 0);
                assertEquals(2, ints[0]);
                assertEquals(15, ints[13]);
                final ByteBuffer direct = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
                w.recv(Buf.of(direct), 0, 1);
                assertEquals(-15, direct.getInt(60));
                final long[] longs = new long[20];
                w.recv(Buf.of(longs), 0, 2);
                assertEquals(30L, longs[0]);
                assertEquals(87L, longs[19]);
            }
        });
    }

    @Test
    void shouldSendFromAllocSharedWithoutShm() {
        Tutti.runLocal(2, OPTS, w -> {
            final Tutti tutti = Tutti.init();
            final MemorySegment seg = tutti.allocShared(8 * 1000);
            if (0 == w.rank()) {
                seg.setAtIndex(ValueLayout.JAVA_LONG, 999, 42L);
                w.send(Buf.of(seg, Datatype.LONG), 1, 0);
            } else {
                w.recv(Buf.of(seg, Datatype.LONG), 0, 0);
                assertEquals(42L, seg.getAtIndex(ValueLayout.JAVA_LONG, 999));
            }
            tutti.freeShared(seg);
        });
    }

    @Test
    void shouldKeepNonOvertakingOrderAndMatchWildcards() {
        Tutti.runLocal(3, OPTS, w -> {
            final int n = 500;
            if (0 != w.rank()) {
                for (int i = 0; i < n; i++) {
                    final int size = (i % 7 == 0) ? 20_000 : 1; // mix eager and rendezvous
                    final int[] m = new int[size];
                    m[0] = i;
                    w.send(Buf.of(m), 0, i % 3);
                }
            } else {
                final int[] next = new int[3];
                final int[] buf = new int[20_000];
                for (int i = 0; i < 2 * n; i++) {
                    final Status s = w.recv(Buf.of(buf), Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                    assertEquals(next[s.source()], buf[0], "order from rank " + s.source());
                    assertEquals(buf[0] % 3, s.tag());
                    next[s.source()]++;
                }
                assertEquals(n, next[1]);
                assertEquals(n, next[2]);
            }
        });
    }

    @Test
    void shouldMatchSpecificTagsOutOfOrder() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                for (int tag = 0; tag < 10; tag++) {
                    w.send(Buf.of(new int[] {tag}), 1, tag);
                }
            } else {
                for (int tag = 9; tag >= 0; tag--) {
                    final int[] x = new int[1];
                    w.recv(Buf.of(x), 0, tag);
                    assertEquals(tag, x[0]);
                }
            }
        });
    }

    @Test
    void shouldNotDeadlockWhenBothSendFirst() {
        Tutti.runLocal(2, OPTS, w -> {
            final int peer = 1 - w.rank();
            final double[] out = {w.rank()};
            final double[] in = new double[1];
            w.send(Buf.of(out), peer, 0);
            w.recv(Buf.of(in), peer, 0);
            assertEquals(peer, in[0]);
            final double[] big = new double[100_000];
            final double[] bigIn = new double[100_000];
            final Status s = w.sendrecv(Buf.of(big), peer, 1, Buf.of(bigIn), peer, 1);
            assertEquals(100_000, s.count());
        });
    }

    @Test
    void shouldProbeAndCancel() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                w.send(Buf.of(new long[42]), 1, 5);
                w.send(Buf.of(new byte[0]), 1, 6);
                w.barrier(); // stays until rank 1 is done: a rank that returns has left, and probes of it fail
            } else {
                final Status s = w.probe(0, 5);
                assertEquals(42, s.count());
                assertEquals(Datatype.LONG, s.datatype());
                final Status again = w.iprobe(Communicator.ANY_SOURCE, 5);
                assertEquals(0, again.source());
                w.recv(Buf.of(new long[42]), 0, 5);
                w.recv(Buf.of(new byte[0]), 0, 6);
                assertNull(w.iprobe(0, 5));
                final Request never = w.irecv(Buf.of(new int[1]), 0, 99);
                assertFalse(never.test());
                never.cancel();
                assertTrue(never.waitFor().cancelled());
                w.barrier();
            }
        });
    }

    @Test
    void shouldWaitAnyAndAll() {
        Tutti.runLocal(3, OPTS, w -> {
            if (0 == w.rank()) {
                final int[][] bufs = new int[2][1];
                final Request[] rs = {w.irecv(Buf.of(bufs[0]), 1, 0), w.irecv(Buf.of(bufs[1]), 2, 0)};
                final int first = Request.waitAny(rs);
                assertTrue(0 == first || 1 == first);
                Request.waitAll(rs);
                assertEquals(1, bufs[0][0]);
                assertEquals(2, bufs[1][0]);
            } else {
                w.send(Buf.of(new int[] {w.rank()}), 0, 0);
            }
        });
    }

    @Test
    void shouldSendObjectsWithoutSizes() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                final List<Object> value = new ArrayList<>(List.of("a", 1, 2.5, new int[] {1, 2, 3}));
                w.sendObject(value, 1, 3);
                w.sendObject(null, 1, 4);
                final Request r = w.isendObject("x".repeat(200_000), 1, 5);
                r.waitFor();
            } else {
                final List<Object> got = w.recvObject(0, 3);
                assertEquals("a", got.get(0));
                assertArrayEquals(new int[] {1, 2, 3}, (int[]) got.get(3));
                assertNull(w.recvObject(0, 4));
                final ObjectRequest<String> r = w.irecvObject(Communicator.ANY_SOURCE, 5);
                assertEquals(200_000, r.get().length());
            }
        });
    }

    /** A serializable class outside the default allow-list (java.base). */
    record Secret(String value) implements java.io.Serializable {
    }

    @Test
    void shouldRefuseClassesOutsideTheAllowList() {
        Tutti.runLocal(2, OPTS, w -> {
            if (0 == w.rank()) {
                w.sendObject(new Secret("x"), 1, 0);
                w.sendObject("after", 1, 1);
            } else {
                final TuttiException e = assertThrows(TuttiException.class, () -> w.recvObject(0, 0));
                assertEquals(ErrorClass.SERIALIZATION, e.errorClass());
                assertTrue(e.getMessage().contains("Secret"), e.getMessage());
                assertEquals("after", w.<String>recvObject(0, 1));
            }
        });
        final Tutti.Options allow = OPTS.serializer(ObjectSerializer.java("dev.tutti.p2p.P2pBufferTest$Secret"));
        Tutti.runLocal(2, allow, w -> {
            if (0 == w.rank()) {
                w.sendObject(new Secret("y"), 1, 0);
            } else {
                assertEquals(new Secret("y"), w.recvObject(0, 0));
            }
        });
    }

    @Test
    void shouldMoveOneGibibyteWithOneCopy() {
        // 1 GiB: the largest array-backed message; rendezvous copies it once from the sender's array into the
        // receiver's, so the job needs 2 GiB of heap (surefire's default max heap here is 1/4 of 24 GiB).
        final int n = 1 << 30;
        Tutti.runLocal(2, OPTS, w -> {
            final byte[] a = new byte[n];
            if (0 == w.rank()) {
                a[0] = 1;
                a[n - 1] = 2;
                w.send(Buf.of(a), 1, 0);
            } else {
                final Status s = w.recv(Buf.of(a), 0, 0);
                assertEquals(n, s.bytes());
                assertEquals(1, a[0]);
                assertEquals(2, a[n - 1]);
            }
        });
    }

    @Test
    void shouldLetSeveralThreadsOfARankCommunicate() {
        Tutti.runLocal(2, OPTS, w -> {
            final int threads = 4;
            final int msgs = 200;
            final CountDownLatch done = new CountDownLatch(threads);
            final List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                final int tag = t;
                Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < msgs; i++) {
                            if (0 == w.rank()) {
                                w.send(Buf.of(new int[] {i}), 1, tag);
                            } else {
                                final int[] x = new int[1];
                                w.recv(Buf.of(x), 0, tag);
                                assertEquals(i, x[0]);
                            }
                        }
                    } catch (final Throwable e) {
                        errors.add(e);
                    } finally {
                        done.countDown();
                    }
                });
            }
            done.await();
            assertTrue(errors.isEmpty(), errors.toString());
        });
    }
}
