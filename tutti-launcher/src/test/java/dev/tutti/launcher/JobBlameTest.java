package dev.tutti.launcher;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JobBlameTest {
    @Test
    void shouldBlameTheRankAPeerFailureNames() {
        assertEquals(1, FailureBlame.blamedRank("dev.tutti.TuttiException: rank 1 has left the job (closed "
            + "normally), so nothing more can be received from or sent to it"));
        assertEquals(3, FailureBlame.blamedRank("dev.tutti.TuttiException: allreduce (comm=WORLD, rank=0) cannot "
            + "complete: rank 3 failed: connection reset"));
        assertEquals(1, FailureBlame.blamedRank("dev.tutti.TuttiException: rank 1 closed (left the job), so nothing "
            + "more can be received from or sent to it"));
        assertEquals(2, FailureBlame.blamedRank("dev.tutti.TuttiException: barrier (comm=WORLD, rank=0) cannot "
            + "complete: it waits for rank 2 (round 1 of 2), but rank 2 closed (left the job), so nothing more"));
        assertEquals(-1, FailureBlame.blamedRank("java.lang.IllegalStateException: rank 1 failed to converge"));
        assertEquals(-1, FailureBlame.blamedRank((String) null));
    }

    @Test
    void shouldBlameTheRankAPeerFailureAnywhereInTheChainNames() {
        assertEquals(2, FailureBlame.blamedRank(List.of("java.lang.IllegalStateException: solver step failed",
            "dev.tutti.TuttiException: recv (comm=WORLD, rank=0) from rank=2 tag=0 failed: rank 2 failed: reset")));
        assertEquals(-1, FailureBlame.blamedRank(List.of("java.lang.IllegalStateException: rank 1 failed to "
            + "converge", "java.lang.ArithmeticException: / by zero")));
        assertEquals(-1, FailureBlame.blamedRank(List.of()));
    }
}
