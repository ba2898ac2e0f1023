package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The point-to-point contract every process transport passes (ordering, wildcards, threads, sizes around the eager
 * limit and up to 256 MiB, objects, both-send-first, many large messages at once, truncation, probe, abrupt peer
 * death), written once; each transport adds a subclass that says how to run a job over it (STYLE.md §3.6).
 */
@Timeout(60)
public abstract class P2pContractTest {

    @Test
    public void shouldPingPong() {
        job(2, eager(), true, (world, abort) -> {
            final int[] a = new int[1000];
            if (0 == world.rank()) {
                for (int i = 0; i < a.length; i++) {
                    a[i] = i;
                }
                world.send(Buf.of(a), 1, 7);
                final int[] b = new int[1000];
                final Status s = world.recv(Buf.of(b), 1, 8);
                assertEquals(1, s.source());
                assertEquals(1000, s.count());
                assertEquals(999 * 2, b[999]);
            } else {
                world.recv(Buf.of(a), 0, 7);
                for (int i = 0; i < a.length; i++) {
                    a[i] *= 2;
                }
                world.send(Buf.of(a), 0, 8);
            }
        });
    }

    /**
     * A receiver far behind its sender: rank 1 sends 500 messages, each on a tag of its own, and a last one on tag
     * 900; rank 0 first posts a receive for tag 900 (not sent yet), waits for a token, then receives the 500 in
     * reverse tag order (all unexpected: each receive finds its message behind hundreds of others), the last with
     * ANY_TAG, then waits for the tag 900 receive. Every message lands in its own receive, intact.
     */
    @Test
    public void shouldMatchManyUnexpectedMessagesByTag() {
        job(2, eager(), true, (world, abort) -> {
            final int n = 500;
            if (1 == world.rank()) {
                for (int t = 0; t < n; t++) {
                    world.send(Buf.of(new int[] {t, 3 * t}), 0, t);
                }
                world.send(Buf.of(new int[1]), 0, 1000); // the token: all 500 are out
                world.send(Buf.of(new int[] {900, 2700}), 0, 900);
                return;
            }
            final int[] last = new int[2];
            final Request late = world.irecv(Buf.of(last), 1, 900);
            world.recv(Buf.of(new int[1]), 1, 1000);
            final boolean[] seen = new boolean[n];
            for (int t = n - 1; t >= 0; t--) {
                final int[] got = new int[2];
                final Status s = world.recv(Buf.of(got), 1, 0 == t ? Comm.ANY_TAG : t);
                final int tag = s.tag();
                assertEquals(t, tag, "the tag received");
                assertFalse(seen[tag], "tag " + tag + " twice");
                seen[tag] = true;
                assertArrayEquals(new int[] {tag, 3 * tag}, got, "message of tag " + tag);
            }
            late.waitFor();
            assertArrayEquals(new int[] {900, 2700}, last, "the receive posted first");
        });
    }

