package dev.tutti.coll;

import dev.tutti.CollectiveHandle;
import dev.tutti.TuttiException;

/**
 * What the correctness checker and the tracer attach to the one door into the collective engine
 * ({@link dev.tutti.coll.door.CollDoor}): every collective call of a rank, whatever its variant and communicator kind, passes
 * {@link #before} once its arguments are validated and before any of its data moves, and {@link #after} once it
 * has completed (successfully or not). Installed per rank with {@link CollHooks#install}; none by default, which
 * costs the door one predictable branch.
 *
 * <p>Both methods run on the thread that makes the call or completes it (for a nonblocking call, whichever thread
 * advances it last) and must be thread-safe. {@link #after} must not block on other ranks; {@link #before} may for a
 * blocking call (MPI lets any blocking collective synchronize: the checker waits there for its peers' calls), and
 * for the other variants may instead hold the call's data back with a gate ({@link CollCall#gate}), so that their
 * initiation stays local. {@link #before} may throw a {@link TuttiException} to refuse the call (nothing has been
 * sent then). The descriptor passed to {@link #after} of
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

    /**
     * A nonblocking call passed {@link #before} and started: returns the request the program gets for it (the
     * checker's watches the moment the program sees it complete). Called on the calling thread.
     *
     * @param call    the call
     * @param request the engine's request
     * @return the program's request
     */
    default dev.tutti.Request started(final CollCall call, final dev.tutti.Request request) {
        return request;
    }

    /**
     * A tagged call passed {@link #before} and began: returns the handle the program gets for it, which it must end
     * (the checker's lists it at close if it never was).
     *
     * @param call   the call
     * @param handle the engine's handle
     * @return the program's handle
     */
    default CollectiveHandle begun(final CollCall call, final CollectiveHandle handle) {
        return handle;
    }

    /**
     * The program got something it must release before it leaves: a communicator (to free), a persistent request
     * (to free), a tagged handle (to end). Called on the creating thread, so the checker can note its call site and
     * list it at close if {@code released} is still false then.
     *
     * @param leak     what the leak is called, e.g. {@code communicator never freed}
     * @param resource the thing itself (its identity keys it)
     * @param what     describes it when it is listed
     * @param released whether it has been released
     */
    default void opened(String leak, Object resource, java.util.function.Supplier<String> what,
        java.util.function.BooleanSupplier released) {
        // A hook that does not list leaks ignores it.
    }

    /**
     * A collective call handed out something the program must release: a persistent request (to free) or a tagged
     * handle (to end). As {@link #opened}, with the call to describe it (read now: a call's descriptor may be
     * reused once the call has started).
     *
     * @param leak     what the leak is called
     * @param call     the call
     * @param resource the request or handle
     * @param released whether it has been released
     */
    default void openedBy(final String leak, final CollCall call, final Object resource,
        final java.util.function.BooleanSupplier released) {
        final String what = call.toString();
        opened(leak, resource, () -> what, released);
    }
}
