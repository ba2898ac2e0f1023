package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.coll.BlockingCallReuse;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollStart;
import dev.tutti.internal.Errors;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static dev.tutti.type.BooleanStaging.copy;
import static dev.tutti.type.BooleanStaging.finishers;
import static dev.tutti.type.BooleanStaging.recvMemory;
import static dev.tutti.type.BooleanStaging.sendMemory;

/**
 * The bridge from the collective API of {@link Communicator} to the engine: checks every argument before anything
 * is sent ({@link CollChecks}), resolves buffers to memory (staging {@code boolean[]} through bytes) and fills in
 * the call's descriptor ({@link CollCall}), which the caller hands to the engine's one door ({@link CollDoor}).
 * One instance per communicator (renewed when it is renamed).
 *
 * <p>Implementation note. A blocking call reuses the calling thread's descriptor ({@link BlockingCallReuse}), so a
 * repeated small blocking collective allocates nothing here; a call that outlives its method (nonblocking, tagged) gets
 * its own descriptor.
 */
public final class IntraBridge implements CollBridge {
    /** The finish steps of a call without staging. */
    private static final List<Runnable> NO_FINISH = List.of();

    private final CollComm coll;
    private final BlockingCallReuse blockingCalls = new BlockingCallReuse();
    private final String where;
    private final CollChecks check;

    public IntraBridge(final CollComm coll, final String where) {
        this.coll = coll;
        this.where = where;
        this.check = new CollChecks(where, "size", coll.size());
    }

    private int size() {
        return coll.size();
    }

    private int rank() {
        return coll.rank();
    }

    @Override
    public CollCall barrier(final CollStart start) {
        return call(CollKind.BARRIER, start, null, null, Datatype.BYTE, 0, -1, null, 0, 0, NO_FINISH);
    }

    @Override
    public CollCall bcast(final CollStart start, final Buf buf, final int root) {
        final String op = "bcast";
        check.need(op, "buf", buf);
        check.root(op, root, size());
        final List<Runnable> fin = finishers(buf);
        final MemorySegment m = recvMemory(buf, fin);
        return call(CollKind.BCAST, start, null, m, buf.datatype(), buf.count(), root, null, buf.byteSize(),
            buf.count(), fin);
    }

    @Override
    public CollCall gather(final CollStart start, final Buf send, final Buf recv, final int root) {
        final String op = "gather";
        check.root(op, root, size());
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = finishers(recv);
        final int count;
        final Datatype type;
        MemorySegment r = null;
        if (isRoot) {
            check.need(op, "recv", recv);
            if (!inPlace) {
                check.need(op, "send", send);
                check.sameType(op, send, recv);
            }
            count = inPlace ? recv.count() / size() : send.count();
            check.capacity(op, "recv", recv, (long) count * size());
            type = recv.datatype();
            r = recvMemory(recv, fin);
        } else {
            check.need(op, "send", send);
            count = send.count();
            type = send.datatype();
        }
        return call(CollKind.GATHER, start, inPlace ? null : sendMemory(send), r, type, count, root, null,
            (long) count * type.sizeBytes(), count, fin);
    }

    @Override
    public CollCall gatherv(final CollStart start, final Buf send, final Buf recv, final int[] counts,
        final int[] displs,
        final int root) {
        final String op = "gatherv";
        check.root(op, root, size());
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = finishers(recv);
        MemorySegment r = null;
        Datatype type;
        int count;
        if (isRoot) {
            check.need(op, "recv", recv);
            check.vector(op, "recvCounts", "displs", counts, displs, recv);
            count = counts[root];
            if (!inPlace) {
                check.need(op, "send", send);
                check.sameType(op, send, recv);
                check.capacity(op, "send", send, count);
            }
            type = recv.datatype();
            r = recvMemory(recv, fin);
        } else {
            check.need(op, "send", send);
            count = send.count();
            type = send.datatype();
        }
        return callVector(CollKind.GATHERV, start, inPlace ? null : sendMemory(send), r, type, count, root, null, null,
            null, counts, displs, 0, 0, fin);
    }

