package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;

/**
 * The data-moving collectives of {@link Intracomm} (reductions are in {@link Reductions}): Tutti's collectives on
 * the buffers {@link Slab} and {@link Blocks} make, or, for {@code MPI.OBJECT}, the object forms of
 * {@link ObjColl}. The plain forms are the "v" forms with equal blocks, block {@code i} at
 * {@code offset + i * count * extent}.
 */
final class Coll {
    private Coll() {
    }

    static boolean objects(final Datatype a, final Datatype b) {
        return (null != a && Base.OBJECT == a.base()) || (null != b && Base.OBJECT == b.base());
    }

    static void bcast(final Intracomm comm, final Object buf, final int offset, final int count,
        final Datatype type, final int root) {
        final String call = "Intracomm.Bcast";
        final Communicator c = comm.intra(call);
        try {
            if (objects(type, null)) {
                ObjColl.bcast(c, call, buf, offset, count, type, root);
                return;
            }
            if (c.rank() == root) {
                c.bcast(Slab.send(call, "buf", buf, offset, count, type), root);
            } else {
                final Slab.Sink sink = Slab.recv(call, "buf", buf, offset, count, type);
                c.bcast(sink.buf, root);
                sink.finish(Slab.elements(call, count, type));
            }
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    static void gatherv(final Intracomm comm, final String call, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) {
        final Communicator c = comm.intra(call);
        try {
            if (objects(sendtype, recvtype)) {
                ObjColl.gatherv(c, call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                    displs, recvtype, root);
                return;
            }
            final Buf send = Slab.send(call, "sendbuf", sendbuf, sendoffset, sendcount, sendtype);
            if (c.rank() != root) {
                c.gatherv(send, null, null, null, root);
                return;
            }
            final Blocks b = Blocks.of(call, "recvbuf", false, recvbuf, recvoffset, recvcount, displs, recvtype,
                c.size());
            c.gatherv(send, b.buf, b.counts, b.displs, root);
            b.finish();
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    static void scatterv(final Intracomm comm, final String call, final Object sendbuf, final int sendoffset,
        final int[] sendcount, final int[] displs, final Datatype sendtype, final Object recvbuf,
        final int recvoffset, final int recvcount, final Datatype recvtype, final int root) {
        final Communicator c = comm.intra(call);
        try {
            if (objects(sendtype, recvtype)) {
                ObjColl.scatterv(c, call, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, root);
                return;
            }
            final Slab.Sink sink = Slab.recv(call, "recvbuf", recvbuf, recvoffset, recvcount, recvtype);
            if (c.rank() != root) {
                c.scatterv(null, null, null, sink.buf, root);
            } else {
                final Blocks b = Blocks.of(call, "sendbuf", true, sendbuf, sendoffset, sendcount, displs, sendtype,
                    c.size());
                c.scatterv(b.buf, b.counts, b.displs, sink.buf, root);
            }
            sink.finish(Slab.elements(call, recvcount, recvtype));
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    static void allgatherv(final Intracomm comm, final String call, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int[] recvcount, final int[] displs, final Datatype recvtype) {
        final Communicator c = comm.intra(call);
        try {
            if (objects(sendtype, recvtype)) {
                ObjColl.allgatherv(c, call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                    displs, recvtype);
                return;
            }
            final Buf send = Slab.send(call, "sendbuf", sendbuf, sendoffset, sendcount, sendtype);
            final Blocks b = Blocks.of(call, "recvbuf", false, recvbuf, recvoffset, recvcount, displs, recvtype,
                c.size());
            c.allgatherv(send, b.buf, b.counts, b.displs);
            b.finish();
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    static void alltoallv(final Intracomm comm, final String call, final Object sendbuf, final int sendoffset,
        final int[] sendcount, final int[] sdispls, final Datatype sendtype, final Object recvbuf,
        final int recvoffset, final int[] recvcount, final int[] rdispls, final Datatype recvtype) {
        final Communicator c = comm.intra(call);
        try {
            if (objects(sendtype, recvtype)) {
                ObjColl.alltoallv(c, call, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset,
                    recvcount, rdispls, recvtype);
                return;
            }
            final Blocks s = Blocks.of(call, "sendbuf", true, sendbuf, sendoffset, sendcount, sdispls, sendtype,
                c.size());
            final Blocks r = Blocks.of(call, "recvbuf", false, recvbuf, recvoffset, recvcount, rdispls, recvtype,
                c.size());
            c.alltoallv(s.buf, s.counts, s.displs, r.buf, r.counts, r.displs);
            r.finish();
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }
}
