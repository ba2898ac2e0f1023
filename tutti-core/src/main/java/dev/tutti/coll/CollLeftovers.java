package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.Inbound;
import dev.tutti.type.TypeCode;

/**
 * Collective messages that no call of this rank consumed: the proof of a mismatch that no receive saw. In a correct
 * program every message of ordinary call <i>k</i> on a communicator is received by the peer's call <i>k</i>, and
 * every message of a tagged collective by the peer's use of the same (kind, tag). A mismatch in which each side only
 * sends (two ranks that each think themselves the root of a bcast; a bcast against a reduce to the same root)
 * completes on every rank and leaves such a message behind. It is looked for where the rank is sure to hold every
 * message its peers sent on a communicator:
 * <ul>
 * <li>when a freed communicator's block is retired ({@link #retired}): every member's FIN has arrived, after
 *     everything it sent on the block; the mismatch is kept and thrown at the rank's close;</li>
 * <li>when the rank closes ({@link #check}): a process rank after its transports' goodbyes, an embedded job once
 *     every rank has returned.</li>
 * </ul>
 * Earlier, where it costs nothing on the path of a call that goes on: a call that has stalled, or that fails because
 * a peer left, looks for a message of its own call number (or an earlier one) whose kind or root disagrees with what
 * this rank called ({@link #conflict}, {@link #explain}).
 *
 * <p>Implementation notes. The collective path pays one plain store per call: the communicator remembers the kind,
 * roots and count of its latest {@code 64} calls ({@link CollComm#nextTag}), so that the report names this rank's
 * call of the same number too. Everything else runs only at retirement, at close and on stalled or failed calls,
 * over the unexpected queue (a copy taken under the matcher's lock). Communicators are found by collective context
 * in the rank's registry ({@link CollHooks}), filled when they are made ({@link CollComm#register}) and emptied at
 * retirement.
 */
public final class CollLeftovers {
    private static final CollKind[] KINDS = CollKind.values();

    private CollLeftovers() {
    }

    /**
     * Looks at a message that the retirement of a freed block is about to drop: a collective one is a mismatch,
     * kept (the first one) and thrown at the rank's close. Called before the message is discarded.
     *
     * @param engine the rank's engine
     * @param m      the message
     */
    public static void dropping(final P2pEngine engine, final Inbound m) {
        final CollHooks state = CollHooks.of(engine);
        if (null == state.retiredMismatch().get() && null != owner(state, m)) {
            final TuttiException e = describe(state, m, 0);
            if (null != e) {
                state.retiredMismatch().compareAndSet(null, e);
            }
        }
    }

    /**
     * A freed block is retired: its communicators leave the registry, and give back their on-host regions.
     *
     * @param engine the rank's engine
     * @param from   the block's first context
     * @param to     one past its last context
     */
    public static void retired(final P2pEngine engine, final int from, final int to) {
        final CollHooks state = CollHooks.of(engine);
        for (int c = from; c < to; c++) {
            final CollComm comm = state.comms().remove(c);
            if (null != comm) {
                comm.retired();
            }
        }
    }

    /**
     * Returns the mismatch shown by a collective message that this rank never received, if any: one dropped when a
     * freed communicator was retired, else the oldest such message still queued of a call this rank made. Call it
     * when the rank is done (its peers' messages have arrived).
     *
     * @param engine the rank's engine
     * @return the failure naming both calls, or null if there is none
     */
    public static TuttiException check(final P2pEngine engine) {
        final CollHooks state = CollHooks.of(engine);
        final TuttiException retired = state.retiredMismatch().get();
        if (null != retired) {
            return retired;
        }
        if (state.comms().isEmpty()) {
            return null;
        }
        Inbound first = null;
        int found = 0;
        for (final Inbound m : engine.unreceived()) {
            final CollComm comm = owner(state, m);
            // A call this rank never made is left out: a rank that stops early because it threw (its close runs as
            // the exception unwinds) leaves its peers' later calls unreceived, and its exception is the report.
            if (null != comm && (comm.taggedContext() == m.context || Long.MIN_VALUE != comm.recentCall(m.tag))) {
                first = null == first ? m : first;
                found++;
            }
        }
        return null == first ? null : describe(state, first, found - 1);
    }

