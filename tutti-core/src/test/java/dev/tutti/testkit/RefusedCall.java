package dev.tutti.testkit;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A call refused by a local check fails that call only: on 3 ranks, rank 2's reduce is refused (ARG) while ranks 0
 * and 1 bcast, and then every rank's allreduces match and run normally, whichever road the collectives take.
 */
public final class RefusedCall {
    private RefusedCall() {
    }

    /**
     * Runs the scenario on this rank.
     *
     * @param w          a communicator of 3 ranks
     * @param allreduces how many allreduces follow the refused call
     */
    public static void thenMatchingCalls(final Communicator w, final int allreduces) {
        final int[] b = new int[2];
        if (2 == w.rank()) {
            final TuttiException e = assertThrows(TuttiException.class,
                () -> w.reduce(Buf.of(new int[] {1, 1}), Buf.of(b), Op.SUM, 2));
            assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
        } else if (0 == w.rank()) {
            w.bcast(Buf.of(new int[] {5, 6}), 0);
        } else {
            w.bcast(Buf.of(b), 0);
            assertArrayEquals(new int[] {5, 6}, b);
        }
        for (int i = 0; i < allreduces; i++) {
            final int[] s = new int[1];
            w.allreduce(Buf.of(new int[] {w.rank()}), Buf.of(s), Op.SUM);
            assertEquals(3, s[0]);
        }
    }
}
