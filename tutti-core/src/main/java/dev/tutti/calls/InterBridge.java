package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.InterArgs;
import dev.tutti.coll.InterComm;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static dev.tutti.type.BooleanStaging.finishers;
import static dev.tutti.type.BooleanStaging.recvMemory;
import static dev.tutti.type.BooleanStaging.sendMemory;

/**
 * The bridge from the collective API of {@link Intercommunicator} to the engine: checks every argument before
 * anything is sent ({@link CollChecks}), translates MPI's one-way forms into the symmetric schedules with one
 * direction empty, resolves buffers to memory and fills in the call's descriptor ({@link CollCall}) for the
 * engine's one door. One instance per intercommunicator (renewed when it is renamed).
 *
 * <p>Implementation note. Roots are passed to the engine as this rank's group sees them: {@code root} is this
 * group's sender (or -1 when this group only receives), {@code remoteRoot} the other group's. Every call gets its
 * own descriptor: intercommunicator collectives are not on the small-message fast path of intracommunicators.
 */
public final class InterBridge implements CollBridge {
    /** The empty buffer of a direction that moves nothing. */
    private static final Buf NONE = Buf.of(new byte[0]);
    private static final List<Runnable> NO_FINISH = List.of();

    private final InterComm ic;
    private final String where;
    private final int rank;
    private final int size;
    private final int remoteSize;
    private final CollChecks check;

    public InterBridge(final InterComm ic, final String where, final int rank, final int size, final int remoteSize) {
        this.ic = ic;
        this.where = where;
        this.rank = rank;
        this.size = size;
        this.remoteSize = remoteSize;
        this.check = new CollChecks(where, "remoteSize", remoteSize);
    }

    // ------------------------------------------------------------------------------------ MPI's one-way forms

    @Override
    public CollCall barrier(final CollStart start) {
        return call(start, CollKind.BARRIER, null, NO_FINISH);
    }

    @Override
    public CollCall bcast(final CollStart start, final Buf buf, final int root) {
        final String op = "bcast";
        check.oneWayRoot(op, root);
        if (Intercommunicator.ROOT == root) {
            check.need(op, "buf", buf);
            return bcastBoth(start, op, buf, NONE, rank, 0);
        }
        if (Comm.PROC_NULL == root) {
            return bcastBoth(start, op, NONE, NONE, -1, 0);
        }
        check.need(op, "buf", buf);
        return bcastBoth(start, op, NONE, buf, 0, root);
    }

    @Override
    public CollCall gather(final CollStart start, final Buf send, final Buf recv, final int root) {
        final String op = "gather";
        check.oneWayRoot(op, root);
        if (Intercommunicator.ROOT == root) {
            check.need(op, "recv", recv);
            return gatherBoth(start, op, NONE, recv, rank, 0);
        }
        if (Comm.PROC_NULL == root) {
            return gatherBoth(start, op, NONE, NONE, -1, 0);
        }
        check.need(op, "send", send);
        return gatherBoth(start, op, send, NONE, 0, root);
    }

    @Override
    public CollCall gatherv(final CollStart start, final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs, final int root) {
        final String op = "gatherv";
        check.oneWayRoot(op, root);
        final List<Runnable> fin = finishers(recv);
        final InterArgs a;
        if (Intercommunicator.ROOT == root) {
            check.need(op, "recv", recv);
            check.vector(op, "recvCounts", "displs", recvCounts, displs, recv);
            a = new InterArgs(op, Datatype.BYTE, recv.datatype(), null, null, 0, recvMemory(recv, fin), 0, rank, -1,
                null, null, recvCounts, displs, null, null, null, null);
        } else if (Comm.PROC_NULL == root) {
            a = nothing(op);
        } else {
            check.need(op, "send", send);
            a = InterArgs.of(op, send.datatype(), Datatype.BYTE, null, sendMemory(send), send.count(), null, 0, -1,
                root);
        }
        return call(start, CollKind.GATHERV, a, fin);
    }

    @Override
    public CollCall scatter(final CollStart start, final Buf send, final Buf recv, final int root) {
        final String op = "scatter";
        check.oneWayRoot(op, root);
        if (Intercommunicator.ROOT == root) {
            check.need(op, "send", send);
            return scatterBoth(start, op, send, NONE, rank, 0);
        }
        if (Comm.PROC_NULL == root) {
            return scatterBoth(start, op, NONE, NONE, -1, 0);
        }
        check.need(op, "recv", recv);
        return scatterBoth(start, op, NONE, recv, 0, root);
    }

    @Override
    public CollCall scatterv(final CollStart start, final Buf send, final int[] sendCounts, final int[] displs,
        final Buf recv, final int root) {
        final String op = "scatterv";
        check.oneWayRoot(op, root);
        final List<Runnable> fin = finishers(recv);
        final InterArgs a;
        if (Intercommunicator.ROOT == root) {
            check.need(op, "send", send);
            check.vector(op, "sendCounts", "displs", sendCounts, displs, send);
            a = new InterArgs(op, send.datatype(), Datatype.BYTE, null, sendMemory(send), 0, null, 0, rank, -1,
                sendCounts, displs, null, null, null, null, null, null);
        } else if (Comm.PROC_NULL == root) {
            a = nothing(op);
        } else {
            check.need(op, "recv", recv);
            a = InterArgs.of(op, Datatype.BYTE, recv.datatype(), null, null, 0, recvMemory(recv, fin), recv.count(),
                -1, root);
        }
        return call(start, CollKind.SCATTERV, a, fin);
    }

