package dev.tutti.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineIdTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldReadTheKernelsBootIdOnce() {
        final String id = MachineId.current();
        assertTrue(id.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), id);
        assertSame(id, MachineId.current());
    }

    @Test
    void shouldCountTheRanksThatShareARanksMachine() {
        final String[] machines = {"a", "b", "a", "a", "", "b"};
        assertEquals(3, MachineId.ranksSharing(machines, 0));
        assertEquals(3, MachineId.ranksSharing(machines, 3));
        assertEquals(2, MachineId.ranksSharing(machines, 5));
        assertEquals(1, MachineId.ranksSharing(machines, 4), "an unknown machine shares with nobody");
        assertEquals(1, MachineId.ranksSharing(new String[] {"", ""}, 1));
    }
}
