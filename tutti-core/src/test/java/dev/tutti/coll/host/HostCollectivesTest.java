package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollComm;
import dev.tutti.testkit.RefusedCall;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.Worlds;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The on-host layer: every operation it takes gives the same results as the sequential reference, over processes'
 * shared memory (ranks wired as processes, {@link ShmJob}) and threads of one JVM, in place and not, at sizes inline
 * in a cell's first line, in its lines after, and above the limit (the message layer); a non-commutative op folds in
 * rank order; a mismatch fails with the message layer's text; many communicators run at once. The layer is forced on
 * with {@code tutti.coll.hostLimit}, so that every JVM and test run takes the same cells, hence {@link Isolated}.
 */
@Isolated("sets the system property tutti.coll.hostLimit")
@Timeout(300)
class HostCollectivesTest {
    static final String LIMIT = "tutti.coll.hostLimit";
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(60));
    /** Counts of ints: 0, inline (up to 32 bytes), in the lines after, the limit itself, and past it. */
    static final int[] COUNTS = {0, 1, 3, 8, 9, 100, 2048, 2049};
    /** Left projection: {@code in op inout = in}; folded in rank order, the result is rank 0's operand. */
    static final Op FIRST = Op.builder("first", false).ints((in, inout, n) -> System.arraycopy(in, 0, inout, 0, n))
        .build();

    private static String saved;

    @BeforeAll
    static void forceOn() {
        saved = force(LIMIT, "8192");
    }

    @AfterAll
    static void restore() {
        restore(LIMIT, saved);
    }

    /** Sets system property {@code name} to {@code value} and returns what it was (null: not set). */
    static String force(final String name, final String value) {
        final String was = System.getProperty(name);
        System.setProperty(name, value);
        return was;
    }

    /** Sets system property {@code name} back to {@code was}, what {@link #force} returned. */
    static void restore(final String name, final String was) {
        if (null == was) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, was);
        }
    }

    static Stream<Arguments> jobs() {
        final List<Arguments> out = new ArrayList<>();
        for (final String how : new String[] {"shm", "threads"}) {
            for (final int p : new int[] {2, 3, 4}) {
                out.add(Arguments.of(how, p));
            }
        }
        return out.stream();
    }

    /** Runs {@code body} on every rank of a job of {@code p} ranks, over shm processes' wiring or threads. */
    static void job(final String how, final int p, final ShmJob.Body body) {
        if ("shm".equals(how)) {
            ShmJob.run(p, body);
        } else {
            Tutti.runLocal(p, OPTS, w -> body.run(w, null));
        }
    }

    static int val(final int rank, final int i) {
        return 1_000_003 * (rank + 1) + 7 * i;
    }

    static int[] vals(final int rank, final int n) {
        final int[] x = new int[n];
        Arrays.setAll(x, i -> val(rank, i));
        return x;
    }

    /**
     * A communicator made by a blocking creation has its region before its first call, so that a communicator whose
     * only calls are reduces and nonblocking allreduces (neither of which may agree one) still takes it; a half of
     * one rank has none.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldAgreeTheRegionWhenACommunicatorIsCreated(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            final Communicator d = w.dup();
            assertTrue(region(d).startsWith("HostRegion(") && region(d).contains(" 0 calls"), "dup: " + region(d));
            final Communicator half = w.split(me % 2, me);
            final String split = region(half);
            assertTrue(half.size() > 1 ? split.startsWith("HostRegion(") : !split.contains("HostRegion"),
                "split of " + half.size() + ": " + split);
            final int n = 5;
            for (int i = 0; i < 3; i++) {
                final int[] sum = new int[n];
                d.reduce(Buf.of(vals(me, n)), 0 == me ? Buf.of(sum) : null, Op.SUM, 0);
                if (0 == me) {
                    assertArrayEquals(sums(p, n), sum, "reduce " + i);
                }
                final int[] all = new int[n];
                d.iallreduce(Buf.of(vals(me, n)), Buf.of(all), Op.SUM).waitFor();
                assertArrayEquals(sums(p, n), all, "iallreduce " + i);
            }
            assertTrue(region(d).contains(" 6 calls"), "the dup's calls went through its region: " + region(d));
            half.free();
            d.free();
        });
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMatchTheReferenceForEveryOperation(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            for (final int n : COUNTS) {
                for (int root = 0; root < p; root++) {
                    final int[] b = me == root ? vals(root, n) : new int[n];
                    w.bcast(Buf.of(b), root);
                    assertArrayEquals(vals(root, n), b, "bcast n=" + n + " root=" + root);

                    final int[] sum = new int[n];
                    w.reduce(Buf.of(vals(me, n)), me == root ? Buf.of(sum) : null, Op.SUM, root);
                    if (me == root) {
                        assertArrayEquals(sums(p, n), sum, "reduce n=" + n + " root=" + root);
                    }
                    final int[] in = vals(me, n);
                    w.reduce(me == root ? Buf.IN_PLACE : Buf.of(in), Buf.of(in), Op.SUM, root); // in place at the root
                    if (me == root) {
                        assertArrayEquals(sums(p, n), in, "reduce in place n=" + n);
                    }

                    final int[] all = me == root ? new int[p * n] : null;
                    w.gather(Buf.of(vals(me, n)), null == all ? null : Buf.of(all), root);
                    if (me == root) {
                        assertArrayEquals(concat(p, n), all, "gather n=" + n + " root=" + root);
                    }

                    final int[] part = new int[n];
                    w.scatter(me == root ? Buf.of(concat(p, n)) : null, Buf.of(part), root);
                    assertArrayEquals(vals(me, n), part, "scatter n=" + n + " root=" + root);
                }
                final int[] sum = new int[n];
                w.allreduce(Buf.of(vals(me, n)), Buf.of(sum), Op.SUM);
                assertArrayEquals(sums(p, n), sum, "allreduce n=" + n);
                final int[] inPlace = vals(me, n);
                w.allreduce(Buf.IN_PLACE, Buf.of(inPlace), Op.SUM);
                assertArrayEquals(sums(p, n), inPlace, "allreduce in place n=" + n);
                final int[] first = new int[n];
                w.allreduce(Buf.of(vals(me, n)), Buf.of(first), FIRST);
                assertArrayEquals(vals(0, n), first, "allreduce of a non-commutative op n=" + n);

                final int[] all = new int[p * n];
                w.allgather(Buf.of(vals(me, n)), Buf.of(all));
                assertArrayEquals(concat(p, n), all, "allgather n=" + n);
                final int[] allIn = new int[p * n];
                System.arraycopy(vals(me, n), 0, allIn, me * n, n);
                w.allgather(Buf.IN_PLACE, Buf.of(allIn));
                assertArrayEquals(concat(p, n), allIn, "allgather in place n=" + n);

                final int[] send = new int[p * n];
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < n; i++) {
                        send[r * n + i] = val(me, r * n + i);
                    }
                }
                final int[] got = new int[p * n];
                w.alltoall(Buf.of(send), Buf.of(got));
                final int[] expect = new int[p * n];
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < n; i++) {
                        expect[r * n + i] = val(r, me * n + i);
                    }
                }
                assertArrayEquals(expect, got, "alltoall n=" + n);
                w.alltoall(Buf.IN_PLACE, Buf.of(send));
                assertArrayEquals(expect, send, "alltoall in place n=" + n);
                scans(w, n);
                w.barrier();
            }
            assertTrue(region(w).contains("HostRegion"), "the calls did not go through a region: " + region(w));
        });
    }

    /**
     * scan, exscan and reduce_scatter_block of {@code n} ints a rank (a block), in place and not, and with a
     * non-commutative op, whose result in rank order is the first rank's operand.
     */
    private static void scans(final Communicator w, final int n) {
        final int me = w.rank();
        final int p = w.size();
        final int[] scan = new int[n];
        w.scan(Buf.of(vals(me, n)), Buf.of(scan), Op.SUM);
        assertArrayEquals(sums(me + 1, n), scan, "scan n=" + n);
        final int[] scanIn = vals(me, n);
        w.scan(Buf.IN_PLACE, Buf.of(scanIn), Op.SUM);
        assertArrayEquals(sums(me + 1, n), scanIn, "scan in place n=" + n);
        final int[] scanFirst = new int[n];
        w.scan(Buf.of(vals(me, n)), Buf.of(scanFirst), FIRST);
        assertArrayEquals(vals(0, n), scanFirst, "scan of a non-commutative op n=" + n);
        final int[] ex = new int[n];
        w.exscan(Buf.of(vals(me, n)), Buf.of(ex), Op.SUM);
        final int[] exIn = vals(me, n);
        w.exscan(Buf.IN_PLACE, Buf.of(exIn), Op.SUM);
        final int[] exFirst = new int[n];
        w.exscan(Buf.of(vals(me, n)), Buf.of(exFirst), FIRST);
        if (me > 0) {
            assertArrayEquals(sums(me, n), ex, "exscan n=" + n);
            assertArrayEquals(sums(me, n), exIn, "exscan in place n=" + n);
            assertArrayEquals(vals(0, n), exFirst, "exscan of a non-commutative op n=" + n);
        }
        final int[] operand = vals(me, p * n);
        final int[] block = new int[n];
        final int[] expect = new int[n];
        final int[] first = new int[n];
        for (int i = 0; i < n; i++) {
            first[i] = val(0, me * n + i);
            for (int r = 0; r < p; r++) {
                expect[i] += val(r, me * n + i);
            }
        }
        w.reduceScatterBlock(Buf.of(operand), Buf.of(block), Op.SUM);
        assertArrayEquals(expect, block, "reduce_scatter_block n=" + n);
        final int[] inPlace = vals(me, p * n);
        w.reduceScatterBlock(Buf.IN_PLACE, Buf.of(inPlace), Op.SUM);
        assertArrayEquals(expect, Arrays.copyOf(inPlace, n), "reduce_scatter_block in place n=" + n);
        w.reduceScatterBlock(Buf.of(operand), Buf.of(block), FIRST);
        assertArrayEquals(first, block, "reduce_scatter_block of a non-commutative op n=" + n);
    }

    /**
     * Many communicators at once: the halves of a split run different collectives on the main threads while three
     * dups of the world each run a mix of collectives (among them the vector forms the region runs) from a thread of
     * their own, and short-lived dups are made, used and freed; every result is checked against its sum.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"shm", "threads"})
    void shouldRunManyCommunicatorsAtOnce(final String how) {
        final int p = 4;
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            final Communicator half = w.split(me % 2, me);
            final Communicator[] dups = {w.dup(), w.dup(), w.dup()};
            final Threads threads = inThreads(me, dups, (c, id) -> mix(c, 300, id));
            for (int i = 0; i < 300; i++) {
                if (0 == me % 2) {
                    final long[] s = new long[5];
                    half.allreduce(Buf.of(new long[] {me, i, 1, me * i, 7}), Buf.of(s), Op.SUM);
                    assertArrayEquals(new long[] {0 + 2, 2L * i, 2, 2L * i, 14}, s, "even half, call " + i);
                } else {
                    final int[] got = new int[2 * 3];
                    final int[] send = new int[2 * 3];
                    final int call = i;
                    Arrays.setAll(send, j -> 100 * me + 10 * call + j);
                    half.alltoall(Buf.of(send), Buf.of(got));
                    for (int r = 0; r < 2; r++) {
                        final int peer = 2 * r + 1;
                        for (int j = 0; j < 3; j++) {
                            assertEquals(100 * peer + 10 * i + half.rank() * 3 + j, got[r * 3 + j], "odd half " + i);
                        }
                    }
                    final int[] b = new int[] {half.rank() == i % 2 ? i : -1};
                    half.bcast(Buf.of(b), i % 2);
                    assertEquals(i, b[0]);
                }
            }
            for (int i = 0; i < 40; i++) {
                final Communicator d = w.dup();
                final int[] s = new int[1];
                d.allreduce(Buf.of(new int[] {i + me}), Buf.of(s), Op.SUM);
                assertEquals(4 * i + 6, s[0]);
                d.free();
            }
            joined(me, threads);
            for (final Communicator d : dups) {
                assertTrue(region(d).contains("HostRegion"), region(d));
            }
            half.free();
            for (final Communicator d : dups) {
                d.free();
            }
        });
    }

    /**
     * Nonblocking calls are local: a rank that starts more nonblocking collectives than the region has cells before
     * its peer makes any of them, and only then sends the message its peer waits for before making them, does not
     * block in those calls (their words wait for free cells and are published as the peers catch up).
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"shm", "threads"})
    void shouldNotBlockInNonblockingCallsThatRunAheadOfAPeer(final String how) {
        final int calls = 3 * 4 + 2;
        job(how, 2, (w, shm) -> {
            w.barrier(); // agrees the region
            final int[] token = {0};
            final Request[] r = new Request[calls];
            final int[][] sums = new int[calls][1];
            if (0 == w.rank()) {
                for (int i = 0; i < calls; i++) {
                    r[i] = i % 2 == 0 ? w.ibarrier() : w.iallreduce(Buf.of(new int[] {i}), Buf.of(sums[i]), Op.SUM);
                }
                token[0] = 42;
                w.send(Buf.of(token), 1, 7);
            } else {
                w.recv(Buf.of(token), 0, 7);
                assertEquals(42, token[0]);
                for (int i = 0; i < calls; i++) {
                    r[i] = i % 2 == 0 ? w.ibarrier() : w.iallreduce(Buf.of(new int[] {10 * i}), Buf.of(sums[i]),
                        Op.SUM);
                }
            }
            Request.waitAll(r);
            for (int i = 1; i < calls; i += 2) {
                assertEquals(11 * i, sums[i][0], "iallreduce " + i);
            }
            final int[] after = new int[1];
            w.allreduce(Buf.of(new int[] {w.rank() + 1}), Buf.of(after), Op.SUM);
            assertEquals(3, after[0]);
            assertTrue(region(w).contains("HostRegion"), region(w));
        });
    }

    /** What a thread does with its communicator: {@code (communicator, the thread's number)}. */
    interface ThreadBody {
        void run(Communicator c, int id) throws Exception;
    }

    /**
     * Starts a thread per communicator, named after the rank and the communicator's index, that runs {@code body}
     * on it; {@link #joined} waits for them and rethrows the first failure.
     */
    static Threads inThreads(final int me, final Communicator[] comms, final ThreadBody body) {
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < comms.length; t++) {
            final int id = t;
            final Communicator c = comms[t];
            final Thread th = new Thread(() -> {
                try {
                    body.run(c, id);
                } catch (final Throwable e) {
                    throw new AssertionError("communicator " + id + " of rank " + me, e);
                }
            }, "rank" + me + "-comm" + t);
            threads.add(th);
        }
        final AtomicReferenceArray<Throwable> failed = new AtomicReferenceArray<>(threads.size());
        for (int t = 0; t < threads.size(); t++) {
            final int id = t;
            threads.get(t).setUncaughtExceptionHandler((th, e) -> failed.set(id, e));
            threads.get(t).start();
        }
        return new Threads(threads, failed);
    }

    /** Threads started by {@link #inThreads}, and what each threw. */
    record Threads(List<Thread> threads, AtomicReferenceArray<Throwable> failed) {
    }

    /**
     * Waits for threads from {@link #inThreads} (two minutes in all at most) and rethrows the first failure as soon as
     * one thread has failed: this rank then fails, which ends the job at once, where the failed thread's peers on the
     * other ranks would wait for it until their timeout.
     */
    static void joined(final int me, final Threads started) throws InterruptedException {
        final AtomicReferenceArray<Throwable> failed = started.failed();
        final long end = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        for (final Thread th : started.threads()) {
            while (th.isAlive() && System.nanoTime() - end < 0) {
                th.join(20);
                for (int t = 0; t < failed.length(); t++) {
                    if (null != failed.get(t)) {
                        throw new AssertionError("rank " + me, failed.get(t));
                    }
                }
            }
            assertTrue(!th.isAlive(), th.getName() + " hung");
        }
        for (int t = 0; t < failed.length(); t++) {
            if (null != failed.get(t)) {
                throw new AssertionError("rank " + me, failed.get(t));
            }
        }
    }

    /** A mix of collectives on one communicator, each result checked. */
    static void mix(final Communicator c, final int calls, final int salt) {
        final int me = c.rank();
        final int p = c.size();
        for (int i = 0; i < calls; i++) {
            final int n = 1 + (i * 7 + salt) % 40;
            switch (i % 7) {
                case 0 -> {
                    final int[] s = new int[n];
                    c.allreduce(Buf.of(vals(me + i, n)), Buf.of(s), Op.SUM);
                    final int[] e = new int[n];
                    for (int r = 0; r < p; r++) {
                        for (int j = 0; j < n; j++) {
                            e[j] += val(r + i, j);
                        }
                    }
                    assertArrayEquals(e, s, "allreduce " + i);
                }
                case 1 -> {
                    final int root = i % p;
                    final int[] b = me == root ? vals(salt + i, n) : new int[n];
                    c.bcast(Buf.of(b), root);
                    assertArrayEquals(vals(salt + i, n), b, "bcast " + i);
                }
                case 2 -> {
                    final int[] all = new int[p * n];
                    c.allgather(Buf.of(vals(me, n)), Buf.of(all));
                    assertArrayEquals(concat(p, n), all, "allgather " + i);
                }
                case 3 -> c.barrier();
                default -> vectors(c, i, n);
            }
        }
    }

    /**
     * Call {@code i} of {@link #mix} among the vector forms that the region runs: a gatherv to rank {@code i % p}
     * (blocking or not), a nonblocking allgatherv, alltoallv or alltoallw, and a reduce_scatter, rank r's block
     * {@code (n + r) % 5} ints (some empty), checked.
     */
    private static void vectors(final Communicator c, final int i, final int n) {
        final int me = c.rank();
        final int p = c.size();
        final int[] counts = new int[p];
        final int[] displs = new int[p];
        int total = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = (n + r) % 5;
            displs[r] = total;
            total += counts[r];
        }
        final int[] expect = new int[total];
        for (int r = 0; r < p; r++) {
            System.arraycopy(vals(r, counts[r]), 0, expect, displs[r], counts[r]);
        }
        final int[] mine = vals(me, counts[me]);
        final int[] all = new int[total];
        switch (i % 7) {
            case 4 -> {
                final int root = i % p;
                final Buf recv = me == root ? Buf.of(all) : null;
                if (0 == i / 7 % 2) {
                    c.gatherv(Buf.of(mine), recv, counts, displs, root);
                } else {
                    c.igatherv(Buf.of(mine), recv, counts, displs, root).waitFor();
                }
                if (me == root) {
                    assertArrayEquals(expect, all, "gatherv " + i);
                }
            }
            case 5 -> {
                if (0 == i / 7 % 2) {
                    c.iallgatherv(Buf.of(mine), Buf.of(all), counts, displs).waitFor();
                    assertArrayEquals(expect, all, "iallgatherv " + i);
                } else {
                    exchanged(c, i, n);
                }
            }
            default -> {
                final int[] sum = new int[counts[me]];
                c.reduceScatter(Buf.of(vals(i, total)), Buf.of(sum), counts, Op.SUM);
                final int[] want = new int[counts[me]];
                for (int j = 0; j < want.length; j++) {
                    want[j] = p * val(i, displs[me] + j);
                }
                assertArrayEquals(want, sum, "reduce_scatter " + i);
            }
        }
    }

    /**
     * A nonblocking alltoallv, or every other time the same as an alltoallw: rank r sends rank j
     * {@code (n + r + j) % 4} ints of its own, checked.
     */
    private static void exchanged(final Communicator c, final int i, final int n) {
        final int me = c.rank();
        final int p = c.size();
        final int[] counts = new int[p];
        final int[] displs = new int[p];
        int total = 0;
        for (int j = 0; j < p; j++) {
            counts[j] = (n + me + j) % 4; // what this rank sends rank j, and receives from it
            displs[j] = total;
            total += counts[j];
        }
        final int[] send = new int[total];
        final int[] expect = new int[total];
        for (int j = 0; j < p; j++) {
            System.arraycopy(vals(100 * me + j + i, counts[j]), 0, send, displs[j], counts[j]);
            System.arraycopy(vals(100 * j + me + i, counts[j]), 0, expect, displs[j], counts[j]);
        }
        final int[] got = new int[total];
        if (0 == i / 14 % 2) {
            c.ialltoallv(Buf.of(send), counts, displs, Buf.of(got), counts, displs).waitFor();
        } else { // the same blocks, each a buffer of its own
            final Buf[] sendBlocks = new Buf[p];
            final Buf[] recvBlocks = new Buf[p];
            for (int j = 0; j < p; j++) {
                sendBlocks[j] = Buf.of(send, displs[j], counts[j]);
                recvBlocks[j] = Buf.of(got, displs[j], counts[j]);
            }
            c.ialltoallw(sendBlocks, recvBlocks).waitFor();
        }
        assertArrayEquals(expect, got, "ialltoallv or ialltoallw " + i);
    }

    static String region(final Communicator w) {
        final CollComm c = Worlds.impl(w).collComm();
        return String.valueOf(c.hostState());
    }

    static int[] sums(final int p, final int n) {
        final int[] s = new int[n];
        for (int r = 0; r < p; r++) {
            for (int i = 0; i < n; i++) {
                s[i] += val(r, i);
            }
        }
        return s;
    }

    static int[] concat(final int p, final int n) {
        final int[] a = new int[p * n];
        for (int r = 0; r < p; r++) {
            System.arraycopy(vals(r, n), 0, a, r * n, n);
        }
        return a;
    }

    // ------------------------------------------------------------------------------------------ mismatches

    /** Each rank's outcome: "returned", or what it threw; the job's failure, if any. */
    record Outcomes(AtomicReferenceArray<Object> ranks, TuttiException job) {
    }

    static Outcomes outcomes(final int n, final dev.tutti.RankBody body) {
        final AtomicReferenceArray<Object> out = new AtomicReferenceArray<>(n);
        final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(n);
        TuttiException job = null;
        try {
            Tutti.runLocal(n, Tutti.Options.defaults().timeout(Duration.ofSeconds(20)), w -> {
                try {
                    w.barrier(); // the region is made here, before the calls under test
                    body.run(w);
                    out.set(w.rank(), "returned");
                } catch (final RuntimeException | Error e) {
                    out.set(w.rank(), e);
                    ended.countDown();
                    throw e;
                }
                ended.countDown();
                ended.await(10, java.util.concurrent.TimeUnit.SECONDS);
            });
        } catch (final TuttiException e) {
            job = e;
        }
        return new Outcomes(out, job);
    }

    /** Asserts that some rank failed with {@code cls} and a message holding every one of {@code texts}; none hung. */
    static void assertRefused(final Outcomes o, final ErrorClass cls, final String... texts) {
        assertNotNull(o.job(), "every rank returned: the mismatch went unnoticed " + o.ranks());
        assertTrue(ErrorClass.TIMEOUT != o.job().errorClass(), "the job hung: " + o.job().getMessage());
        boolean named = false;
        for (int r = 0; r < o.ranks().length(); r++) {
            if (o.ranks().get(r) instanceof TuttiException e && cls == e.errorClass()
                && java.util.Arrays.stream(texts).allMatch(e.getMessage()::contains)) {
                named = true;
            }
        }
        assertTrue(named, "no rank failed with " + cls + " " + java.util.Arrays.toString(texts) + ": " + o.ranks());
    }

    @Test
    void shouldRefuseABcastAgainstAnAllreduceWithTheHeadersText() {
        final Outcomes o = outcomes(2, w -> {
            final int[] x = {1};
            if (0 == w.rank()) {
                w.allreduce(Buf.of(x), Buf.of(new int[1]), Op.SUM);
            } else {
                w.bcast(Buf.of(x), 0);
            }
        });
        assertRefused(o, ErrorClass.ARG, "rank=1 sent as part of bcast root=0 but this rank called allreduce: the "
            + "ranks called different collectives or roots");
    }

    @Test
    void shouldRefuseABcastFromAnotherRoot() {
        final Outcomes o = outcomes(4, w -> {
            final int root = w.rank() < 2 ? 0 : 1;
            final int[] b = w.rank() == root ? vals(root, 3) : new int[3];
            w.bcast(Buf.of(b), root);
            assertArrayEquals(vals(root, 3), b);
        });
        assertRefused(o, ErrorClass.ROOT, "rank=1 sent as part of bcast root=0 but this rank called bcast root=1");
    }

    @Test
    void shouldRefuseAnotherCountAnotherOpAndAnotherForm() {
        assertRefused(outcomes(2, w -> w.allreduce(Buf.of(new int[1 + w.rank()]), Buf.of(new int[1 + w.rank()]),
            Op.SUM)), ErrorClass.COUNT, "sent count=2 of type=INT but this rank passed count=1 of type=INT");
        assertRefused(outcomes(2, w -> w.allreduce(Buf.of(new int[1]), Buf.of(new int[1]), 0 == w.rank() ? Op.SUM
            : Op.MAX)), ErrorClass.OP, "sent op=SUM but this rank passed op=MAX");
        // A count past the limit on one rank only: that rank takes the message layer (chunks are off), and the other
        // sees its count.
        assertRefused(outcomes(2, w -> {
            final int n = 0 == w.rank() ? 4 : 100_000;
            w.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM);
        }), ErrorClass.COUNT, "rank=1 sent count=100000 of type=INT but this rank passed count=4");
        assertRefused(outcomes(2, w -> {
            if (0 == w.rank()) {
                w.barrier();
            } else {
                final Request r = w.ibarrier();
                r.waitFor();
            }
        }), ErrorClass.ARG, "blocking and nonblocking collectives do not match");
    }

    @Test
    void shouldRunMatchingCallsAfterARefusedOne() {
        Tutti.runLocal(3, OPTS, w -> {
            RefusedCall.thenMatchingCalls(w, 10);
            assertTrue(region(w).contains("HostRegion"), region(w));
        });
    }
}
