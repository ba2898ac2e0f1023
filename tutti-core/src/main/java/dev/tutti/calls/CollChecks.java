package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollComm;
import dev.tutti.internal.Errors;
import dev.tutti.type.LocalReduction;

/**
 * The argument checks of the collective bridges ({@link IntraBridge}, {@link InterBridge}): every rule a
 * collective's arguments must follow, worded once for both communicator kinds. Each check throws a
 * {@link TuttiException} naming the operation, the communicator, the argument, its value and what was expected,
 * before anything is sent. One instance per bridge; immutable.
 */
public final class CollChecks {
    private final String where;
    /** What per-peer arrays and blocks are counted by: {@code size} (intra) or {@code remoteSize} (inter). */
    private final String peersName;
    private final int peers;

    /**
     * @param where     the communicator's description
     * @param peersName what the number of blocks and per-peer entries is called ({@code size}, {@code remoteSize})
     * @param peers     that number
     */
    public CollChecks(final String where, final String peersName, final int peers) {
        this.where = where;
        this.peersName = peersName;
        this.peers = peers;
    }

    /** Requires a buffer: neither null nor {@link Buf#IN_PLACE}. */
    public void need(final String op, final String arg, final Buf b) {
        if (null == b || Buf.IN_PLACE == b) {
            throw Errors.invalid(ErrorClass.BUFFER, op, where, arg + "=" + (null == b ? "null" : "IN_PLACE")
                + ", expected a buffer");
        }
    }

    /** Refuses {@link Buf#IN_PLACE} where the operation has no in-place form (every intercommunicator one). */
    public void noInPlace(final String op, final Buf send, final Buf recv) {
        if (Buf.IN_PLACE == send || Buf.IN_PLACE == recv) {
            throw Errors.invalid(ErrorClass.BUFFER, op, where, (Buf.IN_PLACE == send ? "send" : "recv")
                + "=IN_PLACE, expected a buffer: an intercommunicator has no in-place collectives");
        }
    }

    /** Requires a reduction operation. */
    public void needOp(final String op, final Op o) {
        if (null == o) {
            throw Errors.invalid(ErrorClass.OP, op, where, "op=null, expected a reduction operation");
        }
    }

    /** Requires {@code o} to be defined on the elements of {@code b} (an empty buffer has none to check). */
    public void reducible(final String op, final Op o, final Datatype type) {
        LocalReduction.check(op, o, type);
    }

    /** As {@link #reducible(String, Op, Datatype)} for a buffer, which may be empty. */
    public void reducible(final String op, final Op o, final Buf b) {
        if (b.count() > 0) {
            LocalReduction.check(op, o, b.datatype());
        }
    }

    /** Requires a root of a group of {@code size} ranks (an intracommunicator's). */
    public void root(final String op, final int root, final int size) {
        if (root < 0 || root >= size) {
            throw Errors.root(op, where, root, size);
        }
    }

    /** Requires the same root on an intracommunicator's two (coinciding) groups. */
    public void sameRoot(final String op, final int root, final int remoteRoot) {
        if (root != remoteRoot) {
            throw Errors.invalid(ErrorClass.ROOT, op, where, "root=" + root + " but remoteRoot=" + remoteRoot
                + ": on an intracommunicator both groups are this group, expected the same root");
        }
    }

    /** Requires the root argument of an intercommunicator's one-way form. */
    public void oneWayRoot(final String op, final int root) {
        if (Intercommunicator.ROOT != root && Comm.PROC_NULL != root && (root < 0 || root >= peers)) {
            throw Errors.invalid(ErrorClass.ROOT, op, where, "root=" + root + " is not ROOT, PROC_NULL or a "
                + "rank of the remote group, expected ROOT (-3) at the root, PROC_NULL (-2) at its group's other "
                + "ranks, 0.." + (peers - 1) + " in the other group");
        }
    }

    /** Requires the roots of an intercommunicator's symmetric form, one in each group. */
    public void symmetricRoots(final String op, final int root, final int localSize, final int remoteRoot) {
        if (root < 0 || root >= localSize) {
            throw Errors.invalid(ErrorClass.ROOT, op, where, "root=" + root + " is outside the local group, "
                + "expected 0.." + (localSize - 1));
        }
        if (remoteRoot < 0 || remoteRoot >= peers) {
            throw Errors.invalid(ErrorClass.ROOT, op, where, "remoteRoot=" + remoteRoot + " is outside the "
                + "remote group, expected 0.." + (peers - 1));
        }
    }