    @Override
    public CollCall reduce(final CollStart start, final Buf send, final Buf recv, final Op o, final int root) {
        final String op = "reduce";
        check.oneWayRoot(op, root);
        check.needOp(op, o);
        if (Intercommunicator.ROOT == root) {
            check.need(op, "recv", recv);
            return reduceBoth(start, op, NONE, recv, o, rank, 0);
        }
        if (Comm.PROC_NULL == root) {
            return reduceBoth(start, op, NONE, NONE, o, -1, 0);
        }
        check.need(op, "send", send);
        return reduceBoth(start, op, send, NONE, o, 0, root);
    }

    // ------------------------------------------------------------------------------ both directions at once

    @Override
    public CollCall allgather(final CollStart start, final Buf send, final Buf recv) {
        final String op = "allgather";
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.multiple(op, "recv", r);
        final List<Runnable> fin = finishers(r);
        return call(start, CollKind.ALLGATHER, InterArgs.of(op, s.datatype(), r.datatype(), null, sendMemory(s),
            s.count(), recvMemory(r, fin), r.count() / remoteSize, -1, -1), fin);
    }

    @Override
    public CollCall allgatherv(final CollStart start, final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs) {
        final String op = "allgatherv";
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.vector(op, "recvCounts", "displs", recvCounts, displs, r);
        final List<Runnable> fin = finishers(r);
        return call(start, CollKind.ALLGATHERV, new InterArgs(op, s.datatype(), r.datatype(), null, sendMemory(s),
            s.count(), recvMemory(r, fin), 0, -1, -1, null, null, recvCounts, displs, null, null, null, null), fin);
    }

    @Override
    public CollCall alltoall(final CollStart start, final Buf send, final Buf recv) {
        final String op = "alltoall";
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.multiple(op, "send", s);
        check.multiple(op, "recv", r);
        final List<Runnable> fin = finishers(r);
        return call(start, CollKind.ALLTOALL, InterArgs.of(op, s.datatype(), r.datatype(), null, sendMemory(s),
            s.count() / remoteSize, recvMemory(r, fin), r.count() / remoteSize, -1, -1), fin);
    }

    @Override
    public CollCall alltoallv(final CollStart start, final Buf send, final int[] sendCounts,
        final int[] sendDispls, final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        final String op = "alltoallv";
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.vector(op, "sendCounts", "sendDispls", sendCounts, sendDispls, s);
        check.vector(op, "recvCounts", "recvDispls", recvCounts, recvDispls, r);
        final List<Runnable> fin = finishers(r);
        return call(start, CollKind.ALLTOALLV, new InterArgs(op, s.datatype(), r.datatype(), null, sendMemory(s), 0,
            recvMemory(r, fin), 0, -1, -1, sendCounts, sendDispls, recvCounts, recvDispls, null, null, null, null),
            fin);
    }

    @Override
    public CollCall alltoallw(final CollStart start, final Buf[] send, final Buf[] recv) {
        final String op = "alltoallw";
        check.buffers(op, send, recv);
        final List<Runnable> fin = finishers(recv);
        final MemorySegment[] sb = new java.lang.foreign.MemorySegment[remoteSize];
        final MemorySegment[] rb = new java.lang.foreign.MemorySegment[remoteSize];
        final Datatype[] st = new Datatype[remoteSize];
        final Datatype[] rt = new Datatype[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            sb[j] = sendMemory(send[j]);
            st[j] = send[j].datatype();
            rb[j] = recvMemory(recv[j], fin);
            rt[j] = recv[j].datatype();
        }
        return call(start, CollKind.ALLTOALLW, new InterArgs(op, Datatype.BYTE, Datatype.BYTE, null, null, 0, null,
            0, -1, -1, null, null, null, null, sb, st, rb, rt), fin);
    }

    @Override
    public CollCall allreduce(final CollStart start, final Buf send, final Buf recv, final Op o) {
        return reduction(start, CollKind.ALLREDUCE, send, recv, o);
    }

    @Override
    public CollCall reduceScatterBlock(final CollStart start, final Buf send, final Buf recv, final Op o) {
        return reduction(start, CollKind.REDUCE_SCATTER_BLOCK, send, recv, o);
    }

    private CollCall reduction(final CollStart start, final CollKind kind, final Buf send, final Buf recv,
        final Op o) {
        final String op = kind.mpiName();
        check.needOp(op, o);
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.reducible(op, o, s);
        check.reducible(op, o, r);
        final List<Runnable> fin = finishers(r);
        return call(start, kind, InterArgs.of(op, s.datatype(), r.datatype(), o, sendMemory(s), s.count(),
            recvMemory(r, fin), r.count(), -1, -1), fin);
    }

