package dev.tutti;

import dev.tutti.coll.CallSlot;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollDoor;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollStart;
import dev.tutti.internal.Errors;
import dev.tutti.type.kernel.Reductions;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static dev.tutti.type.BooleanStaging.recvMemory;
import static dev.tutti.type.BooleanStaging.sendMemory;

/**
 * The bridge from the collective API of {@link Communicator} to the engine: validates every argument before
 * anything is sent, resolves buffers to memory (staging {@code boolean[]} through bytes), picks the algorithm and
 * hands the call to the engine's one door ({@link CollDoor}) as a {@link CollCall}. One instance per communicator.
 */
final class Collectives {
    /** The largest tag of a tagged two-phase collective. */
    static final int TAG_UB = CollComm.TAGGED_TAG_UB;

    /** The finish steps of a call without staging. */
    private static final List<Runnable> NO_FINISH = List.of();

    private final CollComm coll;
    private final CallSlot blockingCalls = new CallSlot();
    private final String where;
    private final int tag;

    Collectives(final CollComm coll, final String where) {
        this(coll, where, -1);
    }

    private Collectives(final CollComm coll, final String where, final int tag) {
        this.coll = coll;
        this.where = where;
        this.tag = tag;
    }

    /**
     * Returns the view that starts tagged two-phase collectives: matched by (kind, tag) instead of call order.
     *
     * @param op     the begin method, for messages
     * @param theTag the user tag
     * @return the view
     * @throws TuttiException of class {@link ErrorClass#TAG} for a wildcard or out-of-range tag
     */
    Collectives tagged(final String op, final int theTag) {
        if (theTag < 0 || theTag > TAG_UB) {
            throw Errors.tag(op, where, theTag, TAG_UB, " (wildcards are not allowed for collectives)");
        }
        return new Collectives(coll, where, theTag);
    }

    private int size() {
        return coll.size();
    }

    private int rank() {
        return coll.rank();
    }

    Request barrier(final boolean nb) {
        return run(CollKind.BARRIER, nb, null, null, Datatype.BYTE, 0, -1, null, 0, 0, NO_FINISH);
    }

    Request bcast(final boolean nb, final Buf buf, final int root) {
        final String op = "bcast";
        need(op, "buf", buf);
        checkRoot(op, root);
        final List<Runnable> fin = new ArrayList<>();
        final MemorySegment m = recvMemory(buf, fin);
        return run(CollKind.BCAST, nb, null, m, buf.datatype(), buf.count(), root, null, buf.byteSize(),
            buf.count(), fin);
    }

    Request gather(final boolean nb, final Buf send, final Buf recv, final int root) {
        final String op = "gather";
        checkRoot(op, root);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = new ArrayList<>();
        final int count;
        final Datatype type;
        MemorySegment r = null;
        if (isRoot) {
            need(op, "recv", recv);
            if (!inPlace) {
                need(op, "send", send);
                sameType(op, send, recv);
            }
            count = inPlace ? recv.count() / size() : send.count();
            capacity(op, "recv", recv, (long) count * size());
            type = recv.datatype();
            r = recvMemory(recv, fin);
        } else {
            need(op, "send", send);
            count = send.count();
            type = send.datatype();
        }
        return run(CollKind.GATHER, nb, inPlace ? null : sendMemory(send), r, type, count, root, null,
            (long) count * type.sizeBytes(), count, fin);
    }

    Request gatherv(final boolean nb, final Buf send, final Buf recv, final int[] counts, final int[] displs,
        final int root) {
        final String op = "gatherv";
        checkRoot(op, root);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = new ArrayList<>();
        MemorySegment r = null;
        Datatype type;
        int count;
        if (isRoot) {
            need(op, "recv", recv);
            checkVector(op, "recvCounts", "displs", counts, displs, recv);
            count = counts[root];
            if (!inPlace) {
                need(op, "send", send);
                sameType(op, send, recv);
                capacity(op, "send", send, count);
            }
            type = recv.datatype();
            r = recvMemory(recv, fin);
        } else {
            need(op, "send", send);
            count = send.count();
            type = send.datatype();
        }
        return run(CollKind.GATHERV, nb, new CollArgs(op, inPlace ? null : sendMemory(send), r, type, count, root,
            null, null, null, counts, displs, null, null, null, null), 0, 0, fin);
    }