    /**
     * Requires buffers a persistent collective can use again at every start: none staged (booleans and
     * non-contiguous layouts are copied through bytes when a call is made, which a persistent call is only once).
     */
    public static void persistable(final String op, final String where, final Object... bufs) {
        for (final Object o : bufs) {
            if (o instanceof Buf[] each) {
                persistable(op, where, (Object[]) each);
            } else if (o instanceof Buf b && Buf.IN_PLACE != b && dev.tutti.type.BooleanStaging.staged(b)) {
                throw Errors.invalid(ErrorClass.TYPE, op, where, "buffer " + b + " is staged through bytes (boolean "
                    + "elements or a non-contiguous layout), expected a buffer a persistent collective can read at "
                    + "every start: another element type, or a contiguous layout");
            }
        }
    }

    /** Requires a tag of a tagged two-phase collective. */
    public static void tag(final String op, final String where, final int tag) {
        if (tag < 0 || tag > CollComm.TAGGED_TAG_UB) {
            throw Errors.tag(op, where, tag, CollComm.TAGGED_TAG_UB, " (wildcards are not allowed for collectives)");
        }
    }

    /** Requires the send and receive buffers to hold the same element type. */
    public void sameType(final String op, final Buf send, final Buf recv) {
        if (send.datatype() != recv.datatype()) {
            throw Errors.invalid(ErrorClass.TYPE, op, where, "send type=" + send.datatype() + " but recv type="
                + recv.datatype() + ", expected the same type");
        }
    }

    /** Requires room for {@code needed} elements in {@code b}. */
    public void capacity(final String op, final String arg, final Buf b, final long needed) {
        if (b.count() < needed) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, arg + " count=" + b.count()
                + " is too small, expected at least " + needed + " elements (" + peersName + "=" + peers + ")");
        }
    }

    /** Requires {@code b} to split into one equal block per peer. */
    public void multiple(final String op, final String arg, final Buf b) {
        if (0 != b.count() % peers) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, arg + " count=" + b.count() + " is not a multiple of "
                + peersName + "=" + peers + ", expected " + peersName + " equal blocks");
        }
    }

    /** Requires one send and one receive buffer per peer (alltoallw). */
    public void buffers(final String op, final Buf[] send, final Buf[] recv) {
        if (null == send || null == recv || send.length != peers || recv.length != peers) {
            throw Errors.invalid(ErrorClass.ARG, op, where, "send.length=" + (null == send ? "null" : send.length)
                + " recv.length=" + (null == recv ? "null" : recv.length) + ", expected " + peersName + "=" + peers
                + " buffers each");
        }
        for (int i = 0; i < peers; i++) {
            need(op, "send[" + i + "]", send[i]);
            need(op, "recv[" + i + "]", recv[i]);
        }
    }

    /**
     * Requires {@code n} non-negative counts (reduce_scatter's, one per rank of the group that scatters).
     *
     * @return their sum
     */
    public long counts(final String op, final String arg, final int[] counts, final String nName, final int n) {
        if (null == counts || counts.length != n) {
            throw Errors.invalid(ErrorClass.ARG, op, where, arg + ".length=" + (null == counts ? "null"
                : counts.length) + ", expected " + nName + "=" + n);
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw Errors.invalid(ErrorClass.COUNT, op, where, arg + "[" + i + "]=" + counts[i]
                    + ", expected >= 0");
            }
            total += counts[i];
        }
        return total;
    }

    /**
     * Requires a v-collective's counts and displacements: one per peer, each block inside {@code b}.
     *
     * @throws TuttiException of class {@link ErrorClass#ARG} for a wrong length, {@link ErrorClass#COUNT} for a
     *                        negative or out-of-buffer block
     */
    public void vector(final String op, final String countsName, final String displsName, final int[] counts,
        final int[] displs, final Buf b) {
        if (null == counts || null == displs || counts.length != peers || displs.length != peers) {
            throw Errors.invalid(ErrorClass.ARG, op, where, countsName + ".length=" + (null == counts ? "null"
                : counts.length) + " " + displsName + ".length=" + (null == displs ? "null" : displs.length)
                + ", expected " + peersName + "=" + peers + " each");
        }
        for (int i = 0; i < peers; i++) {
            if (counts[i] < 0 || displs[i] < 0 || (long) displs[i] + counts[i] > b.count()) {
                throw Errors.invalid(ErrorClass.COUNT, op, where, countsName + "[" + i + "]=" + counts[i] + " "
                    + displsName + "[" + i + "]=" + displs[i] + " outside the buffer of count=" + b.count()
                    + ", expected 0 <= displ and displ + count <= " + b.count());
            }
        }
    }
}