    @Override
    public CollCall reduceScatter(final CollStart start, final Buf send, final Buf recv, final int[] recvCounts,
        final Op o) {
        final String op = "reduce_scatter";
        check.needOp(op, o);
        check.noInPlace(op, send, recv);
        final Buf s = orNone(send);
        final Buf r = orNone(recv);
        check.counts(op, "recvCounts", recvCounts, "size", size);
        check.capacity(op, "recv", r, recvCounts[rank]);
        check.reducible(op, o, s);
        check.reducible(op, o, r);
        final List<Runnable> fin = finishers(r);
        return call(start, CollKind.REDUCE_SCATTER, new InterArgs(op, s.datatype(), r.datatype(), o, sendMemory(s),
            s.count(), recvMemory(r, fin), recvCounts[rank], -1, -1, null, null, recvCounts.clone(), null, null,
            null, null, null), fin);
    }

    // ---------------------------------------------------------------------------------------- symmetric forms

    @Override
    public CollCall bcast(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        symmetric("bcast", send, recv, root, remoteRoot);
        return bcastBoth(start, "bcast", orNone(send), orNone(recv), root, remoteRoot);
    }

    @Override
    public CollCall scatter(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        symmetric("scatter", send, recv, root, remoteRoot);
        return scatterBoth(start, "scatter", orNone(send), orNone(recv), root, remoteRoot);
    }

    @Override
    public CollCall gather(final CollStart start, final Buf send, final Buf recv, final int root,
        final int remoteRoot) {
        symmetric("gather", send, recv, root, remoteRoot);
        return gatherBoth(start, "gather", orNone(send), orNone(recv), root, remoteRoot);
    }

    @Override
    public CollCall reduce(final CollStart start, final Buf send, final Buf recv, final Op o, final int root,
        final int remoteRoot) {
        symmetric("reduce", send, recv, root, remoteRoot);
        check.needOp("reduce", o);
        return reduceBoth(start, "reduce", orNone(send), orNone(recv), o, root, remoteRoot);
    }

    private void symmetric(final String op, final Buf send, final Buf recv, final int root, final int remoteRoot) {
        check.symmetricRoots(op, root, size, remoteRoot);
        check.noInPlace(op, send, recv);
    }

    // -------------------------------------------------------------------------------------------- machinery

    private CollCall bcastBoth(final CollStart start, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        final boolean isRoot = rank == root;
        final List<Runnable> fin = finishers(recv);
        return call(start, CollKind.BCAST, InterArgs.of(op, isRoot ? send.datatype() : Datatype.BYTE,
            recv.datatype(), null, isRoot ? sendMemory(send) : null, isRoot ? send.count() : 0, recvMemory(recv, fin),
            recv.count(), root, remoteRoot), fin);
    }

    private CollCall scatterBoth(final CollStart start, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        final boolean isRoot = rank == root;
        if (isRoot) {
            check.multiple(op, "send", send);
        }
        final List<Runnable> fin = finishers(recv);
        return call(start, CollKind.SCATTER, InterArgs.of(op, isRoot ? send.datatype() : Datatype.BYTE,
            recv.datatype(), null, isRoot ? sendMemory(send) : null, isRoot ? send.count() / remoteSize : 0,
            recvMemory(recv, fin), recv.count(), root, remoteRoot), fin);
    }

    private CollCall gatherBoth(final CollStart start, final String op, final Buf send, final Buf recv,
        final int root, final int remoteRoot) {
        final boolean isRoot = rank == root;
        if (isRoot) {
            check.multiple(op, "recv", recv);
        }
        final List<Runnable> fin = finishers(recv);
        return call(start, CollKind.GATHER, InterArgs.of(op, send.datatype(), isRoot ? recv.datatype()
            : Datatype.BYTE, null, sendMemory(send), send.count(), isRoot ? recvMemory(recv, fin) : null,
            isRoot ? recv.count() / remoteSize : 0, root, remoteRoot), fin);
    }

    private CollCall reduceBoth(final CollStart start, final String op, final Buf send, final Buf recv, final Op o,
        final int root, final int remoteRoot) {
        final boolean isRoot = rank == root;
        check.reducible(op, o, send);
        check.reducible(op, o, isRoot ? recv : NONE);
        final List<Runnable> fin = finishers(recv);
        return call(start, CollKind.REDUCE, InterArgs.of(op, send.datatype(), isRoot ? recv.datatype()
            : Datatype.BYTE, o, sendMemory(send), send.count(), isRoot ? recvMemory(recv, fin) : null,
            isRoot ? recv.count() : 0, root, remoteRoot), fin);
    }

    private static InterArgs nothing(final String op) {
        return InterArgs.of(op, Datatype.BYTE, Datatype.BYTE, null, null, 0, null, 0, -1, -1);
    }

    private static Buf orNone(final Buf b) {
        return null == b ? NONE : b;
    }

    private CollCall call(final CollStart start, final CollKind kind, final InterArgs a, final List<Runnable> fin) {
        return new CollCall().inter(ic, where, kind, start, a, fin);
    }
}
