package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RendezvousServerTest {
    private static final String SECRET = HexFormat.of().formatHex(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

    @Test
    void shouldGiveEveryRankEveryEndpointAfterTheFence() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 4, SECRET)) {
            final CompletableFuture<String[]>[] tables = exchangeAll(server, 0, 1, 2, 3);
            final String[] expected = {"h0:1000", "h1:1001", "h2:1002", "h3:1003"};
            for (final CompletableFuture<String[]> t : tables) {
                assertArrayEquals(expected, t.get(10, TimeUnit.SECONDS));
            }
            assertEquals(0, server.missingRanks().length);
            assertNull(server.failure());
        }
    }

    @Test
    void shouldRefuseADuplicateRankAndStillCompleteTheJob() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, SECRET)) {
            final CompletableFuture<String[]> first = exchange(server, info(1, 2, server, SECRET), "first:1");
            assertTrue(null != server.awaitEndpoint(1, 10_000));
            final TuttiException dup = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(info(1, 2, server, SECRET), "second:1", 10_000));
            assertEquals(ErrorClass.ARG, dup.errorClass());
            assertTrue(dup.getMessage().contains("rank=1 is already registered"), dup.getMessage());
            final String[] table = RendezvousClient.exchange(info(0, 2, server, SECRET), "zero:1", 10_000);
            assertArrayEquals(new String[] {"zero:1", "first:1"}, table);
            assertArrayEquals(table, first.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldRefuseAWrongSizeOrRank() {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, SECRET)) {
            final TuttiException size = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(info(0, 3, server, SECRET), "a:1", 10_000));
            assertEquals(ErrorClass.ARG, size.errorClass());
            assertTrue(size.getMessage().contains("size=3 but this job has size=2"), size.getMessage());
            final TuttiException rank = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(new LaunchInfo(5, 2, "127.0.0.1:" + server.port(), SECRET, "j"),
                    "a:1", 10_000));
            assertTrue(rank.getMessage().contains("rank=5 is out of range"), rank.getMessage());
            assertEquals(2, server.missingRanks().length);
        }
    }

    @Test
    void shouldIgnoreAWrongSecretGarbageAndSilenceAndStillCompleteTheJob() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, SECRET)) {
            try (Socket silent = new Socket("127.0.0.1", server.port());
                 Socket garbage = new Socket("127.0.0.1", server.port())) {
                garbage.getOutputStream().write(new byte[300]);
                final TuttiException wrong = assertThrows(TuttiException.class,
                    () -> RendezvousClient.exchange(info(0, 2, server, "deadbeef"), "evil:1", 10_000));
                assertEquals(ErrorClass.ARG, wrong.errorClass());
                assertTrue(wrong.getMessage().contains("secret"), wrong.getMessage());
                assertArrayEquals(new int[] {0, 1}, server.missingRanks(), "nothing of the impostor was used");
                final CompletableFuture<String[]>[] tables = exchangeAll(server, 0, 1);
                for (final CompletableFuture<String[]> t : tables) {
                    assertArrayEquals(new String[] {"h0:1000", "h1:1001"}, t.get(10, TimeUnit.SECONDS));
                }
            }
        }
    }

    @Test
    void shouldTimeOutNamingTheMissingRanks() {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 3, SECRET)) {
            final TuttiException e = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(info(0, 3, server, SECRET), "a:1", 1_500));
            assertEquals(ErrorClass.TIMEOUT, e.errorClass());
            assertTrue(e.getMessage().contains("127.0.0.1:" + server.port()), e.getMessage());
            assertTrue(e.getMessage().contains("missing ranks=[1, 2]"), e.getMessage());
        }
    }

    @Test
    void shouldTimeOutNamingTheAddressWhenNoServerListens() throws IOException {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        final TuttiException e = assertThrows(TuttiException.class,
            () -> RendezvousClient.exchange(new LaunchInfo(0, 2, "127.0.0.1:" + port, SECRET, "j"), "a:1", 500));
        assertEquals(ErrorClass.TIMEOUT, e.errorClass());
        assertTrue(e.getMessage().contains("cannot connect") && e.getMessage().contains("127.0.0.1:" + port),
            e.getMessage());
    }

    @Test
    void shouldFailEveryWaiterWhenARegisteredRankDropsBeforeTheFence() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 3, SECRET)) {
            final CompletableFuture<String[]> waiting = exchange(server, info(0, 3, server, SECRET), "zero:1");
            try (RendezvousClient.Session s = RendezvousClient.Session.open(info(1, 3, server, SECRET), "one:1",
                10_000)) {
                assertTrue(null != server.awaitEndpoint(1, 10_000));
            }
            final ExecutionException e = assertThrows(ExecutionException.class,
                () -> waiting.get(10, TimeUnit.SECONDS));
            final TuttiException te = assertInstanceOf(TuttiException.class, e.getCause());
            assertEquals(ErrorClass.PROC_FAILED, te.errorClass());
            assertTrue(te.getMessage().contains("rank=1 (endpoint=one:1) dropped"), te.getMessage());
            final TuttiException late = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(info(2, 3, server, SECRET), "two:1", 10_000));
            assertEquals(ErrorClass.PROC_FAILED, late.errorClass());
        }
    }

    @Test
    void shouldPassAnAbortToTheWaitingRanks() throws Exception {
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, SECRET)) {
            final CompletableFuture<String[]> waiting = exchange(server, info(0, 2, server, SECRET), "zero:1");
            assertTrue(null != server.awaitEndpoint(0, 10_000));
            server.abort("rank 1 exited with status 3 before the fence");
            final ExecutionException e = assertThrows(ExecutionException.class,
                () -> waiting.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("rank 1 exited with status 3"), e.getCause().getMessage());
        }
    }

    @Test
    void shouldRejectATableFromAServerThatCannotProveTheSecret() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final CompletableFuture<Void> serve = async(() -> {
                try (Socket s = fake.accept()) {
                    final DataInputStream in = new DataInputStream(s.getInputStream());
                    final DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    out.writeInt(RendezvousServer.SERVER_MAGIC);
                    out.writeInt(RendezvousServer.VERSION);
                    out.write(new byte[JobSecret.NONCE_BYTES]);
                    in.readFully(new byte[16 + JobSecret.NONCE_BYTES]);
                    in.readFully(new byte[in.readUnsignedShort() + JobSecret.MAC_BYTES]);
                    out.writeByte(RendezvousServer.TABLE);
                    out.writeInt(1);
                    RendezvousServer.writeString(out, "attacker:666");
                    out.write(new byte[JobSecret.MAC_BYTES]);
                    out.flush();
                    in.read();
                }
                return null;
            });
            final TuttiException e = assertThrows(TuttiException.class, () -> RendezvousClient.exchange(
                new LaunchInfo(0, 1, "127.0.0.1:" + fake.getLocalPort(), SECRET, "j"), "a:1", 10_000));
            assertEquals(ErrorClass.ARG, e.errorClass());
            assertTrue(e.getMessage().contains("could not prove"), e.getMessage());
            serve.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldStopListeningWhenClosed() throws Exception {
        final RendezvousServer server = RendezvousServer.start("127.0.0.1", 2, SECRET);
        final int port = server.port();
        final CompletableFuture<String[]> waiting = exchange(server, info(0, 2, server, SECRET), "zero:1");
        assertTrue(null != server.awaitEndpoint(0, 10_000));
        server.close();
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
        final ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
        assertInstanceOf(TuttiException.class, e.getCause());
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            assertTrue(!"tutti-rendezvous-accept".equals(t.getName()) || !t.isAlive(), "acceptor still runs");
        }
    }

    @Test
    void shouldParseEndpointsAndHideTheSecret() {
        assertEquals(new HostPort("::1", 80), HostPort.parse("x", "[::1]:80"));
        assertEquals("[::1]:80", new HostPort("::1", 80).toString());
        assertEquals(new HostPort("node7", 4000), HostPort.parse("x", "tcp://node7:4000"));
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse("x", "node7"));
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse("x", "node7:0"));
        assertEquals("JobSecret[redacted]", JobSecret.of(SECRET).toString());
        final byte[] nonce = JobSecret.newNonce();
        final byte[] a = JobSecret.of(SECRET).mac("l", nonce, 1, 2, new byte[0]);
        assertTrue(JobSecret.matches(a, JobSecret.of(SECRET).mac("l", nonce, 1, 2, new byte[0])));
        assertTrue(!JobSecret.matches(a, JobSecret.of(SECRET).mac("m", nonce, 1, 2, new byte[0])));
        assertTrue(!JobSecret.matches(a, JobSecret.of(SECRET).mac("l", nonce, 2, 1, new byte[0])));
        assertTrue(!JobSecret.matches(a, JobSecret.of("01").mac("l", nonce, 1, 2, new byte[0])));
    }

    @SuppressWarnings("unchecked")
    private static CompletableFuture<String[]>[] exchangeAll(final RendezvousServer server, final int... ranks) {
        final CompletableFuture<String[]>[] out = new CompletableFuture[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = exchange(server, info(ranks[i], server.size(), server, SECRET), "h" + ranks[i] + ":"
                + (1000 + ranks[i]));
        }
        return out;
    }

    private static CompletableFuture<String[]> exchange(final RendezvousServer server, final LaunchInfo info,
        final String endpoint) {
        return async(() -> RendezvousClient.exchange(info, endpoint, 10_000));
    }

    private static LaunchInfo info(final int rank, final int size, final RendezvousServer server,
        final String secret) {
        return new LaunchInfo(rank, size, "127.0.0.1:" + server.port(), secret, "j");
    }

    private static <T> CompletableFuture<T> async(final Callable<T> task) {
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
}
