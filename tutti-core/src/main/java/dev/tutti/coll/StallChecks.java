package dev.tutti.coll;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;

/**
 * What the failure checks of a waiting {@link ScheduleRun} remember, and how they word their verdicts: when a peer's
 * departure was first seen (the run fails only once it has lasted {@link #DEPARTURE_GRACE_NS}), and when a run with
 * messages through shared-memory slots was first seen stalled (it looks for another call's message on its tag only
 * after {@link #DIRECT_STALL_NS}, on one idle pass in {@link #DIRECT_CHECK_EVERY}), and when an ordinary run was
 * first seen stalled (it looks for a message of another call at its place in the call order after
 * {@link #CONFLICT_STALL_NS}, as often).
 *
 * <p>Implementation notes. Why the grace: a wait that the departure really blocks lasts forever, so 100 ms cost it
 * nothing that matters; the grace keeps a window that CollTaggedTest hit about once in ten runs (a tagged
 * alltoallw's receive from a rank that had completed its own run and returned, still pending at that instant, never
 * explained) from failing a healthy collective. State: the run's, touched by the holder of its {@code busy} flag
 * (the idle-pass counter racily: a sampling counter), cleared at each start ({@link #reset()}). Cost: a clock
 * reading per check, and checks run only on idle passes of a wait.
 */
final class StallChecks {
    /** Idle passes between two looks of a stalled direct run for a conflicting message (a power of two). */
    static final int DIRECT_CHECK_EVERY = 4096;
    /** How long a direct run waits before it looks for a conflicting message: 1 s. */
    static final long DIRECT_STALL_NS = 1_000_000_000L;
    /** How long a departure must last before a run that waits for the departed peer fails: 100 ms. */
    static final long DEPARTURE_GRACE_NS = 100_000_000L;

    /** How long an ordinary run waits before it looks for a message that shows a mismatch: 200 ms. */
    static final long CONFLICT_STALL_NS = 200_000_000L;

    private long departureSeenNs;
    private long directStallNs;
    private int directChecks;
    private long conflictStallNs;
    private int conflictChecks;

    /** Forgets the last start's sightings (its owner, at a start). */
    void reset() {
        departureSeenNs = 0;
        directStallNs = 0;
        conflictStallNs = 0;
    }

    /**
     * @return true on one idle pass in {@link #DIRECT_CHECK_EVERY} once the run has been seen stalled for
     *         {@link #CONFLICT_STALL_NS}: time to look for a message of another call ({@link CollLeftovers#conflict})
     */
    boolean conflictCheckDue() {
        if (0 != (++conflictChecks & (DIRECT_CHECK_EVERY - 1))) {
            return false;
        }
        final long now = System.nanoTime();
        if (0 == conflictStallNs) {
            conflictStallNs = now;
            return false;
        }
        return now - conflictStallNs >= CONFLICT_STALL_NS;
    }

    /** @return true on one idle pass in {@link #DIRECT_CHECK_EVERY} */
    boolean directCheckDue() {
        return 0 == (++directChecks & (DIRECT_CHECK_EVERY - 1));
    }

    /** @return whether the departure seen now was first seen at least {@link #DEPARTURE_GRACE_NS} ago */
    boolean departureSettled() {
        final long now = System.nanoTime();
        if (0 == departureSeenNs) {
            departureSeenNs = now;
            return false;
        }
        return now - departureSeenNs > DEPARTURE_GRACE_NS;
    }

    /** @return whether the run, seen stalled now, was first seen stalled at least {@link #DIRECT_STALL_NS} ago */
    boolean directStalledLong() {
        final long now = System.nanoTime();
        if (0 == directStallNs) {
            directStallNs = now;
            return false;
        }
        return now - directStallNs >= DIRECT_STALL_NS;
    }

    /** @return the failure of a run that waits for rank {@code peer} (group rank), which is gone */
    static TuttiException waitsFor(final TuttiException gone, final String op, final CollComm comm, final int peer,
        final int round, final int rounds) {
        return Failures.wrap(gone, op, comm.describe(), "cannot complete, it waits for rank " + peer + " (round "
            + (round + 1) + " of " + rounds + ")");
    }

    /** @return the failure of a run whose slots' agreement waits for rank {@code peer}, which is gone */
    static TuttiException agreeingWith(final TuttiException gone, final String op, final CollComm comm,
        final int peer) {
        return Failures.wrap(gone, op, comm.describe(), "cannot complete, it waits for rank " + peer + " (agreeing on "
            + "shared-memory slots, before round 1)");
    }

    /** @return the error of a run whose peer sent this call's data as messages while this rank agrees on slots */
    static TuttiException settingsDiffer(final String op, final CollComm comm, final int peer) {
        return Errors.invalid(ErrorClass.ARG, op, comm.describe(), "rank=" + peer + " sent this call's data through "
            + "the message layer while this rank waits to agree shared-memory slots with it: the ranks run with "
            + "different settings " + dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name());
    }

    /** @return the error of a run whose peer, reached through slots, sent a message of another call on its tag */
    static TuttiException otherCall(final String op, final CollComm comm, final int peer) {
        return Errors.invalid(ErrorClass.ARG, op, comm.describe(), "rank=" + peer + " sent a message of another "
            + "collective call at this place in the call order, where this rank started a persistent " + op
            + " whose messages with it go through shared-memory slots: the ranks called different collectives, or "
            + "with different counts or roots");
    }
}
