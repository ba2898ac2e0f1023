package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class Ring {
    private Ring() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        return Linear.allgather(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule allgatherv(final CollComm c, final CollArgs a) {
        return Linear.allgatherv(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        return Linear.allreduce(c, a);
    }
}
