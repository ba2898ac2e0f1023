package mpi;

import dev.tutti.Buf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The neighbour collectives (MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v)) over point-to-point messages on
 * a topology's private communicator: every receive from the sources is posted, then every send to the
 * destinations; the operation is complete when all are. Block {@code j} of the receive buffer comes from source
 * {@code j}, block {@code j} of the send buffer (alltoall) goes to destination {@code j}; a {@code MPI.PROC_NULL}
 * neighbour (a non-periodic edge) sends nothing and leaves its block untouched. See {@link Topology} for the tags.
 */
final class Neighbors {
    private Neighbors() {
    }

    static dev.tutti.Request allGather(final Topology t, final Object s, final int sc, final Datatype st,
        final Object r, final int rc, final Datatype rt) {
        final Buf send = Bufs.of("neighborAllGather", s, sc, st);
        return exchange(t, same(send, t.destinations.length),
            blocks("neighborAllGather", r, uniform(rc, t.sources.length), rt));
    }

    static dev.tutti.Request allGatherv(final Topology t, final Object s, final int sc, final Datatype st,
        final Object r, final int[] rcounts, final int[] displs, final Datatype rt) {
        final Buf send = Bufs.of("neighborAllGatherv", s, sc, st);
        return exchange(t, same(send, t.destinations.length),
            blocks("neighborAllGatherv", r, rcounts, displs, rt, t.sources.length));
    }

    static dev.tutti.Request allToAll(final Topology t, final Object s, final int sc, final Datatype st,
        final Object r, final int rc, final Datatype rt) {
        return exchange(t, blocks("neighborAllToAll", s, uniform(sc, t.destinations.length), st),
            blocks("neighborAllToAll", r, uniform(rc, t.sources.length), rt));
    }

    static dev.tutti.Request allToAllv(final Topology t, final Object s, final int[] scounts, final int[] sdispls,
        final Datatype st, final Object r, final int[] rcounts, final int[] rdispls, final Datatype rt) {
        return exchange(t, blocks("neighborAllToAllv", s, scounts, sdispls, st, t.destinations.length),
            blocks("neighborAllToAllv", r, rcounts, rdispls, rt, t.sources.length));
    }

    /** Posts the receives, then the sends; one request over all. */
    private static dev.tutti.Request exchange(final Topology t, final Buf[] send, final Buf[] recv) {
        final dev.tutti.Comm c = t.traffic();
        final List<dev.tutti.Request> parts = new ArrayList<>();
        for (int j = 0; j < t.sources.length; j++) {
            if (MPI.PROC_NULL != t.sources[j]) {
                parts.add(c.irecv(recv[j], t.sources[j], t.recvTag(j)));
            }
        }
        for (int j = 0; j < t.destinations.length; j++) {
            if (MPI.PROC_NULL != t.destinations[j]) {
                parts.add(c.isend(send[j], t.destinations[j], t.sendTag(j)));
            }
        }
        return new AllRequest(parts.toArray(new dev.tutti.Request[0]));
    }

    private static Buf[] same(final Buf b, final int n) {
        final Buf[] a = new Buf[n];
        Arrays.fill(a, b);
        return a;
    }

    /** {@code n} blocks of {@code count} items one after another: counts and item displacements. */
    private static int[][] uniform(final int count, final int n) {
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int j = 0; j < n; j++) {
            counts[j] = count;
            displs[j] = j * count;
        }
        return new int[][] {counts, displs};
    }

    private static Buf[] blocks(final String what, final Object buf, final int[][] countsDispls, final Datatype type) {
        return blocks(what, buf, countsDispls[0], countsDispls[1], type, countsDispls[0].length);
    }

    /** Block {@code j}: {@code counts[j]} items of {@code type} from item {@code displs[j]} of {@code buf}. */
    private static Buf[] blocks(final String what, final Object buf, final int[] counts, final int[] displs,
        final Datatype type, final int n) {
        if (null == counts || null == displs || counts.length < n || displs.length < n) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": counts and displs need " + n + " entries (one per neighbour), "
                + "got " + (null == counts ? "null" : counts.length) + " and " + (null == displs ? "null"
                : displs.length));
        }
        final int[] c = Arrays.copyOf(counts, n);
        final int[] d = Arrays.copyOf(displs, n);
        final Buf whole = Bufs.span(what, buf, c, d, type);
        final int per = type.isNull() ? 1 : type.wirePerItem;
        final Buf[] out = new Buf[n];
        for (int j = 0; j < n; j++) {
            if (c[j] < 0) {
                throw MpiErrors.error(MPI.ERR_COUNT, what + ": counts[" + j + "]=" + c[j] + ", expected >= 0");
            }
            out[j] = 0 == c[j] ? whole.slice(0, 0) : whole.slice(d[j] * per, c[j] * per);
        }
        return out;
    }
}
