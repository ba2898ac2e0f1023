package dev.tutti.transport.tcp;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.runtime.JobSecret;
import dev.tutti.runtime.LaunchInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Endpoints that list several addresses: tried in order; none answering fails within seconds, naming each. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpWireUpAddressesTest {
    private static final String SECRET = HexFormat.of().formatHex(new byte[] {4, 4, 4, 4, 2, 2, 2, 2});

    @Test
    void shouldConnectThroughTheFirstAddressThatAnswers() throws Exception {
        final JobSecret key = JobSecret.of(SECRET);
        final ServerSocketChannel listen0 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        final ServerSocketChannel listen1 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        final String[] endpoints = {"127.0.0.1:" + deadPort() + ",127.0.0.1:" + listen0.socket().getLocalPort(),
            "127.0.0.1:" + listen1.socket().getLocalPort()};
        final CompletableFuture<SocketChannel[]> rank0 = CompletableFuture.supplyAsync(() ->
            TcpWireUp.wire(new LaunchInfo(0, 2, "127.0.0.1:1", SECRET, "t"), key, listen0, endpoints, 20_000));
        final SocketChannel[] at1 = TcpWireUp.wire(new LaunchInfo(1, 2, "127.0.0.1:1", SECRET, "t"), key, listen1,
            endpoints, 20_000);
        final SocketChannel[] at0 = rank0.get(20, TimeUnit.SECONDS);
        assertNotNull(at1[0]);
        assertNotNull(at0[1]);
        at1[0].close();
        at0[1].close();
    }

    @Test
    void shouldFailWithinSecondsNamingEveryAddressOfAnUnreachablePeer() throws Exception {
        final int a = deadPort();
        final int b = deadPort();
        final ServerSocketChannel listen1 = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        final String[] endpoints = {"127.0.0.1:" + a + ",127.0.0.1:" + b,
            "127.0.0.1:" + listen1.socket().getLocalPort()};
        final long start = System.nanoTime();
        final TuttiException e = assertThrows(TuttiException.class, () -> TcpWireUp.wire(
            new LaunchInfo(1, 2, "127.0.0.1:1", SECRET, "t"), JobSecret.of(SECRET), listen1, endpoints, 60_000));
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ErrorClass.TIMEOUT, e.errorClass());
        assertTrue(ms < TcpWireUp.CONNECT_WINDOW_MS + 3_000, "failed after " + ms + " ms");
        assertTrue(e.getMessage().contains("rank 0 cannot be reached") && e.getMessage().contains("127.0.0.1:" + a)
            && e.getMessage().contains("127.0.0.1:" + b) && e.getMessage().contains("refused"), e.getMessage());
    }

    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
