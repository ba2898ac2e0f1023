package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class Rabenseifner {
    private Rabenseifner() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        return Linear.reduce(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        return Linear.allreduce(c, a);
    }
}
