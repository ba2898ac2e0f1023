package dev.tutti.transport.tcp;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.runtime.JobSecret;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousClient;
import dev.tutti.runtime.RendezvousServer;
import dev.tutti.transport.Inbound;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tcp transport below the p2p layer: authentication, wiring timeouts, streaming, failure. */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(60)
class TcpTransportTest {
    private static final byte[] NOTHING = new byte[0];

    /**
     * While rank 0 is wiring (accepting rank 1), three strangers connect to its endpoint: one sends garbage, one
     * answers the challenge with the wrong secret and then sends a frame anyway, one stays silent. The first two
     * are closed without rank 0 proving anything, the silent one delays nobody, and nothing any of them sent
     * reaches the sink; the real rank 1 then connects and messages flow. (The wiring phase is driven directly so
     * that the strangers are sure to strike while rank 0 accepts; the rendezvous has its own refusal tests.)
     */
    @Test
    void shouldRefuseWrongSecretAndGarbageAndStillConnect() throws Exception {
        final String secret = newSecret();
        final JobSecret key = JobSecret.of(secret);
        final ServerSocketChannel listen0 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        final ServerSocketChannel listen1 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        final String[] endpoints = {"127.0.0.1:" + listen0.socket().getLocalPort(),
            "127.0.0.1:" + listen1.socket().getLocalPort()};
        final LaunchInfo info0 = new LaunchInfo(0, 2, "127.0.0.1:1", secret, "test");
        final LaunchInfo info1 = new LaunchInfo(1, 2, "127.0.0.1:1", secret, "test");
        final CompletableFuture<SocketChannel[]> wired0 = async(() ->
            TcpWireUp.wire(info0, key, listen0, endpoints, 30_000));
        final RecordingSink sink0 = new RecordingSink();
        final RecordingSink sink1 = new RecordingSink();
        final int port0 = listen0.socket().getLocalPort();
        try (Socket silent = new Socket("127.0.0.1", port0)) {
            try (Socket garbage = new Socket("127.0.0.1", port0)) {
                garbage.setSoTimeout(10_000);
                final byte[] junk = new byte[4096];
                new SplittableRandom(1).nextBytes(junk);
                garbage.getOutputStream().write(junk);
                assertTrue(readUntilClosed(garbage.getInputStream()) <= TcpWireUp.HELLO_BYTES);
            }
            try (Socket impostor = new Socket("127.0.0.1", port0)) {
                impostor.setSoTimeout(10_000);
                final ByteBuffer hello = ByteBuffer.wrap(impostor.getInputStream()
                    .readNBytes(TcpWireUp.HELLO_BYTES)).order(ByteOrder.LITTLE_ENDIAN);
                assertEquals(TcpWireUp.ACCEPTOR_MAGIC, hello.getInt(0));
                final byte[] nonceA = new byte[JobSecret.NONCE_BYTES];
                hello.get(12, nonceA);
                final ByteBuffer connect = ByteBuffer.allocate(TcpWireUp.CONNECT_BYTES + 48 + 4)
                    .order(ByteOrder.LITTLE_ENDIAN);
                connect.putInt(TcpWireUp.CONNECTOR_MAGIC).putInt(TcpWireUp.VERSION).putInt(1).putInt(0)
                    .put(JobSecret.newNonce())
                    .put(JobSecret.of(newSecret()).mac(TcpWireUp.CONNECTOR_LABEL, nonceA, 1, 0, NOTHING));
                FrameDescriptor.putHeader(connect, TcpWireUp.CONNECT_BYTES, FrameDescriptor.EAGER, 0, 1, 0, 0, 4,
                    0, 0);
                connect.position(TcpWireUp.CONNECT_BYTES + 48).put("evil".getBytes(StandardCharsets.US_ASCII));
                impostor.getOutputStream().write(connect.array());
                assertEquals(0, readUntilClosed(impostor.getInputStream()), "the acceptor proved nothing");
            }
            final SocketChannel[] wired1 = TcpWireUp.wire(info1, key, listen1, endpoints, 30_000);
            final TcpTransport t0 = TcpTransport.over(info0, sink0, 1024, wired0.get(30, TimeUnit.SECONDS));
            final TcpTransport t1 = TcpTransport.over(info1, sink1, 1024, wired1);
            final TestOutbound hi = new TestOutbound(1, 5, MemorySegment.ofArray("hello".getBytes(
                StandardCharsets.US_ASCII)));
            t1.send(0, hi);
            hi.done.get(10, TimeUnit.SECONDS);
            final RecordingSink.Arrival a = sink0.arrivals.poll(10, TimeUnit.SECONDS);
            assertNotNull(a);
            assertNull(a.failure());
            assertEquals(1, a.envelope().source);
            assertEquals(5, a.envelope().tag);
            assertEquals("hello", new String(a.data().toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII));
            closeAll(t0, t1);
        }
        assertTrue(sink0.arrivals.isEmpty(), "only the real message arrived: " + sink0.arrivals);
        assertTrue(sink0.failedPeers.isEmpty() && sink1.failedPeers.isEmpty(), "goodbyes are not failures");
    }

