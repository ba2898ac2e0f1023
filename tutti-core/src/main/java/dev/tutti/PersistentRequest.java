package dev.tutti;

/**
 * A persistent collective (MPI-4 {@code MPI_Allreduce_init}, ...): built once by an {@code ...Init} method of
 * {@link PersistentCollectives}, started many times. The schedule, its scratch buffers and its part requests are
 * made at init; a {@link #start()} on the small-message path allocates nothing. Between starts the buffers passed
 * at init may be refilled: each start moves their contents as they are then.
 *
 * <p>States (MPI-4 §6.13): a new request is <em>inactive</em>; {@link #start()} makes it <em>active</em>; it is
 * inactive again once a {@link #waitFor()} or a {@link #test()} that returns true has seen it complete. Starting
 * an active request, or freeing one, is refused with {@link ErrorClass#REQUEST}. Starts are matched like
 * ordinary collectives: in call order on the communicator, with the other collectives, at every rank.
 *
 * <pre>{@code
 * PersistentRequest sum = world.allreduceInit(Buf.of(local), Buf.of(global), Op.SUM);
 * for (int step = 0; step < steps; step++) {
 *     fill(local, step);
 *     sum.start();
 *     sum.waitFor();
 * }
 * sum.free();
 * }</pre>
 */
public interface PersistentRequest extends Request, AutoCloseable {
    /**
     * Starts the collective with the buffers' current contents.
     *
     * @throws TuttiException of class {@link ErrorClass#REQUEST} if the request is active or freed; as the
     *                        collective's call otherwise (a hook refusing it, a failed peer)
     */
    void start();

    /** @return whether the request has been started and its completion not yet seen by a wait or test */
    boolean isActive();

    /**
     * Sets the request's progress priority, a Tutti extension (0 by default). When several nonblocking collectives
     * are pending on a rank, the rank advances those of higher priority first: of the runs whose next round is
     * ready, a higher one posts its messages first, whichever wait is progressing them (a wait on a lower one too).
     * Priority orders work on this rank only; it never delays a lower request that can progress.
     *
     * @param level the priority, {@code >= 0}; higher goes first
     * @throws TuttiException of class {@link ErrorClass#ARG} for a negative level; of class
     *                        {@link ErrorClass#REQUEST} if the request is active
     */
    void setPriority(int level);

    /** @return the progress priority set by {@link #setPriority(int)}, 0 by default */
    int priority();

    /**
     * Frees the request (MPI_Request_free): its schedule and buffers are let go; later calls are refused.
     *
     * @throws TuttiException of class {@link ErrorClass#REQUEST} if the request is active
     */
    void free();

    /** Frees the request, as {@link #free()}; for try-with-resources. */
    @Override
    default void close() {
        free();
    }

    /**
     * Starts every request, in order (MPI_Startall).
     *
     * @param requests the requests
     * @throws TuttiException as {@link #start()}, for the first that cannot start (those before it are started)
     */
    static void startAll(final PersistentRequest... requests) {
        for (final PersistentRequest r : requests) {
            r.start();
        }
    }
}