    @Override
    public CollCall scatter(final CollStart start, final Buf send, final Buf recv, final int root) {
        final String op = "scatter";
        check.root(op, root, size());
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == recv;
        final List<Runnable> fin = finishers(recv);
        final int count;
        final Datatype type;
        if (isRoot) {
            check.need(op, "send", send);
            if (!inPlace) {
                check.need(op, "recv", recv);
                check.sameType(op, send, recv);
            }
            count = inPlace ? send.count() / size() : recv.count();
            check.capacity(op, "send", send, (long) count * size());
            type = send.datatype();
        } else {
            check.need(op, "recv", recv);
            count = recv.count();
            type = recv.datatype();
        }
        return call(CollKind.SCATTER, start, isRoot ? sendMemory(send) : null, inPlace ? null : recvMemory(recv, fin),
            type, count, root, null, (long) count * type.sizeBytes(), count, fin);
    }

    @Override
    public CollCall scatterv(final CollStart start, final Buf send, final int[] counts, final int[] displs,
        final Buf recv,
        final int root) {
        final String op = "scatterv";
        check.root(op, root, size());
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == recv;
        final List<Runnable> fin = finishers(recv);
        int count;
        Datatype type;
        if (isRoot) {
            check.need(op, "send", send);
            check.vector(op, "sendCounts", "displs", counts, displs, send);
            count = counts[root];
            if (!inPlace) {
                check.need(op, "recv", recv);
                check.sameType(op, send, recv);
                check.capacity(op, "recv", recv, count);
            }
            type = send.datatype();
        } else {
            check.need(op, "recv", recv);
            count = recv.count();
            type = recv.datatype();
        }
        return callVector(CollKind.SCATTERV, start, isRoot ? sendMemory(send) : null,
            inPlace ? null : recvMemory(recv, fin), type, count, root, null, counts, displs, null, null, 0, 0, fin);
    }

    @Override
    public CollCall allgather(final CollStart start, final Buf send, final Buf recv) {
        final String op = "allgather";
        check.need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
        }
        final int count = inPlace ? recv.count() / size() : send.count();
        check.capacity(op, "recv", recv, (long) count * size());
        final List<Runnable> fin = finishers(recv);
        return call(CollKind.ALLGATHER, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, null, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    @Override
    public CollCall allgatherv(final CollStart start, final Buf send, final Buf recv, final int[] counts,
        final int[] displs) {
        final String op = "allgatherv";
        check.need(op, "recv", recv);
        check.vector(op, "recvCounts", "displs", counts, displs, recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
            check.capacity(op, "send", send, counts[rank()]);
        }
        final List<Runnable> fin = finishers(recv);
        return callVector(CollKind.ALLGATHERV, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), counts[rank()], -1, null, null, null, counts, displs, 0, 0, fin);
    }

    @Override
    public CollCall alltoall(final CollStart start, final Buf send, final Buf recv) {
        final String op = "alltoall";
        check.need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        final Buf input = inPlace ? recv : send;
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
        }
        check.multiple(op, inPlace ? "recv" : "send", input);
        final int count = input.count() / size();
        check.capacity(op, "recv", recv, (long) count * size());
        final List<Runnable> fin = finishers(recv);
        return call(CollKind.ALLTOALL, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, null, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    @Override
    public CollCall alltoallv(final CollStart start, final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        final String op = "alltoallv";
        check.need(op, "recv", recv);
        check.vector(op, "recvCounts", "recvDispls", recvCounts, recvDispls, recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
            check.vector(op, "sendCounts", "sendDispls", sendCounts, sendDispls, send);
        }
        final List<Runnable> fin = finishers(recv);
        return callVector(CollKind.ALLTOALLV, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), 0, -1, null, sendCounts, sendDispls, recvCounts, recvDispls, 0, 0, fin);
    }

