package dev.tutti.coll;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.RecvRequest;

/**
 * The checks a {@link ScheduleRun} makes on a round's part requests: a receive that refused a message of another
 * call, and, once the round is complete, each part's outcome and each receive's length (a different length means
 * the ranks passed different counts or types). Stateless; called by the thread that holds the run's advance lock.
 */
final class RoundChecks {
    private RoundChecks() {
    }

    /**
     * Fails the run if a receive of the round refused a message of another call (see {@link CollHeader}), while
     * other parts still wait. Reads a receive's conflict only once it is done (its completion publishes it).
     */
    static void failIfRefused(final Schedule schedule, final CollComm comm, final AbstractRequest[] parts,
        final int n) {
        for (int i = 0; i < n; i++) {
            if (parts[i] instanceof RecvRequest rr && rr.isDone() && rr.conflictSource() >= 0) {
                throw refused(schedule, comm, rr);
            }
        }
    }

    private static TuttiException refused(final Schedule schedule, final CollComm comm, final RecvRequest rr) {
        return schedule.header().mismatch(schedule.op(), comm, comm.groupRank(rr.conflictSource()),
            rr.conflictCode());
    }

    /**
     * Checks the parts of a complete round: rethrows a part's failure naming the peer, and fails a receive whose
     * length is not the step's (direct parts' sizes were agreed in advance).
     */
    static void checkParts(final Schedule schedule, final CollComm comm, final Schedule.Round r,
        final AbstractRequest[] parts, final int n) {
        for (int i = 0; i < n; i++) {
            final Schedule.CommStep s = r.comm()[i];
            try {
                parts[i].waitFor();
            } catch (final TuttiException e) {
                if (parts[i] instanceof RecvRequest rr && rr.conflictSource() >= 0) {
                    throw refused(schedule, comm, rr);
                }
                if (!s.send() && parts[i] instanceof RecvRequest rr && ErrorClass.TRUNCATE == e.errorClass()) {
                    throw mismatch(schedule, comm, s, rr.matchedLength());
                }
                throw Failures.wrap(e, schedule.op(), comm.describe(), (s.send() ? "send to" : "receive from")
                    + " rank=" + s.peer() + " failed");
            }
            if (!s.send() && parts[i] instanceof RecvRequest rr) { // a direct part's sizes were agreed in advance
                // The matched length, not the status: a reused receive completes with Status.EMPTY.
                final long got = rr.matchedLength();
                if (got != s.segment().byteSize()) {
                    throw mismatch(schedule, comm, s, got);
                }
            }
        }
    }

    private static TuttiException mismatch(final Schedule schedule, final CollComm comm, final Schedule.CommStep s,
        final long got) {
        return Errors.countMismatch(schedule.op(), comm.describe(), s.peer(), got, s.segment().byteSize(),
            s.type());
    }
}
