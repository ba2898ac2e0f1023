package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static dev.tutti.coll.host.HostCollectivesTest.concat;
import static dev.tutti.coll.host.HostCollectivesTest.job;
import static dev.tutti.coll.host.HostCollectivesTest.sums;
import static dev.tutti.coll.host.HostCollectivesTest.vals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nonblocking and persistent collectives through the on-host region ({@link HostRun}): every operation the region
 * takes, started together, and a persistent one started again and again with new contents, matches the sequential
 * reference over processes' shared memory and threads, at sizes inline, in a cell's lines and past the limit (the
 * message layer); starts never wait, also when a root runs ahead of its peers and then waits in another call for a
 * peer that needs its data; a mismatch fails with the region's text. The layer is forced on with
 * {@code tutti.coll.hostLimit}, hence {@link Isolated}.
 */
@Isolated("sets the system property tutti.coll.hostLimit")
@Timeout(300)
class HostRunTest {
    /** Counts of ints: 0, inline, in the lines after, the limit itself, and past it. */
    private static final int[] COUNTS = {0, 1, 9, 2048, 2049};
    private static final int STARTS = 3;
    private static String saved;

    @BeforeAll
    static void forceOn() {
        saved = HostCollectivesTest.force(HostCollectivesTest.LIMIT, "8192");
    }

