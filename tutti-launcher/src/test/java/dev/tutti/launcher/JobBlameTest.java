package dev.tutti.launcher;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JobBlameTest {
    @Test
    void shouldBlameTheRankAPeerFailureNames() {
        assertEquals(1, Job.blamedRank("Exception in thread \"main\" dev.tutti.TuttiException: rank 1 has left the "
            + "job (closed normally), so nothing more can be received from or sent to it"));
        assertEquals(3, Job.blamedRank("Exception in thread \"main\" dev.tutti.TuttiException: allreduce "
            + "(comm=WORLD, rank=0) cannot complete: rank 3 failed: connection reset"));
        assertEquals(-1, Job.blamedRank("Exception in thread \"main\" java.lang.IllegalStateException: rank 1 "
            + "failed to converge"));
        assertEquals(-1, Job.blamedRank(null));
    }
}
