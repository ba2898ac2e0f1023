package dev.tutti.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PlacementTest {
    private static final LocalHost HERE = LocalHost.of("head.example.org", Set.of("head", "10.0.0.1"));

    @Test
    void shouldPutEveryRankOnThisMachineWithoutHosts() {
        final Placement p = Placement.of(List.of(), 3, false, HERE);
        assertEquals(List.of("localhost", "localhost", "localhost"), p.hosts());
        assertFalse(p.anyRemote());
    }

    @Test
    void shouldFillEachHostsSlotsInOrder() {
        final Placement p = Placement.of(Hosts.parseList(List.of("a:2,b:3")), 5, false, HERE);
        assertEquals(List.of("a", "a", "b", "b", "b"), p.hosts());
        assertTrue(p.anyRemote());
    }

    @Test
    void shouldWrapAroundWhenAHostHasImplicitSlots() {
        final Placement p = Placement.of(Hosts.parseList(List.of("a,b:2")), 7, false, HERE);
        assertEquals(List.of("a", "b", "b", "a", "b", "b", "a"), p.hosts());
    }

    @Test
    void shouldRefuseMoreRanksThanExplicitSlotsUnlessOversubscribing() {
        final List<Host> hosts = Hosts.parseList(List.of("a:2,b:1"));
        assertEquals("ranks=4 but the hosts give only 3 slots (a slots=2, b slots=1); add hosts or slots, or allow "
            + "oversubscription (--oversubscribe)",
            assertThrows(InvalidLaunchException.class, () -> Placement.of(hosts, 4, false, HERE)).getMessage());
        assertEquals(List.of("a", "a", "b", "a"), Placement.of(hosts, 4, true, HERE).hosts());
        assertEquals(List.of("a", "a", "b"), Placement.of(hosts, 3, false, HERE).hosts());
    }

    @Test
    void shouldRefuseFewerThanOneRank() {
        assertEquals("ranks=0, expected at least 1 (-n)",
            assertThrows(InvalidLaunchException.class, () -> Placement.of(List.of(), 0, false, HERE)).getMessage());
    }

    @Test
    void shouldTellLocalHostsFromRemoteOnes() {
        final Placement p = Placement.of(Hosts.parseList(List.of("localhost,127.0.0.2,HEAD,10.0.0.1,"
            + "head.example.org,::1,node7,10.0.0.2")), 8, false, HERE);
        assertEquals(List.of(true, true, true, true, true, true, false, false),
            List.of(p.isLocal(0), p.isLocal(1), p.isLocal(2), p.isLocal(3), p.isLocal(4), p.isLocal(5),
                p.isLocal(6), p.isLocal(7)));
        assertFalse(Placement.of(Hosts.parseList(List.of("localhost:2")), 2, false, HERE).anyRemote());
    }

    @Test
    void shouldDetectThisMachinesOwnNames() {
        final LocalHost detected = LocalHost.detect();
        assertTrue(detected.test("localhost"));
        assertTrue(detected.test("127.0.0.1"));
        assertTrue(detected.test(detected.name()));
        assertFalse(detected.test("no-such-host.invalid"));
    }
}
