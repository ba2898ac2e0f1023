package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Matched probe: the probe's size sizes the receive, which gets exactly the probed message. */
@Timeout(60)
class MessageTest {

    @Test
    void shouldReceiveTheProbedMessage() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            if (0 == rank) {
                final Message m = new Message();
                assertTrue(m.isNull());
                for (int k = 0; k < 2; k++) { // one message from each of ranks 1 and 2, sizes 1 + source
                    final Status s = m.mProbe(MPI.ANY_SOURCE, 5, w);
                    assertFalse(m.isNull());
                    final int n = s.getCount(MPI.INT);
                    assertEquals(1 + s.getSource(), n);
                    final int[] got = new int[n];
                    final Status r = m.mRecv(got, n, MPI.INT);
                    assertTrue(m.isNull());
                    assertEquals(s.getSource(), r.getSource());
                    final int[] want = new int[n];
                    java.util.Arrays.fill(want, 10 * s.getSource());
                    assertArrayEquals(want, got);
                }
                w.barrier();
                final IntBuffer b = MPI.newIntBuffer(4);
                Status s = m.imProbe(1, MPI.ANY_TAG, w);
                while (null == s) {
                    s = m.imProbe(1, MPI.ANY_TAG, w);
                }
                assertEquals(9, s.getTag());
                m.imRecv(b, 4, MPI.INT).waitFor();
                assertEquals(42, b.get(3));
                final Status none = m.mProbe(MPI.PROC_NULL, 0, w);
                assertTrue(m.isNoProc());
                assertEquals(MPI.PROC_NULL, none.getSource());
                assertEquals(MPI.PROC_NULL, m.mRecv(new int[1], 1, MPI.INT).getSource());
                assertTrue(m.isNull());
                assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class,
                    () -> m.mRecv(new int[1], 1, MPI.INT)).getErrorClass());
            } else {
                final int[] mine = new int[1 + rank];
                java.util.Arrays.fill(mine, 10 * rank);
                w.send(mine, mine.length, MPI.INT, 0, 5);
                w.barrier();
                if (1 == rank) {
                    w.send(new int[] {0, 0, 0, 42}, 4, MPI.INT, 0, 9);
                }
            }
            MPI.Finalize();
        });
    }
}