    /**
     * Two senders each send 300 messages to rank 0 on three tags, alternating eager (16 B) and rendezvous (4 KiB,
     * eager limit 1 KiB) sizes. Rank 0 first receives half of them with ANY_SOURCE/ANY_TAG, then the rest by
     * specific tag in reverse tag order (so they wait unexpected): per (sender, tag) and per sender under
     * wildcards, sequence numbers must come in send order.
     */
    @Test
    public void shouldKeepSendOrderAcrossTagsSizesAndWildcards() {
        final int perSender = 300;
        final int tags = 3;
        job(3, 1024, true, (world, abort) -> {
            if (0 != world.rank()) {
                final List<Request> sends = new ArrayList<>();
                for (int seq = 0; seq < perSender; seq++) {
                    final int[] msg = new int[0 == seq % 2 ? 4 : 1024];
                    msg[0] = seq;
                    msg[1] = world.rank();
                    msg[msg.length - 1] = seq * 31 + world.rank();
                    sends.add(world.isend(Buf.of(msg), 0, seq % tags));
                }
                Request.waitAll(sends.toArray(new Request[0]));
                return;
            }
            final int[] buf = new int[1024];
            final int[] lastBySender = {-1, -1, -1};
            final int wildcard = perSender; // of the 600 messages
            for (int i = 0; i < wildcard; i++) {
                final Status s = world.recv(Buf.of(buf), Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                checkMessage(buf, s);
                assertTrue(buf[0] > lastBySender[s.source()], "overtaken: " + buf[0] + " after "
                    + lastBySender[s.source()] + " from rank " + s.source());
                lastBySender[s.source()] = buf[0];
            }
            for (int tag = tags - 1; tag >= 0; tag--) {
                for (int src = 1; src <= 2; src++) {
                    int seq = lastBySender[src] + 1;
                    while (seq % tags != tag) {
                        seq++;
                    }
                    for (; seq < perSender; seq += tags) {
                        final Status s = world.recv(Buf.of(buf), src, tag);
                        checkMessage(buf, s);
                        assertEquals(seq, buf[0], "from rank " + src + " tag " + tag);
                    }
                }
            }
        });
    }

    /** Four threads of rank 0 send at once on one connection, mixing eager and rendezvous sizes; per-thread order. */
    @Test
    public void shouldKeepEachThreadsOrderWhenThreadsSendAtOnce() {
        final int threads = 4;
        final int perThread = 150;
        job(2, 2048, true, (world, abort) -> {
            if (0 == world.rank()) {
                inThreads(threads, tag -> {
                    for (int seq = 0; seq < perThread; seq++) {
                        final int[] msg = new int[seq % 5 == 0 ? 4096 : 8];
                        msg[0] = seq;
                        msg[msg.length - 1] = seq ^ tag;
                        world.send(Buf.of(msg), 1, tag);
                    }
                });
            } else {
                final int[] next = new int[threads];
                final int[] buf = new int[4096];
                for (int i = 0; i < threads * perThread; i++) {
                    final Status s = world.recv(Buf.of(buf), 0, Communicator.ANY_TAG);
                    final int seq = buf[0];
                    assertEquals(next[s.tag()]++, seq, "thread " + s.tag());
                    assertEquals(seq % 5 == 0 ? 4096 : 8, s.count());
                    assertEquals(seq ^ s.tag(), buf[(int) s.count() - 1]);
                }
            }
        });
    }

    /** A sending thread's body, given its index. */
    @FunctionalInterface
    public interface ThreadBody {
        void run(int index) throws Exception;
    }

    /**
     * Runs {@code body} on {@code threads} platform threads at once and waits for all; a thread's failure is thrown
     * as "sending thread i".
     */
    public static void inThreads(final int threads, final ThreadBody body) throws InterruptedException {
        final Thread[] ts = new Thread[threads];
        final Throwable[] failed = new Throwable[threads];
        for (int t = 0; t < threads; t++) {
            final int index = t;
            ts[t] = Thread.ofPlatform().start(() -> {
                try {
                    body.run(index);
                } catch (final Throwable e) {
                    failed[index] = e;
                }
            });
        }
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            if (null != failed[t]) {
                throw new AssertionError("sending thread " + t, failed[t]);
            }
        }
    }

    private static void checkMessage(final int[] buf, final Status s) {
        final int seq = buf[0];
        assertEquals(s.source(), buf[1]);
        assertEquals(seq % 3, s.tag());
        final int count = 0 == seq % 2 ? 4 : 1024;
        assertEquals(count, s.count());
        assertEquals(seq * 31 + s.source(), buf[count - 1]);
    }

