package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.IntBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where MPI and Open MPI's Java bindings are lenient, tutti-mpi is too: a v- or w-collective (and reduceScatter)
 * reads only the first n entries of its count, displacement and type arrays (n = the group's size, or the remote
 * group's on an intercommunicator), so longer arrays work, while shorter ones stay an ERR_ARG error naming the
 * operation, the argument, its length and what was expected. The entries past n hold values that would fail or
 * move wrong data if they were read (huge or negative counts and displacements, null types). The same holds for
 * the other arrays the bindings read only as far as they need: Cartesian periods, coordinates and kept dimensions,
 * derived-type displacements and types, group range rows.
 */
@Timeout(60)
class ConformanceLenientTest {
    /** Entries appended to every per-process array: each would break the call if it were read. */
    private static final int[] JUNK_COUNTS = {1_000_000, -5};
    private static final int[] JUNK_DISPLS = {-9, 1_000_000};

    private static int[] longer(final int[] a, final int[] junk) {
        final int[] out = Arrays.copyOf(a, a.length + junk.length);
        System.arraycopy(junk, 0, out, a.length, junk.length);
        return out;
    }

    private static Datatype[] ints(final int n) {
        final Datatype[] t = new Datatype[n + 2]; // the two extra types stay null
        Arrays.fill(t, 0, n, MPI.INT);
        return t;
    }

    /** @return the running sums of {@code counts}: the displacement of each block packed one after another */
    private static int[] packed(final int[] counts) {
        final int[] d = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            d[i] = d[i - 1] + counts[i - 1];
        }
        return d;
    }

    private static int[] times(final int[] a, final int f) {
        return Arrays.stream(a).map(x -> x * f).toArray();
    }

    /** The block rank {@code r} contributes to the vector gathers: r + 1 values 100 r + k. */
    private static int[] block(final int r) {
        final int[] b = new int[r + 1];
        for (int k = 0; k <= r; k++) {
            b[k] = 100 * r + k;
        }
        return b;
    }

    /** Blocks 0..n-1 of {@link #block} one after another. */
    private static int[] blocks(final int n) {
        int[] all = new int[0];
        for (int r = 0; r < n; r++) {
            final int[] b = block(r);
            final int at = all.length;
            all = Arrays.copyOf(all, at + b.length);
            System.arraycopy(b, 0, all, at, b.length);
        }
        return all;
    }

    private static int[] get(final IntBuffer b) {
        final int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }

    private static IntBuffer direct(final int[] a) {
        final IntBuffer b = MPI.newIntBuffer(Math.max(1, a.length));
        b.put(0, a);
        return b;
    }

    @Test
    void shouldReadOnlyTheGroupsEntriesOfLongerArraysOnAnIntracommunicator() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int n = w.getSize();
            final int me = w.getRank();
            final int[] counts = {1, 2, 3};
            final int[] displs = packed(counts);
            final int[] lc = longer(counts, JUNK_COUNTS);
            final int[] ld = longer(displs, JUNK_DISPLS);
            final int[] all = blocks(n);
            // gatherv, and the root's in-place form
            final int[] g = new int[6];
            w.gatherv(block(me), me + 1, MPI.INT, g, lc, ld, MPI.INT, 0);
            if (0 == me) {
                assertArrayEquals(all, g);
            }
            final int[] gi = new int[6];
            if (2 == me) {
                System.arraycopy(block(2), 0, gi, displs[2], 3);
                w.gatherv(gi, lc, ld, MPI.INT, 2);
                assertArrayEquals(all, gi);
            } else {
                w.gatherv(block(me), me + 1, MPI.INT, 2);
            }
            // scatterv from rank 1
            final int[] s = new int[me + 1];
            w.scatterv(1 == me ? all : null, lc, ld, MPI.INT, s, me + 1, MPI.INT, 1);
            assertArrayEquals(block(me), s);
            // allGatherv, and in place
            final int[] ag = new int[6];
            w.allGatherv(block(me), me + 1, MPI.INT, ag, lc, ld, MPI.INT);
            assertArrayEquals(all, ag);
            final int[] agi = new int[6];
            System.arraycopy(block(me), 0, agi, displs[me], me + 1);
            w.allGatherv(agi, lc, ld, MPI.INT);
            assertArrayEquals(all, agi);
            // allToAllv: to rank j, j + 1 values 1000 me + 10 j + k; from rank i, me + 1 values
            final int[] sc = {1, 2, 3};
            final int[] sd = packed(sc);
            final int[] a2aSend = new int[6];
            for (int j = 0; j < n; j++) {
                for (int k = 0; k <= j; k++) {
                    a2aSend[sd[j] + k] = 1000 * me + 10 * j + k;
                }
            }
            final int[] rc = new int[n];
            Arrays.fill(rc, me + 1);
            final int[] rd = packed(rc);
            final int[] expected = new int[n * (me + 1)];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k <= me; k++) {
                    expected[rd[i] + k] = 1000 * i + 10 * me + k;
                }
            }
            final int[] a2a = new int[n * (me + 1)];
            w.allToAllv(a2aSend, longer(sc, JUNK_COUNTS), longer(sd, JUNK_DISPLS), MPI.INT, a2a,
                longer(rc, JUNK_COUNTS), longer(rd, JUNK_DISPLS), MPI.INT);
            assertArrayEquals(expected, a2a);
            // allToAllw: the same exchange, byte displacements, one datatype per block (the extra ones null)
            final IntBuffer wRecv = MPI.newIntBuffer(a2a.length);
            w.allToAllw(direct(a2aSend), longer(sc, JUNK_COUNTS), longer(times(sd, 4), JUNK_DISPLS), ints(n), wRecv,
                longer(rc, JUNK_COUNTS), longer(times(rd, 4), JUNK_DISPLS), ints(n));
            assertArrayEquals(expected, get(wRecv));
            // reduceScatter: values k + me summed over 3 ranks, rank r gets counts[r] of them
            final int[] v = new int[6];
            Arrays.setAll(v, k -> k + me);
            final int[] mine = new int[me + 1];
            Arrays.setAll(mine, k -> 3 * (displs[me] + k) + 3);
            final int[] rs = new int[me + 1];
            w.reduceScatter(v, rs, lc, MPI.INT, MPI.SUM);
            assertArrayEquals(mine, rs);
            final int[] rsi = v.clone();
            w.reduceScatter(rsi, lc, MPI.INT, MPI.SUM);
            assertArrayEquals(mine, Arrays.copyOf(rsi, me + 1));
            // the nonblocking forms
            final IntBuffer ig = MPI.newIntBuffer(6);
            w.iGatherv(direct(block(me)), me + 1, MPI.INT, ig, lc, ld, MPI.INT, 0).waitFor();
            if (0 == me) {
                assertArrayEquals(all, get(ig));
            }
            final IntBuffer is = MPI.newIntBuffer(me + 1);
            w.iScatterv(direct(all), lc, ld, MPI.INT, is, me + 1, MPI.INT, 0).waitFor();
            assertArrayEquals(block(me), get(is));
            final IntBuffer iag = MPI.newIntBuffer(6);
            w.iAllGatherv(direct(block(me)), me + 1, MPI.INT, iag, lc, ld, MPI.INT).waitFor();
            assertArrayEquals(all, get(iag));
            final IntBuffer ia2a = MPI.newIntBuffer(a2a.length);
            w.iAllToAllv(direct(a2aSend), longer(sc, JUNK_COUNTS), longer(sd, JUNK_DISPLS), MPI.INT, ia2a,
                longer(rc, JUNK_COUNTS), longer(rd, JUNK_DISPLS), MPI.INT).waitFor();
            assertArrayEquals(expected, get(ia2a));
            final IntBuffer ia2w = MPI.newIntBuffer(a2a.length);
            w.iAllToAllw(direct(a2aSend), longer(sc, JUNK_COUNTS), longer(times(sd, 4), JUNK_DISPLS), ints(n), ia2w,
                longer(rc, JUNK_COUNTS), longer(times(rd, 4), JUNK_DISPLS), ints(n)).waitFor();
            assertArrayEquals(expected, get(ia2w));
            final IntBuffer irs = MPI.newIntBuffer(me + 1);
            w.iReduceScatter(direct(v), irs, lc, MPI.INT, MPI.SUM).waitFor();
            assertArrayEquals(mine, get(irs));
            MPI.Finalize();
        });
    }

    @Test
    void shouldReadOnlyTheRemoteGroupsEntriesOfLongerArraysOnAnIntercommunicator() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final boolean a = w.getRank() < 2; // group A: world 0-1, group B: world 2-4
            final Intracomm half = w.split(a ? 0 : 1, 0);
            final int me = half.getRank();
            final Intercomm inter = w.createIntercomm(half, 0, a ? 2 : 0, 31);
            final int remote = inter.getRemoteSize();
            final int base = a ? 1000 : 2000;
            final int otherBase = a ? 2000 : 1000;
            // allGatherv: remote rank i sends i + 1 values base + 100 i + k
            final int[] rc = new int[remote];
            Arrays.setAll(rc, i -> i + 1);
            final int[] rd = packed(rc);
            final int[] mine = Arrays.stream(block(me)).map(x -> base + x).toArray();
            final int[] fromRemote = Arrays.stream(blocks(remote)).map(x -> otherBase + x).toArray();
            final int[] ag = new int[fromRemote.length];
            inter.allGatherv(mine, me + 1, MPI.INT, ag, longer(rc, JUNK_COUNTS), longer(rd, JUNK_DISPLS), MPI.INT);
            assertArrayEquals(fromRemote, ag);
            final IntBuffer iag = MPI.newIntBuffer(fromRemote.length);
            inter.iAllGatherv(direct(mine), me + 1, MPI.INT, iag, longer(rc, JUNK_COUNTS),
                longer(rd, JUNK_DISPLS), MPI.INT).waitFor();
            assertArrayEquals(fromRemote, get(iag));
            // gatherv to A's rank 0 from B; scatterv from B's rank 1 to A
            final int gRoot = a ? (0 == me ? MPI.ROOT : MPI.PROC_NULL) : 0;
            final int[] g = new int[a ? fromRemote.length : 0];
            inter.gatherv(mine, me + 1, MPI.INT, g, longer(rc, JUNK_COUNTS), longer(rd, JUNK_DISPLS), MPI.INT, gRoot);
            if (a && 0 == me) {
                assertArrayEquals(fromRemote, g);
            }
            final int sRoot = a ? 1 : (1 == me ? MPI.ROOT : MPI.PROC_NULL);
            final int[] toA = Arrays.stream(blocks(2)).map(x -> 5000 + x).toArray();
            final int[] sc = {1, 2};
            final int[] s = new int[a ? me + 1 : 0];
            inter.scatterv(toA, longer(sc, JUNK_COUNTS), longer(packed(sc), JUNK_DISPLS), MPI.INT, s, a ? me + 1 : 0,
                MPI.INT, sRoot);
            if (a) {
                assertArrayEquals(Arrays.stream(block(me)).map(x -> 5000 + x).toArray(), s);
            }
            // allToAllv and allToAllw: to remote rank j, j + 1 values base + 100 me + 10 j + k
            final int[] scv = new int[remote];
            Arrays.setAll(scv, j -> j + 1);
            final int[] sdv = packed(scv);
            final int[] send = new int[sdv[remote - 1] + remote];
            for (int j = 0; j < remote; j++) {
                for (int k = 0; k <= j; k++) {
                    send[sdv[j] + k] = base + 100 * me + 10 * j + k;
                }
            }
            final int[] rcv = new int[remote];
            Arrays.fill(rcv, me + 1);
            final int[] rdv = packed(rcv);
            final int[] expected = new int[remote * (me + 1)];
            for (int i = 0; i < remote; i++) {
                for (int k = 0; k <= me; k++) {
                    expected[rdv[i] + k] = otherBase + 100 * i + 10 * me + k;
                }
            }
            final int[] a2a = new int[expected.length];
            inter.allToAllv(send, longer(scv, JUNK_COUNTS), longer(sdv, JUNK_DISPLS), MPI.INT, a2a,
                longer(rcv, JUNK_COUNTS), longer(rdv, JUNK_DISPLS), MPI.INT);
            assertArrayEquals(expected, a2a);
            final IntBuffer a2w = MPI.newIntBuffer(expected.length);
            inter.allToAllw(direct(send), longer(scv, JUNK_COUNTS), longer(times(sdv, 4), JUNK_DISPLS),
                ints(remote), a2w, longer(rcv, JUNK_COUNTS), longer(times(rdv, 4), JUNK_DISPLS), ints(remote));
            assertArrayEquals(expected, get(a2w));
            // reduceScatter: one count per process of this rank's own group; A {2, 1}, B {1, 1, 1}; 3 values each
            final int[] counts = a ? new int[] {2, 1} : new int[] {1, 1, 1};
            final int worldRank = w.getRank();
            final int[] v = new int[3];
            Arrays.setAll(v, k -> k + worldRank);
            final int at = packed(counts)[me];
            final int[] sums = new int[counts[me]];
            Arrays.setAll(sums, k -> a ? 3 * (at + k) + 9 : 2 * (at + k) + 1); // A gets B's sum, B gets A's
            final int[] rs = new int[counts[me]];
            inter.reduceScatter(v, rs, longer(counts, JUNK_COUNTS), MPI.INT, MPI.SUM);
            assertArrayEquals(sums, rs);
            final IntBuffer irs = MPI.newIntBuffer(counts[me]);
            inter.iReduceScatter(direct(v), irs, longer(counts, JUNK_COUNTS), MPI.INT, MPI.SUM).waitFor();
            assertArrayEquals(sums, get(irs));
            MPI.Finalize();
        });
    }

    private static void assertArgError(final String operation, final String argument, final Executable call) {
        final MPIException e = assertThrows(MPIException.class, call);
        assertEquals(MPI.ERR_ARG, e.getErrorClass(), e::toString);
        final String m = e.getCause().getMessage(); // MPI's error string is the message, the detail its cause's
        assertTrue(m.contains(operation + ": " + argument), m);
        assertTrue(m.contains("expected at least "), m);
    }

    @Test
    void shouldStillRefuseArraysShorterThanTheGroup() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int me = w.getRank();
            final int[] two = {1, 1};
            final int[] three = {1, 1, 1};
            final int[] d3 = {0, 1, 2};
            final int[] buf = new int[8];
            final IntBuffer nb = MPI.newIntBuffer(8);
            // the root's arrays only: every rank checks its own (a wrong call fails before anything is sent)
            assertArgError("gatherv", "recvcount.length=2", () -> w.gatherv(buf, 1, MPI.INT, buf, two, d3, MPI.INT,
                me));
            assertArgError("gatherv", "displs.length=2", () -> w.gatherv(buf, 1, MPI.INT, buf, three, two, MPI.INT,
                me));
            assertArgError("scatterv", "sendcount=null", () -> w.scatterv(buf, null, d3, MPI.INT, buf, 1, MPI.INT,
                me));
            assertArgError("allGatherv", "recvcount.length=2", () -> w.allGatherv(buf, 1, MPI.INT, buf, two, d3,
                MPI.INT));
            assertArgError("allToAllv", "rdispls.length=2", () -> w.allToAllv(buf, three, d3, MPI.INT, buf, three,
                two, MPI.INT));
            assertArgError("allToAllw", "sendTypes.length=2", () -> w.allToAllw(nb, three, d3,
                new Datatype[] {MPI.INT, MPI.INT}, nb, three, d3, ints(3)));
            assertArgError("reduceScatter", "recvcounts.length=2", () -> w.reduceScatter(buf, buf, two, MPI.INT,
                MPI.SUM));
            assertArgError("reduceScatter", "recvcounts.length=2", () -> w.iReduceScatter(nb, nb, two, MPI.INT,
                MPI.SUM));
            assertArgError("allGatherv", "displs.length=1", () -> w.iAllGatherv(nb, 1, MPI.INT, nb, three,
                new int[] {0}, MPI.INT));
            final MPIException e = assertThrows(MPIException.class, () -> w.allToAllv(buf, two, d3, MPI.INT, buf,
                three, d3, MPI.INT));
            assertEquals("allToAllv: sendcount.length=2, expected at least 3 entries (one per process of the group, "
                + "size=3)", e.getCause().getMessage());
            // every refusal left the communicator usable
            final int[] sum = {1};
            w.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(3, sum[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldRefuseArraysShorterThanTheRemoteGroupOnAnIntercommunicator() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final boolean a = w.getRank() < 2;
            final Intracomm half = w.split(a ? 0 : 1, 0);
            final Intercomm inter = w.createIntercomm(half, 0, a ? 2 : 0, 32);
            inter.setErrhandler(MPI.ERRORS_RETURN);
            final int[] local = new int[half.getSize()]; // as long as the local group: one short of B's for A
            final int[] buf = new int[8];
            if (a) {
                final MPIException e = assertThrows(MPIException.class, () -> inter.allGatherv(buf, 1, MPI.INT, buf,
                    local, local, MPI.INT));
                assertEquals(MPI.ERR_ARG, e.getErrorClass());
                assertEquals("allGatherv: recvcount.length=2, expected at least 3 entries (one per process of the "
                    + "remote group, remoteSize=3)", e.getCause().getMessage());
            }
            final int[] shortOfLocal = new int[half.getSize() - 1];
            final MPIException e = assertThrows(MPIException.class, () -> inter.reduceScatter(buf, buf, shortOfLocal,
                MPI.INT, MPI.SUM));
            assertEquals(MPI.ERR_ARG, e.getErrorClass());
            assertEquals("reduceScatter: recvcounts.length=" + shortOfLocal.length + ", expected at least "
                + half.getSize() + " entries (one per process of the local group, size=" + half.getSize() + ")",
                e.getCause().getMessage());
            inter.barrier();
            MPI.Finalize();
        });
    }

    /**
     * The other calls whose arrays Open MPI's bindings read only as far as they need: Cartesian periods,
     * coordinates and kept dimensions (one per dimension), derived-type displacements and types (one per block),
     * group range rows (first, last, stride).
     */
    @Test
    void shouldReadOneEntryPerDimensionOfACartesianGrid() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            // a 2 x 2 grid, periodic in dimension 0 only; periods has an extra entry
            final CartComm cart = w.createCart(new int[] {2, 2}, new boolean[] {true, false, false}, false);
            assertEquals(4, cart.getSize());
            final ShiftParms along0 = cart.shift(0, 1);
            assertEquals((me + 2) % 4, along0.getRankDest()); // wraps: dimension 0 is periodic
            final ShiftParms along1 = cart.shift(1, 1);
            assertEquals(1 == me % 2 ? MPI.PROC_NULL : me + 1, along1.getRankDest()); // does not wrap
            assertEquals(3, cart.getRank(new int[] {1, 1, 99}));
            final CartComm row = cart.sub(new boolean[] {false, true, true});
            assertEquals(2, row.getSize());
            assertEquals(me < 3 ? me : MPI.UNDEFINED, cart.map(new int[] {3}, new boolean[] {false, true}));
            MPI.Finalize();
        });
    }

    @Test
    void shouldReadOneDisplacementAndTypePerBlockOfADerivedType() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            // one block per blockLengths entry, extra displacements and types unread
            final Datatype indexed = Datatype.createIndexed(new int[] {1, 2}, new int[] {0, 3, -50}, MPI.INT);
            indexed.commit();
            final Datatype hindexed = Datatype.createHIndexed(new int[] {1, 1}, new int[] {4, 12, 1 << 20},
                MPI.INT);
            hindexed.commit();
            final Datatype struct = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8, -8},
                new Datatype[] {MPI.INT, MPI.INT, null});
            struct.commit();
            final int other = me ^ 1;
            final int[] data = {10 + me, 11 + me, 12 + me, 13 + me, 14 + me};
            final int[] in = new int[5];
            w.sendRecv(data, 1, indexed, other, 1, in, 3, MPI.INT, other, 1);
            assertArrayEquals(new int[] {10 + other, 13 + other, 14 + other}, Arrays.copyOf(in, 3));
            w.sendRecv(data, 1, hindexed, other, 2, in, 2, MPI.INT, other, 2);
            assertArrayEquals(new int[] {11 + other, 13 + other}, Arrays.copyOf(in, 2));
            w.sendRecv(data, 1, struct, other, 3, in, 2, MPI.INT, other, 3);
            assertArrayEquals(new int[] {10 + other, 12 + other}, Arrays.copyOf(in, 2));
            MPI.Finalize();
        });
    }

    @Test
    void shouldReadThreeEntriesPerRowOfAGroupRange() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.getRank();
            // a row's entries past {first, last, stride} are unread
            final Group evens = w.getGroup().rangeIncl(new int[][] {{0, 3, 2, -7}});
            assertEquals(2, evens.getSize());
            assertEquals(0 == me % 2 ? me / 2 : MPI.UNDEFINED, evens.getRank());
            assertEquals(2, w.getGroup().rangeExcl(new int[][] {{1, 3, 2, 1_000}}).getSize());
            MPI.Finalize();
        });
    }

    @Test
    void shouldStillRefuseTooFewEntriesInTheOtherCalls() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final CartComm cart = w.createCart(new int[] {2, 2}, new boolean[] {true, false}, false);
            cart.setErrhandler(MPI.ERRORS_RETURN);
            assertArgError("createCart", "dims.length=2 periods.length=1",
                () -> w.createCart(new int[] {2, 2}, new boolean[] {true}, false));
            assertArgError("getRank", "coords.length=1", () -> cart.getRank(new int[] {1}));
            assertArgError("sub", "remainDims.length=1", () -> cart.sub(new boolean[] {true}));
            assertArgError("createIndexed", "displacements.length=1",
                () -> Datatype.createIndexed(new int[] {1, 1}, new int[] {0}, MPI.INT));
            assertArgError("createHIndexed", "displacements=null",
                () -> Datatype.createHIndexed(new int[] {1, 1}, null, MPI.INT));
            assertArgError("createStruct", "types.length=1",
                () -> Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4}, new Datatype[] {MPI.INT}));
            final MPIException e = assertThrows(MPIException.class, () -> w.getGroup().rangeIncl(new int[][] {{0, 3}}));
            assertEquals(MPI.ERR_ARG, e.getErrorClass());
            MPI.Finalize();
        });
    }
}
