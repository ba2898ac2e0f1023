package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.Road;
import dev.tutti.internal.Errors;
import dev.tutti.type.TypeCode;

/**
 * The words a call publishes in its cell beside its bytes ({@link HostLayout}: call, shape, op), and the failure
 * named when a peer's words differ from this rank's: the same exception and text as the message layer's for the
 * same fault. Static functions, no state.
 */
final class HostWords {
    /** The call word's bit that says the call takes the region, or offers to ({@link #AGREED}). */
    static final long HOST = 1L << 8;
    /**
     * The call word's bit of a call whose road its ranks agree from each other's words
     * ({@link dev.tutti.coll.Road#agreedAtCall}):
     * {@link #HOST} is then its rank's offer, which may differ between ranks, and its shape word the bytes it
     * published.
     */
    static final long AGREED = 1L << 9;

    private HostWords() {
    }

    /**
     * @return a call's call word: its header bits (kind, root) above, whether it takes the region (bit 8), whether
     * its ranks agree their road at the call (bit 9) and its form's ordinal below
     */
    static long call(final CollCall c, final boolean host) {
        return (long) TypeCode.intraHeader(c.kind().ordinal() + 1, c.root()) << Integer.SIZE | (host ? HOST : 0L)
            | (Road.agreedForm(c) ? AGREED : 0L) | c.variant().ordinal();
    }

    /**
     * Tells whether a peer's call (its words {@code their...}) is this rank's (its words {@code own...}): the same
     * words, but for a call whose road its ranks agree at the call ({@link #AGREED}), whose offers and bytes may
     * differ.
     */
    static boolean same(final long ownCall, final long ownShape, final long ownOp, final long theirCall,
        final long theirShape, final long theirOp) {
        if (0 != (ownCall & AGREED)) {
            return (ownCall | HOST) == (theirCall | HOST) && ownOp == theirOp;
        }
        return ownCall == theirCall && ownShape == theirShape && ownOp == theirOp;
    }

    /**
     * @return a call's shape word: its count above, its element type's ordinal below; 0 for the vector forms
     * (gatherv, scatterv, allgatherv, alltoallv, alltoallw), whose ranks pass counts and types of their own, so that
     * no word of theirs is compared with a peer's; for a reduce_scatter, and an allgatherv but a blocking one (whose
     * ranks agree their road at the call), whose ranks all pass every rank's count ({@link Road#everyCount}), a
     * digest of its counts and type ({@link #digest})
     */
    static long shape(final CollCall c) {
        if (c.isVector()) {
            return Road.everyCount(c) ? digest(c.recvCounts(), c.sendType()) : 0L;
        }
        return (long) c.sendCount() << Integer.SIZE | c.sendType().ordinal();
    }

    /**
     * @return a 64-bit digest of a call's counts and type (a multiply-xorshift mix per count, so that
     * counts moved between ranks or swapped change it), never 0
     */
    static long digest(final int[] counts, final Datatype type) {
        long h = 0x9E37_79B9_7F4A_7C15L * (type.ordinal() + 1);
        for (final int n : counts) {
            h = (h ^ n) * 0xBF58_476D_1CE4_E5B9L;
            h ^= h >>> 31;
        }
        return 0 == h ? 1 : h;
    }

    /**
     * The failure of a call whose peer made another: named as the message layer names it (the header's text when
     * the kind or root differs, else the count, type, op or form that does, or the road the ranks' settings chose).
     *
     * @param comm   the communicator
     * @param r      the peer
     * @param header this rank's call's header
     * @param op     the operation
     * @param own    this rank's call, to name its counts when they differ by their digest, or null
     */
    static TuttiException mismatch(final CollComm comm, final int r, final CollHeader header, final String op,
        final long ownCall, final long ownShape, final long ownOp, final long theirCall, final long theirShape,
        final long theirOp, final CollCall own) {
        final int theirBits = (int) (theirCall >>> Integer.SIZE);
        if (theirBits != (int) (ownCall >>> Integer.SIZE)) {
            return header.mismatch(op, comm, r, theirBits);
        }
        final String where = comm.describe();
        final boolean digest = 0 == (ownCall & AGREED) && (CollKind.REDUCE_SCATTER.mpiName().equals(op)
            || CollKind.ALLGATHERV.mpiName().equals(op)); // its shape word is a digest of its counts
        if (digest && theirShape != ownShape && (theirCall | HOST) == (ownCall | HOST)) { // other counts, any road
            return Errors.mismatch(ErrorClass.COUNT, op, where, r, "recvCounts or a type of digest "
                + Long.toHexString(theirShape), "passed " + (null == own ? "" : "recvCounts="
                + java.util.Arrays.toString(own.recvCounts()) + " of type=" + own.sendType() + ", ") + "digest "
                + Long.toHexString(ownShape), "the ranks passed different counts or types");
        }
        if (theirShape != ownShape && 0 == (ownCall & AGREED) && !digest) {
            return Errors.mismatch(ErrorClass.COUNT, op, where, r, shape(theirShape), "passed " + shape(ownShape),
                "the ranks passed different counts or types");
        }
        if (theirOp != ownOp) {
            return Errors.mismatch(ErrorClass.OP, op, where, r, "op=" + opName(theirOp), "passed op="
                + opName(ownOp), "the ranks passed different reduction operations");
        }
        final CollCall.Variant theirForm = form(theirCall);
        final CollCall.Variant ownForm = form(ownCall);
        return Errors.mismatch(ErrorClass.ARG, op, where, r, "a " + road(theirForm, op, theirCall), "called a "
            + road(ownForm, op, ownCall), theirForm != ownForm ? forms(ownForm, theirForm) + " collectives do not "
            + "match" : "the ranks run with different settings tutti.coll.hostLimit or tutti.coll." + op);
    }

    /** @return e.g. {@code blocking and persistent}: two forms, in the order of their declaration */
    private static String forms(final CollCall.Variant a, final CollCall.Variant b) {
        final CollCall.Variant first = a.ordinal() < b.ordinal() ? a : b;
        final CollCall.Variant second = first == a ? b : a;
        return first.name().toLowerCase(java.util.Locale.ROOT) + " and " + second.name().toLowerCase(
            java.util.Locale.ROOT);
    }

    private static CollCall.Variant form(final long call) {
        return CollCall.Variant.values()[(int) (call & 0xFF)];
    }

    /** @return e.g. {@code nonblocking bcast through messages}: a call's form and road, from its call word */
    private static String road(final CollCall.Variant form, final String op, final long call) {
        return form.name().toLowerCase(java.util.Locale.ROOT) + " " + op + (0 != (call & HOST)
            ? " through the on-host region" : " through messages");
    }

    private static String shape(final long word) {
        final int type = (int) word;
        return "count=" + (int) (word >>> Integer.SIZE) + " of type="
            + (type >= 0 && type < Datatype.values().length ? Datatype.fromCode(type).name() : "code " + type);
    }

    /** @return 0 for none, a predefined op's ordinal + 1, or {@code 1 << 32 | } a user op's name hash */
    static long opCode(final Op op) {
        if (null == op) {
            return 0;
        }
        if (op instanceof Op.Predefined p) {
            return p.ordinal() + 1;
        }
        return 1L << Integer.SIZE | (op.name().hashCode() & 0xFFFF_FFFFL);
    }

    private static String opName(final long code) {
        if (0 == code) {
            return "none";
        }
        final Op.Predefined[] ops = Op.Predefined.values();
        return code <= ops.length ? ops[(int) code - 1].name() : "a user op";
    }
}
