package mpi;

import dev.tutti.Status;

import java.util.concurrent.TimeUnit;

/**
 * One Tutti request over several (the sends and receives of a neighbour collective): complete when all are.
 * Collectives have no status of their own, so completion reports {@link Status#EMPTY}. Thread-safety: as the parts.
 */
final class AllRequest implements dev.tutti.Request {
    private final dev.tutti.Request[] parts;

    AllRequest(final dev.tutti.Request[] parts) {
        this.parts = parts;
    }

    @Override
    public boolean test() {
        for (final dev.tutti.Request r : parts) {
            if (!r.test()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Status waitFor() {
        dev.tutti.Request.waitAll(parts);
        return Status.EMPTY;
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        final long end = System.nanoTime() + unit.toNanos(timeout);
        for (final dev.tutti.Request r : parts) {
            if (null == r.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return null;
            }
        }
        return Status.EMPTY;
    }

    @Override
    public void cancel() {
        // A collective cannot be cancelled (MPI_Cancel does not apply to it).
    }
}
