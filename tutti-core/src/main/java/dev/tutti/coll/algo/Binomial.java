package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class Binomial {
    private Binomial() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule bcast(final CollComm c, final CollArgs a) {
        return Linear.bcast(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule gather(final CollComm c, final CollArgs a) {
        return Linear.gather(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule scatter(final CollComm c, final CollArgs a) {
        return Linear.scatter(c, a);
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        return Linear.reduce(c, a);
    }
}
