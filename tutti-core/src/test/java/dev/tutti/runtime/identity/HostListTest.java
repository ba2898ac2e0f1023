package dev.tutti.runtime.identity;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slurm's compressed host lists expand as Slurm writes them, and malformed ones are refused naming the value. */
class HostListTest {
    @Test
    void shouldExpandRangesSinglesAndPadding() {
        assertEquals(List.of("node01", "node02", "node03", "node04", "node07"), expand("node[01-04,07]"));
        assertEquals(List.of("a1", "a2", "b3"), expand("a[1-2],b3"));
        assertEquals(List.of("n08", "n09", "n10", "n11"), expand("n[08-11]"));
        assertEquals(List.of("n8", "n9", "n10"), expand("n[8-10]"));
        assertEquals(List.of("c001", "c099", "c100"), expand("c[001,099-100]"));
        assertEquals(List.of("single"), expand("single"));
        assertEquals(List.of("host-1.example.org", "h2"), expand("host-1.example.org,h2"));
    }

    @Test
    void shouldExpandSeveralGroupsAsAProductInOrder() {
        assertEquals(List.of("r1-n1", "r1-n2", "r2-n1", "r2-n2"), expand("r[1-2]-n[1-2]"));
        assertEquals(List.of("gpu3a", "gpu4a", "x"), expand("gpu[3-4]a,x"));
    }

    @Test
    void shouldRefuseMalformedListsNamingTheValue() {
        for (final String bad : new String[] {"", "n[1-2", "n1-2]", "n[]", "n[2-1]", "n[a-b]", "a,,b", "n[[1]]",
            "n[1-]", "n[0-99999999]"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> expand(bad), bad);
            assertTrue(e.getMessage().startsWith("SLURM_STEP_NODELIST=" + bad), e.getMessage());
            assertTrue(e.getMessage().contains("expected a host list"), e.getMessage());
        }
    }

    private static List<String> expand(final String list) {
        return HostList.expand("SLURM_STEP_NODELIST", list);
    }
}
