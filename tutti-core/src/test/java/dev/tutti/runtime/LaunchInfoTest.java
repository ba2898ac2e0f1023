package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A launch environment is read as a launcher writes it, and an inconsistent one is refused with Tutti's exception. */
class LaunchInfoTest {
    private static final Map<String, String> GOOD = Map.of(LaunchInfo.RANK_ENV, "2", LaunchInfo.SIZE_ENV, "4",
        LaunchInfo.RENDEZVOUS_ENV, "127.0.0.1:5000", LaunchInfo.SECRET_ENV, "ab12", LaunchInfo.JOB_ID_ENV, "j7");

    @Test
    void shouldReadWhatALauncherSets() {
        final LaunchInfo info = LaunchInfo.fromEnvironment(GOOD);
        assertEquals(2, info.rank());
        assertEquals(4, info.size());
        assertEquals("j7", info.jobId());
        assertNull(LaunchInfo.fromEnvironment(Map.of()), "no rank variable: a job of one, not launched");
    }

    @Test
    void shouldRefuseAnInconsistentEnvironmentNamingTheVariables() {
        refused("TUTTI_RANK is set but TUTTI_SIZE=null", Map.of(LaunchInfo.RANK_ENV, "0"));
        refused("TUTTI_RANK=x, TUTTI_SIZE=4, expected integers", with(LaunchInfo.RANK_ENV, "x"));
        refused("TUTTI_RANK=4 TUTTI_SIZE=4, expected 0 <= rank < size", with(LaunchInfo.RANK_ENV, "4"));
    }

    private static Map<String, String> with(final String key, final String value) {
        final java.util.HashMap<String, String> env = new java.util.HashMap<>(GOOD);
        env.put(key, value);
        return env;
    }

    private static void refused(final String needle, final Map<String, String> env) {
        final TuttiException e = assertThrows(TuttiException.class, () -> LaunchInfo.fromEnvironment(env));
        assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith("init (launch environment): "), e.getMessage());
        assertTrue(e.getMessage().contains(needle), e.getMessage());
    }
}
