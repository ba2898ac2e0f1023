package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class Pairwise {
    private Pairwise() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule alltoall(final CollComm c, final CollArgs a) {
        return Linear.alltoall(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule alltoallv(final CollComm c, final CollArgs a) {
        return Linear.alltoallv(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule reduceScatterBlock(final CollComm c, final CollArgs a) {
        return Linear.reduceScatterBlock(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule reduceScatter(final CollComm c, final CollArgs a) {
        return Linear.reduceScatter(c, a);
    }
}
