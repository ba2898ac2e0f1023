package dev.tutti.coll;

import dev.tutti.TuttiException;
import dev.tutti.p2p.AbstractRequest;

/**
 * What a nonblocking or tagged collective run waits for before any of its data moves: set by a hook
 * ({@link CollCall#gate}) when the call passes the door, asked by the run each time it advances until it passes.
 * The correctness checker's comparison of a call with its peers' calls is one: the call's initiation stays local
 * (MPI: starting a nonblocking collective never waits for other ranks), yet its messages are not sent before the
 * peers' calls are known to match.
 */
public interface CollGate {

    /**
     * Asks whether the run may start moving data. Called with the run's advance lock held, from whichever thread
     * advances it; must not block.
     *
     * @param run the waiting run: the gate wakes its waiter when it may have become passable
     * @return true once the run may proceed (then it is not asked again)
     * @throws TuttiException to fail the call (nothing of it has been sent)
     */
    boolean pass(AbstractRequest run);
}