    @Override
    public CollCall alltoallw(final CollStart start, final Buf[] send, final Buf[] recv) {
        final String op = "alltoallw";
        check.buffers(op, send, recv);
        final MemorySegment[] s = new MemorySegment[size()];
        final MemorySegment[] r = new MemorySegment[size()];
        final Datatype[] st = new Datatype[size()];
        final Datatype[] rt = new Datatype[size()];
        final List<Runnable> fin = finishers(recv);
        for (int i = 0; i < size(); i++) {
            check.need(op, "send[" + i + "]", send[i]);
            check.need(op, "recv[" + i + "]", recv[i]);
            s[i] = sendMemory(send[i]);
            st[i] = send[i].datatype();
            r[i] = recvMemory(recv[i], fin);
            rt[i] = recv[i].datatype();
        }
        if (send[rank()].byteSize() != recv[rank()].byteSize() || st[rank()] != rt[rank()]) {
            throw Errors.invalid(ErrorClass.COUNT, op, where, "send[" + rank() + "]=" + send[rank()] + " but recv["
                + rank() + "]=" + recv[rank()] + ", expected the same type and count for this rank's own block");
        }
        return call(CollKind.ALLTOALLW, start, new CollArgs(op, null, null, Datatype.BYTE, 0, -1, null, null, null,
            null, null, s, st, r, rt), 0, 0, fin);
    }

    @Override
    public CollCall reduce(final CollStart start, final Buf send, final Buf recv, final Op o, final int root) {
        final String op = "reduce";
        check.root(op, root, size());
        check.needOp(op, o);
        final boolean isRoot = rank() == root;
        final boolean inPlace = isRoot && Buf.IN_PLACE == send;
        final List<Runnable> fin = finishers(recv);
        final Buf typed = isRoot ? recv : send;
        check.need(op, isRoot ? "recv" : "send", typed);
        if (!inPlace) {
            check.need(op, "send", send);
        }
        if (isRoot && !inPlace) {
            check.sameType(op, send, recv);
            check.capacity(op, "recv", recv, send.count());
        }
        final int count = inPlace ? recv.count() : send.count();
        check.reducible(op, o, typed.datatype());
        return call(CollKind.REDUCE, start, inPlace ? null : sendMemory(send), isRoot ? recvMemory(recv, fin) : null,
            typed.datatype(), count, root, o, (long) count * typed.datatype().sizeBytes(), count, fin);
    }

