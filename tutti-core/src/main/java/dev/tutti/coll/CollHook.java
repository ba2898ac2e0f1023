package dev.tutti.coll;

import dev.tutti.TuttiException;

/**
 * What the correctness checker and the tracer attach to the one door into the collective engine
 * ({@link CollDoor}): every collective call of a rank, whatever its variant and communicator kind, passes
 * {@link #before} once its arguments are validated and before any of its data moves, and {@link #after} once it
 * has completed (successfully or not). Installed per rank with {@link CollHooks#install}; none by default, which
 * costs the door one predictable branch.
 *
 * <p>Both methods run on the thread that makes the call or completes it (for a nonblocking call, whichever thread
 * advances it last), must be thread-safe, and must not block on other ranks. {@link #before} may throw a
 * {@link TuttiException} to refuse the call (nothing has been sent then). The descriptor passed to {@link #after} of
 * a blocking call is reused by the thread's next call: copy what you keep.
 */
public interface CollHook {

    /**
     * A validated collective call is about to start: nothing of it has been sent yet.
     *
     * @param call the call
     */
    void before(CollCall call);

    /**
     * A collective call has completed.
     *
     * @param call    the call
     * @param failure why it failed, or null if it succeeded
     */
    void after(CollCall call, TuttiException failure);
}