    /** Each size both ways: into a posted receive, and unexpected (it arrives before the receive is posted). */
    @Test
    public void shouldMoveEverySizeAroundTheEagerLimit() {
        final int[] sizes = {0, 1, eager() - 1, eager(), eager() + 1, 4 << 20};
        job(2, eager(), true, (world, abort) -> {
            for (final int size : sizes) {
                final byte[] data = pattern(size, size);
                if (0 == world.rank()) {
                    world.recv(Buf.of(new byte[0]), 1, 1); // rank 1 has posted its receive
                    world.send(Buf.of(data), 1, 2);
                    final Request r = world.isend(Buf.of(data), 1, 3);
                    world.send(Buf.of(new byte[0]), 1, 4); // arrives after tag 3: that one is unexpected
                    r.waitFor();
                } else {
                    final byte[] posted = new byte[size + 7];
                    final Request r = world.irecv(Buf.of(posted), 0, 2);
                    world.send(Buf.of(new byte[0]), 0, 1);
                    final Status s = r.waitFor();
                    assertEquals(size, s.count(), "posted, size " + size);
                    assertArrayEquals(data, java.util.Arrays.copyOf(posted, size), "posted, size " + size);
                    world.recv(Buf.of(new byte[0]), 0, 4);
                    final byte[] late = new byte[size];
                    assertEquals(size, world.recv(Buf.of(late), 0, 3).count(), "unexpected, size " + size);
                    assertArrayEquals(data, late, "unexpected, size " + size);
                }
            }
        });
    }