    Request scatter(final boolean nb, final Buf send, final Buf recv, final int root) {
        final String op = "scatter";
        checkRoot(op, root);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == recv;
        final List<Runnable> fin = new ArrayList<>();
        final int count;
        final Datatype type;
        if (isRoot) {
            need(op, "send", send);
            if (!inPlace) {
                need(op, "recv", recv);
                sameType(op, send, recv);
            }
            count = inPlace ? send.count() / size() : recv.count();
            capacity(op, "send", send, (long) count * size());
            type = send.datatype();
        } else {
            need(op, "recv", recv);
            count = recv.count();
            type = recv.datatype();
        }
        return run(CollKind.SCATTER, nb, isRoot ? sendMemory(send) : null, inPlace ? null : recvMemory(recv, fin),
            type, count, root, null, (long) count * type.sizeBytes(), count, fin);
    }

    Request scatterv(final boolean nb, final Buf send, final int[] counts, final int[] displs, final Buf recv,
        final int root) {
        final String op = "scatterv";
        checkRoot(op, root);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == recv;
        final List<Runnable> fin = new ArrayList<>();
        int count;
        Datatype type;
        if (isRoot) {
            need(op, "send", send);
            checkVector(op, "sendCounts", "displs", counts, displs, send);
            count = counts[root];
            if (!inPlace) {
                need(op, "recv", recv);
                sameType(op, send, recv);
                capacity(op, "recv", recv, count);
            }
            type = send.datatype();
        } else {
            need(op, "recv", recv);
            count = recv.count();
            type = recv.datatype();
        }
        return run(CollKind.SCATTERV, nb, new CollArgs(op, isRoot ? sendMemory(send) : null,
            inPlace ? null : recvMemory(recv, fin), type, count, root, null, counts, displs, null, null, null, null,
            null, null), 0, 0, fin);
    }

