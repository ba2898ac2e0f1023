package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.CollectiveMismatchException;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Layout;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.AllocationProbe;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.Worlds;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPI-4 persistent collectives ({@code ...Init}): every collective's persistent form, started many times with
 * buffer contents that change between starts, gives what its blocking form gives on the same inputs (the blocking
 * forms are checked against sequential references elsewhere), on intracommunicators of 1 to 5 ranks and on an
 * intercommunicator; starts interleave with ordinary collectives; a start on the small-message path allocates
 * nothing; and MPI-4's state rules are enforced.
 */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
@Timeout(60)
class CollPersistentTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));
    private static final int STARTS = 6;
    private static final int N = 3;
    /** Bytes per start and wait allowed (the point-to-point layer's; see the test). */
    private static final double MAX_BYTES_PER_START = 1;
    private static final double MAX_BYTES_PER_BUFFERED_START = 200;

    /** One collective in both forms: fills its inputs for a start, and runs either form into its outputs. */
    record Case(String name, IntConsumer fill, Supplier<PersistentRequest> init, Runnable blocking,
        int[][] outputs) {
    }

    private static int[] vals(final int rank, final int n, final int salt) {
        final int[] x = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = rank * 1000 + i * 7 + salt;
        }
        return x;
    }

    private static void set(final int[] dst, final int[] src) {
        System.arraycopy(src, 0, dst, 0, src.length);
    }

    static List<Case> intraCases(final Communicator w) {
        final int p = w.size();
        final int me = w.rank();
        final List<Case> cases = new ArrayList<>();
        final int[] in = new int[N];
        final int[] blocks = new int[p * N];
        final int[] out = new int[N];
        final int[] all = new int[p * N];
        final int root = p - 1;
        final int[] counts = new int[p];
        final int[] displs = new int[p];
        for (int r = 0; r < p; r++) {
            counts[r] = 1 + r % N;
            displs[r] = r * N;
        }
        final IntConsumer fillIn = s -> set(in, vals(me, N, s));
        final IntConsumer fillBlocks = s -> set(blocks, vals(me, p * N, s));
        cases.add(new Case("barrier", s -> { }, w::barrierInit, w::barrier, new int[0][]));
        cases.add(new Case("bcast", s -> set(out, me == root ? vals(me, N, s) : new int[N]),
            () -> w.bcastInit(Buf.of(out), root), () -> w.bcast(Buf.of(out), root), new int[][] {out}));
        cases.add(new Case("gather", fillIn, () -> w.gatherInit(Buf.of(in), Buf.of(all), root),
            () -> w.gather(Buf.of(in), Buf.of(all), root), new int[][] {all}));
        cases.add(new Case("gatherv", fillIn, () -> w.gathervInit(Buf.of(in, 0, counts[me]), Buf.of(all), counts,
            displs, 0), () -> w.gatherv(Buf.of(in, 0, counts[me]), Buf.of(all), counts, displs, 0),
            new int[][] {all}));
        cases.add(new Case("scatter", fillBlocks, () -> w.scatterInit(Buf.of(blocks), Buf.of(out), 0),
            () -> w.scatter(Buf.of(blocks), Buf.of(out), 0), new int[][] {out}));
        cases.add(new Case("scatterv", fillBlocks, () -> w.scattervInit(Buf.of(blocks), counts, displs,
            Buf.of(out, 0, counts[me]), root), () -> w.scatterv(Buf.of(blocks), counts, displs, Buf.of(out, 0,
            counts[me]), root), new int[][] {out}));
        cases.add(new Case("allgather", fillIn, () -> w.allgatherInit(Buf.of(in), Buf.of(all)),
            () -> w.allgather(Buf.of(in), Buf.of(all)), new int[][] {all}));
        cases.add(new Case("allgatherv", fillIn, () -> w.allgathervInit(Buf.of(in, 0, counts[me]), Buf.of(all),
            counts, displs), () -> w.allgatherv(Buf.of(in, 0, counts[me]), Buf.of(all), counts, displs),
            new int[][] {all}));
        cases.add(new Case("alltoall", fillBlocks, () -> w.alltoallInit(Buf.of(blocks), Buf.of(all)),
            () -> w.alltoall(Buf.of(blocks), Buf.of(all)), new int[][] {all}));
        final int[] fromEach = new int[p]; // what rank j sends this rank: counts[me]
        Arrays.fill(fromEach, counts[me]);
        cases.add(new Case("alltoallv", fillBlocks, () -> w.alltoallvInit(Buf.of(blocks), counts, displs,
            Buf.of(all), fromEach, displs), () -> w.alltoallv(Buf.of(blocks), counts, displs, Buf.of(all),
            fromEach, displs), new int[][] {all}));
        cases.add(new Case("reduce", fillIn, () -> w.reduceInit(Buf.of(in), Buf.of(out), Op.SUM, root),
            () -> w.reduce(Buf.of(in), Buf.of(out), Op.SUM, root), new int[][] {out}));
        cases.add(new Case("allreduce", fillIn, () -> w.allreduceInit(Buf.of(in), Buf.of(out), Op.MAX),
            () -> w.allreduce(Buf.of(in), Buf.of(out), Op.MAX), new int[][] {out}));
        cases.add(new Case("allreduce in place", s -> set(out, vals(me, N, s)), () -> w.allreduceInit(Buf.IN_PLACE,
            Buf.of(out), Op.SUM), () -> w.allreduce(Buf.IN_PLACE, Buf.of(out), Op.SUM), new int[][] {out}));
        cases.add(new Case("reduceScatter", fillBlocks, () -> w.reduceScatterInit(Buf.of(blocks, 0, total(counts)),
            Buf.of(out, 0, counts[me]), counts, Op.SUM), () -> w.reduceScatter(Buf.of(blocks, 0, total(counts)),
            Buf.of(out, 0, counts[me]), counts, Op.SUM), new int[][] {out}));
        cases.add(new Case("reduceScatterBlock", fillBlocks, () -> w.reduceScatterBlockInit(Buf.of(blocks),
            Buf.of(out), Op.SUM), () -> w.reduceScatterBlock(Buf.of(blocks), Buf.of(out), Op.SUM),
            new int[][] {out}));
        cases.add(new Case("scan", fillIn, () -> w.scanInit(Buf.of(in), Buf.of(out), Op.SUM),
            () -> w.scan(Buf.of(in), Buf.of(out), Op.SUM), new int[][] {out}));
        cases.add(new Case("exscan", fillIn, () -> w.exscanInit(Buf.of(in), Buf.of(out), Op.SUM),
            () -> w.exscan(Buf.of(in), Buf.of(out), Op.SUM), new int[][] {out}));
        return cases;
    }

    private static int total(final int[] counts) {
        return Arrays.stream(counts).sum();
    }

    /**
     * Runs each case: per start, fills the inputs, runs the blocking form and saves its outputs, fills again, runs
     * the persistent request, and compares (an ordinary collective between the starts keeps the call order mixed).
     */
    static void check(final Communicator w, final List<Case> cases) {
        for (final Case c : cases) {
            final PersistentRequest r = c.init().get();
            assertFalse(r.isActive(), c.name() + ": a new request is inactive");
            for (int s = 0; s < STARTS; s++) {
                final int salt = 100 * s + 1;
                for (final int[] o : c.outputs()) {
                    Arrays.fill(o, -1);
                }
                c.fill().accept(salt);
                c.blocking().run();
                final int[][] expected = new int[c.outputs().length][];
                for (int k = 0; k < expected.length; k++) {
                    expected[k] = c.outputs()[k].clone();
                    Arrays.fill(c.outputs()[k], -1);
                }
                c.fill().accept(salt);
                r.start();
                assertTrue(r.isActive(), c.name());
                if (0 == s % 2) {
                    r.waitFor();
                } else {
                    while (!r.test()) {
                        Thread.yield(); // the ranks may outnumber the cores
                    }
                }
                assertFalse(r.isActive(), c.name() + ": inactive once its completion is seen");
                for (int k = 0; k < expected.length; k++) {
                    assertArrayEquals(expected[k], c.outputs()[k], c.name() + " start " + s + " rank " + w.rank());
                }
            }
            r.free();
        }
    }

    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldGiveWhatTheBlockingFormGivesOnEveryStart(final int p) {
        Tutti.runLocal(p, OPTS, w -> check(w, intraCases(w)));
    }

    @Test
    void shouldRunPersistentIntercommunicatorCollectivesStandardAndSymmetric() {
        Tutti.runLocal(5, OPTS, CollPersistentTest::checkInter);
    }

    /** Persistent intercommunicator collectives (2 + 3 ranks of {@code w}), standard and symmetric, against values. */
    static void checkInter(final Communicator w) {
        {
            final CollIntercommTest.Ctx x = new CollIntercommTest.Ctx(w, 2);
            final Intercommunicator ic = x.c;
            final int[] out = new int[N];
            final int[] in = new int[N];
            final int[] all = new int[x.lb * N];
            final int[] sum = new int[N];
            final PersistentRequest bcast = ic.bcastInit(Buf.of(out), Buf.of(in), 0, 0);
            final PersistentRequest gather = ic.allgatherInit(Buf.of(out), Buf.of(all));
            final PersistentRequest reduce = ic.allreduceInit(Buf.of(out), Buf.of(sum), Op.SUM);
            final int oneWayRoot = 0 == x.g ? (0 == x.me ? Intercommunicator.ROOT : Comm.PROC_NULL) : 0;
            final int[] oneWay = new int[N];
            final PersistentRequest bcastOneWay = ic.bcastInit(Buf.of(oneWay), oneWayRoot);
            for (int s = 0; s < STARTS; s++) {
                set(out, CollIntercommTest.vals(x.g, x.me, N, s));
                set(oneWay, 0 == x.g ? CollIntercommTest.vals(0, 0, N, s + 50) : new int[N]);
                PersistentRequest.startAll(bcast, gather, reduce, bcastOneWay);
                Request.waitAll(bcast, gather, reduce, bcastOneWay);
                assertArrayEquals(CollIntercommTest.vals(1 - x.g, 0, N, s), in, "bcast start " + s);
                assertArrayEquals(x.remoteAll(N, s), all, "allgather start " + s);
                assertArrayEquals(x.remoteSum(N, s), sum, "allreduce start " + s);
                if (1 == x.g) {
                    assertArrayEquals(CollIntercommTest.vals(0, 0, N, s + 50), oneWay, "one-way bcast " + s);
                }
                ic.barrier();
            }
            for (final PersistentRequest r : new PersistentRequest[] {bcast, gather, reduce, bcastOneWay}) {
                r.free();
            }
        }
    }

    @Test
    void shouldEnforceMpi4StateRules() {
        Tutti.runLocal(2, OPTS, w -> {
            final int[] x = {w.rank()};
            final int[] y = new int[1];
            final PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
            assertTrue(r.test(), "a never-started request tests complete");
            r.start();
            final TuttiException again = assertThrows(TuttiException.class, r::start);
            assertEquals(ErrorClass.REQUEST, again.errorClass());
            assertTrue(again.getMessage().contains("active"), again.getMessage());
            final TuttiException freeActive = assertThrows(TuttiException.class, r::free);
            assertEquals(ErrorClass.REQUEST, freeActive.errorClass());
            r.waitFor();
            assertEquals(1, y[0]);
            w.barrier(); // the communicator is usable after the refusals: the call order did not move
            r.free();
            final TuttiException afterFree = assertThrows(TuttiException.class, r::start);
            assertTrue(afterFree.getMessage().contains("freed"), afterFree.getMessage());
            final TuttiException bool = assertThrows(TuttiException.class,
                () -> w.allreduceInit(Buf.of(new boolean[1]), Buf.of(new boolean[1]), Op.LOR));
            assertEquals(ErrorClass.TYPE, bool.errorClass());
            final Buf column = Buf.of(new int[8], Layout.vector(2, 1, 4, Layout.of(Datatype.INT)), 1);
            final TuttiException staged = assertThrows(TuttiException.class, () -> w.bcastInit(column, 0));
            assertTrue(staged.getMessage().contains("staged"), staged.getMessage());
            final TuttiException badRoot = assertThrows(TuttiException.class, () -> w.bcastInit(Buf.of(x), 7));
            assertEquals(ErrorClass.ROOT, badRoot.errorClass());
            try (PersistentRequest b = w.barrierInit()) {
                b.start();
                b.waitFor();
            }
        });
    }

    /**
     * A reduction that throws on a later start (in-process, every message goes through slots, so the start takes the
     * lean way; the step runs in the start or in the wait, whichever finds the peer's part there): the failure
     * reaches the caller naming the operation, the request cannot start again (its memory may still be written),
     * and the communicator stays usable.
     */
    @Test
    void shouldFailALeanStartWhoseLocalStepThrows() {
        Tutti.runLocal(2, OPTS, w -> {
            final int[] calls = {0};
            final Op picky = Op.user("picky", true, (Op.LongFunction) (in, inout, count) -> {
                if (++calls[0] > 20) {
                    throw new IllegalStateException("picky refuses its 21st call");
                }
                for (int i = 0; i < count; i++) {
                    inout[i] += in[i];
                }
            });
            final long[] x = {w.rank() + 1};
            final long[] y = new long[1];
            final PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), picky);
            TuttiException failed = null;
            for (int k = 0; k < 40 && null == failed; k++) {
                try {
                    r.start();
                    r.waitFor();
                    assertEquals(3, y[0], "start " + k);
                } catch (final TuttiException e) {
                    failed = e;
                }
            }
            assertNotNull(failed, "the op threw, the starts did not fail");
            assertTrue(failed.getMessage().contains("allreduce"), failed.getMessage());
            final TuttiException again = assertThrows(TuttiException.class, r::start);
            assertTrue(again.getMessage().contains("earlier start failed"), again.getMessage());
            w.barrier();
            final long[] z = {1};
            w.allreduce(Buf.IN_PLACE, Buf.of(z), Op.SUM);
            assertEquals(2, z[0]);
        });
    }

    /**
     * MPI's progress rule for persistent requests, whose runs stay registered for the request's life rather than per
     * start: each rank starts an allreduce of 4 ranks (two rounds of recursive doubling) and then blocks in a
     * receive whose message its neighbour sends only after its own allreduce has completed; that completion needs
     * this rank's second round, which only the blocked receive's progress can send. Requests never started, and
     * requests freed, must not be advanced meanwhile (a never-started run that looked active would post messages).
     */
    @ParameterizedTest
    @ValueSource(strings = {"0", "16384"})
    void shouldProgressAStartedRequestWhileTheRankBlocksElsewhere(final String directLimit) {
        final String name = dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name();
        System.setProperty(name, directLimit);
        try {
            Tutti.runLocal(4, OPTS, w -> {
                final long[] x = new long[3];
                final long[] y = new long[3];
                final PersistentRequest idle = w.allreduceInit(Buf.of(new long[3]), Buf.of(new long[3]), Op.SUM);
                final PersistentRequest freed = w.allreduceInit(Buf.of(new long[3]), Buf.of(new long[3]), Op.MAX);
                freed.free();
                try (PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM)) {
                    for (int k = 0; k < 50; k++) {
                        Arrays.fill(x, w.rank() * 10L + k);
                        r.start();
                        final int[] token = new int[1];
                        final int next = (w.rank() + 1) % w.size();
                        final int prev = (w.rank() + w.size() - 1) % w.size();
                        if (0 == w.rank()) { // the ring starts at rank 0 once its own allreduce is done
                            r.waitFor();
                            w.send(Buf.of(token), next, k);
                            w.recv(Buf.of(token), prev, k);
                        } else {
                            w.recv(Buf.of(token), prev, k); // blocks: rank 0's run needs this rank's rounds
                            r.waitFor();
                            w.send(Buf.of(token), next, k);
                        }
                        final long sum = 10L * (0 + 1 + 2 + 3) + 4L * k;
                        assertArrayEquals(new long[] {sum, sum, sum}, y, "start " + k);
                    }
                }
                w.barrier(); // the idle request never sent anything that this barrier could meet
                idle.free();
            });
        } finally {
            System.clearProperty(name);
        }
    }

    @Test
    void shouldCheckPersistentStartsWithTheCheckerOn() {
        Tutti.runLocal(3, OPTS.check(true), w -> {
            final int[] x = {w.rank() + 1};
            final int[] y = new int[1];
            try (PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM)) {
                for (int s = 0; s < 3; s++) {
                    r.start();
                    r.waitFor();
                    assertEquals(6, y[0]);
                }
            }
        });
    }

    @Test
    void shouldNameMismatchedPersistentStartsWithTheCheckerOn() {
        Tutti.runLocal(2, OPTS.check(true), w -> {
            final int[] x = {1, 2};
            final int[] y = new int[2];
            try (PersistentRequest r = 0 == w.rank() ? w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM)
                : w.bcastInit(Buf.of(x), 0)) {
                final CollectiveMismatchException e = assertThrows(CollectiveMismatchException.class, () -> {
                    r.start();
                    r.waitFor();
                });
                assertTrue(e.getMessage().contains("allreduce") && e.getMessage().contains("bcast"),
                    e.getMessage());
                assertFalse(r.isActive(), "a failed start is over: the request can be freed");
            }
        });
    }

    @Test
    void shouldPassEveryStartThroughTheHook() {
        Tutti.runLocal(2, OPTS, w -> {
            final CollHookTest.Recorder rec = new CollHookTest.Recorder();
            dev.tutti.coll.CollHooks.install(Worlds.impl(w).engine(), rec);
            final int[] x = {1};
            final int[] y = new int[1];
            try (PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM)) {
                assertEquals(List.of(), rec.lines, "init moves no data: the hook hears of starts only");
                for (int s = 0; s < 2; s++) {
                    r.start();
                    r.waitFor();
                }
            } finally {
                dev.tutti.coll.CollHooks.install(Worlds.impl(w).engine(), null);
            }
            final String call = "allreduce PERSISTENT root=-1 send=1xINT recv=1xINT op=SUM";
            assertEquals(List.of("before " + call, "after " + call, "before " + call, "after " + call), rec.lines);
        });
    }

    /** Bytes allocated per start and wait, measured by the JVM per thread after a warm-up (not timed). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldAllocateNothingPerStartOnTheSmallMessagePath() {
        final int calls = 20_000;
        ShmJob.run(2, (world, shm) -> {
            final float[] x = {1 + world.rank(), 2};
            final float[] y = new float[2];
            final byte[] b = new byte[8];
            final PersistentRequest[] rs = {world.barrierInit(), world.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM),
                world.bcastInit(Buf.of(b), 0)};
            final String[] names = {"barrier", "allreduce", "bcast"};
            for (int c = 0; c < rs.length; c++) {
                final PersistentRequest r = rs[c];
                final double perStart = AllocationProbe.leastPerCall(() -> {
                    r.start();
                    r.waitFor();
                }, calls);
                System.out.printf("persistent %s: %.2f bytes per start (rank %d)%n", names[c], perStart,
                    world.rank());
                // Nothing per start and wait: the start reuses its run, and the point-to-point layer its matcher
                // queues and the shm transport's early-message arrays and envelopes (under a byte on average is
                // left for the JIT's own rare events). Except where bcast's root runs ahead: it never waits for
                // rank 1, whose inbox then holds many of its messages at once, more than the pools keep, and
                // holding messages takes memory (seen with JFR's allocation samples: those arrays only).
                final boolean runAhead = 2 == c && 1 == world.rank();
                final double max = runAhead ? MAX_BYTES_PER_BUFFERED_START : MAX_BYTES_PER_START;
                assertTrue(perStart < max, "persistent " + names[c] + " allocated " + perStart
                    + " bytes per start, expected < " + max);
            }
            assertArrayEquals(new float[] {3, 4}, y, 0f);
            for (final PersistentRequest r : rs) {
                r.free();
            }
        });
    }
}
