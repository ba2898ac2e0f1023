package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Synchronous mode ({@code sSend}, {@code isSend}, {@code sSendInit}) completes only once the destination's receive
 * has started, as Open MPI's pt2pt/Ssend test checks: rank 1 sends rank 0 a note just before it receives, so a
 * synchronous send that has returned finds the note already there (it travels before the receive's match), and a
 * send that returned early does not. No timing is asserted: rank 1's pause only lets a wrong send run ahead.
 */
@Timeout(60)
class ConformanceSsendTest {
    private static final int DATA = 1;
    private static final int NOTE = 2;
    private static final int GO = 3;

    @Test
    void shouldReturnFromSSendOnlyAfterTheReceiveBegan() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                w.sSend(new int[] {42}, 1, MPI.INT, 1, DATA);
                assertNotNull(w.iProbe(1, NOTE), "sSend returned before rank 1 began its receive");
                w.recv(new int[1], 1, MPI.INT, 1, NOTE);
            } else {
                Thread.sleep(300);
                w.send(new int[] {1}, 1, MPI.INT, 0, NOTE);
                final int[] got = new int[1];
                w.recv(got, 1, MPI.INT, 0, DATA);
                assertEquals(42, got[0]);
            }
            MPI.Finalize();
        });
    }

    /** isSend and a started sSendInit stay incomplete while rank 1 has not posted its receive (it waits for GO). */
    @Test
    void shouldKeepIsSendAndSSendInitIncompleteUntilTheReceive() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final IntBuffer data = MPI.newIntBuffer(2).put(0, 7).put(1, 8);
            if (0 == w.getRank()) {
                final Prequest p = w.sSendInit(data, 2, MPI.INT, 1, DATA);
                for (int round = 0; round < 3; round++) {
                    final Request r = 0 == round ? w.isSend(data, 2, MPI.INT, 1, DATA) : p;
                    if (0 != round) {
                        p.start();
                    }
                    for (int i = 0; i < 500; i++) {
                        assertFalse(r.test(), "round " + round + ": complete before rank 1 received");
                    }
                    w.send(new int[0], 0, MPI.INT, 1, GO);
                    r.waitFor();
                }
                p.free();
            } else {
                for (int round = 0; round < 3; round++) {
                    w.recv(new int[0], 0, MPI.INT, 0, GO);
                    final int[] got = new int[2];
                    w.recv(got, 2, MPI.INT, 0, DATA);
                    assertEquals(8, got[1]);
                }
            }
            MPI.Finalize();
        });
    }
}