    /**
     * Returns a mismatch shown by a collective message still unreceived on any communicator of this rank whose kind
     * or root disagrees with this rank's call of the same number ({@link #conflict}): for a job that failed because
     * ranks left or failed, where a message that merely was not received yet proves nothing, but one that disagrees
     * names the mismatch that made a rank leave early.
     *
     * @param engine the rank's engine
     * @return the failure naming both calls, or null if there is none
     */
    public static TuttiException disagreement(final P2pEngine engine) {
        for (final CollComm comm : java.util.List.copyOf(CollHooks.of(engine).comms().values())) {
            final TuttiException e = conflict(comm, false, Integer.MAX_VALUE, 0);
            if (null != e) {
                return e;
            }
        }
        return null;
    }

    /**
     * Explains a call that failed because a peer left or failed, if this rank holds a message that shows a mismatch
     * ({@link #conflict}): such a peer did its part of another collective and left; the mismatch is the cause, its
     * departure only the symptom. Runs only on that failure path.
     *
     * @param comm    the communicator
     * @param tagged  whether the call is a tagged one (keyed by kind and tag), else an ordinary one
     * @param tag     the failed call's message tag
     * @param bits    the failed call's header bits
     * @param failure the failure (returned as it is unless the class is {@link ErrorClass#PROC_FAILED})
     * @return the mismatch (with {@code failure} suppressed), or {@code failure}
     */
    static TuttiException explain(final CollComm comm, final boolean tagged, final int tag, final int bits,
        final TuttiException failure) {
        if (ErrorClass.PROC_FAILED != failure.errorClass()) {
            return failure;
        }
        final TuttiException e = conflict(comm, tagged, tag, bits);
        if (null == e) {
            return failure;
        }
        e.addSuppressed(failure);
        return e;
    }

    /**
     * Looks for a message that shows a mismatch to a call that cannot go on, still unreceived: for an ordinary call,
     * one of this call or an earlier one on the communicator whose kind or root disagrees with this rank's call of
     * that number (in a correct program every rank's call <i>k</i> has the same kind and root; calls of the
     * library's own, under a reserved tag, are not compared); for a tagged call, one of the same use of the same
     * (kind, tag) whose roots disagree. For waits that have stalled, and failures.
     *
     * @param comm   the communicator
     * @param tagged whether the call is a tagged one
     * @param tag    the call's message tag
     * @param bits   the call's header bits (a tagged call's)
     * @return the mismatch, or null
     */
    static TuttiException conflict(final CollComm comm, final boolean tagged, final int tag, final int bits) {
        if (null == comm.engine()) {
            return null;
        }
        final int context = tagged ? comm.taggedContext() : comm.context();
        for (final Inbound m : comm.engine().unreceived()) {
            if (m.context != context || (tagged ? m.tag != tag : m.tag > tag)) {
                continue;
            }
            final long mine = tagged ? (long) bits << Integer.SIZE : comm.recentCall(m.tag);
            final int own = (int) (mine >>> Integer.SIZE);
            if (Long.MIN_VALUE != mine && Long.MAX_VALUE != mine && CollComm.FAILED_CALL != mine && 0 != own
                && (tagged || !comm.isAgreementTag(m.tag))
                && !TypeCode.headersAgree(m.typeCode, own)) {
                return describe(CollHooks.of(comm.engine()), m, 0);
            }
        }
        return null;
    }

    /**
     * @return the communicator whose collective (or tagged) context the message is on, or null; null too for a
     *         message that shows nothing: a slot agreement's, one of a call of this rank still running, or one of a
     *         call whose failure reached the program
     */
    private static CollComm owner(final CollHooks state, final Inbound m) {
        if (state.runs().running(m.context, m.tag)) {
            return null; // a call of this rank that never completed: the checker's leak, not a mismatch
        }
        final CollComm ordinary = state.comms().get(m.context);
        if (null == ordinary) {
            return tagged(state, m);
        }
        return ordinary.isAgreementTag(m.tag) || CollComm.FAILED_CALL == ordinary.recentCall(m.tag) ? null : ordinary;
    }

    private static CollComm tagged(final CollHooks state, final Inbound m) {
        final CollComm c = state.comms().get(m.context - 1);
        return null != c && c.taggedContext() == m.context ? c : null;
    }

