package dev.tutti.cli;

import dev.tutti.cli.ProcessJobTest.Run;
import dev.tutti.cli.testranks.AllreduceRank;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tutti run -v} raises every rank's log level ({@code tutti.log.level}) to debug: each rank then prints the
 * debug records it otherwise keeps to itself, one line naming the rank, through {@link System.Logger}'s default
 * backend.
 */
@Tag("process")
@Timeout(90)
class VerboseLogTest {
    private static Run job(final String... options) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "2"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(List.of(options));
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), AllreduceRank.class.getName()));
        return ProcessJobTest.tutti(a.toArray(new String[0]));
    }

    @Test
    void shouldPrintEachRanksDebugRecordsOnlyWithV() {
        final Run quiet = job();
        assertEquals(0, quiet.status(), quiet.err());
        assertFalse(quiet.err().contains("joined as rank"), quiet.err());

        final Run verbose = job("-v");
        assertEquals(0, verbose.status(), verbose.err());
        for (final int r : new int[] {0, 1}) {
            final String joined = "FINE: tutti rank " + r + ": joined as rank " + r + " of 2 (pid ";
            assertTrue(verbose.err().lines().anyMatch(l -> l.startsWith(joined) && l.endsWith(", checker off")),
                "no line starting with '" + joined + "' in\n" + verbose.err());
            assertTrue(verbose.err().contains("FINE: tutti rank " + r + ": left the job: every peer said goodbye"),
                verbose.err());
        }
        assertEquals(quiet.out().lines().sorted().toList(), verbose.out().lines().sorted().toList(),
            "the program's own output is the same");
    }

    @Test
    void shouldLetTheUsersOwnLevelWin() {
        final Run r = job("-v", "-x", "TUTTI_LOG_LEVEL=warning");
        assertEquals(0, r.status(), r.err());
        assertFalse(r.err().contains("joined as rank"), r.err());
    }

    @Test
    void shouldMapEachCountOfVToALevel() {
        assertEquals(null, levelOf());
        assertEquals("debug", levelOf("-v"));
        assertEquals("trace", levelOf("-vv"));
        assertEquals("trace", levelOf("-v", "--verbose", "-v"));
    }

    private static String levelOf(final String... v) {
        final RunCommand run = new RunCommand();
        final List<String> a = new ArrayList<>(List.of("run", "-n", "2"));
        a.addAll(List.of(v));
        a.add("Main");
        TuttiCommand.newCommandLine(run).parseArgs(a.toArray(new String[0]));
        return run.verboseLogLevel();
    }
}