    @Test
    public void shouldMoveObjectsOfAnySize() {
        job(2, 1024, true, (world, abort) -> {
            if (0 == world.rank()) {
                world.sendObject(List.of("a", "b"), 1, 0);
                world.sendObject(new ArrayList<>(java.util.Collections.nCopies(10_000, "xyz")), 1, 0);
            } else {
                final List<String> small = world.recvObject(0, 0);
                assertEquals(List.of("a", "b"), small);
                final List<String> large = world.recvObject(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                assertEquals(10_000, large.size());
            }
        });
    }

    /**
     * One 256 MiB rendezvous message of long[] (a heap segment that cannot be viewed as a ByteBuffer, so the
     * staging copies are exercised). 256 MiB is a thousand times the largest DATA chunk and two thousand times
     * the staging buffers, so any code that held the whole message twice, or a chunk too many, would show as heap
     * pressure; the test JVM's default heap (a quarter of 24 GiB) holds the sender's and receiver's arrays with
     * room to spare, and loopback moves it in well under a second. 1 GiB would prove no more and cost 4x.
     */
    @Test
    public void shouldMoveOneQuarterGibibyteMessage() {
        final int longs = 32 << 20;
        job(2, eager(), true, (world, abort) -> {
            final long[] big = new long[longs];
            if (0 == world.rank()) {
                for (int i = 0; i < longs; i++) {
                    big[i] = i * 0x9E3779B97F4A7C15L;
                }
                world.send(Buf.of(big), 1, 0);
            } else {
                final Status s = world.recv(Buf.of(big), 0, 0);
                assertEquals(longs, s.count());
                for (int i = 0; i < longs; i++) {
                    if (big[i] != i * 0x9E3779B97F4A7C15L) {
                        throw new AssertionError("long " + i + " is " + big[i]);
                    }
                }
            }
        });
    }

    @Test
    public void shouldNotDeadlockWhenBothSendSmallFirst() {
        job(2, eager(), true, (world, abort) -> {
            final int peer = 1 - world.rank();
            for (int i = 0; i < 100; i++) {
                world.send(Buf.of(new int[] {i, world.rank()}), peer, 5);
                final int[] got = new int[2];
                world.recv(Buf.of(got), peer, 5);
                assertArrayEquals(new int[] {i, peer}, got);
            }
        });
    }

    /** Every rank sends 32 MiB to every other at once (isend all, then receive all), twice; then sendrecv. */
    @Test
    public void shouldExchangeLargeMessagesInAllDirectionsAtOnce() {
        final int n = 3;
        final int bytes = 32 << 20;
        job(n, eager(), true, (world, abort) -> {
            for (int round = 0; round < 2; round++) {
                final List<Request> sends = new ArrayList<>();
                for (int peer = 0; peer < n; peer++) {
                    if (peer != world.rank()) {
                        sends.add(world.isend(Buf.of(pattern(bytes, world.rank() * 10 + peer + round)), peer, round));
                    }
                }
                final byte[] got = new byte[bytes];
                for (int peer = 0; peer < n; peer++) {
                    if (peer != world.rank()) {
                        world.recv(Buf.of(got), peer, round);
                        assertArrayEquals(pattern(bytes, peer * 10 + world.rank() + round), got);
                    }
                }
                Request.waitAll(sends.toArray(new Request[0]));
            }
            final int right = (world.rank() + 1) % n;
            final int left = (world.rank() + n - 1) % n;
            final byte[] got = new byte[bytes];
            world.sendrecv(Buf.of(pattern(bytes, world.rank())), right, 9, Buf.of(got), left, 9);
            assertArrayEquals(pattern(bytes, left), got);
        });
    }

    @Test
    public void shouldReportTruncationNamingBothSizesAndKeepWorking() {
        job(2, 1024, true, (world, abort) -> {
            if (0 == world.rank()) {
                world.send(Buf.of(pattern(100, 1)), 1, 0);
                world.send(Buf.of(pattern(1 << 20, 2)), 1, 0); // rendezvous: completes normally
                world.send(Buf.of(pattern(100, 3)), 1, 1);
                world.send(Buf.of(pattern(1 << 20, 4)), 1, 1);
            } else {
                final byte[] small = new byte[50];
                final TuttiException eager = assertThrows(TuttiException.class,
                    () -> world.recv(Buf.of(small), 0, 0));
                assertEquals(ErrorClass.TRUNCATE, eager.errorClass());
                assertTrue(eager.getMessage().contains("bytes=100") && eager.getMessage().contains("bytes=50"),
                    eager.getMessage());
                assertArrayEquals(java.util.Arrays.copyOf(pattern(100, 1), 50), small);
                final byte[] half = new byte[1 << 19];
                final TuttiException rndv = assertThrows(TuttiException.class,
                    () -> world.recv(Buf.of(half), 0, 0));
                assertEquals(ErrorClass.TRUNCATE, rndv.errorClass());
                assertTrue(rndv.getMessage().contains("bytes=" + (1 << 20))
                    && rndv.getMessage().contains("bytes=" + (1 << 19)), rndv.getMessage());
                assertArrayEquals(java.util.Arrays.copyOf(pattern(1 << 20, 2), 1 << 19), half);
                final byte[] next = new byte[100];
                world.recv(Buf.of(next), 0, 1);
                assertArrayEquals(pattern(100, 3), next);
                final byte[] nextLarge = new byte[1 << 20];
                world.recv(Buf.of(nextLarge), 0, 1);
                assertArrayEquals(pattern(1 << 20, 4), nextLarge);
            }
        });
    }

    /**
     * Small messages take two paths at the receiver: straight into a receive posted before they arrive, or through
     * the unexpected queue. Both must check the datatype (a mismatch fails with TYPE and leaves the communicator
     * usable), move booleans, and report wildcard statuses.
     */
    @Test
    public void shouldCheckTypesAndMoveBooleansWhetherTheReceiveIsPostedFirstOrNot() {
        job(2, eager(), true, (world, abort) -> {
            final int[] ints = {1, 2, 3};
            final boolean[] flags = {true, false, true, true};
            if (0 == world.rank()) {
                for (final boolean postedFirst : new boolean[] {true, false}) {
                    if (postedFirst) {
                        world.recv(Buf.of(new byte[0]), 1, 99); // rank 1 has posted its receives
                    }
                    world.send(Buf.of(ints), 1, 5);
                    world.send(Buf.of(flags), 1, 6);
                    world.send(Buf.of(ints), 1, 7);
                    if (!postedFirst) {
                        world.send(Buf.of(new byte[0]), 1, 98); // after the three: they wait unexpected
                    }
                }
            } else {
                for (final boolean postedFirst : new boolean[] {true, false}) {
                    final double[] wrong = new double[3];
                    final boolean[] gotFlags = new boolean[4];
                    final int[] gotInts = new int[3];
                    if (!postedFirst) {
                        world.recv(Buf.of(new byte[0]), 0, 98);
                    }
                    final Request typed = world.irecv(Buf.of(wrong), 0, 5);
                    final Request bools = world.irecv(Buf.of(gotFlags), Communicator.ANY_SOURCE, 6);
                    final Request any = world.irecv(Buf.of(gotInts), Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                    if (postedFirst) {
                        world.send(Buf.of(new byte[0]), 0, 99);
                    }
                    final TuttiException e = assertThrows(TuttiException.class, typed::waitFor);
                    assertEquals(ErrorClass.TYPE, e.errorClass(), e.getMessage());
                    assertTrue(e.getMessage().contains("INT") && e.getMessage().contains("DOUBLE"), e.getMessage());
                    assertEquals(0, bools.waitFor().source());
                    assertArrayEquals(flags, gotFlags);
                    final Status st = any.waitFor();
                    assertEquals(0, st.source());
                    assertEquals(7, st.tag());
                    assertEquals(3, st.count());
                    assertArrayEquals(ints, gotInts);
                }
            }
        });
    }

    /**
     * Rank 1 aborts its transport without goodbye. Rank 0's receive from it and its pending rendezvous send to
     * it fail with PROC_FAILED naming rank 1; rank 0 and rank 2 go on talking.
     */
    @Test
    public void shouldFailWaitsOnAPeerWhoseSocketsCloseAbruptly() {
        job(3, 1024, false, (world, abort) -> {
            switch (world.rank()) {
                case 0 -> {
                    final Request recv = world.irecv(Buf.of(new byte[8]), 1, 0);
                    // RTS, never matched: larger than any size a transport sends without a handshake
                    final Request send = world.isend(Buf.of(new byte[8 << 20]), 1, 0);
                    world.send(Buf.of(new byte[0]), 1, 99); // rank 1 may die now
                    final TuttiException r = assertThrows(TuttiException.class,
                        () -> recv.waitFor(20, TimeUnit.SECONDS));
                    assertEquals(ErrorClass.PROC_FAILED, r.errorClass());
                    assertTrue(r.getMessage().contains("rank 1"), r.getMessage());
                    final TuttiException s = assertThrows(TuttiException.class,
                        () -> send.waitFor(20, TimeUnit.SECONDS));
                    assertEquals(ErrorClass.PROC_FAILED, s.errorClass());
                    assertTrue(s.getMessage().contains("rank 1"), s.getMessage());
                    world.send(Buf.of(new int[] {42}), 2, 1);
                    final int[] back = new int[1];
                    world.recv(Buf.of(back), 2, 1);
                    assertEquals(43, back[0]);
                }
                case 1 -> {
                    world.recv(Buf.of(new byte[0]), 0, 99);
                    abort.run();
                }
                default -> {
                    final int[] v = new int[1];
                    world.recv(Buf.of(v), 0, 1);
                    v[0]++;
                    world.send(Buf.of(v), 0, 1);
                }
            }
        });
    }

    @Test
    public void shouldProbeRendezvousMessageBeforeReceivingIt() {
        job(2, 1024, true, (world, abort) -> {
            if (0 == world.rank()) {
                world.send(Buf.of(pattern(5000, 5)), 1, 3);
            } else {
                final Status s = world.probe(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                assertNotNull(s);
                assertEquals(5000, s.count());
                final byte[] got = new byte[(int) s.count()];
                world.recv(Buf.of(got), s.source(), s.tag());
                assertArrayEquals(pattern(5000, 5), got);
            }
        });
    }

    public static byte[] pattern(final int size, final int seed) {
        final byte[] b = new byte[size];
        new java.util.SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** A rank's body, given its world communicator and a way to abort its transport without goodbye. */
    @FunctionalInterface
    public interface Body {
        void run(Communicator world, Runnable abortTransport) throws Exception;
    }

    /** @return the eager limit the size tests straddle */
    public abstract int eager();

    /**
     * Runs a job of {@code n} ranks over the transport under test.
     *
     * @param n             ranks
     * @param eagerLimit    the transport's eager limit
     * @param finalizeAtEnd whether every rank closes normally at the end (false when the body kills a rank)
     * @param body          what each rank runs
     */
    public abstract void job(int n, int eagerLimit, boolean finalizeAtEnd, Body body);
}