    Request allgather(final boolean nb, final Buf send, final Buf recv) {
        final String op = "allgather";
        need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
        }
        final int count = inPlace ? recv.count() / size() : send.count();
        capacity(op, "recv", recv, (long) count * size());
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.ALLGATHER, nb, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, null, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    Request allgatherv(final boolean nb, final Buf send, final Buf recv, final int[] counts, final int[] displs) {
        final String op = "allgatherv";
        need(op, "recv", recv);
        checkVector(op, "recvCounts", "displs", counts, displs, recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
            capacity(op, "send", send, counts[rank()]);
        }
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.ALLGATHERV, nb, new CollArgs(op, inPlace ? null : sendMemory(send),
            recvMemory(recv, fin), recv.datatype(), counts[rank()], -1, null, null, null, counts, displs, null, null,
            null, null), 0, 0, fin);
    }

    Request alltoall(final boolean nb, final Buf send, final Buf recv) {
        final String op = "alltoall";
        need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        final Buf input = inPlace ? recv : send;
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
        }
        if (0 != input.count() % size()) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, (inPlace ? "recv" : "send") + " count="
                + input.count() + " is not a multiple of size=" + size() + ", expected size equal blocks");
        }
        final int count = input.count() / size();
        capacity(op, "recv", recv, (long) count * size());
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.ALLTOALL, nb, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, null, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    Request alltoallv(final boolean nb, final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        final String op = "alltoallv";
        need(op, "recv", recv);
        checkVector(op, "recvCounts", "recvDispls", recvCounts, recvDispls, recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
            checkVector(op, "sendCounts", "sendDispls", sendCounts, sendDispls, send);
        }
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.ALLTOALLV, nb, new CollArgs(op, inPlace ? null : sendMemory(send),
            recvMemory(recv, fin), recv.datatype(), 0, -1, null, sendCounts, sendDispls, recvCounts, recvDispls,
            null, null, null, null), 0, 0, fin);
    }

    Request alltoallw(final boolean nb, final Buf[] send, final Buf[] recv) {
        final String op = "alltoallw";
        if (null == send || null == recv || send.length != size() || recv.length != size()) {
            throw Errors.invalid(ErrorClass.ARG, op, where, "send.length=" + (null == send ? "null" : send.length)
                + " recv.length=" + (null == recv ? "null" : recv.length) + ", expected size=" + size()
                + " buffers each");
        }
        final MemorySegment[] s = new MemorySegment[size()];
        final MemorySegment[] r = new MemorySegment[size()];
        final Datatype[] st = new Datatype[size()];
        final Datatype[] rt = new Datatype[size()];
        final List<Runnable> fin = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            need(op, "send[" + i + "]", send[i]);
            need(op, "recv[" + i + "]", recv[i]);
            s[i] = sendMemory(send[i]);
            st[i] = send[i].datatype();
            r[i] = recvMemory(recv[i], fin);
            rt[i] = recv[i].datatype();
        }
        if (send[rank()].byteSize() != recv[rank()].byteSize() || st[rank()] != rt[rank()]) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, "send[" + rank() + "]=" + send[rank()] + " but recv["
                + rank() + "]=" + recv[rank()] + ", expected the same type and count for this rank's own block");
        }
        return run(CollKind.ALLTOALLW, nb, new CollArgs(op, null, null, Datatype.BYTE, 0, -1, null, null, null,
            null, null, s, st, r, rt), 0, 0, fin);
    }

    Request reduce(final boolean nb, final Buf send, final Buf recv, final Op o, final int root) {
        final String op = "reduce";
        checkRoot(op, root);
        needOp(op, o);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = new ArrayList<>();
        final Buf typed = isRoot ? recv : send;
        need(op, isRoot ? "recv" : "send", typed);
        if (!inPlace) {
            need(op, "send", send);
        }
        if (isRoot && !inPlace) {
            sameType(op, send, recv);
            capacity(op, "recv", recv, send.count());
        }
        final int count = inPlace ? recv.count() : send.count();
        Reductions.check(op, o, typed.datatype());
        return run(CollKind.REDUCE, nb, inPlace ? null : sendMemory(send), isRoot ? recvMemory(recv, fin) : null,
            typed.datatype(), count, root, o, (long) count * typed.datatype().sizeBytes(), count, fin);
    }

    Request allreduce(final boolean nb, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.ALLREDUCE, nb, send, recv, o);
    }

    Request scan(final boolean nb, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.SCAN, nb, send, recv, o);
    }

    Request exscan(final boolean nb, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.EXSCAN, nb, send, recv, o);
    }

    private Request reduction(final CollKind kind, final boolean nb, final Buf send, final Buf recv, final Op o) {
        final String op = kind.mpiName();
        needOp(op, o);
        need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
            capacity(op, "recv", recv, send.count());
        }
        final int count = inPlace ? recv.count() : send.count();
        Reductions.check(op, o, recv.datatype());
        final List<Runnable> fin = new ArrayList<>();
        return run(kind, nb, inPlace ? null : sendMemory(send), recvMemory(recv, fin), recv.datatype(), count, -1,
            o, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    Request reduceScatterBlock(final boolean nb, final Buf send, final Buf recv, final Op o) {
        final String op = "reduce_scatter_block";
        needOp(op, o);
        need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        final int count = inPlace ? recv.count() / size() : recv.count();
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
            capacity(op, "send", send, (long) count * size());
        }
        Reductions.check(op, o, recv.datatype());
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.REDUCE_SCATTER_BLOCK, nb, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, o, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    Request reduceScatter(final boolean nb, final Buf send, final Buf recv, final int[] counts, final Op o) {
        final String op = "reduce_scatter";
        needOp(op, o);
        need(op, "recv", recv);
        if (null == counts || counts.length != size()) {
            throw Errors.invalid(ErrorClass.ARG, op, where, "recvCounts.length=" + (null == counts ? "null"
                : counts.length) + ", expected size=" + size());
        }
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw Errors.invalid(ErrorClass.COUNT, op, where, "recvCounts[" + i + "]=" + counts[i]
                    + ", expected >= 0");
            }
            total += counts[i];
        }
        final boolean inPlace = Buf.IN_PLACE == send;
        capacity(op, "recv", recv, inPlace ? total : counts[rank()]);
        if (!inPlace) {
            need(op, "send", send);
            sameType(op, send, recv);
            capacity(op, "send", send, total);
        }
        Reductions.check(op, o, recv.datatype());
        final List<Runnable> fin = new ArrayList<>();
        return run(CollKind.REDUCE_SCATTER, nb, new CollArgs(op, inPlace ? null : sendMemory(send),
            recvMemory(recv, fin), recv.datatype(), counts[rank()], -1, o, null, null, counts, null, null, null, null,
            null), total * recv.datatype().sizeBytes(), total, fin);
    }

    // ----------------------------------------------------------------------------------------------- machinery

    /**
     * Hands a regular (non-v) collective to the engine's door ({@link CollDoor}), which selects the algorithm and
     * takes its schedule from the communicator's cache or builds it. A blocking call reuses the thread's descriptor.
     */
    private Request run(final CollKind kind, final boolean nb, final MemorySegment send, final MemorySegment recv,
        final Datatype type, final int count, final int root, final Op o, final long bytes, final long selCount,
        final List<Runnable> finish) {
        final CollStart start = start(kind, nb);
        return CollDoor.enter(call(start).intra(coll, where, kind, start, send, recv, type, count, root, o, bytes,
            selCount, finish));
    }

    /** Hands a collective whose arguments the cache cannot key (v-collectives, alltoallw) to the door. */
    private Request run(final CollKind kind, final boolean nb, final CollArgs args, final long bytes,
        final long count, final List<Runnable> finish) {
        final CollStart start = start(kind, nb);
        return CollDoor.enter(call(start).intra(coll, where, kind, start, args, bytes, count, finish));
    }

    private CollStart start(final CollKind kind, final boolean nb) {
        return tag < 0 ? CollStart.of(nb) : CollStart.tagged(kind, tag);
    }

    /** @return the thread's reused descriptor for a blocking call, a new one for a call that outlives this one */
    private CollCall call(final CollStart start) {
        return CollStart.BLOCKING == start ? blockingCalls.take() : new CollCall();
    }

    private void need(final String op, final String arg, final Buf b) {
        if (null == b || Buf.IN_PLACE == b) {
            throw Errors.invalid(ErrorClass.BUFFER, op, where, arg + "=" + (null == b ? "null" : "IN_PLACE")
                + ", expected a buffer");
        }
    }

    private static void needOp(final String op, final Op o) {
        if (null == o) {
            throw new TuttiException(ErrorClass.OP, op + ": op=null, expected a reduction operation");
        }
    }

    private void checkRoot(final String op, final int root) {
        if (root < 0 || root >= size()) {
            throw Errors.root(op, where, root, size());
        }
    }

    private void sameType(final String op, final Buf send, final Buf recv) {
        if (send.datatype() != recv.datatype()) {
            throw Errors.invalid(ErrorClass.TYPE, op, where, "send type=" + send.datatype() + " but recv type="
                + recv.datatype() + ", expected the same type");
        }
    }

    private void capacity(final String op, final String arg, final Buf b, final long needed) {
        if (b.count() < needed) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, arg + " count=" + b.count()
                + " is too small, expected at least " + needed + " elements (size=" + size() + ")");
        }
    }

    private void checkVector(final String op, final String countsName, final String displsName, final int[] counts,
        final int[] displs, final Buf b) {
        checkVector(op, where, "size", size(), countsName, displsName, counts, displs, b);
    }

    /**
     * Checks the counts and displacements of a v-collective against the group and the buffer, before anything is
     * sent (shared by intra- and intercommunicators).
     *
     * @param op         the operation
     * @param where      the communicator description
     * @param sizeName   what the arrays' length must equal ({@code size}, {@code remoteSize})
     * @param n          that length
     * @param countsName the counts argument's name
     * @param displsName the displacements argument's name
     * @param counts     the counts
     * @param displs     the displacements
     * @param b          the buffer they index
     * @throws TuttiException of class {@link ErrorClass#ARG} for a wrong length, {@link ErrorClass#COUNT} for a
     *                        negative or out-of-buffer block
     */
    static void checkVector(final String op, final String where, final String sizeName, final int n,
        final String countsName, final String displsName, final int[] counts, final int[] displs, final Buf b) {
        if (null == counts || null == displs || counts.length != n || displs.length != n) {
            throw Errors.invalid(ErrorClass.ARG, op, where, countsName + ".length=" + (null == counts ? "null"
                : counts.length) + " " + displsName + ".length=" + (null == displs ? "null" : displs.length)
                + ", expected " + sizeName + "=" + n + " each");
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0 || displs[i] < 0 || (long) displs[i] + counts[i] > b.count()) {
                throw Errors.invalid(ErrorClass.COUNT, op, where, countsName + "[" + i + "]=" + counts[i] + " "
                    + displsName + "[" + i + "]=" + displs[i] + " outside the buffer of count=" + b.count()
                    + ", expected 0 <= displ and displ + count <= " + b.count());
            }
        }
    }
}
