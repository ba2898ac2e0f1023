package dev.tutti.coll.host;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock of a region's waiting calls and runs ({@link HostRegion}): taken by the rank's thread that makes a call or
 * tests a run, tried by passes of the rank's progress, held for reads and copies (a run's chunks among them), never
 * while waiting.
 *
 * <p>Implementation notes. Not reentrant: no holder takes it again. {@code lock} is one compare-and-set when free,
 * {@code unlock} a release store (a {@code ReentrantLock}'s unlock is a volatile store, a second fence per start);
 * a thread that finds it held spins briefly, then yields, since the holder never blocks while holding it.
 */
final class HostLock {
    private static final VarHandle HELD;
    /** Spins before a thread that finds the lock held starts to yield. */
    private static final int SPINS = 64;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(HostLock.class, "held", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through HELD
    private volatile int held;

    void lock() {
        if (!HELD.compareAndSet(this, 0, 1)) {
            contended();
        }
    }

    private void contended() {
        for (int i = 0; !tryLock(); i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** @return true if the lock was free and is now this thread's */
    boolean tryLock() {
        return 0 == (int) HELD.getAcquire(this) && HELD.compareAndSet(this, 0, 1);
    }

    void unlock() {
        HELD.setRelease(this, 0);
    }
}
