package dev.tutti.coll;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.type.TypeCode;

/**
 * What every message of one collective call carries besides its datatype: the call's kind and root(s), packed into
 * the message's type code ({@link TypeCode}), so that a receive refuses a message sent as part of another
 * collective, or with another root, instead of taking its bytes. Built once per schedule (a cached schedule keeps
 * its header); a run ORs {@link #bits()} with each message's datatype ordinal, so messages cost nothing more.
 *
 * <p>An intercommunicator's header names the two roots in the union order (the root of the group that comes first,
 * then the other's), not as "mine, theirs": every rank of both groups then computes the same header for a call,
 * and a message needs no per-direction expectation. A root a rank does not know (the root's group peers in a
 * one-way rooted collective pass {@code PROC_NULL}) is sent as unknown, which agrees with any root.
 *
 * <p>What cannot be detected this way: a mismatch in which no rank receives a message of the other call (each
 * rank thinks itself the root of a bcast; the fan-in of a linear gather, whose messages go only to ranks that
 * think themselves the root); such a call completes, or waits for a message that never comes, as it did without
 * headers. Roots at or above {@link TypeCode#INTRA_ROOT_MODULUS} (intracommunicator) or
 * {@link TypeCode#INTER_ROOT_MODULUS} (intercommunicator) are folded, so roots that differ by a multiple of the
 * modulus are not told apart.
 */
public final class CollHeader {
    /** No header: messages carry the plain datatype ordinal and receives check only the datatype. */
    public static final CollHeader NONE = new CollHeader(null, -1, -1, false, false, 0, 0, -1);

    /** Why a message of another call proves a mismatch: the end of every such failure's message. */
    static final String DIFFERENT_CALLS = "the ranks called different collectives or roots";

    private static final CollKind[] KINDS = CollKind.values();

    static {
        if (KINDS.length > TypeCode.MAX_KIND) {
            throw new ExceptionInInitializerError("CollKind has " + KINDS.length + " kinds, the type code holds "
                + TypeCode.MAX_KIND);
        }
    }

    private final CollKind kind;
    private final int root;
    private final int remoteRoot;
    private final boolean inter;
    private final boolean localFirst;
    private final int firstSize;
    private final int bits;
    /** What a communicator remembers of a call run under this header ({@link CollComm#nextTag}): bits and count. */
    private final long record;

    private CollHeader(final CollKind kind, final int root, final int remoteRoot, final boolean inter,
        final boolean localFirst, final int firstSize, final int bits, final int count) {
        this.kind = kind;
        this.root = root;
        this.remoteRoot = remoteRoot;
        this.inter = inter;
        this.localFirst = localFirst;
        this.firstSize = firstSize;
        this.bits = bits;
        this.record = (long) bits << Integer.SIZE | (count & 0xFFFF_FFFFL);
    }

    /**
     * The header of an intracommunicator call (or of any schedule run on a union as one group).
     *
     * @param kind  the operation
     * @param root  the root, or -1
     * @param count the call's count argument (for reports only: messages do not carry it), or -1
     * @return the header
     */
    public static CollHeader of(final CollKind kind, final int root, final int count) {
        return new CollHeader(kind, root, -1, false, false, 0, TypeCode.intraHeader(kind.ordinal() + 1, root),
            count);
    }

    /**
     * The header of an intercommunicator call.
     *
     * @param kind       the operation
     * @param root       this group's root, or -1 (none, or not known to this rank)
     * @param remoteRoot the remote group's root, or -1
     * @param localFirst whether this group comes first in the union order
     * @param firstSize  the size of the group that comes first
     * @param count      the call's count argument (for reports only), or -1
     * @return the header
     */
    public static CollHeader inter(final CollKind kind, final int root, final int remoteRoot,
        final boolean localFirst, final int firstSize, final int count) {
        return new CollHeader(kind, root, remoteRoot, true, localFirst, firstSize, TypeCode.interHeader(
            kind.ordinal() + 1, localFirst ? root : remoteRoot, localFirst ? remoteRoot : root), count);
    }

    /** @return the header bits to OR with a datatype ordinal (0 for {@link #NONE}) */
    public int bits() {
        return bits;
    }

    /** @return the bits (high half) and the count (low half), as {@link CollComm} keeps a call's record */
    long record() {
        return record;
    }

    /**
     * Returns the failure of a receive that met a message of another call: names the call the sender made (as the
     * sender sees it) and the one this rank made. Class {@link ErrorClass#ROOT} if only the roots differ, else
     * {@link ErrorClass#ARG}.
     *
     * @param op       the operation, for the message
     * @param comm     the communicator (for an intercommunicator, the union)
     * @param peer     the sender's rank in {@code comm}
     * @param sentCode the type code of the sender's message
     * @return the exception
     */
    public TuttiException mismatch(final String op, final CollComm comm, final int peer, final int sentCode) {
        final int k = TypeCode.kind(sentCode);
        final boolean sameKind = null != kind && k == kind.ordinal() + 1 && TypeCode.isInter(sentCode) == inter;
        return Errors.mismatch(sameKind ? ErrorClass.ROOT : ErrorClass.ARG, op, comm.describe(), peer, "as part of "
            + describe(sentCode, peer, comm), "called " + describe(bits, comm.rank(), comm),
            DIFFERENT_CALLS);
    }

    /** Names the call a code belongs to as rank {@code sender} of {@code comm} made it, e.g. {@code reduce root=1}. */
    private String describe(final int code, final int sender, final CollComm comm) {
        final int k = TypeCode.kind(code);
        if (0 == k) {
            return "a point-to-point message";
        }
        final StringBuilder sb = new StringBuilder(k <= KINDS.length ? KINDS[k - 1].mpiName() : "kind " + k);
        final boolean folded = comm.size() > (inter ? TypeCode.INTER_ROOT_MODULUS : TypeCode.INTRA_ROOT_MODULUS);
        final String mod = folded ? " (mod " + (inter ? TypeCode.INTER_ROOT_MODULUS : TypeCode.INTRA_ROOT_MODULUS)
            + ")" : "";
        if (!TypeCode.isInter(code)) {
            final int r = TypeCode.root(code, 1);
            if (r >= 0) {
                sb.append(" root=").append(r).append(mod);
            }
            return sb.toString();
        }
        final boolean senderFirst = sender < firstSize;
        final int own = TypeCode.root(code, senderFirst ? 1 : 2);
        final int other = TypeCode.root(code, senderFirst ? 2 : 1);
        if (own >= 0 || other >= 0) {
            sb.append(" root=").append(own < 0 ? "?" : own + mod).append(" remoteRoot=")
                .append(other < 0 ? "?" : other + mod);
        }
        if (sender != comm.rank()) {
            sb.append(" (in ").append(senderFirst == localFirst ? "this" : "the remote").append(" group)");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        if (null == kind) {
            return "header(none)";
        }
        return "header(" + kind.mpiName() + (inter ? " root=" + root + " remoteRoot=" + remoteRoot
            : " root=" + root) + ")";
    }
}
