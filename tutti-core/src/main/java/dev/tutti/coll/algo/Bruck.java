package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class Bruck {
    private Bruck() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        return Linear.allgather(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule alltoall(final CollComm c, final CollArgs a) {
        return Linear.alltoall(c, a);
    }
}
