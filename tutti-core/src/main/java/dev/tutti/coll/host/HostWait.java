package dev.tutti.coll.host;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.slot.SlotLanes;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.IdleStrategy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * How a rank of the on-host layer waits for a word in a peer's memory (a cell's seq word, a chunk area's flag):
 * spinning on it, running the engine's progress (other collectives in flight, the transport's liveness checks) every
 * {@value #POLLS} reads and between idle steps of the rank's idle strategy, failing once the peer is known gone (its
 * failure names it) or has sent a message for the awaited call (it took another road and will never write the word).
 *
 * <p>Implementation notes. Immutable; any thread of the rank may wait through it. A wait that finds the word set
 * costs one acquire load; no allocation.
 */
final class HostWait {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Flag reads between two passes of the engine's progress while the idle strategy only spins (a power of 2). */
    private static final int POLLS = 16;
    /** Idle steps of a wait between two looks for a peer's message of the awaited call (a power of 2). */
    private static final int PROBE_EVERY = 64;

    private final CollComm comm;
    private final P2pEngine engine;
    private final IdleStrategy idle;

    HostWait(final CollComm comm) {
        this.comm = comm;
        this.engine = comm.engine();
        this.idle = engine.idleStrategy();
    }

    /**
     * Waits until the word at {@code at} of rank {@code r}'s memory {@code b}, which only grows, holds {@code k} or
     * more (acquire), for the call of operation {@code op} drawn as {@code drawn} (whose messages would carry that
     * tag; -1 for a call whose road its ranks agree after its start, whose peer may send before it publishes):
     * spinning, then the engine's progress and the idle strategy; fails once the peer is gone or has run this
     * call on another road, or the waiting thread is interrupted.
     */
    void await(final int r, final MemorySegment b, final long at, final long k, final String op, final int drawn) {
        if ((long) LONG.getAcquire(b, at) >= k) {
            return;
        }
        int iteration = 0;
        int polls = 0;
        while ((long) LONG.getAcquire(b, at) < k) {
            if (0 != (++polls & (POLLS - 1)) && idle.spinsOnly(iteration)) {
                Thread.onSpinWait();
                continue;
            }
            if (engine.progress() > 0) {
                iteration = 0;
                continue;
            }
            final TuttiException gone = engine.failureAffecting(comm.world(r));
            if (null != gone && (long) LONG.getAcquire(b, at) < k) {
                throw Failures.wrap(gone, op, comm.describe(), "cannot complete"); // as on messages
            }
            if (drawn >= 0 && 0 == (iteration & (PROBE_EVERY - 1))) {
                probeOtherRoad(r, b, at, k, op, drawn);
            }
            idle.idle(iteration++);
            if ((0 == (iteration & 255) || idle.mayPark(iteration)) && Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw Failures.interrupted(op, comm.describe(), "waiting for rank=" + r
                    + " in the on-host region", null);
            }
        }
    }

    /**
     * Fails the call if rank {@code r} sent a message on this call's tag, or a slot lane's agreement on it, and has
     * not published the awaited word: the peer runs this call through the message layer or as a persistent start,
     * so it will never publish it here. (A peer that publishes its call's words and then sends messages, as one
     * whose road is agreed at the call does when it offers no cells, is found by the word, read again here.)
     */
    private void probeOtherRoad(final int r, final MemorySegment b, final long at, final long k, final String op,
        final int drawn) {
        final int world = comm.world(r);
        final boolean sent;
        try {
            sent = engine.hasArrived(comm.context(), world, drawn)
                || engine.hasArrived(comm.context(), world, SlotLanes.agreementTag(drawn));
        } catch (final TuttiException gone) {
            // The peer left or failed (the probe's progress may have just read its goodbye, sent after it published
            // this call): the wait's own check decides, after reading the flag again.
            return;
        }
        if (sent && (long) LONG.getAcquire(b, at) < k) {
            throw Errors.mismatch(ErrorClass.ARG, op, comm.describe(), r, "a message of another collective call "
                + "(through the message layer or slots) for this one", "called " + op + " through the on-host "
                + "region", "the ranks called different collectives, or run with different settings "
                + "tutti.coll.hostLimit, tutti.coll.directLimit or tutti.coll." + op);
        }
    }
}
