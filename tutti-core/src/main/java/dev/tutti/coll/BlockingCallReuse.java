package dev.tutti.coll;

/**
 * A communicator's reusable descriptor for blocking calls ({@link CollCall}), kept for the thread that used it
 * last: a rank that makes its blocking collectives from one thread reuses one descriptor, so that a repeated small
 * blocking collective allocates nothing for it.
 *
 * <p>Implementation note. One plain field holds an immutable (owner thread, descriptor) pair. A thread reuses the
 * descriptor only if the pair it reads names it; another thread makes its own pair and stores it. The race on the
 * field is benign: the pair's fields are final (safely published), so a thread sees either its own pair or another
 * thread's, never a mix, and two threads never share a descriptor; at worst a thread allocates once more. No
 * atomic instruction and no {@code ThreadLocal} lookup (which allocates on every call of a shm barrier loop on JDK
 * 25, as {@code ThreadMXBean} shows) on the call path.
 */
public final class BlockingCallReuse {
    /** The owner thread and its descriptor. */
    private record Held(Thread owner, CollCall call) {
    }

    private Held held;

    /**
     * Returns the calling thread's descriptor for a blocking call: the one it used last on this communicator if no
     * other thread took the slot since, else a new one. Valid until the thread's next call (a blocking call ends
     * before that).
     *
     * @return the descriptor
     */
    public CollCall take() {
        final Thread me = Thread.currentThread();
        final Held h = held;
        if (null != h && me == h.owner()) {
            return h.call();
        }
        final CollCall c = new CollCall();
        held = new Held(me, c);
        return c;
    }
}
