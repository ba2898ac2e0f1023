package mpi;

import dev.tutti.Communicator;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code MPI.OBJECT} forms of the data-moving collectives, on Tutti's object collectives: each rank's block is
 * one serialised {@code Object[]} ({@link Wire}), so blocks of any size and class travel, and each arrives as new
 * objects stored into the receive buffer's places ({@link Slab#storeObjects}).
 */
final class ObjColl {
    private ObjColl() {
    }

    private static void bothObjects(final String call, final Datatype sendtype, final Datatype recvtype) {
        if (null == sendtype || null == recvtype || Base.OBJECT != sendtype.base()
            || Base.OBJECT != recvtype.base()) {
            throw Fail.error(call + ": sendtype " + sendtype + " and recvtype " + recvtype + " must both be "
                + "MPI.OBJECT types if one is (objects cannot be received as primitives or sent from them)");
        }
    }

    private static byte[] block(final String call, final String arg, final Object buf, final int offset,
        final int count, final Datatype type) {
        return Wire.write(call, Slab.objects(call, arg, buf, offset, count, type));
    }

    private static void store(final String call, final byte[] bytes, final Object buf, final int offset,
        final int count, final Datatype type) {
        Slab.check(call, "recvbuf", buf, offset, count, type);
        Slab.storeObjects(call, Wire.read(call, bytes), buf, offset, count, type);
    }

    static void bcast(final Communicator c, final String call, final Object buf, final int offset, final int count,
        final Datatype type, final int root) {
        final boolean isRoot = c.rank() == root;
        final byte[] got = c.bcastObject(isRoot ? block(call, "buf", buf, offset, count, type) : null, root);
        if (!isRoot) {
            store(call, got, buf, offset, count, type);
        }
    }

    static void gatherv(final Communicator c, final String call, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) {
        final boolean isRoot = c.rank() == root;
        if (isRoot) {
            bothObjects(call, sendtype, recvtype);
            checkBlocks(call, recvcount, displs, c.size());
        }
        final List<byte[]> all = c.gatherObject(block(call, "sendbuf", sendbuf, sendoffset, sendcount, sendtype),
            root);
        if (isRoot) {
            for (int i = 0; i < all.size(); i++) {
                store(call, all.get(i), recvbuf, recvoffset + displs[i], recvcount[i], recvtype);
            }
        }
    }

    static void scatterv(final Communicator c, final String call, final Object sendbuf, final int sendoffset,
        final int[] sendcount, final int[] displs, final Datatype sendtype, final Object recvbuf,
        final int recvoffset, final int recvcount, final Datatype recvtype, final int root) {
        List<byte[]> blocks = null;
        if (c.rank() == root) {
            bothObjects(call, sendtype, recvtype);
            checkBlocks(call, sendcount, displs, c.size());
            blocks = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) {
                blocks.add(block(call, "sendbuf", sendbuf, sendoffset + displs[i], sendcount[i], sendtype));
            }
        }
        final byte[] mine = c.scatterObject(blocks, root);
        store(call, mine, recvbuf, recvoffset, recvcount, recvtype);
    }

    static void allgatherv(final Communicator c, final String call, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int[] recvcount, final int[] displs, final Datatype recvtype) {
        bothObjects(call, sendtype, recvtype);
        checkBlocks(call, recvcount, displs, c.size());
        final List<byte[]> all = c.allgatherObject(block(call, "sendbuf", sendbuf, sendoffset, sendcount,
            sendtype));
        for (int i = 0; i < all.size(); i++) {
            store(call, all.get(i), recvbuf, recvoffset + displs[i], recvcount[i], recvtype);
        }
    }

    static void alltoallv(final Communicator c, final String call, final Object sendbuf, final int sendoffset,
        final int[] sendcount, final int[] sdispls, final Datatype sendtype, final Object recvbuf,
        final int recvoffset, final int[] recvcount, final int[] rdispls, final Datatype recvtype) {
        bothObjects(call, sendtype, recvtype);
        checkBlocks(call, sendcount, sdispls, c.size());
        checkBlocks(call, recvcount, rdispls, c.size());
        final List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            out.add(block(call, "sendbuf", sendbuf, sendoffset + sdispls[i], sendcount[i], sendtype));
        }
        final List<byte[]> in = c.alltoallObject(out);
        for (int i = 0; i < in.size(); i++) {
            store(call, in.get(i), recvbuf, recvoffset + rdispls[i], recvcount[i], recvtype);
        }
    }

    private static void checkBlocks(final String call, final int[] counts, final int[] displs, final int n) {
        if (null == counts || null == displs || counts.length < n || displs.length < n) {
            throw Fail.error(call + ": counts and displacements need " + n + " entries each (one per process), got "
                + (null == counts ? "null" : counts.length) + " and " + (null == displs ? "null" : displs.length));
        }
    }
}
