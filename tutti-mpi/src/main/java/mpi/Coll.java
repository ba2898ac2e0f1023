package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Intercommunicator;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * The collectives of {@link Comm} and {@link Intracomm}, translated from MPI's arguments (buffers, counts in items,
 * in-place overloads, MPI's root conventions) to Tutti's calls on a {@link Communicator} or an
 * {@link Intercommunicator}. Each method runs the blocking call and returns null, or with {@code nb} starts the
 * nonblocking one and returns its request, so that both forms share one translation.
 *
 * <p>Rooted collectives on an intercommunicator follow MPI: {@code MPI.ROOT} at the root, {@code MPI.PROC_NULL} at
 * the other ranks of its group (they move nothing), and the root's remote rank in the other group. In-place forms
 * exist on intracommunicators only, as in MPI.
 *
 * <p>The per-process arrays of the v- and w-collectives (counts, displacements, datatypes) and reduceScatter's
 * counts are read for their first n entries only, n being the number of processes they stand for; longer arrays
 * are accepted, as MPI and Open MPI's bindings accept them, and shorter ones are an ERR_ARG error.
 */
final class Coll {
    /** Which gatherv/scatterv overload was called. */
    enum Form {
        /** Both buffers given. */
        FULL,
        /** The root's in-place call (its own block is already in place). */
        ROOT_IN_PLACE,
        /** A non-root's call without the root-only buffer. */
        NON_ROOT
    }

    private Coll() {
    }

    // ------------------------------------------------------------------------------------------- helpers

    private static boolean inter(final dev.tutti.Comm c) {
        return c instanceof Intercommunicator;
    }

    /** @return whether this rank is the root: MPI.ROOT on an intercommunicator, its own rank on an intra one */
    private static boolean isRoot(final dev.tutti.Comm c, final int root) {
        return inter(c) ? MPI.ROOT == root : c.rank() == root;
    }

    /** @return whether this rank moves no data in a rooted intercommunicator collective (ROOT's group, not ROOT) */
    private static boolean idle(final dev.tutti.Comm c, final int root) {
        return inter(c) && MPI.PROC_NULL == root;
    }

    /** @return the number of blocks a root holds: the group size, or the remote group's on an intercommunicator */
    private static int blocks(final dev.tutti.Comm c) {
        return inter(c) ? c.remoteSize() : c.size();
    }

    /**
     * Returns the first {@link #blocks} entries of a per-process argument of a v- or w-collective (see
     * {@link Bufs#first(String, String, int[], int, String)}): the group's on an intracommunicator, the remote
     * group's on an intercommunicator, as MPI defines these arguments.
     */
    private static int[] perBlock(final String what, final String arg, final int[] a, final dev.tutti.Comm c) {
        return Bufs.first(what, arg, a, blocks(c), whose(c));
    }

    /** @return whose processes a per-process array stands for, for messages */
    private static String whose(final dev.tutti.Comm c) {
        return inter(c) ? "the remote group, remoteSize=" + c.remoteSize() : "the group, size=" + c.size();
    }

    /** @return MPI's root translated to Tutti's convention */
    private static int root(final dev.tutti.Comm c, final int root) {
        return inter(c) && MPI.ROOT == root ? Intercommunicator.ROOT : root;
    }

    private static Communicator intra(final dev.tutti.Comm c, final String what) {
        if (c instanceof Communicator ic) {
            return ic;
        }
        throw MpiErrors.error(MPI.ERR_COMM, what + ": needs an intracommunicator (in-place forms and scans do not "
            + "exist on intercommunicators)");
    }

    private static Buf buf(final String what, final Object b, final int count, final Datatype t) {
        return Bufs.of(what, b, count, t);
    }

    private static Buf buf(final String what, final Object b, final int count, final Datatype t,
        final Reductions.Plan p) {
        return Bufs.of(what, b, count, t, p.unit(), p.perItem(), null);
    }