    /** The full path with the rendezvous: a stranger at the rendezvous does not disturb the job. */
    @Test
    void shouldConnectThroughTheRendezvousDespiteAStranger() throws Exception {
        final String secret = newSecret();
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, secret)) {
            try (Socket stranger = new Socket("127.0.0.1", server.port())) {
                stranger.getOutputStream().write(new byte[100]);
                final RecordingSink sink0 = new RecordingSink();
                final RecordingSink sink1 = new RecordingSink();
                final CompletableFuture<TcpTransport> t0 = async(() ->
                    TcpTransport.connect(info(0, 2, server, secret), sink0, 1024));
                final TcpTransport t1 = TcpTransport.connect(info(1, 2, server, secret), sink1, 1024);
                final TcpTransport[] t = {t0.get(30, TimeUnit.SECONDS), t1};
                sendAndAwait(t[0], MemorySegment.ofArray(new byte[5000]), sink1);
                // Both ranks run on this machine; its id comes with the endpoint and is not part of the address.
                final int expected = dev.tutti.runtime.MachineId.current().isEmpty() ? 1 : 2;
                assertEquals(expected, t[0].ranksOnMachine());
                assertEquals(expected, t[1].ranksOnMachine());
                closeAll(t);
            }
        }
    }

    @Test
    void shouldTimeOutNamingTheRankThatNeverConnects() throws Exception {
        final String secret = newSecret();
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, secret)) {
            final CompletableFuture<String[]> ghost = async(() ->
                RendezvousClient.exchange(info(1, 2, server, secret), "127.0.0.1:1"));
            final TuttiException e = assertThrows(TuttiException.class,
                () -> TcpTransport.connect(info(0, 2, server, secret), new RecordingSink(), 1024, 1_500));
            assertEquals(ErrorClass.TIMEOUT, e.errorClass());
            assertTrue(e.getMessage().contains("rank=0") && e.getMessage().contains("ranks=[1]"), e.getMessage());
            assertEquals(2, ghost.get(10, TimeUnit.SECONDS).length);
        }
    }

    @Test
    void shouldTimeOutNamingTheRankThatCannotBeReached() throws Exception {
        final String secret = newSecret();
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, secret)) {
            final CompletableFuture<String[]> ghost = async(() ->
                RendezvousClient.exchange(info(0, 2, server, secret), "127.0.0.1:1"));
            final TuttiException e = assertThrows(TuttiException.class,
                () -> TcpTransport.connect(info(1, 2, server, secret), new RecordingSink(), 1024, 1_500));
            assertEquals(ErrorClass.TIMEOUT, e.errorClass());
            assertTrue(e.getMessage().contains("ranks=[0]") && e.getMessage().contains("127.0.0.1:1"),
                e.getMessage());
            assertEquals(2, ghost.get(10, TimeUnit.SECONDS).length);
        }
    }

    /**
     * A 64 MiB rendezvous message and 1000 eager messages of 32 KiB whose receives are posted (the sink delivers
     * inside {@code arrive}) cross with the receiving I/O thread allocating far less than the 96 MiB moved (no
     * whole-message buffer, no per-message payload copy), and the sending I/O thread too (it streams chunks out of
     * the sender's array through its staging buffer).
     */
    @Test
    void shouldMoveLargeAndPostedEagerMessagesWithoutBufferingThem() throws Exception {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final int large = 64 << 20;
        final int small = 32 << 10;
        final long[] bigDst = new long[large / 8];
        final byte[] smallDst = new byte[small];
        final RecordingSink sink1 = new RecordingSink(m -> m.lengthBytes == large
            ? MemorySegment.ofArray(bigDst) : MemorySegment.ofArray(smallDst));
        final TcpTransport[] t = connectPair(new RecordingSink(), sink1, 64 << 10);
        try {
            final long[] big = new long[large / 8];
            for (int i = 0; i < big.length; i++) {
                big[i] = i * 7L + 3;
            }
            final byte[] eager = new byte[small];
            new SplittableRandom(7).nextBytes(eager);
            sendAndAwait(t[0], MemorySegment.ofArray(eager), sink1); // warm-up: classes loaded, buffers sized
            final long recvBefore = mx.getThreadAllocatedBytes(t[1].ioThread().threadId());
            final long sendBefore = mx.getThreadAllocatedBytes(t[0].ioThread().threadId());
            sendAndAwait(t[0], MemorySegment.ofArray(big), sink1);
            for (int i = 0; i < 1000; i++) {
                sendAndAwait(t[0], MemorySegment.ofArray(eager), sink1);
            }
            final long recvAllocated = mx.getThreadAllocatedBytes(t[1].ioThread().threadId()) - recvBefore;
            final long sendAllocated = mx.getThreadAllocatedBytes(t[0].ioThread().threadId()) - sendBefore;
            assertTrue(recvAllocated < (8 << 20), "receiving I/O thread allocated " + recvAllocated + " bytes");
            assertTrue(sendAllocated < (8 << 20), "sending I/O thread allocated " + sendAllocated + " bytes");
            assertArrayEquals(big, bigDst);
            assertArrayEquals(eager, smallDst);
        } finally {
            closeAll(t);
        }
    }

    /**
     * A rendezvous message's RTS carries its first bytes (the prefix): rank 1 holds the announced message, which
     * has its prefix, and the send does not complete; once rank 1 delivers it, the rest streams in and every byte is
     * in place, the prefix's too.
     */
    @Test
    void shouldCarryTheFirstBytesOfARendezvousMessageInItsAnnouncement() throws Exception {
        final BlockingQueue<Inbound> held = new LinkedBlockingQueue<>();
        final TcpTransport[] t = connectPair(new RecordingSink(), new RecordingSink(m -> null) {
            @Override
            public void arrive(final Inbound message) {
                held.add(message);
            }
        }, 1024);
        try {
            final byte[] data = new byte[1 << 20];
            new SplittableRandom(11).nextBytes(data);
            final TestOutbound out = new TestOutbound(0, 1, MemorySegment.ofArray(data));
            t[0].send(1, out);
            final RendezvousInbound rts = assertInstanceOf(RendezvousInbound.class, held.poll(10, TimeUnit.SECONDS));
            assertEquals(1 << 20, rts.lengthBytes);
            assertNotNull(rts.prefix(), rts.toString());
            assertEquals(TcpLimits.rendezvousPrefix(), rts.prefix().lengthBytes);
            // A send that completed once its announcement was written would be done before rank 1 saw the RTS
            assertFalse(out.done.isDone(), "the send completed before the receiver asked for the rest");
            final byte[] dst = new byte[1 << 20];
            final CompletableFuture<Throwable> delivered = new CompletableFuture<>();
            rts.deliver(MemorySegment.ofArray(dst), delivered::complete);
            assertNull(delivered.get(10, TimeUnit.SECONDS));
            out.done.get(10, TimeUnit.SECONDS);
            assertArrayEquals(data, dst);
        } finally {
            closeAll(t);
        }
    }

    /**
     * Rank 1 holds an announced rendezvous message without delivering it, then resets its connections. Rank 0's
     * sink hears that rank 1 failed, and the pending rendezvous send fails with PROC_FAILED naming rank 1; on rank
     * 1, delivering the held message now fails too.
     */
    @Test
    void shouldFailPendingRendezvousWhenThePeerResets() throws Exception {
        final BlockingQueue<Inbound> held = new LinkedBlockingQueue<>();
        final RecordingSink sink0 = new RecordingSink();
        final TcpTransport[] t = connectPair(sink0, new RecordingSink(m -> null) {
            @Override
            public void arrive(final Inbound message) {
                held.add(message);
            }
        }, 1024);
        try {
            final TestOutbound out = new TestOutbound(0, 1, MemorySegment.ofArray(new byte[1 << 20]));
            t[0].send(1, out);
            final Inbound rts = held.poll(10, TimeUnit.SECONDS);
            assertNotNull(rts);
            assertEquals(1 << 20, rts.lengthBytes);
            t[1].abort();
            assertEquals(1, sink0.failedPeers.poll(10, TimeUnit.SECONDS));
            final ExecutionException e = assertThrows(ExecutionException.class,
                () -> out.done.get(10, TimeUnit.SECONDS));
            final TuttiException te = assertInstanceOf(TuttiException.class, e.getCause());
            assertEquals(ErrorClass.PROC_FAILED, te.errorClass());
            assertTrue(te.getMessage().contains("rank 1"), te.getMessage());
            final CompletableFuture<Throwable> delivered = new CompletableFuture<>();
            rts.deliver(MemorySegment.ofArray(new byte[1 << 20]), delivered::complete);
            assertInstanceOf(TuttiException.class, delivered.get(10, TimeUnit.SECONDS));
        } finally {
            closeAll(t);
        }
    }

    /**
     * Rank 1 aborts. Rank 0 routes rank 1's messages over tcp in the first job and over another transport (shared
     * memory) in the second: the failure names the tcp connection only in the first, so that a job whose pairs all
     * use shared memory never blames a tcp connection it does not use.
     */
    @Test
    void shouldNameTheTcpConnectionOnlyWhenThePairUsesIt() throws Exception {
        for (final boolean elsewhere : new boolean[] {false, true}) {
            final RecordingSink sink0 = new RecordingSink();
            final TcpTransport[] t = connectPair(sink0, new RecordingSink(), 1024);
            try {
                t[0].routedElsewhere(new boolean[] {false, elsewhere});
                t[1].abort();
                final Throwable failure = sink0.peerFailures.poll(10, TimeUnit.SECONDS);
                assertNotNull(failure);
                final String message = failure.getMessage();
                if (elsewhere) {
                    assertEquals("rank 1 failed: it aborted: its program failed (noticed by rank 0)", message);
                } else {
                    assertTrue(message.startsWith("rank 1 failed: the tcp connection from rank=0 to rank=1 "), message);
                }
            } finally {
                closeAll(t);
            }
        }
    }

    /**
     * Rank 1's I/O thread is stalled inside {@code arrive} while rank 0 sends 25 MiB of eager messages and a
     * rendezvous message: far more than the socket buffers hold, yet every send returns (what the socket does not
     * take is queued), and once rank 1 resumes everything arrives complete and in send order.
     */
    @Test
    void shouldQueueWhatTheSocketDoesNotTakeAndKeepOrder() throws Exception {
        final CountDownLatch stall = new CountDownLatch(1);
        final BlockingQueue<Integer> arrivalOrder = new LinkedBlockingQueue<>();
        final RecordingSink sink1 = new RecordingSink() {
            @Override
            public void arrive(final Inbound message) {
                try {
                    stall.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                arrivalOrder.add(message.tag);
                super.arrive(message);
            }
        };
        final TcpTransport[] t = connectPair(new RecordingSink(), sink1, 64 << 10);
        try {
            final int count = 400;
            final byte[][] sent = new byte[count + 1][];
            final TestOutbound[] outs = new TestOutbound[count + 1];
            for (int i = 0; i <= count; i++) {
                sent[i] = new byte[i == count / 2 ? 3 << 20 : 64 << 10];
                new SplittableRandom(i).nextBytes(sent[i]);
                outs[i] = new TestOutbound(0, i, MemorySegment.ofArray(sent[i]));
                t[0].send(1, outs[i]);
            }
            for (int i = 0; i <= count; i++) {
                if (i != count / 2) {
                    outs[i].done.get(10, TimeUnit.SECONDS); // eager: complete although nothing was read
                }
            }
            stall.countDown();
            for (int i = 0; i <= count; i++) {
                assertEquals(i, arrivalOrder.poll(20, TimeUnit.SECONDS), "arrival order");
                final RecordingSink.Arrival a = sink1.arrivals.poll(20, TimeUnit.SECONDS);
                assertNotNull(a, "message " + i);
                assertNull(a.failure());
                final int tag = a.envelope().tag;
                assertArrayEquals(sent[tag], a.data().toArray(ValueLayout.JAVA_BYTE), "message " + tag);
            }
            outs[count / 2].done.get(10, TimeUnit.SECONDS);
        } finally {
            stall.countDown();
            closeAll(t);
        }
    }

    private static void sendAndAwait(final TcpTransport from, final MemorySegment payload, final RecordingSink sink)
        throws Exception {
        final TestOutbound out = new TestOutbound(0, 0, payload);
        from.send(1, out);
        final RecordingSink.Arrival a = sink.arrivals.poll(20, TimeUnit.SECONDS);
        assertNotNull(a);
        assertNull(a.failure());
        out.done.get(20, TimeUnit.SECONDS);
    }

    /**
     * A thread that polls the transport often reads the socket itself: the I/O thread stands by and a message arrives
     * through the poll, on the polling thread. When the polls stop, the I/O thread reads again: a message arrives
     * with nobody polling, on the I/O thread.
     */
    @Test
    void shouldReadInThePollingThreadWhileItPollsAndInTheIoThreadOtherwise() throws Exception {
        final BlockingQueue<Thread> readers = new LinkedBlockingQueue<>();
        final RecordingSink sink1 = new RecordingSink() {
            @Override
            public void arrive(final Inbound message) {
                readers.add(Thread.currentThread());
                super.arrive(message);
            }
        };
        final TcpTransport[] t = connectPair(new RecordingSink(), sink1, 1024);
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Thread reader = null;
            while (!t[1].ioThreadStandsBy() || Thread.currentThread() != reader) {
                // messages wake the I/O thread, which then finds the polls and stands by
                t[0].send(1, new TestOutbound(0, 1, MemorySegment.ofArray(new byte[] {1, 2, 3})));
                RecordingSink.Arrival a = null;
                while (null == a) {
                    t[1].poll();
                    a = sink1.arrivals.poll();
                    assertTrue(System.nanoTime() < deadline, "the I/O thread never stood by while a thread polled");
                }
                reader = readers.poll(10, TimeUnit.SECONDS);
            }
            while (t[1].ioThreadStandsBy()) {
                Thread.sleep(1);
                assertTrue(System.nanoTime() < deadline, "the I/O thread kept standing by without polls");
            }
            t[0].send(1, new TestOutbound(0, 2, MemorySegment.ofArray(new byte[] {4, 5})));
            final RecordingSink.Arrival a = sink1.arrivals.poll(10, TimeUnit.SECONDS);
            assertNotNull(a, "nobody read the second message");
            assertEquals(2, a.envelope().tag);
            assertEquals(t[1].ioThread(), readers.poll(10, TimeUnit.SECONDS), "read by the I/O thread");
        } finally {
            closeAll(t);
        }
    }

    /**
     * A thread that spins on the transport makes the I/O thread stand by with no message in flight (the polls wake
     * it; no arrival has to), and a thread that polls only around parks never does: each of its idle iterations
     * polls once to go on waiting and once before it parks, which cancel out, so a parked waiter is always woken by
     * the I/O thread's read.
     */
    @Test
    void shouldStandByForASpinningThreadAndNeverForAParkingOne() throws Exception {
        final TcpTransport[] t = connectPair(new RecordingSink(), new RecordingSink(), 1024);
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!t[1].ioThreadStandsBy()) {
                t[1].poll();
                assertTrue(System.nanoTime() < deadline, "the I/O thread never stood by while a thread spun");
            }
            t[1].pollBeforePark(); // about to park: the I/O thread reads again
            while (t[1].ioThreadStandsBy()) {
                Thread.onSpinWait();
                assertTrue(System.nanoTime() < deadline, "the I/O thread kept standing by for a parking thread");
            }
            final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            int standbys = 0;
            while (System.nanoTime() < end) {
                t[1].poll();
                t[1].pollBeforePark();
                standbys += t[1].ioThreadStandsBy() ? 1 : 0;
            }
            assertEquals(0, standbys, "the I/O thread stood by for a thread that parks on every idle iteration");
        } finally {
            closeAll(t);
        }
    }

    static TcpTransport[] connectPair(final RecordingSink sink0, final RecordingSink sink1, final int eagerLimit)
        throws Exception {
        final String secret = newSecret();
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, secret)) {
            final CompletableFuture<TcpTransport> t0 = async(() ->
                TcpTransport.connect(info(0, 2, server, secret), sink0, eagerLimit));
            final TcpTransport t1 = TcpTransport.connect(info(1, 2, server, secret), sink1, eagerLimit);
            return new TcpTransport[] {t0.get(30, TimeUnit.SECONDS), t1};
        }
    }

    /** Closes transports at once (each close waits for the others' goodbyes). */
    static void closeAll(final TcpTransport... ts) throws Exception {
        final CompletableFuture<?>[] closing = new CompletableFuture<?>[ts.length];
        for (int i = 0; i < ts.length; i++) {
            final TcpTransport t = ts[i];
            closing[i] = async(() -> {
                t.close();
                return null;
            });
        }
        CompletableFuture.allOf(closing).get(30, TimeUnit.SECONDS);
    }

    /** Runs on a new daemon thread (the common pool may have one thread on a small machine). */
    static <T> CompletableFuture<T> async(final Callable<T> task) {
        final CompletableFuture<T> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon(true).start(() -> {
            try {
                f.complete(task.call());
            } catch (final Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /** Reads until the peer closes (or resets) the connection; returns the bytes read. */
    private static int readUntilClosed(final InputStream in) throws IOException {
        int total = 0;
        try {
            for (int n = in.read(new byte[256]); n >= 0; n = in.read(new byte[256])) {
                total += n;
            }
        } catch (final SocketException reset) {
            assertTrue(String.valueOf(reset.getMessage()).contains("reset"), String.valueOf(reset));
        }
        return total;
    }

    static LaunchInfo info(final int rank, final int size, final RendezvousServer server, final String secret) {
        return new LaunchInfo(rank, size, "127.0.0.1:" + server.port(), secret, "test");
    }

    static String newSecret() {
        final byte[] b = new byte[16];
        new java.security.SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
