package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Advertised address lists: their syntax, their order, and a rendezvous reached through a list. */
// Runs alone (@Isolated): it asserts how soon a failure is noticed, which another job on these 2 cores would delay.
@Isolated
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AddressesTest {
    private static final String SECRET = HexFormat.of().formatHex(new byte[] {9, 8, 7, 6, 5, 4, 3, 2});

    @Test
    void shouldWriteAndReadCandidateLists() throws IOException {
        final String text = Addresses.candidates(List.of(InetAddress.getByName("10.1.2.3"),
            InetAddress.getByName("fd00::5")), 4711);
        assertEquals("10.1.2.3:4711,[fd00:0:0:0:0:0:0:5]:4711", text);
        assertEquals(List.of(new HostPort("10.1.2.3", 4711), new HostPort("fd00:0:0:0:0:0:0:5", 4711)),
            Addresses.parse("x", text));
        assertEquals(List.of(new HostPort("node1", 5)), Addresses.parse("x", "tcp://node1:5"));
        for (final String bad : new String[] {"", ",", "a:1,b", "a:1,:2", "a:0"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Addresses.parse("TUTTI_RENDEZVOUS", bad), bad);
            assertTrue(e.getMessage().startsWith("TUTTI_RENDEZVOUS="), e.getMessage());
        }
    }

    @Test
    void shouldAdvertiseNoLoopbackToAnotherHostAndTheRouteFirst() {
        final List<InetAddress> all = Addresses.advertisedToward(null);
        assertFalse(all.isEmpty());
        final List<InetAddress> interfaces = Addresses.interfaceAddresses();
        assertTrue(interfaces.stream().noneMatch(a -> a.isLoopbackAddress() || a.isLinkLocalAddress()), interfaces.toString());
        if (!interfaces.isEmpty()) {
            assertTrue(all.stream().noneMatch(InetAddress::isLoopbackAddress), all.toString());
            final InetAddress first = interfaces.getFirst();
            // The way to one of this host's own addresses leaves from that address, so it is listed first.
            assertEquals(first, Addresses.advertisedToward(first.getHostAddress()).getFirst());
        }
        assertNull(Addresses.routeSource("127.0.0.1"));
        assertNull(Addresses.routeSource("no-such-host.invalid"));
    }

    @Test
    void shouldReachTheRendezvousThroughTheFirstCandidateThatAnswers() throws Exception {
        final int dead = deadPort();
        try (RendezvousServer server = RendezvousServer.start("127.0.0.1", 1, SECRET)) {
            final LaunchInfo info = new LaunchInfo(0, 1, "127.0.0.1:" + dead + ",127.0.0.1:" + server.port(),
                SECRET, "j");
            assertArrayEquals(new String[] {"me:1"}, RendezvousClient.exchange(info, "me:1", 10_000));
        }
    }

    @Test
    void shouldFailWithinTheConnectWindowNamingEveryAddressTried() throws IOException {
        final int a = deadPort();
        final int b = deadPort();
        final LaunchInfo info = new LaunchInfo(1, 2, "127.0.0.1:" + a + ",127.0.0.1:" + b, SECRET, "j");
        final long start = System.nanoTime();
        final TuttiException e = assertThrows(TuttiException.class,
            () -> RendezvousClient.exchange(info, "me:1", 60_000, 1_000));
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ErrorClass.TIMEOUT, e.errorClass());
        assertTrue(ms < 5_000, "failed after " + ms + " ms");
        assertTrue(e.getMessage().contains("127.0.0.1:" + a + " (") && e.getMessage().contains("127.0.0.1:" + b
            + " (") && e.getMessage().contains("refused"), e.getMessage());
    }

    @Test
    void shouldKeepTryingForTheWholeTimeoutWhenRankZeroServesTheRendezvous() throws IOException {
        final int a = deadPort();
        final int b = deadPort();
        final LaunchInfo info = new LaunchInfo(1, 2, "127.0.0.1:" + a + ",127.0.0.1:" + b, SECRET, "j", false);
        assertEquals(3_000, RendezvousClient.connectWindowMs(info, 3_000, 500));
        assertEquals(500, RendezvousClient.connectWindowMs(new LaunchInfo(1, 2, "h:1", SECRET, "j"), 3_000, 500));
        final long start = System.nanoTime();
        final TuttiException e = assertThrows(TuttiException.class,
            () -> RendezvousClient.exchange(info, "me:1", 2_000, 500));
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ErrorClass.TIMEOUT, e.errorClass());
        assertTrue(ms >= 1_900 && ms < 6_000, "failed after " + ms + " ms");
        assertTrue(e.getMessage().contains("127.0.0.1:" + a + " (") && e.getMessage().contains("127.0.0.1:" + b
            + " (") && e.getMessage().contains("has rank 0 started"), e.getMessage());
    }

    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