    private static int[] scale(final int[] a, final int per) {
        if (null == a || 1 == per) {
            return a;
        }
        final int[] s = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            s[i] = a[i] * per;
        }
        return s;
    }

    private static int sum(final int[] a) {
        int s = 0;
        for (final int x : a) {
            s += x;
        }
        return s;
    }

    // ----------------------------------------------------------------------------------------- collectives

    static dev.tutti.Request barrier(final dev.tutti.Comm c, final boolean nb) {
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.ibarrier() : done(ic::barrier);
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ibarrier() : done(ic::barrier);
    }

    static dev.tutti.Request bcast(final dev.tutti.Comm c, final boolean nb, final Object b, final int count,
        final Datatype t, final int root) {
        final Buf x = idle(c, root) ? null : buf("bcast", b, count, t);
        if (c instanceof Intercommunicator ic) {
            final int r = root(c, root);
            return nb ? ic.ibcast(x, r) : done(() -> ic.bcast(x, r));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ibcast(x, root) : done(() -> ic.bcast(x, root));
    }

    static dev.tutti.Request gather(final dev.tutti.Comm c, final boolean nb, final Object s, final int sc,
        final Datatype st, final Object r, final int rc, final Datatype rt, final int root) {
        final boolean at = isRoot(c, root);
        final Buf send = idle(c, root) || inter(c) && at ? null : buf("gather", s, sc, st);
        final Buf recv = at ? buf("gather", r, rc * blocks(c), rt) : null;
        return gather(c, nb, send, recv, root);
    }

    static dev.tutti.Request gatherInPlace(final dev.tutti.Comm c, final boolean nb, final Object b,
        final int count, final Datatype t, final int root) {
        final boolean at = intra(c, "gather").rank() == root;
        final Buf send = at ? Buf.IN_PLACE : buf("gather", b, count, t);
        final Buf recv = at ? buf("gather", b, count * c.size(), t) : null;
        return gather(c, nb, send, recv, root);
    }

    private static dev.tutti.Request gather(final dev.tutti.Comm c, final boolean nb, final Buf send,
        final Buf recv, final int root) {
        if (c instanceof Intercommunicator ic) {
            final int r = root(c, root);
            return nb ? ic.igather(send, recv, r) : done(() -> ic.gather(send, recv, r));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.igather(send, recv, root) : done(() -> ic.gather(send, recv, root));
    }

    static dev.tutti.Request gatherv(final dev.tutti.Comm c, final boolean nb, final Form form, final Object s,
        final int sc, final Datatype st, final Object r, final int[] rcounts, final int[] displs, final Datatype rt,
        final int root) {
        final boolean at = isRoot(c, root);
        final Buf send = rootInPlace(form) ? Buf.IN_PLACE : idle(c, root) || inter(c) && at ? null
            : buf("gatherv", s, sc, st);
        final int[] rc = at ? perBlock("gatherv", "recvcount", rcounts, c) : null;
        final int[] rd = at ? perBlock("gatherv", "displs", displs, c) : null;
        final Buf recv = at && Form.NON_ROOT != form ? Bufs.span("gatherv", r, rc, rd, rt) : null;
        final int[] counts = at ? Bufs.scale(rc, rt) : null;
        final int[] ds = at ? Bufs.displs(rc, rd, rt) : null;
        if (c instanceof Intercommunicator ic) {
            final int rr = root(c, root);
            return nb ? ic.igatherv(send, recv, counts, ds, rr) : done(() -> ic.gatherv(send, recv, counts, ds, rr));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.igatherv(send, recv, counts, ds, root) : done(() -> ic.gatherv(send, recv, counts, ds, root));
    }

    private static boolean rootInPlace(final Form f) {
        return Form.ROOT_IN_PLACE == f;
    }

    static dev.tutti.Request scatter(final dev.tutti.Comm c, final boolean nb, final Object s, final int sc,
        final Datatype st, final Object r, final int rc, final Datatype rt, final int root) {
        final boolean at = isRoot(c, root);
        final Buf send = at ? buf("scatter", s, sc * blocks(c), st) : null;
        final Buf recv = idle(c, root) || inter(c) && at ? null : buf("scatter", r, rc, rt);
        return scatter(c, nb, send, recv, root);
    }

    static dev.tutti.Request scatterInPlace(final dev.tutti.Comm c, final boolean nb, final Object b,
        final int count, final Datatype t, final int root) {
        final boolean at = intra(c, "scatter").rank() == root;
        final Buf send = at ? buf("scatter", b, count * c.size(), t) : null;
        final Buf recv = at ? Buf.IN_PLACE : buf("scatter", b, count, t);
        return scatter(c, nb, send, recv, root);
    }

    private static dev.tutti.Request scatter(final dev.tutti.Comm c, final boolean nb, final Buf send,
        final Buf recv, final int root) {
        if (c instanceof Intercommunicator ic) {
            final int r = root(c, root);
            return nb ? ic.iscatter(send, recv, r) : done(() -> ic.scatter(send, recv, r));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.iscatter(send, recv, root) : done(() -> ic.scatter(send, recv, root));
    }

    static dev.tutti.Request scatterv(final dev.tutti.Comm c, final boolean nb, final Form form, final Object s,
        final int[] scounts, final int[] displs, final Datatype st, final Object r, final int rc, final Datatype rt,
        final int root) {
        final boolean at = isRoot(c, root);
        final int[] sc = at ? perBlock("scatterv", "sendcount", scounts, c) : null;
        final int[] sd = at ? perBlock("scatterv", "displs", displs, c) : null;
        final Buf send = at && Form.NON_ROOT != form ? Bufs.span("scatterv", s, sc, sd, st) : null;
        final int[] counts = at ? Bufs.scale(sc, st) : null;
        final int[] ds = at ? Bufs.displs(sc, sd, st) : null;
        final Buf recv = rootInPlace(form) ? Buf.IN_PLACE : idle(c, root) || inter(c) && at ? null
            : buf("scatterv", r, rc, rt);
        if (c instanceof Intercommunicator ic) {
            final int rr = root(c, root);
            return nb ? ic.iscatterv(send, counts, ds, recv, rr) : done(() -> ic.scatterv(send, counts, ds, recv, rr));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.iscatterv(send, counts, ds, recv, root)
            : done(() -> ic.scatterv(send, counts, ds, recv, root));
    }

    static dev.tutti.Request allGather(final dev.tutti.Comm c, final boolean nb, final Object s, final int sc,
        final Datatype st, final Object r, final int rc, final Datatype rt) {
        final Buf send = null == st ? Buf.IN_PLACE : buf("allGather", s, sc, st);
        final Buf recv = buf("allGather", r, rc * blocks(c), rt);
        if (null == st) {
            intra(c, "allGather");
        }
        return nb ? c.iallgather(send, recv) : done(() -> c.allgather(send, recv));
    }

    static dev.tutti.Request allGatherv(final dev.tutti.Comm c, final boolean nb, final Object s, final int sc,
        final Datatype st, final Object r, final int[] rcounts, final int[] displs, final Datatype rt) {
        final Buf send = null == st ? Buf.IN_PLACE : buf("allGatherv", s, sc, st);
        final int[] rc = perBlock("allGatherv", "recvcount", rcounts, c);
        final int[] rd = perBlock("allGatherv", "displs", displs, c);
        final Buf recv = Bufs.span("allGatherv", r, rc, rd, rt);
        final int[] counts = Bufs.scale(rc, rt);
        final int[] ds = Bufs.displs(rc, rd, rt);
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.iallgatherv(send, recv, counts, ds) : done(() -> ic.allgatherv(send, recv, counts, ds));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.iallgatherv(send, recv, counts, ds) : done(() -> ic.allgatherv(send, recv, counts, ds));
    }

    static dev.tutti.Request allToAll(final dev.tutti.Comm c, final boolean nb, final Object s, final int sc,
        final Datatype st, final Object r, final int rc, final Datatype rt) {
        final Buf send = buf("allToAll", s, sc * blocks(c), st);
        final Buf recv = buf("allToAll", r, rc * blocks(c), rt);
        return nb ? c.ialltoall(send, recv) : done(() -> c.alltoall(send, recv));
    }

    static dev.tutti.Request allToAllv(final dev.tutti.Comm c, final boolean nb, final Object s,
        final int[] scounts, final int[] sdispls, final Datatype st, final Object r, final int[] rcounts,
        final int[] rdispls, final Datatype rt) {
        final int[] scn = perBlock("allToAllv", "sendcount", scounts, c);
        final int[] sdn = perBlock("allToAllv", "sdispls", sdispls, c);
        final int[] rcn = perBlock("allToAllv", "recvcount", rcounts, c);
        final int[] rdn = perBlock("allToAllv", "rdispls", rdispls, c);
        final Buf send = Bufs.span("allToAllv", s, scn, sdn, st);
        final Buf recv = Bufs.span("allToAllv", r, rcn, rdn, rt);
        final int[] sc = Bufs.scale(scn, st);
        final int[] sd = Bufs.displs(scn, sdn, st);
        final int[] rc = Bufs.scale(rcn, rt);
        final int[] rd = Bufs.displs(rcn, rdn, rt);
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.ialltoallv(send, sc, sd, recv, rc, rd) : done(() -> ic.alltoallv(send, sc, sd, recv, rc, rd));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ialltoallv(send, sc, sd, recv, rc, rd) : done(() -> ic.alltoallv(send, sc, sd, recv, rc, rd));
    }

    static dev.tutti.Request allToAllw(final dev.tutti.Comm c, final boolean nb, final Buffer s,
        final int[] scounts, final int[] sdispls, final Datatype[] st, final Buffer r, final int[] rcounts,
        final int[] rdispls, final Datatype[] rt) {
        final String what = "allToAllw";
        final Buf[] send = blocksAt(s, perBlock(what, "sendCount", scounts, c), perBlock(what, "sDispls", sdispls, c),
            Bufs.first(what, "sendTypes", st, blocks(c), whose(c)));
        final Buf[] recv = blocksAt(r, perBlock(what, "recvCount", rcounts, c), perBlock(what, "rDispls", rdispls, c),
            Bufs.first(what, "recvTypes", rt, blocks(c), whose(c)));
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.ialltoallw(send, recv) : done(() -> ic.alltoallw(send, recv));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ialltoallw(send, recv) : done(() -> ic.alltoallw(send, recv));
    }

    /**
     * The blocks of allToAllw: block i is counts[i] items of types[i] at byte displs[i], one block per entry of
     * the three arrays (of one length, see {@link #perBlock}).
     */
    private static Buf[] blocksAt(final Buffer b, final int[] counts, final int[] displs, final Datatype[] types) {
        final String what = "allToAllw";
        final int n = counts.length;
        final MemorySegment seg = null == b ? MemorySegment.ofArray(new byte[0]) : Bufs.segment(what, b);
        final Buf[] out = new Buf[n];
        for (int i = 0; i < n; i++) {
            final Datatype t = types[i].usable(what);
            if (counts[i] < 0) {
                throw MpiErrors.error(MPI.ERR_COUNT, what + ": counts[" + i + "]=" + counts[i] + ", expected >= 0");
            }
            final int at = 0 == counts[i] ? 0 : displs[i]; // an empty block's displacement is used for nothing
            if (null != t.shape) {
                out[i] = Buf.of(seg, at, t.shape, counts[i]);
                continue;
            }
            final long bytes = (long) counts[i] * t.extentBytes;
            if (at < 0 || at + bytes > seg.byteSize()) {
                throw MpiErrors.error(MPI.ERR_BUFFER, what + ": block " + i + " (byte " + at + ", " + bytes
                    + " bytes) exceeds the buffer of " + seg.byteSize() + " bytes");
            }
            final dev.tutti.Datatype w = dev.tutti.Datatype.BOOLEAN == t.wire ? dev.tutti.Datatype.BYTE : t.wire;
            out[i] = Buf.of(seg.asSlice(at, bytes), w);
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------- reductions

    static dev.tutti.Request reduce(final dev.tutti.Comm c, final boolean nb, final Object s, final Object r,
        final boolean inPlace, final int count, final Datatype t, final Op op, final int root) {
        final Reductions.Plan p = Reductions.plan("reduce", op, t);
        final boolean at = inPlace ? intra(c, "reduce").rank() == root : isRoot(c, root);
        final Buf send = inPlace ? at ? Buf.IN_PLACE : buf("reduce", r, count, t, p)
            : idle(c, root) || inter(c) && at ? null : buf("reduce", s, count, t, p);
        final Buf recv = at ? buf("reduce", r, count, t, p) : null;
        if (c instanceof Intercommunicator ic) {
            final int rr = root(c, root);
            return nb ? ic.ireduce(send, recv, p.op(), rr) : done(() -> ic.reduce(send, recv, p.op(), rr));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ireduce(send, recv, p.op(), root) : done(() -> ic.reduce(send, recv, p.op(), root));
    }

    /**
     * MPI_Allreduce and MPI_Iallreduce.
     *
     * @param cache the calling thread's view cache ({@link Env#bufCache()}), or null to look it up
     */
    static dev.tutti.Request allReduce(final dev.tutti.Comm c, final boolean nb, final Object s, final Object r,
        final boolean inPlace, final int count, final Datatype t, final Op op, final BufCache cache) {
        final Reductions.Plan p = Reductions.plan("allReduce", op, t);
        if (inPlace) {
            intra(c, "allReduce");
        }
        final BufCache views = null == cache ? BufCache.mine() : cache;
        final Buf send = inPlace ? Buf.IN_PLACE : Bufs.of("allReduce", s, count, t, p.unit(), p.perItem(), views);
        final Buf recv = Bufs.of("allReduce", r, count, t, p.unit(), p.perItem(), views);
        if (nb) {
            return c.iallreduce(send, recv, p.op());
        }
        c.allreduce(send, recv, p.op());
        return null;
    }

    static dev.tutti.Request reduceScatter(final dev.tutti.Comm c, final boolean nb, final Object s, final Object r,
        final boolean inPlace, final int[] counts, final Datatype t, final Op op) {
        final Reductions.Plan p = Reductions.plan("reduceScatter", op, t);
        // one count per process of this rank's own group, on an intercommunicator too (MPI 5.10.1)
        final int[] cn = Bufs.first("reduceScatter", "recvcounts", counts, c.size(), (inter(c) ? "the local group, "
            : "the group, ") + "size=" + c.size());
        final int total = sum(cn);
        final Buf send = inPlace ? Buf.IN_PLACE : buf("reduceScatter", s, total, t, p);
        final Buf recv = inPlace ? buf("reduceScatter", r, total, t, p) : buf("reduceScatter", r, cn[c.rank()], t, p);
        final int[] sc = scale(cn, p.perItem());
        if (inPlace) {
            intra(c, "reduceScatter");
        }
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.ireduceScatter(send, recv, sc, p.op()) : done(() -> ic.reduceScatter(send, recv, sc, p.op()));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ireduceScatter(send, recv, sc, p.op()) : done(() -> ic.reduceScatter(send, recv, sc, p.op()));
    }

    static dev.tutti.Request reduceScatterBlock(final dev.tutti.Comm c, final boolean nb, final Object s,
        final Object r, final boolean inPlace, final int count, final Datatype t, final Op op) {
        final Reductions.Plan p = Reductions.plan("reduceScatterBlock", op, t);
        final Buf send = inPlace ? Buf.IN_PLACE : buf("reduceScatterBlock", s, count * c.size(), t, p);
        final Buf recv = buf("reduceScatterBlock", r, inPlace ? count * c.size() : count, t, p);
        if (inPlace) {
            intra(c, "reduceScatterBlock");
        }
        if (c instanceof Intercommunicator ic) {
            return nb ? ic.ireduceScatterBlock(send, recv, p.op()) : done(() -> ic.reduceScatterBlock(send, recv, p.op()));
        }
        final Communicator ic = (Communicator) c;
        return nb ? ic.ireduceScatterBlock(send, recv, p.op()) : done(() -> ic.reduceScatterBlock(send, recv, p.op()));
    }

    static dev.tutti.Request scan(final dev.tutti.Comm c, final boolean nb, final boolean exclusive, final Object s,
        final Object r, final boolean inPlace, final int count, final Datatype t, final Op op) {
        final String what = exclusive ? "exScan" : "scan";
        final Reductions.Plan p = Reductions.plan(what, op, t);
        final Communicator ic = intra(c, what);
        final Buf send = inPlace ? Buf.IN_PLACE : buf(what, s, count, t, p);
        final Buf recv = buf(what, r, count, t, p);
        if (exclusive) {
            return nb ? ic.iexscan(send, recv, p.op()) : done(() -> ic.exscan(send, recv, p.op()));
        }
        return nb ? ic.iscan(send, recv, p.op()) : done(() -> ic.scan(send, recv, p.op()));
    }

    private static dev.tutti.Request done(final Runnable blocking) {
        blocking.run();
        return null;
    }
}
