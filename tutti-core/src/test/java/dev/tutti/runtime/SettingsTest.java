package dev.tutti.runtime;

import dev.tutti.internal.Setting;
import dev.tutti.internal.Settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The registry: its declarations are consistent, and values are read when asked, as declared. */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
class SettingsTest {

    @Test
    void shouldDeclareEachNameOnceWithItsEnvironmentVariable() {
        final Set<String> names = new HashSet<>();
        final Set<String> envNames = new HashSet<>();
        for (final Setting s : Settings.all()) {
            assertTrue(names.add(s.name()), "two settings named " + s.name());
            assertTrue(envNames.add(s.envName()), "two settings with variable " + s.envName());
            assertFalse(s.meaning().isBlank(), s.name());
            if (s.isProperty()) {
                assertTrue(s.name().startsWith("tutti."), s.name());
                assertEquals(s.name().toUpperCase(java.util.Locale.ROOT).replace('.', '_'), s.envName(), s.name());
            } else {
                assertTrue(s.name().startsWith("TUTTI_") && s.name().equals(s.envName()), s.name());
            }
            if (Setting.Type.INT == s.type()) {
                assertEquals(Integer.toString(s.intDefault()), s.defaultValue(), s.name());
            }
        }
    }

    @Test
    void shouldKeepTheOlderConstantsEqualToTheRegistry() {
        assertEquals("tutti.eager.limit", Configuration.EAGER_LIMIT_PROP_NAME);
        assertEquals(64 * 1024, Configuration.EAGER_LIMIT_DEFAULT);
        assertEquals("/dev/shm", Configuration.SHM_DIR_DEFAULT);
        assertEquals("tutti.rendezvous.timeoutMs", RendezvousClient.TIMEOUT_PROP_NAME);
        assertEquals(60_000, RendezvousClient.TIMEOUT_DEFAULT_MS);
        assertEquals("TUTTI_RANK", LaunchInfo.RANK_ENV);
        assertEquals("TUTTI_JOB_SECRET", LaunchInfo.SECRET_ENV);
    }

    @Test
    void shouldReadAPropertySetAtRunTimeAndNameABadValue() {
        final String name = Settings.SHM_LIVENESS_MS.name();
        try {
            assertEquals(100, Settings.SHM_LIVENESS_MS.intValue());
            assertEquals(Setting.Source.DEFAULT, Settings.SHM_LIVENESS_MS.source());
            System.setProperty(name, " 250 ");
            assertEquals(250, Settings.SHM_LIVENESS_MS.intValue());
            assertEquals(250, Settings.require(name).intValue());
            assertEquals(Setting.Source.SYSTEM_PROPERTY, Settings.SHM_LIVENESS_MS.source());
            System.setProperty(name, "1s");
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                Settings.SHM_LIVENESS_MS::intValue);
            assertEquals("setting tutti.shm.livenessMs=1s is not an integer", e.getMessage());
            System.setProperty(name, " ");
            assertEquals(100, Settings.SHM_LIVENESS_MS.intValue());
        } finally {
            System.clearProperty(name);
        }
    }

    @Test
    void shouldReadAChoiceInAnyCaseAndNameTheChoices() {
        final String name = Settings.TRANSPORT.name();
        try {
            assertEquals("auto", Settings.TRANSPORT.choice());
            System.setProperty(name, " TCP ");
            assertEquals("tcp", Settings.TRANSPORT.choice());
            System.setProperty(name, "rdma");
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Settings.TRANSPORT::choice);
            assertEquals("setting tutti.transport=rdma, expected auto, shm or tcp", e.getMessage());
        } finally {
            System.clearProperty(name);
        }
    }

    @Test
    void shouldFindSettingsByPropertyVariableOrFamilyMember() {
        assertEquals(Settings.INPROC_EAGER_LIMIT, Settings.find("tutti.inproc.eagerLimit"));
        assertEquals(Settings.INPROC_EAGER_LIMIT, Settings.find("TUTTI_INPROC_EAGERLIMIT"));
        assertEquals(Settings.COLL_TAGGED_TIMEOUT_MS, Settings.find("tutti.coll.tagged.timeoutMs"));
        final Setting member = Settings.find("tutti.coll.allreduce");
        assertEquals(Settings.COLL_ALGORITHM.member("allreduce"), member);
        assertEquals("TUTTI_COLL_ALLREDUCE", member.envName());
        assertEquals(member, Settings.find("TUTTI_COLL_ALLREDUCE"));
        assertEquals(Setting.Kind.TUNABLE, member.kind());
        assertEquals("auto", member.text());
        assertEquals(Settings.COLL_ALGORITHM, Settings.find("tutti.coll.<operation>"));
        assertNull(Settings.find("tutti.shm.ringbytes"));
        assertNull(Settings.find("tutti.coll.All-Reduce"));
        assertTrue(Settings.isDeclared("tutti.coll.reduce_scatter_block"));
        assertFalse(Settings.isDeclared("tutti.coll.allreduse"), "a collective that does not exist");
        assertTrue(Settings.isDeclared("TUTTI_RANK"));
        assertFalse(Settings.isDeclared("TUTTI_CP"));
    }

    @Test
    void shouldRefuseToReadAnUndeclaredSetting() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Settings.require("tutti.shm.ringbytes").raw());
        assertEquals("setting tutti.shm.ringbytes is not declared in dev.tutti.internal.Settings, which lists every "
            + "setting", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Settings.require("tutti.nothing").intValue());
    }

    @Test
    void shouldReadALaunchVariableOnlyFromTheEnvironment() {
        try {
            System.setProperty("TUTTI_RANK", "3");
            assertEquals(System.getenv("TUTTI_RANK"), Settings.RANK.raw());
        } finally {
            System.clearProperty("TUTTI_RANK");
        }
    }
}