    /**
     * The failure a leftover collective message shows, or null if the message is not a collective one of a
     * registered communicator.
     */
    private static TuttiException describe(final CollHooks state, final Inbound m, final int more) {
        final CollComm ordinary = state.comms().get(m.context);
        final CollComm taggedOn = null == ordinary ? tagged(state, m) : null;
        if (null == ordinary && null == taggedOn) {
            return null;
        }
        final CollComm comm = null != ordinary ? ordinary : taggedOn;
        final int peer = comm.groupRank(m.source);
        final String sent = "as part of " + message(m, null != taggedOn);
        final String tail = CollHeader.DIFFERENT_CALLS + "; no call of this rank received that message"
            + (more > 0 ? " (and " + more + " more collective message" + (1 == more ? "" : "s") + " like it)" : "");
        if (null != taggedOn) {
            return Errors.mismatch(ErrorClass.ARG, kindName(CollComm.taggedKind(m.tag)), comm.describe(), peer, sent,
                "never received it in its uses of that kind and tag", tail);
        }
        final long mine = comm.recentCall(m.tag);
        final String here;
        final String op;
        ErrorClass cls = ErrorClass.ARG;
        if (Long.MIN_VALUE == mine) {
            here = "made only " + comm.callsMade() + " collective calls on this communicator";
            op = "collective";
        } else if (Long.MAX_VALUE == mine) {
            here = "made call " + m.tag + " too long ago to name it";
            op = "collective";
        } else {
            final int bits = (int) (mine >>> Integer.SIZE);
            final int count = (int) mine;
            final int kind = TypeCode.kind(bits);
            op = 0 == kind ? "collective" : kindName(kind - 1);
            here = "called " + call(bits, m.tag) + (count >= 0 && 0 != kind ? " count=" + count : "");
            if (0 != kind && kind == TypeCode.kind(m.typeCode) && TypeCode.isInter(bits) == TypeCode.isInter(
                m.typeCode)) {
                cls = ErrorClass.ROOT;
            }
        }
        return Errors.mismatch(cls, op, comm.describe(), peer, sent, here, tail);
    }

    /** Names the call a message belongs to, e.g. {@code bcast root=1 (call 3), a message of 4 INT}. */
    private static String message(final Inbound m, final boolean tagged) {
        final StringBuilder sb = new StringBuilder();
        if (tagged) {
            sb.append(kindName(CollComm.taggedKind(m.tag))).append(" tag=").append(CollComm.taggedUserTag(m.tag))
                .append(" (use ").append(CollComm.taggedUse(m.tag)).append(')');
        } else {
            sb.append(call(m.typeCode, m.tag));
        }
        final Datatype type = TypeCode.datatype(m.typeCode);
        sb.append(", a message of ");
        if (type.sizeBytes() > 0) {
            sb.append(m.lengthBytes / type.sizeBytes()).append(' ').append(type);
        } else {
            sb.append(m.lengthBytes).append(" bytes");
        }
        return sb.toString();
    }

    /** Names a call from its header bits and number, e.g. {@code bcast root=1 (call 3)}. */
    private static String call(final int code, final int tag) {
        final int k = TypeCode.kind(code);
        if (0 == k) {
            return "a collective of the library's own (call " + tag + ")";
        }
        final StringBuilder sb = new StringBuilder(kindName(k - 1));
        if (TypeCode.isInter(code)) {
            final int r1 = TypeCode.root(code, 1);
            final int r2 = TypeCode.root(code, 2);
            if (r1 >= 0 || r2 >= 0) {
                sb.append(" roots=").append(r1 < 0 ? "?" : r1).append(',').append(r2 < 0 ? "?" : r2)
                    .append(" (first group's, second group's)");
            }
        } else if (TypeCode.root(code, 1) >= 0) {
            sb.append(" root=").append(TypeCode.root(code, 1));
        }
        return sb.append(" (call ").append(tag).append(')').toString();
    }

    /** @return the MPI name of a kind by its ordinal */
    private static String kindName(final int ordinal) {
        return ordinal >= 0 && ordinal < KINDS.length ? KINDS[ordinal].mpiName() : "collective kind " + ordinal;
    }
}
