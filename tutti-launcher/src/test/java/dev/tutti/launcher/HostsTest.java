package dev.tutti.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class HostsTest {
    @Test
    void shouldParseHostListWithOptionalSlotCounts() {
        assertEquals(List.of(new Host("a", 1, false), new Host("b", 4, true), new Host("c", 1, false)),
            Hosts.parseList(List.of("a,b:4", "c")));
    }

    @Test
    void shouldMergeRepeatedHostsAddingTheirSlots() {
        assertEquals(List.of(new Host("a", 3, false), new Host("b", 5, true)),
            Hosts.parseList(List.of("a,b:2,a:2,b:3")));
    }

    @Test
    void shouldNotTakeAnIpv6LiteralForASlotCount() {
        assertEquals(List.of(new Host("::1", 1, false)), Hosts.parseList(List.of("::1")));
    }

    @Test
    void shouldRefuseBadHostListEntries() {
        assertTrue(assertThrows(InvalidLaunchException.class, () -> Hosts.parseList(List.of("a:0")))
            .getMessage().contains("slots=0, expected slots >= 1"));
        assertTrue(assertThrows(InvalidLaunchException.class, () -> Hosts.parseList(List.of("a:x")))
            .getMessage().contains("slots='x' is not an integer"));
        assertTrue(assertThrows(InvalidLaunchException.class, () -> Hosts.parseList(List.of("a,,b")))
            .getMessage().contains("host name='' is invalid"));
    }

    @Test
    void shouldParseHostfileWithCommentsBlankLinesAndSlots() {
        final List<String> lines = List.of(
            "# cluster",
            "",
            "node1 slots=2   # big one",
            "  node2",
            "node3 slots=1",
            "node1 slots=2");
        assertEquals(List.of(new Host("node1", 4, true), new Host("node2", 1, false), new Host("node3", 1, true)),
            Hosts.parseHostfileLines("hosts.txt", lines));
    }

    @Test
    void shouldNameFileAndLineOfAMalformedHostfileLine() {
        final InvalidLaunchException e = assertThrows(InvalidLaunchException.class,
            () -> Hosts.parseHostfileLines("hosts.txt", List.of("node1", "node2 max_slots=4")));
        assertEquals("hostfile hosts.txt line 2: 'max_slots=4' is not understood, expected 'host [slots=K]'",
            e.getMessage());
        assertEquals("hostfile hosts.txt line 1: slots=-1, expected slots >= 1", assertThrows(
            InvalidLaunchException.class, () -> Hosts.parseHostfileLines("hosts.txt", List.of("n slots=-1")))
            .getMessage());
    }

    @Test
    void shouldRefuseAHostfileWithoutHosts() {
        assertEquals("hostfile h names no host, expected lines 'host [slots=K]'", assertThrows(
            InvalidLaunchException.class, () -> Hosts.parseHostfileLines("h", List.of("# nothing", " "))).getMessage());
    }

    @Test
    void shouldReadAHostfileAndReportAMissingOne(@TempDir final Path dir) throws IOException {
        final Path file = Files.writeString(dir.resolve("hosts"), "localhost slots=2\n");
        assertEquals(List.of(new Host("localhost", 2, true)), Hosts.parseHostfile(file));
        final Path missing = dir.resolve("nope");
        assertEquals("hostfile " + missing + " does not exist",
            assertThrows(InvalidLaunchException.class, () -> Hosts.parseHostfile(missing)).getMessage());
    }
}
