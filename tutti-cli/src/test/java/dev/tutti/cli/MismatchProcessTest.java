package dev.tutti.cli;

import dev.tutti.cli.testranks.MismatchRank;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collective mismatches in which no rank receives a message of the other call, over real processes: the job exits
 * non-zero with the launcher's line naming both calls, where every rank's calls returned; the correct twin passes.
 */
@Tag("process")
@org.junit.jupiter.api.Timeout(120)
class MismatchProcessTest {
    private static final String BOTH = "the ranks called different collectives or roots";

    private static ProcessJobTest.Run tutti(final int n, final String transport, final String mode) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", String.valueOf(n)));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(List.of("--transport", transport, "--timeout", "60", "-x", "TUTTI_COLL_BCAST=linear"));
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), MismatchRank.class.getName(), mode));
        return ProcessJobTest.tutti(a.toArray(new String[0]));
    }

    @ParameterizedTest(name = "{0} ranks over {1}: {2}")
    @CsvSource({"4, shm, roots", "4, tcp, roots", "2, shm, bcast-reduce", "2, tcp, bcast-reduce",
        "4, shm, bcast-reduce", "4, tcp, bcast-reduce"})
    void shouldFailAJobWhoseCollectivesDoNotMatch(final int n, final String transport, final String mode) {
        final ProcessJobTest.Run r = tutti(n, transport, mode);
        assertNotEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains(BOTH), r.err());
        // The rank that finds the other's message names its call: a bcast's message found by a rank in reduce (or in
        // a bcast of another root), or, when the reduce's rank had already left as its call let it, the reduce's
        // message found by the bcast's root.
        assertTrue(r.err().contains("as part of bcast root=") || r.err().contains("as part of reduce root="),
            r.err());
        assertTrue(r.err().contains("tutti run: rank "), r.err());
        // One rank's report whole, one line from each other rank that found the mismatch, the summary line: the
        // program's frame appears in one report (twice at most, with a suppressed failure), whatever order the
        // ranks' lines interleave in.
        final long frames = r.err().lines().filter(l -> l.contains("at " + MismatchRank.class.getName() + ".main("))
            .count();
        assertTrue(frames <= 2, frames + " reports with the program's frame: " + r.err());
    }

    @ParameterizedTest(name = "{0} ranks over {1}")
    @CsvSource({"4, shm", "4, tcp"})
    void shouldPassTheCorrectTwin(final int n, final String transport) {
        final ProcessJobTest.Run r = tutti(n, transport, "twin");
        assertEquals(0, r.status(), r.out() + r.err());
        for (int i = 0; i < n; i++) {
            assertTrue(r.out().contains("rank " + i + " returned"), r.out());
        }
        assertEquals("", r.err().strip(), r.err());
    }
}
