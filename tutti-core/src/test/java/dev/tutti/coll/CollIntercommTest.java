package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.comm.IntercommTest;

import dev.tutti.calls.CompletedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every intercommunicator collective, MPI's standard forms and Tutti's symmetric forms, blocking and nonblocking,
 * for group-size pairs 1x1, 1x5, 5x1, 3x4, 4x3 and 4x4, every root (and every pair of roots for the symmetric
 * forms), counts that differ per direction including 0 in one or both directions, checked against sequential
 * references; that each one-way form equals the symmetric form with an empty direction; that on an
 * intracommunicator the symmetric forms are the ordinary collectives; and the bad inputs.
 *
 * <p>Data: element {@code i} of rank {@code r} of group {@code g} (A = 0, B = 1) with salt {@code s} is
 * {@link #val}; group A is world ranks {@code 0..a-1}, group B the rest (local ranks reversed, see
 * {@link IntercommTest#make}).
 */
@Timeout(60)
public class CollIntercommTest {
    public static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));
    /** Counts sent by (A, B): different per direction, empty in one direction, both empty. */
    public static final int[][] COUNTS = {{3, 5}, {0, 4}, {4, 0}, {0, 0}, {2, 2}};

    public static Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(1, 1), Arguments.of(1, 5), Arguments.of(5, 1), Arguments.of(3, 4),
            Arguments.of(4, 3), Arguments.of(4, 4));
    }

    public static int val(final int g, final int r, final int i, final int salt) {
        return g * 1_000_000 + r * 10_000 + i * 7 + salt;
    }

    public static int[] vals(final int g, final int r, final int n, final int salt) {
        final int[] x = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = val(g, r, i, salt);
        }
        return x;
    }

    public static int[] concat(final List<int[]> parts) {
        return parts.stream().flatMapToInt(Arrays::stream).toArray();
    }

    /** One rank's view of the two groups. */
    public static final class Ctx {
        final Intercommunicator c;
        final int g;
        final int me;
        final int la;
        final int lb;

        Ctx(final Communicator world, final int a) {
            this.c = IntercommTest.make(world, a);
            this.g = world.rank() < a ? 0 : 1;
            this.me = c.rank();
            this.la = c.size();
            this.lb = c.remoteSize();
        }

        /** Sum over the remote ranks of their vectors of n elements. */
        int[] remoteSum(final int n, final int salt) {
            final int[] s = new int[n];
            for (int j = 0; j < lb; j++) {
                final int[] v = vals(1 - g, j, n, salt);
                for (int i = 0; i < n; i++) {
                    s[i] += v[i];
                }
            }
            return s;
        }

        /** The remote ranks' vectors of n elements, concatenated in rank order. */
        int[] remoteAll(final int n, final int salt) {
            final List<int[]> parts = new ArrayList<>();
            for (int j = 0; j < lb; j++) {
                parts.add(vals(1 - g, j, n, salt));
            }
            return concat(parts);
        }
    }

    public static Buf buf(final int[] a) {
        return null == a ? null : Buf.of(a);
    }

    // --------------------------------------------------------------------------------------- symmetric rooted

    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("pairs")
    public void shouldRunSymmetricRootedCollectivesForEveryPairOfRoots(final int a, final int b) {
        Tutti.runLocal(a + b, OPTS, w -> {
            final Ctx x = new Ctx(w, a);
            int salt = 0;
            for (final int[] counts : COUNTS) {
                final int nOut = counts[x.g];
                final int nIn = counts[1 - x.g];
                for (int rootA = 0; rootA < a; rootA++) {
                    for (int rootB = 0; rootB < b; rootB++) {
                        salt++;
                        final int sl = salt;
                        final boolean nb = 0 == sl % 2;
                        final int mine = 0 == x.g ? rootA : rootB;
                        final int theirs = 0 == x.g ? rootB : rootA;
                        final String what = "counts=" + Arrays.toString(counts) + " roots=" + rootA + "," + rootB
                            + " g=" + x.g + " rank=" + x.me + " nb=" + nb;
                        // bcast
                        final int[] in = new int[nIn];
                        final Buf send = x.me == mine ? Buf.of(vals(x.g, mine, nOut, sl)) : null;
                        if (nb) {
                            x.c.ibcast(send, Buf.of(in), mine, theirs).waitFor();
                        } else {
                            x.c.bcast(send, Buf.of(in), mine, theirs);
                        }
                        assertArrayEquals(vals(1 - x.g, theirs, nIn, sl), in, "bcast " + what);
                        // scatter
                        final int[] block = new int[nIn];
                        final Buf all = x.me == mine ? Buf.of(vals(x.g, mine, x.lb * nOut, sl)) : null;
                        (nb ? x.c.iscatter(all, Buf.of(block), mine, theirs) : done(() -> x.c.scatter(all,
                            Buf.of(block), mine, theirs))).waitFor();
                        assertArrayEquals(Arrays.copyOfRange(vals(1 - x.g, theirs, x.la * nIn, sl), x.me * nIn,
                            (x.me + 1) * nIn), block, "scatter " + what);
                        // gather
                        final int[] gathered = x.me == mine ? new int[x.lb * nIn] : null;
                        (nb ? x.c.igather(Buf.of(vals(x.g, x.me, nOut, sl)), buf(gathered), mine, theirs)
                            : done(() -> x.c.gather(Buf.of(vals(x.g, x.me, nOut, sl)), buf(gathered), mine,
                            theirs))).waitFor();
                        if (x.me == mine) {
                            assertArrayEquals(x.remoteAll(nIn, sl), gathered, "gather " + what);
                        }
                        // reduce
                        final int[] sum = x.me == mine ? new int[nIn] : null;
                        (nb ? x.c.ireduce(Buf.of(vals(x.g, x.me, nOut, sl)), buf(sum), Op.SUM, mine, theirs)
                            : done(() -> x.c.reduce(Buf.of(vals(x.g, x.me, nOut, sl)), buf(sum), Op.SUM, mine,
                            theirs))).waitFor();
                        if (x.me == mine) {
                            assertArrayEquals(x.remoteSum(nIn, sl), sum, "reduce " + what);
                        }
                    }
                }
            }
        });
    }

    /** Runs a blocking call and returns a completed request, so both forms read alike above. */
    public static Request done(final Runnable blocking) {
        blocking.run();
        return CompletedRequest.NULL_PEER;
    }

    // ------------------------------------------------------------------ one-way forms == symmetric, zero way

    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("pairs")
    public void shouldMatchEveryOneWayFormWithTheSymmetricFormWithAnEmptyDirection(final int a, final int b) {
        Tutti.runLocal(a + b, OPTS, w -> {
            final Ctx x = new Ctx(w, a);
            int salt = 100;
            for (final int n : new int[] {0, 1, 6}) {
                for (int rootGroup = 0; rootGroup < 2; rootGroup++) {
                    final int rootSize = 0 == rootGroup ? a : b;
                    for (int r = 0; r < rootSize; r++) {
                        salt++;
                        final boolean inRootGroup = x.g == rootGroup;
                        final boolean isRoot = inRootGroup && x.me == r;
                        final int oneWayRoot = inRootGroup ? (isRoot ? Intercommunicator.ROOT : Comm.PROC_NULL) : r;
                        final String what = "n=" + n + " root=" + r + " in group " + rootGroup + " g=" + x.g
                            + " rank=" + x.me;
                        // bcast
                        final int[] oneWay = isRoot ? vals(rootGroup, r, n, salt) : new int[n];
                        x.c.bcast(Buf.of(oneWay), oneWayRoot);
                        final int[] sym = new int[inRootGroup ? 0 : n];
                        x.c.bcast(isRoot ? Buf.of(vals(rootGroup, r, n, salt)) : null, inRootGroup ? null
                            : Buf.of(sym), inRootGroup ? r : 0, inRootGroup ? 0 : r);
                        if (!inRootGroup) {
                            assertArrayEquals(vals(rootGroup, r, n, salt), oneWay, "bcast one-way " + what);
                            assertArrayEquals(oneWay, sym, "bcast symmetric " + what);
                        }
                        // scatter (root's group sends); nonblocking one-way
                        final int[] part = new int[n];
                        x.c.iscatter(isRoot ? Buf.of(vals(rootGroup, r, x.lb * n, salt)) : null,
                            inRootGroup ? null : Buf.of(part), oneWayRoot).waitFor();
                        final int[] partSym = new int[inRootGroup ? 0 : n];
                        x.c.scatter(isRoot ? Buf.of(vals(rootGroup, r, x.lb * n, salt)) : null, Buf.of(partSym),
                            inRootGroup ? r : 0, inRootGroup ? 0 : r);
                        if (!inRootGroup) {
                            final int[] expected = Arrays.copyOfRange(vals(rootGroup, r, x.la * n, salt), x.me * n,
                                (x.me + 1) * n);
                            assertArrayEquals(expected, part, "scatter one-way " + what);
                            assertArrayEquals(part, partSym, "scatter symmetric " + what);
                        }
                        // gather (the other group sends to the root)
                        final int[] g1 = isRoot ? new int[x.lb * n] : null;
                        x.c.gather(inRootGroup ? null : Buf.of(vals(x.g, x.me, n, salt)), buf(g1), oneWayRoot);
                        final int[] g2 = isRoot ? new int[x.lb * n] : null;
                        x.c.igather(inRootGroup ? null : Buf.of(vals(x.g, x.me, n, salt)), buf(g2),
                            inRootGroup ? r : 0, inRootGroup ? 0 : r).waitFor();
                        if (isRoot) {
                            assertArrayEquals(x.remoteAll(n, salt), g1, "gather one-way " + what);
                            assertArrayEquals(g1, g2, "gather symmetric " + what);
                        }
                        // reduce
                        final int[] r1 = isRoot ? new int[n] : null;
                        x.c.ireduce(inRootGroup ? null : Buf.of(vals(x.g, x.me, n, salt)), buf(r1), Op.SUM,
                            oneWayRoot).waitFor();
                        final int[] r2 = isRoot ? new int[n] : null;
                        x.c.reduce(inRootGroup ? null : Buf.of(vals(x.g, x.me, n, salt)), buf(r2), Op.SUM,
                            inRootGroup ? r : 0, inRootGroup ? 0 : r);
                        if (isRoot) {
                            assertArrayEquals(x.remoteSum(n, salt), r1, "reduce one-way " + what);
                            assertArrayEquals(r1, r2, "reduce symmetric " + what);
                        }
                        // gatherv / scatterv (one-way only): counts vary per rank of the non-root group
                        final int[] cv = new int[x.lb];
                        Arrays.setAll(cv, j -> (n + j) % 4);
                        final int[] dv = CollBufferTest.Case.displs(cv, 1);
                        final int total = CollBufferTest.Case.end(cv, dv);
                        final int myCount = (n + x.me) % 4;
                        final int[] gv = isRoot ? new int[total] : null;
                        x.c.gatherv(inRootGroup ? null : Buf.of(vals(x.g, x.me, myCount, salt)), buf(gv), cv, dv,
                            oneWayRoot);
                        final int[] sv = new int[inRootGroup ? 0 : myCount];
                        x.c.scatterv(isRoot ? Buf.of(vals(x.g, x.me, total, salt)) : null, cv, dv, Buf.of(sv),
                            oneWayRoot);
                        if (isRoot) {
                            for (int j = 0; j < x.lb; j++) {
                                assertArrayEquals(vals(1 - x.g, j, cv[j], salt), Arrays.copyOfRange(gv, dv[j],
                                    dv[j] + cv[j]), "gatherv from " + j + " " + what);
                            }
                        }
                        if (!inRootGroup) {
                            assertArrayEquals(Arrays.copyOfRange(vals(rootGroup, r, 1000, salt), dvOf(x.la, n,
                                x.me), dvOf(x.la, n, x.me) + myCount), sv, "scatterv " + what);
                        }
                    }
                }
            }
        });
    }

    /** Displacement of rank {@code me}'s part in a scatterv over {@code p} ranks with counts (n + j) % 4, gap 1. */
    public static int dvOf(final int p, final int n, final int me) {
        final int[] c = new int[p];
        Arrays.setAll(c, j -> (n + j) % 4);
        return CollBufferTest.Case.displs(c, 1)[me];
    }

    // ------------------------------------------------------------------------------------------ non-rooted

    @ParameterizedTest(name = "{0}x{1}")
    @MethodSource("pairs")
    public void shouldRunTheTwoWayCollectivesWithCountsPerDirection(final int a, final int b) {
        final AtomicInteger entered = new AtomicInteger();
        Tutti.runLocal(a + b, OPTS, w -> {
            final Ctx x = new Ctx(w, a);
            int salt = 1000;
            for (int round = 0; round < 3; round++) {
                final int k = (entered.incrementAndGet() - 1) / (a + b);
                x.c.barrier();
                assertTrue(entered.get() >= (a + b) * (k + 1), "left the barrier early");
                x.c.ibarrier().waitFor();
            }
            for (final int[] counts : COUNTS) {
                final int sl = ++salt;
                final boolean nb = 0 == sl % 2;
                final int nOut = counts[x.g];
                final int nIn = counts[1 - x.g];
                final String what = "counts=" + Arrays.toString(counts) + " g=" + x.g + " rank=" + x.me;
                // allgather
                final int[] ag = new int[x.lb * nIn];
                call(nb, () -> x.c.iallgather(Buf.of(vals(x.g, x.me, nOut, salt0(sl))), Buf.of(ag)));
                assertArrayEquals(x.remoteAll(nIn, salt0(sl)), ag, "allgather " + what);
                // allreduce
                final int[] ar = new int[nIn];
                call(nb, () -> x.c.iallreduce(Buf.of(vals(x.g, x.me, nOut, salt0(sl))), Buf.of(ar), Op.SUM));
                assertArrayEquals(x.remoteSum(nIn, salt0(sl)), ar, "allreduce " + what);
                // alltoall: block j of rank r of group g uses sl + 13 * j
                final List<int[]> out = new ArrayList<>();
                for (int j = 0; j < x.lb; j++) {
                    out.add(vals(x.g, x.me, nOut, sl + 13 * j));
                }
                final int[] at = new int[x.lb * nIn];
                call(nb, () -> x.c.ialltoall(Buf.of(concat(out)), Buf.of(at)));
                final List<int[]> expect = new ArrayList<>();
                for (int j = 0; j < x.lb; j++) {
                    expect.add(vals(1 - x.g, j, nIn, sl + 13 * x.me));
                }
                assertArrayEquals(concat(expect), at, "alltoall " + what);
                // allgatherv: rank r of group h sends (n_h + r) % 3 elements
                final int myCount = 0 == nOut ? 0 : (nOut + x.me) % 3;
                final int[] rc = new int[x.lb];
                Arrays.setAll(rc, j -> 0 == nIn ? 0 : (nIn + j) % 3);
                final int[] rd = CollBufferTest.Case.displs(rc, 2);
                final int[] agv = new int[CollBufferTest.Case.end(rc, rd)];
                call(nb, () -> x.c.iallgatherv(Buf.of(vals(x.g, x.me, myCount, sl)), Buf.of(agv), rc, rd));
                for (int j = 0; j < x.lb; j++) {
                    assertArrayEquals(vals(1 - x.g, j, rc[j], sl), Arrays.copyOfRange(agv, rd[j], rd[j] + rc[j]),
                        "allgatherv from " + j + " " + what);
                }
                // alltoallv: from (g, r) to remote j: cnt(g, r, j) elements with sl + 31 * j
                final int[] sc = new int[x.lb];
                Arrays.setAll(sc, j -> cnt(nOut, x.g, x.me, j));
                final int[] sd = CollBufferTest.Case.displs(sc, 1);
                final int[] sendV = new int[CollBufferTest.Case.end(sc, sd)];
                for (int j = 0; j < x.lb; j++) {
                    System.arraycopy(vals(x.g, x.me, sc[j], sl + 31 * j), 0, sendV, sd[j], sc[j]);
                }
                final int[] rcv = new int[x.lb];
                Arrays.setAll(rcv, j -> cnt(nIn, 1 - x.g, j, x.me));
                final int[] rdv = CollBufferTest.Case.displs(rcv, 3);
                final int[] recvV = new int[CollBufferTest.Case.end(rcv, rdv)];
                call(nb, () -> x.c.ialltoallv(Buf.of(sendV), sc, sd, Buf.of(recvV), rcv, rdv));
                for (int j = 0; j < x.lb; j++) {
                    assertArrayEquals(vals(1 - x.g, j, rcv[j], sl + 31 * x.me), Arrays.copyOfRange(recvV, rdv[j],
                        rdv[j] + rcv[j]), "alltoallv from " + j + " " + what);
                }
                // alltoallw: ints to even remote ranks, doubles to odd ones
                final Buf[] sw = new Buf[x.lb];
                final Buf[] rw = new Buf[x.lb];
                final Object[] rwArrays = new Object[x.lb];
                for (int j = 0; j < x.lb; j++) {
                    final int[] v = vals(x.g, x.me, cnt(nOut, x.g, x.me, j), sl + 5 * j);
                    sw[j] = 0 == (x.me + j) % 2 ? Buf.of(v) : Buf.of(Arrays.stream(v).asDoubleStream().toArray());
                    final int m = cnt(nIn, 1 - x.g, j, x.me);
                    rwArrays[j] = 0 == (x.me + j) % 2 ? new int[m] : new double[m];
                    rw[j] = rwArrays[j] instanceof int[] ia ? Buf.of(ia) : Buf.of((double[]) rwArrays[j]);
                }
                call(nb, () -> x.c.ialltoallw(sw, rw));
                for (int j = 0; j < x.lb; j++) {
                    final int[] e = vals(1 - x.g, j, cnt(nIn, 1 - x.g, j, x.me), sl + 5 * x.me);
                    final int[] got = rwArrays[j] instanceof int[] ia ? ia
                        : Arrays.stream((double[]) rwArrays[j]).mapToInt(d -> (int) d).toArray();
                    assertArrayEquals(e, got, "alltoallw from " + j + " " + what);
                }
                // reduce_scatter_block: group h receives blocks of counts[h]; the other group's vectors have
                // size(h) * counts[h] elements
                final int[] rsb = new int[nOut];
                call(nb, () -> x.c.ireduceScatterBlock(Buf.of(vals(x.g, x.me, x.lb * nIn, sl)), Buf.of(rsb),
                    Op.SUM));
                final int[] fullIn = x.remoteSum(x.la * nOut, sl);
                assertArrayEquals(Arrays.copyOfRange(fullIn, x.me * nOut, (x.me + 1) * nOut), rsb,
                    "reduce_scatter_block " + what);
                // reduce_scatter: group h's rank i receives (counts[h] + i) % 3 elements
                final int[] myCounts = new int[x.la];
                Arrays.setAll(myCounts, i -> (counts[x.g] + i) % 3);
                final int theirTotal = Arrays.stream(remoteCounts(counts[1 - x.g], x.lb)).sum();
                final int myTotal = Arrays.stream(myCounts).sum();
                final int[] rs = new int[myCounts[x.me]];
                call(nb, () -> x.c.ireduceScatter(Buf.of(vals(x.g, x.me, theirTotal, sl)), Buf.of(rs), myCounts,
                    Op.SUM));
                final int[] full = x.remoteSum(myTotal, sl);
                final int from = CollBufferTest.Case.displs(myCounts, 0)[x.me];
                assertArrayEquals(Arrays.copyOfRange(full, from, from + myCounts[x.me]), rs, "reduce_scatter "
                    + what);
            }
            x.c.free();
        });
    }

    public static int salt0(final int salt) {
        return salt * 3;
    }

    public static int[] remoteCounts(final int n, final int size) {
        final int[] c = new int[size];
        Arrays.setAll(c, i -> (n + i) % 3);
        return c;
    }

    /** Count from rank r of group g to remote rank j, 0 when the direction is empty. */
    public static int cnt(final int n, final int g, final int r, final int j) {
        return 0 == n ? 0 : (n + r + 2 * j + g) % 4;
    }

    public static void call(final boolean nb, final java.util.function.Supplier<Request> start) {
        final Request r = start.get();
        if (!nb) {
            r.waitFor();
            return;
        }
        while (!r.test()) {
            Thread.yield(); // the ranks may outnumber the cores
        }
    }

    // ------------------------------------------------------------- types, large messages, non-commutative ops

    /** inout = in o inout for affine maps x -> a*x + b stored as pairs (a, b): associative, not commutative. */
    public static final Op COMPOSE = Op.user("compose", false, (long[] in, long[] inout, int count) -> {
        for (int i = 0; i < count; i += 2) {
            final long a = in[i] * inout[i];
            final long b = in[i] * inout[i + 1] + in[i + 1];
            inout[i] = a;
            inout[i + 1] = b;
        }
    });

    public static long[] affine(final int g, final int r, final int pairs) {
        final long[] x = new long[2 * pairs];
        for (int i = 0; i < pairs; i++) {
            x[2 * i] = 2 + g + r + i;
            x[2 * i + 1] = 3 * r + i - g;
        }
        return x;
    }

    @Test
    public void shouldCarryTypesLargeMessagesAndOrderedReductionsPerDirection() {
        final int a = 3;
        final int b = 4;
        Tutti.runLocal(a + b, OPTS, w -> {
            final Ctx x = new Ctx(w, a);
            // A sends ints, B sends doubles, of different lengths, in one symmetric bcast (roots A1, B2).
            final int rootA = 1;
            final int rootB = 2;
            final int mine = 0 == x.g ? rootA : rootB;
            final int theirs = 0 == x.g ? rootB : rootA;
            final int nA = 20_000;
            final int nB = 30_001;
            if (0 == x.g) {
                final double[] in = new double[nB];
                x.c.bcast(x.me == mine ? Buf.of(vals(0, mine, nA, 1)) : null, Buf.of(in), mine, theirs);
                assertArrayEquals(Arrays.stream(vals(1, theirs, nB, 1)).asDoubleStream().toArray(), in);
            } else {
                final int[] in = new int[nA];
                x.c.bcast(x.me == mine ? Buf.of(Arrays.stream(vals(1, mine, nB, 1)).asDoubleStream().toArray())
                    : null, Buf.of(in), mine, theirs);
                assertArrayEquals(vals(0, theirs, nA, 1), in);
            }
            // Large alltoall and allreduce (rendezvous-sized messages both ways).
            final int n = 0 == x.g ? 17_000 : 21_000;
            final int m = 0 == x.g ? 21_000 : 17_000;
            final int[] in = new int[x.lb * m];
            final int[] outAll = new int[x.lb * n];
            for (int j = 0; j < x.lb; j++) {
                System.arraycopy(vals(x.g, x.me, n, 7 * j), 0, outAll, j * n, n);
            }
            x.c.alltoall(Buf.of(outAll), Buf.of(in));
            for (int j = 0; j < x.lb; j++) {
                assertArrayEquals(vals(1 - x.g, j, m, 7 * x.me), Arrays.copyOfRange(in, j * m, (j + 1) * m));
            }
            final int[] sum = new int[m];
            x.c.allreduce(Buf.of(vals(x.g, x.me, n, 2)), Buf.of(sum), Op.SUM);
            assertArrayEquals(x.remoteSum(m, 2), sum);
            // Non-commutative reduction combines the remote ranks in rank order, in both directions at once.
            final int pairs = 0 == x.g ? 3 : 5;
            final int theirPairs = 0 == x.g ? 5 : 3;
            final long[] composed = x.me == mine ? new long[2 * theirPairs] : null;
            x.c.reduce(Buf.of(affine(x.g, x.me, pairs)), null == composed ? null : Buf.of(composed), COMPOSE, mine,
                theirs);
            final long[] all = new long[2 * theirPairs];
            x.c.allreduce(Buf.of(affine(x.g, x.me, pairs)), Buf.of(all), COMPOSE);
            long[] expected = affine(1 - x.g, x.lb - 1, theirPairs);
            for (int j = x.lb - 2; j >= 0; j--) {
                final long[] left = affine(1 - x.g, j, theirPairs);
                final long[] next = new long[expected.length];
                for (int i = 0; i < next.length; i += 2) {
                    next[i] = left[i] * expected[i];
                    next[i + 1] = left[i] * expected[i + 1] + left[i + 1];
                }
                expected = next;
            }
            assertArrayEquals(expected, all, "allreduce non-commutative");
            if (x.me == mine) {
                assertArrayEquals(expected, composed, "reduce non-commutative");
            }
            // Booleans are staged through bytes.
            final boolean[] flags = new boolean[x.lb];
            x.c.allgather(Buf.of(new boolean[] {0 == x.me % 2}), Buf.of(flags));
            for (int j = 0; j < x.lb; j++) {
                assertEquals(0 == j % 2, flags[j]);
            }
        });
    }

    // ------------------------------------------------------------------------ intracommunicator identity

    /** A program written against {@link Comm}: the same calls on an intra- and an intercommunicator. */
    public static int[][] symmetricProgram(final Comm c, final int root, final int remoteRoot, final int salt) {
        final int me = c.rank();
        final int[] b = new int[3];
        c.bcast(me == root ? Buf.of(vals(0, root, 3, salt)) : null, Buf.of(b), root, remoteRoot);
        final int[] s = new int[2];
        c.scatter(me == root ? Buf.of(vals(0, root, 2 * c.remoteSize(), salt)) : null, Buf.of(s), root,
            remoteRoot);
        final int[] g = me == root ? new int[2 * c.remoteSize()] : null;
        c.gather(Buf.of(vals(0, me, 2, salt)), buf(g), root, remoteRoot);
        final int[] r = me == root ? new int[4] : null;
        c.ireduce(Buf.of(vals(0, me, 4, salt)), buf(r), Op.SUM, root, remoteRoot).waitFor();
        final int[] ag = new int[c.remoteSize()];
        c.allgather(Buf.of(new int[] {me}), Buf.of(ag));
        final int[] ar = new int[1];
        c.iallreduce(Buf.of(new int[] {me + 1}), Buf.of(ar), Op.SUM).waitFor();
        final int[] at = new int[c.remoteSize()];
        final int[] out = new int[c.remoteSize()];
        Arrays.setAll(out, j -> 100 * me + j);
        c.alltoall(Buf.of(out), Buf.of(at));
        return new int[][] {b, s, null == g ? new int[0] : g, null == r ? new int[0] : r, ag, ar, at};
    }

    @Test
    public void shouldReduceTheSymmetricFormsToTheOrdinaryCollectivesOnAnIntracommunicator() {
        Tutti.runLocal(5, OPTS, w -> {
            final int me = w.rank();
            for (int root = 0; root < 5; root++) {
                final int salt = 40 + root;
                final int[][] sym = symmetricProgram(w, root, root, salt);
                // The same results through the ordinary calls.
                final int[] b = me == root ? vals(0, root, 3, salt) : new int[3];
                w.bcast(Buf.of(b), root);
                assertArrayEquals(b, sym[0], "bcast");
                final int[] s = new int[2];
                w.scatter(me == root ? Buf.of(vals(0, root, 10, salt)) : null, Buf.of(s), root);
                assertArrayEquals(s, sym[1], "scatter");
                final int[] g = me == root ? new int[10] : null;
                w.gather(Buf.of(vals(0, me, 2, salt)), buf(g), root);
                assertArrayEquals(null == g ? new int[0] : g, sym[2], "gather");
                final int[] r = me == root ? new int[4] : null;
                w.reduce(Buf.of(vals(0, me, 4, salt)), buf(r), Op.SUM, root);
                assertArrayEquals(null == r ? new int[0] : r, sym[3], "reduce");
                assertArrayEquals(new int[] {0, 1, 2, 3, 4}, sym[4], "allgather");
                assertArrayEquals(new int[] {15}, sym[5], "allreduce");
                final int[] at = new int[5];
                Arrays.setAll(at, j -> 100 * j + me);
                assertArrayEquals(at, sym[6], "alltoall");
            }
            // The root lives in both "groups": a different remoteRoot is refused before anything is sent.
            final TuttiException e = assertThrows(TuttiException.class,
                () -> w.bcast(Buf.of(new int[1]), Buf.of(new int[1]), 0, 1));
            assertEquals(ErrorClass.ROOT, e.errorClass());
            assertTrue(e.getMessage().contains("root=0 but remoteRoot=1"), e.getMessage());
        });
    }

    @Test
    public void shouldRunTheSameCommProgramOnAnIntercommunicator() {
        Tutti.runLocal(6, OPTS, w -> {
            final Ctx x = new Ctx(w, 3);
            // A's root is its rank 1, B's root its rank 2; each group names both.
            final int myRoot = 0 == x.g ? 1 : 2;
            final int theirRoot = 0 == x.g ? 2 : 1;
            final int[][] sym = symmetricProgram(x.c, myRoot, theirRoot, 9);
            // The remote group's data, as the program's symmetric definition says.
            assertArrayEquals(vals(0, theirRoot, 3, 9), sym[0]);
            assertArrayEquals(Arrays.copyOfRange(vals(0, theirRoot, 6, 9), 2 * x.me, 2 * x.me + 2), sym[1]);
            if (myRoot == x.me) {
                assertArrayEquals(concat(List.of(vals(0, 0, 2, 9), vals(0, 1, 2, 9), vals(0, 2, 2, 9))), sym[2]);
                final int[] sum = new int[4];
                for (int j = 0; j < 3; j++) {
                    for (int i = 0; i < 4; i++) {
                        sum[i] += val(0, j, i, 9);
                    }
                }
                assertArrayEquals(sum, sym[3]);
            }
            assertArrayEquals(new int[] {0, 1, 2}, sym[4]);
            assertArrayEquals(new int[] {6}, sym[5]);
            assertArrayEquals(new int[] {x.me, 100 + x.me, 200 + x.me}, sym[6]);
        });
    }

    // ------------------------------------------------------------------------------------------ bad input

    @Test
    public void shouldRefuseBadInputClearly() {
        Tutti.runLocal(3, OPTS, w -> {
            final Ctx x = new Ctx(w, 2); // A = {0, 1}, B = {2}
            final int[] one = new int[1];
            refused(ErrorClass.ROOT, "root=5 is outside the local group, expected 0.." + (x.la - 1),
                () -> x.c.bcast(Buf.of(one), Buf.of(one), 5, 0));
            refused(ErrorClass.ROOT, "remoteRoot=-1 is outside the remote group",
                () -> x.c.igather(Buf.of(one), Buf.of(one), 0, -1));
            refused(ErrorClass.ROOT, "root=7 is not ROOT, PROC_NULL or a rank of the remote group",
                () -> x.c.bcast(Buf.of(one), 7));
            refused(ErrorClass.BUFFER, "IN_PLACE, expected a buffer: an intercommunicator has no in-place",
                () -> x.c.allreduce(Buf.IN_PLACE, Buf.of(one), Op.SUM));
            if (x.lb > 1) {
                refused(ErrorClass.COUNT, "send count=3 is not a multiple of remoteSize=" + x.lb,
                    () -> x.c.alltoall(Buf.of(new int[3]), Buf.of(new int[x.lb])));
            }
            refused(ErrorClass.OP, "op=null", () -> x.c.reduce(Buf.of(one), Buf.of(one), null, 0, 0));
            // Still usable.
            final int[] s = new int[1];
            x.c.allreduce(Buf.of(new int[] {1}), Buf.of(s), Op.SUM);
            assertEquals(x.lb, s[0]);

            // Mismatched counts in a direction: A's root sends 3 elements, B expects 2.
            final TuttiException count = x.g == 1 ? assertThrows(TuttiException.class,
                () -> x.c.bcast(null, Buf.of(new int[2]), 0, 0)) : null;
            if (0 == x.g) {
                x.c.bcast(0 == x.me ? Buf.of(new int[3]) : null, Buf.of(new int[0]), 0, 0);
            } else {
                assertEquals(ErrorClass.COUNT, count.errorClass());
                assertTrue(count.getMessage().contains("sent count=3 (bytes=12) but this rank expected count=2 (bytes=8)"),
                    count.getMessage());
            }
            // Mismatched directions: both groups claim the root of a one-way bcast (A's rank 0 and B's rank 0).
            final boolean claimsRoot = 0 == x.me;
            if (claimsRoot) {
                final TuttiException dir = assertThrows(TuttiException.class,
                    () -> x.c.bcast(Buf.of(new int[4]), Intercommunicator.ROOT));
                assertEquals(ErrorClass.COUNT, dir.errorClass());
                assertTrue(dir.getMessage().contains("(bytes=16) but this rank expected count=0 (bytes=0)"),
                    dir.getMessage());
            } else {
                x.c.bcast(Buf.of(new int[4]), Comm.PROC_NULL);
            }
            // And the intercommunicator still works afterwards.
            final int[] ag = new int[x.lb];
            x.c.allgather(Buf.of(new int[] {x.me}), Buf.of(ag));
            for (int j = 0; j < x.lb; j++) {
                assertEquals(j, ag[j]);
            }
        });
    }

    public static void refused(final ErrorClass cls, final String needle, final Runnable call) {
        final TuttiException e = assertThrows(TuttiException.class, call::run);
        assertEquals(cls, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(needle), "'" + e.getMessage() + "' should contain '" + needle + "'");
    }
}
