package dev.tutti.coll.algo;

import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;

/** Placeholder: delegates to {@link Linear} until the real algorithms land. */
public final class RecursiveHalving {
    private RecursiveHalving() {
    }

    /** @param c comm @param a args @return schedule */
    public static Schedule reduceScatterBlock(final CollComm c, final CollArgs a) {
        return Linear.reduceScatterBlock(c, a);
    }
}
