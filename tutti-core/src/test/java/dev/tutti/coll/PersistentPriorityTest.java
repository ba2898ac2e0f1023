package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A persistent request's progress priority: 0 by default, set while inactive, refused while active or negative;
 * prioritized and plain collectives pending together all complete with the right data (the ordering itself is
 * observed by dev.tutti.channel.ChannelPriorityTest).
 */
@Timeout(60)
class PersistentPriorityTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    @Test
    void shouldSetThePriorityOfAnInactiveRequestOnly() {
        Tutti.runLocal(2, OPTS, w -> {
            final long[] in = {w.rank() + 1L};
            final long[] out = new long[1];
            try (PersistentRequest sum = w.allreduceInit(Buf.of(in), Buf.of(out), Op.SUM)) {
                assertEquals(0, sum.priority());
                final TuttiException negative = assertThrows(TuttiException.class, () -> sum.setPriority(-1));
                assertEquals(ErrorClass.ARG, negative.errorClass());
                assertTrue(negative.getMessage().contains("level=-1"), negative.getMessage());
                sum.setPriority(3);
                assertEquals(3, sum.priority());
                w.barrier();
                sum.start();
                if (sum.isActive()) {
                    final TuttiException active = assertThrows(TuttiException.class, () -> sum.setPriority(1));
                    assertEquals(ErrorClass.REQUEST, active.errorClass());
                }
                sum.waitFor();
                assertEquals(3, out[0]);
            }
        });
    }

    @Test
    void shouldCompleteMixedPriorityCollectivesWithTheirData() {
        Tutti.runLocal(4, OPTS, w -> {
            final int p = w.size();
            final int[] s = new int[p];
            final int[][] r = new int[3][p];
            final PersistentRequest[] reqs = new PersistentRequest[3];
            for (int i = 0; i < 3; i++) {
                reqs[i] = w.alltoallInit(Buf.of(s), Buf.of(r[i]));
                reqs[i].setPriority(2 * i);
            }
            for (int k = 0; k < 200; k++) {
                for (int d = 0; d < p; d++) {
                    s[d] = k * 100 + w.rank() * 10 + d;
                }
                PersistentRequest.startAll(reqs);
                final int[] plain = new int[p];
                w.alltoall(Buf.of(s), Buf.of(plain));
                Request.waitAll(reqs);
                for (int i = 0; i < 3; i++) {
                    for (int src = 0; src < p; src++) {
                        assertEquals(k * 100 + src * 10 + w.rank(), r[i][src], "request " + i + " from " + src);
                        assertEquals(plain[src], r[i][src]);
                    }
                }
            }
            for (final PersistentRequest q : reqs) {
                q.free();
            }
        });
    }
}