    @Override
    public CollCall allreduce(final CollStart start, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.ALLREDUCE, start, send, recv, o);
    }

    public CollCall scan(final CollStart start, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.SCAN, start, send, recv, o);
    }

    public CollCall exscan(final CollStart start, final Buf send, final Buf recv, final Op o) {
        return reduction(CollKind.EXSCAN, start, send, recv, o);
    }

    private CollCall reduction(final CollKind kind, final CollStart start, final Buf send, final Buf recv, final Op o) {
        final String op = kind.mpiName();
        check.needOp(op, o);
        check.need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
            check.capacity(op, "recv", recv, send.count());
        }
        final int count = inPlace ? recv.count() : send.count();
        check.reducible(op, o, recv.datatype());
        final List<Runnable> fin = finishers(recv);
        return call(kind, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin), recv.datatype(), count, -1,
            o, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    @Override
    public CollCall reduceScatterBlock(final CollStart start, final Buf send, final Buf recv, final Op o) {
        final String op = "reduce_scatter_block";
        check.needOp(op, o);
        check.need(op, "recv", recv);
        final boolean inPlace = Buf.IN_PLACE == send;
        final int count = inPlace ? recv.count() / size() : recv.count();
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
            check.capacity(op, "send", send, (long) count * size());
        }
        check.reducible(op, o, recv.datatype());
        final List<Runnable> fin = finishers(recv);
        return call(CollKind.REDUCE_SCATTER_BLOCK, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), count, -1, o, (long) count * recv.datatype().sizeBytes(), count, fin);
    }

    @Override
    public CollCall reduceScatter(final CollStart start, final Buf send, final Buf recv, final int[] counts,
        final Op o) {
        final String op = "reduce_scatter";
        check.needOp(op, o);
        check.need(op, "recv", recv);
        final long total = check.counts(op, "recvCounts", counts, "size", size());
        final boolean inPlace = Buf.IN_PLACE == send;
        check.capacity(op, "recv", recv, inPlace ? total : counts[rank()]);
        if (!inPlace) {
            check.need(op, "send", send);
            check.sameType(op, send, recv);
            check.capacity(op, "send", send, total);
        }
        check.reducible(op, o, recv.datatype());
        final List<Runnable> fin = finishers(recv);
        return callVector(CollKind.REDUCE_SCATTER, start, inPlace ? null : sendMemory(send), recvMemory(recv, fin),
            recv.datatype(), counts[rank()], -1, o, null, null, counts, null, total * recv.datatype().sizeBytes(),
            total, fin);
    }

    // --------------------------------------------------------------------- symmetric forms: the two groups coincide

    @Override
    public CollCall bcast(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        final String op = "bcast";
        check.sameRoot(op, root, remoteRoot);
        check.root(op, root, size());
        check.need(op, "recv", recv);
        if (rank() == root && send != recv) {
            check.need(op, "send", send);
            if (send.datatype() != recv.datatype() || send.count() != recv.count()) {
                throw Errors.invalid(ErrorClass.COUNT, op, where, "send=" + send + " but recv=" + recv
                    + " at the root, expected the same type and count");
            }
            copy(send, recv);
        }
        return bcast(start, recv, root);
    }

    @Override
    public CollCall scatter(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        check.sameRoot("scatter", root, remoteRoot);
        return scatter(start, send, recv, root);
    }

    @Override
    public CollCall gather(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        check.sameRoot("gather", root, remoteRoot);
        return gather(start, send, recv, root);
    }

    @Override
    public CollCall reduce(final CollStart start, final Buf send, final Buf recv, final Op o, final int root,
        final int remoteRoot) {
        check.sameRoot("reduce", root, remoteRoot);
        return reduce(start, send, recv, o, root);
    }

    // ----------------------------------------------------------------------------------------------- machinery

    /** Fills in a regular (non-v) collective: the door selects the algorithm and may take its schedule from the cache. */
    private CollCall call(final CollKind kind, final CollStart start, final MemorySegment send,
        final MemorySegment recv, final Datatype type, final int count, final int root, final Op o, final long bytes,
        final long selCount, final List<Runnable> finish) {
        return descriptor(start).intra(coll, where, kind, start, send, recv, type, count, root, o, bytes, selCount,
            finish);
    }

    /**
     * Fills in a v-collective, its counts and displacements the caller's arrays (as MPI, the caller leaves them
     * alone until the call completes): its argument record is made only if a schedule is built for it.
     */
    private CollCall callVector(final CollKind kind, final CollStart start, final MemorySegment send,
        final MemorySegment recv, final Datatype type, final int count, final int root, final Op o,
        final int[] sendCounts, final int[] sendDispls, final int[] recvCounts, final int[] recvDispls,
        final long bytes, final long selCount, final List<Runnable> finish) {
        return descriptor(start).intraVector(coll, where, kind, start, send, recv, type, count, root, o, sendCounts,
            sendDispls, recvCounts, recvDispls, bytes, selCount, finish);
    }

    /** Fills in a collective whose arguments the cache cannot key (alltoallw). */
    private CollCall call(final CollKind kind, final CollStart start, final CollArgs args, final long bytes,
        final long count, final List<Runnable> finish) {
        return descriptor(start).intra(coll, where, kind, start, args, bytes, count, finish);
    }

    /** @return the thread's reused descriptor for a blocking call, a new one for a call that outlives this one */
    private CollCall descriptor(final CollStart start) {
        return CollStart.BLOCKING == start ? blockingCalls.take() : new CollCall();
    }
}