    @AfterAll
    static void restore() {
        HostCollectivesTest.restore(HostCollectivesTest.LIMIT, saved);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> jobs() {
        return HostCollectivesTest.jobs();
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMatchTheReferenceForEveryPersistentOperation(final String how, final int p) {
        job(how, p, (w, shm) -> {
            w.barrier(); // agrees the region
            final int me = w.rank();
            for (final int n : COUNTS) {
                final boolean region = (long) n * Integer.BYTES <= 8192;
                for (int root = 0; root < p; root++) {
                    final int[] b = new int[n];
                    final PersistentRequest bcast = w.bcastInit(Buf.of(b), root);
                    final int[] in = new int[n];
                    final int[] sum = new int[n];
                    final PersistentRequest reduce = w.reduceInit(Buf.of(in), me == root ? Buf.of(sum) : null, Op.SUM,
                        root);
                    final int[] gathered = new int[me == root ? p * n : 0];
                    final PersistentRequest gather = w.gatherInit(Buf.of(in), me == root ? Buf.of(gathered) : null,
                        root);
                    final int[] all = new int[me == root ? p * n : 0];
                    final int[] mine = new int[n];
                    final PersistentRequest scatter = w.scatterInit(me == root ? Buf.of(all) : null, Buf.of(mine),
                        root);
                    for (int s = 0; s < STARTS; s++) {
                        final int salt = 10 * s + root;
                        if (me == root) {
                            System.arraycopy(vals(salt, n), 0, b, 0, n);
                            System.arraycopy(concat(p, n), 0, all, 0, p * n);
                            shift(all, salt);
                        }
                        System.arraycopy(vals(me, n), 0, in, 0, n);
                        shift(in, salt);
                        for (final PersistentRequest r : new PersistentRequest[] {bcast, reduce, gather, scatter}) {
                            r.start();
                            r.waitFor();
                        }
                        assertArrayEquals(vals(salt, n), b, "bcast n=" + n + " root=" + root + " start " + s);
                        final int[] mineRef = vals(me, n);
                        shift(mineRef, salt);
                        assertArrayEquals(mineRef, mine, "scatter n=" + n + " root=" + root);
                        if (me == root) {
                            final int[] e = sums(p, n);
                            for (int i = 0; i < n; i++) {
                                e[i] += p * salt;
                            }
                            assertArrayEquals(e, sum, "reduce n=" + n + " root=" + root + " start " + s);
                            final int[] g = concat(p, n);
                            shift(g, salt);
                            assertArrayEquals(g, gathered, "gather n=" + n + " root=" + root);
                        }
                    }
                    assertEquals(region, bcast.toString().contains("on-host region"), bcast.toString());
                    for (final PersistentRequest r : new PersistentRequest[] {bcast, reduce, gather, scatter}) {
                        r.free();
                    }
                }
                final int[] in = new int[n];
                final int[] sum = new int[n];
                final int[] gathered = new int[p * n];
                final int[] sendAll = new int[p * n];
                final int[] recvAll = new int[p * n];
                final PersistentRequest allreduce = w.allreduceInit(Buf.of(in), Buf.of(sum), Op.SUM);
                final PersistentRequest allgather = w.allgatherInit(Buf.of(in), Buf.of(gathered));
                final PersistentRequest alltoall = w.alltoallInit(Buf.of(sendAll), Buf.of(recvAll));
                final PersistentRequest barrier = w.barrierInit();
                for (int s = 0; s < STARTS; s++) {
                    System.arraycopy(vals(me, n), 0, in, 0, n);
                    shift(in, s);
                    for (int d = 0; d < p; d++) {
                        for (int i = 0; i < n; i++) {
                            sendAll[d * n + i] = 1000 * me + d + s;
                        }
                    }
                    Request.waitAll(start(allreduce, allgather, alltoall, barrier));
                    final int[] e = sums(p, n);
                    for (int i = 0; i < n; i++) {
                        e[i] += p * s;
                    }
                    assertArrayEquals(e, sum, "allreduce n=" + n + " start " + s);
                    final int[] g = concat(p, n);
                    shift(g, s);
                    assertArrayEquals(g, gathered, "allgather n=" + n);
                    for (int from = 0; from < p; from++) {
                        for (int i = 0; i < n; i++) {
                            assertEquals(1000 * from + me + s, recvAll[from * n + i], "alltoall n=" + n);
                        }
                    }
                }
                assertEquals(region, allreduce.toString().contains("on-host region"), allreduce.toString());
                assertEquals(region && (long) n * p * Integer.BYTES <= 8192,
                    alltoall.toString().contains("on-host region"), alltoall.toString());
                for (final PersistentRequest r : new PersistentRequest[] {allreduce, allgather, alltoall, barrier}) {
                    r.free();
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMatchTheReferenceForEveryNonblockingOperationStartedTogether(final String how, final int p) {
        job(how, p, (w, shm) -> {
            w.barrier(); // agrees the region
            final int me = w.rank();
            for (final int n : COUNTS) {
                for (int root = 0; root < p; root++) {
                    final int[] b = me == root ? vals(root, n) : new int[n];
                    final int[] sum = new int[n];
                    final int[] gathered = new int[me == root ? p * n : 0];
                    final int[] mine = new int[n];
                    final int[] all = new int[n];
                    final int[] allGathered = new int[p * n];
                    final int[] sendAll = new int[p * n];
                    final int[] recvAll = new int[p * n];
                    for (int d = 0; d < p; d++) {
                        Arrays.fill(sendAll, d * n, d * n + n, 1000 * me + d);
                    }
                    final int[] inPlace = vals(me, n);
                    Request.waitAll(new Request[] {
                        w.ibcast(Buf.of(b), root),
                        w.ireduce(Buf.of(vals(me, n)), me == root ? Buf.of(sum) : null, Op.SUM, root),
                        w.igather(Buf.of(vals(me, n)), me == root ? Buf.of(gathered) : null, root),
                        w.iscatter(me == root ? Buf.of(concat(p, n)) : null, Buf.of(mine), root),
                        w.ibarrier(),
                        w.iallreduce(Buf.of(vals(me, n)), Buf.of(all), Op.SUM),
                        w.iallgather(Buf.of(vals(me, n)), Buf.of(allGathered)),
                        w.ialltoall(Buf.of(sendAll), Buf.of(recvAll)),
                        w.iallreduce(Buf.IN_PLACE, Buf.of(inPlace), Op.SUM)});
                    assertArrayEquals(vals(root, n), b, "ibcast n=" + n + " root=" + root);
                    assertArrayEquals(vals(me, n), mine, "iscatter n=" + n + " root=" + root);
                    assertArrayEquals(sums(p, n), all, "iallreduce n=" + n);
                    assertArrayEquals(sums(p, n), inPlace, "iallreduce in place n=" + n);
                    assertArrayEquals(concat(p, n), allGathered, "iallgather n=" + n);
                    for (int from = 0; from < p; from++) {
                        for (int i = 0; i < n; i++) {
                            assertEquals(1000 * from + me, recvAll[from * n + i], "ialltoall n=" + n);
                        }
                    }
                    if (me == root) {
                        assertArrayEquals(sums(p, n), sum, "ireduce n=" + n + " root=" + root);
                        assertArrayEquals(concat(p, n), gathered, "igather n=" + n + " root=" + root);
                    }
                }
            }
            final Request r = w.iallreduce(Buf.of(new int[1]), Buf.of(new int[1]), Op.SUM);
            assertTrue(r.toString().contains("HostRun"), r.toString());
            r.waitFor();
        });
    }

    /**
     * Doubles whose sum depends on the order of the additions: every rank's allreduce (blocking, nonblocking and
     * persistent) gives the same bits, those of the fold in rank order {@code x0 + (x1 + (... + x(p-1)))}; an int
     * sum, which a rank may fold from its own operand first, gives the exact sum.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldGiveEveryRankTheSameBitsOfAFloatingPointSum(final String how, final int p) {
        final double[] x = {1e16, 1.0, -1e16, 3.0, 1e-3};
        double ref = x[p - 1];
        for (int r = p - 2; r >= 0; r--) {
            ref = x[r] + ref;
        }
        final double expected = ref;
        job(how, p, (w, shm) -> {
            w.barrier();
            final double[] in = {x[w.rank()]};
            final double[] out = new double[1];
            w.allreduce(Buf.of(in), Buf.of(out), Op.SUM);
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(out[0]), "blocking");
            out[0] = 0;
            w.iallreduce(Buf.of(in), Buf.of(out), Op.SUM).waitFor();
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(out[0]), "nonblocking");
            out[0] = 0;
            final PersistentRequest r = w.allreduceInit(Buf.of(in), Buf.of(out), Op.SUM);
            r.start();
            r.waitFor();
            r.free();
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(out[0]), "persistent");
            final long[] all = new long[p];
            w.allgather(Buf.of(new long[] {Double.doubleToRawLongBits(out[0])}), Buf.of(all));
            for (final long bits : all) {
                assertEquals(all[0], bits, "every rank's bits");
            }
            final int[] sum = new int[1];
            w.allreduce(Buf.of(new int[] {w.rank() + 1}), Buf.of(sum), Op.SUM);
            assertEquals(p * (p + 1) / 2, sum[0]);
        });
    }

    /**
     * A root whose bcasts need nobody runs four starts ahead, its fifth waits for a free cell, and it then waits in
     * a receive for the peer that needs that fifth bcast's data before it sends: the rank's progress in the receive
     * publishes it. A start never waits, and the program (legal in MPI) completes.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldPublishAStartThatWaitedWhileItsRankWaitsElsewhere(final String how) {
        final int starts = 9;
        job(how, 2, (w, shm) -> {
            w.barrier();
            final int[] b = new int[3];
            final PersistentRequest bcast = w.bcastInit(Buf.of(b), 0);
            final int[] token = {0};
            if (0 == w.rank()) {
                for (int s = 0; s < starts; s++) {
                    Arrays.fill(b, s);
                    bcast.start();
                    if (s < starts - 1) {
                        bcast.waitFor();
                    }
                }
                w.recv(Buf.of(token), 1, 5);
                bcast.waitFor();
                assertEquals(starts, token[0]);
            } else {
                for (int s = 0; s < starts; s++) {
                    bcast.start();
                    bcast.waitFor();
                    assertArrayEquals(new int[] {s, s, s}, b, "start " + s);
                }
                token[0] = starts;
                w.send(Buf.of(token), 0, 5);
            }
            assertTrue(bcast.toString().contains("on-host region"), bcast.toString());
            bcast.free();
        });
    }

    /**
     * Persistent starts past the limit take the message layer, and their words wait for free cells when their rank
     * runs ahead: they are published as the peer catches up, so the blocking calls through the region after them
     * find every earlier call published.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldPublishTheWordsOfStartsOnTheMessageLayerThatRanAhead(final String how) {
        final int requests = 6;
        final int n = 2049;
        job(how, 2, (w, shm) -> {
            w.barrier();
            final int[][] out = new int[requests][n];
            final PersistentRequest[] r = new PersistentRequest[requests];
            for (int i = 0; i < requests; i++) {
                final int[] in = new int[n];
                Arrays.fill(in, i + w.rank());
                r[i] = w.allreduceInit(Buf.of(in), Buf.of(out[i]), Op.SUM);
            }
            final int[] token = {0};
            if (0 == w.rank()) {
                start(r);
                w.send(Buf.of(token), 1, 3);
            } else {
                w.recv(Buf.of(token), 0, 3);
                start(r);
            }
            Request.waitAll(r);
            for (int i = 0; i < requests; i++) {
                assertEquals(2 * i + 1, out[i][n - 1], "allreduce " + i);
                assertTrue(!r[i].toString().contains("on-host region"), r[i].toString());
                r[i].free();
            }
            for (int i = 0; i < 10; i++) {
                final int[] s = new int[1];
                w.allreduce(Buf.of(new int[] {i}), Buf.of(s), Op.SUM);
                assertEquals(2 * i, s[0]);
            }
        });
    }

    /**
     * A rank that only tests its run through the region (never waits) still moves its other operations on: its
     * large send, which streams in chunks as the rank makes progress, reaches the peer, who receives it before it
     * makes the collective that the test waits for.
     */
    @Test
    void shouldMoveOtherOperationsOnInATestOfARun() {
        final int n = 1 << 20;
        job("shm", 2, (w, shm) -> {
            w.barrier();
            final byte[] big = new byte[n];
            final int[] sum = new int[1];
            if (0 == w.rank()) {
                Arrays.fill(big, (byte) 7);
                final Request send = w.isend(Buf.of(big), 1, 11);
                final Request r = w.iallreduce(Buf.of(new int[] {1}), Buf.of(sum), Op.SUM);
                final long end = System.nanoTime() + 60_000_000_000L;
                while (!r.test()) {
                    assertTrue(System.nanoTime() < end, "the test never moved the send on: " + r);
                }
                send.waitFor();
            } else {
                w.recv(Buf.of(big), 0, 11);
                assertEquals(7, big[n - 1]);
                w.iallreduce(Buf.of(new int[] {2}), Buf.of(sum), Op.SUM).waitFor();
            }
            assertEquals(3, sum[0]);
        });
    }

    /** Persistent starts and per-call collectives, in one call order, on several communicators from threads. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldInterleavePersistentStartsWithPerCallCollectives(final String how) {
        job(how, 3, (w, shm) -> {
            final Communicator dup = w.dup();
            w.barrier();
            dup.barrier();
            final int[] in = {w.rank() + 1};
            final int[] out = new int[1];
            final PersistentRequest a = w.allreduceInit(Buf.of(in), Buf.of(out), Op.SUM);
            final PersistentRequest d = dup.allreduceInit(Buf.of(in), Buf.of(out.clone()), Op.MAX);
            for (int i = 0; i < 50; i++) {
                a.start();
                d.start();
                final int[] b = {i};
                w.bcast(Buf.of(b), i % 3);
                dup.barrier();
                a.waitFor();
                d.waitFor();
                assertEquals(6, out[0], "allreduce " + i);
                assertEquals(i, b[0]);
            }
            a.free();
            d.free();
            dup.free();
        });
    }

    /**
     * Several communicators at once, each driven by a thread of its own on every rank: persistent allreduces and
     * bcasts started up to three deep in flight, nonblocking alltoalls and reduces, and blocking calls between them,
     * waited for in another order than started; the rank's progress in any thread's wait moves every communicator's
     * runs on. Every result is checked.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldRunStartsOnManyCommunicatorsFromManyThreads(final String how) {
        final int p = 3;
        final int rounds = 150;
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            final Communicator[] dups = {w.dup(), w.dup(), w.dup()};
            for (final Communicator c : dups) {
                c.barrier(); // agrees its region
            }
            HostCollectivesTest.joined(me, HostCollectivesTest.inThreads(me, dups, (c, id) -> churn(c, rounds, id)));
            for (final Communicator c : dups) {
                c.free();
            }
        });
    }

    /** One thread's calls on its communicator (see {@link #shouldRunStartsOnManyCommunicatorsFromManyThreads}). */
    private static void churn(final Communicator c, final int rounds, final int salt) {
        final int me = c.rank();
        final int p = c.size();
        final int depth = 3;
        final int[][] in = new int[depth][4];
        final int[][] out = new int[depth][4];
        final PersistentRequest[] sums = new PersistentRequest[depth];
        for (int d = 0; d < depth; d++) {
            sums[d] = c.allreduceInit(Buf.of(in[d]), Buf.of(out[d]), Op.SUM);
        }
        final int[] b = new int[2];
        final PersistentRequest bcast = c.bcastInit(Buf.of(b), salt % p);
        for (int i = 0; i < rounds; i++) {
            for (int d = 0; d < depth; d++) {
                Arrays.fill(in[d], 1000 * i + 10 * d + me + salt);
                sums[d].start();
            }
            if (me == salt % p) {
                b[0] = i;
                b[1] = salt;
            }
            bcast.start();
            final int[] send = new int[p];
            final int[] got = new int[p];
            for (int r = 0; r < p; r++) {
                send[r] = 100 * me + r + i;
            }
            final Request a2a = c.ialltoall(Buf.of(send), Buf.of(got));
            final int[] red = new int[1];
            final Request reduce = c.ireduce(Buf.of(new int[] {me + i}), me == i % p ? Buf.of(red) : null, Op.SUM,
                i % p);
            final int[] blocking = new int[1];
            c.allreduce(Buf.of(new int[] {1}), Buf.of(blocking), Op.SUM);
            assertEquals(p, blocking[0], "blocking allreduce " + i);
            reduce.waitFor();
            for (int d = depth - 1; d >= 0; d--) {
                sums[d].waitFor();
                final int expected = p * (1000 * i + 10 * d + salt) + p * (p - 1) / 2;
                assertEquals(expected, out[d][3], "persistent allreduce " + d + " of round " + i);
            }
            a2a.waitFor();
            bcast.waitFor();
            assertArrayEquals(new int[] {i, salt}, b, "persistent bcast " + i);
            for (int r = 0; r < p; r++) {
                assertEquals(100 * r + me + i, got[r], "ialltoall " + i);
            }
            if (me == i % p) {
                assertEquals(p * i + p * (p - 1) / 2, red[0], "ireduce " + i);
            }
        }
        for (final PersistentRequest r : sums) {
            r.free();
        }
        bcast.free();
    }

    @Test
    void shouldRefuseAPersistentAllreduceAgainstAPersistentBcast() {
        HostCollectivesTest.assertRefused(HostCollectivesTest.outcomes(2, w -> {
            final int[] x = {1};
            final PersistentRequest r = 0 == w.rank() ? w.allreduceInit(Buf.of(x), Buf.of(new int[1]), Op.SUM)
                : w.bcastInit(Buf.of(x), 0);
            r.start();
            r.waitFor();
        }), ErrorClass.ARG, "the ranks called different collectives or roots");
    }

    @Test
    void shouldRefuseAPersistentStartAgainstABlockingCall() {
        HostCollectivesTest.assertRefused(HostCollectivesTest.outcomes(2, w -> {
            final int[] x = {1};
            if (0 == w.rank()) {
                final PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(new int[1]), Op.SUM);
                r.start();
                r.waitFor();
            } else {
                w.allreduce(Buf.of(x), Buf.of(new int[1]), Op.SUM);
            }
        }), ErrorClass.ARG, "called a persistent allreduce through the on-host region: blocking and persistent "
            + "collectives do not match");
    }

    private static Request[] start(final PersistentRequest... rs) {
        for (final PersistentRequest r : rs) {
            r.start();
        }
        return rs;
    }

    private static void shift(final int[] a, final int by) {
        for (int i = 0; i < a.length; i++) {
            a[i] += by;
        }
    }
}
