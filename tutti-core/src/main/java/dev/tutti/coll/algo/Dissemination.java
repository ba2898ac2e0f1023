package dev.tutti.coll.algo;

import dev.tutti.Datatype;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;

/**
 * The dissemination barrier of Hensgen, Finkel and Manber (1988).
 *
 * <p>Implementation notes. Round k = 0, 1, ... while {@code 2^k < p}: send an empty message to
 * {@code rank + 2^k} and wait for the one from {@code rank - 2^k} (mod p). After round k a rank has heard,
 * directly or through the chain, from the {@code 2^(k+1) - 1} ranks before it, so after {@code ceil(lg p)} rounds
 * from everyone: no rank leaves before every rank has entered. Works for any p, with no fold. The distances
 * {@code 2^k < p} are distinct, so each ordered pair of ranks exchanges at most one message per call. Cost
 * {@code ceil(lg p)·α}, every rank symmetric (no root bottleneck). OMPI calls it {@code barrier_intra_bruck};
 * MPICH {@code MPIR_Barrier_intra_k_dissemination} with k = 2.
 */
public final class Dissemination {
    private Dissemination() {
    }

    /** @param c comm @param a args @return barrier schedule: ceil(lg p) rounds of empty messages */
    public static Schedule barrier(final CollComm c, final CollArgs a) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        final int p = c.size();
        final int me = c.rank();
        for (int k = 1; k < p; k <<= 1) {
            b.recv((me - k + p) % p, Linear.EMPTY, Datatype.BYTE);
            b.send((me + k) % p, Linear.EMPTY, Datatype.BYTE);
            b.endRound();
        }
        return b.build();
    }
}
