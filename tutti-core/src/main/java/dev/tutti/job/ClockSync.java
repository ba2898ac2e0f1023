package dev.tutti.job;

import dev.tutti.Buf;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.trace.Trace;

/**
 * Estimates each rank's wall clock against rank 0's when a job starts with Tutti's events on, so that the ranks'
 * recordings can be merged into one timeline: each rank plays {@link #ROUNDS} ping-pongs with rank 0 (rank 0 answers
 * each ping with its clock) and keeps the estimate of the round of least round trip, rank 0's reading minus the
 * middle of the round; every rank records it as a {@code dev.tutti.ClockOffset} event (rank 0: offset 0).
 *
 * <p>Implementation note. It runs in {@code Tutti.init}, after the world is wired and before the program gets its
 * handle, on the world's point-to-point context under a tag of its own; every message is received, matched by
 * source and tag, before either side returns: rank 0 answers the ranks one after the other, and a rank sends its next
 * ping only once it has the previous pong, so no message of it can meet a receive of the program. Cost: {@code
 * ROUNDS * (size - 1)} round trips on rank 0 at job start, only when Tutti records.
 */
final class ClockSync {
    /** Ping-pongs per rank. */
    static final int ROUNDS = 8;
    /** The tag of its messages, one no program sends at job start in practice and matched by source anyway. */
    private static final int TAG = Integer.MAX_VALUE - 45;

    private ClockSync() {
    }

    /**
     * Measures and records this rank's clock offset to rank 0.
     *
     * @param engine  the rank's engine, wired
     * @param context the world's point-to-point context
     * @param view    the world, for statuses
     */
    static void measure(final P2pEngine engine, final int context, final CommView view) {
        final int rank = engine.worldRank();
        final int size = engine.worldSize();
        final long[] one = new long[1];
        final Buf b = Buf.of(one);
        if (0 == rank) {
            for (int r = 1; r < size; r++) {
                for (int k = 0; k < ROUNDS; k++) {
                    engine.recv(context, r, TAG, b, view);
                    one[0] = Trace.wallNanos();
                    engine.send(context, r, TAG, b);
                }
            }
            Trace.clockOffset(0, size, 0, 0);
            return;
        }
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int k = 0; k < ROUNDS; k++) {
            final long t0 = Trace.wallNanos();
            one[0] = t0;
            engine.send(context, 0, TAG, b);
            engine.recv(context, 0, TAG, b, view);
            final long t1 = Trace.wallNanos();
            if (t1 - t0 < best) {
                best = t1 - t0;
                offset = one[0] - (t0 + (t1 - t0) / 2);
            }
        }
        Trace.clockOffset(rank, size, offset, best);
    }
}
