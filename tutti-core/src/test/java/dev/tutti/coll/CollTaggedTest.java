package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tagged two-phase collectives: matched by (kind, tag), begun in any order, from several threads. */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
class CollTaggedTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    /** One tagged collective: begins, and checks its result after end(). */
    interface Tagged {
        CollectiveHandle begin();

        void check();
    }

    /** Every collective kind in tagged form for one rank; tags chosen so that kinds share tags and keys repeat. */
    static List<Tagged> everyKind(final Communicator w, final int n, final int salt) {
        final int p = w.size();
        final int me = w.rank();
        final List<Tagged> ops = new ArrayList<>();
        final Supplier<long[]> mine = () -> {
            final long[] x = new long[n];
            Arrays.fill(x, me + salt);
            return x;
        };
        final long sumAll = (long) p * salt + (long) p * (p - 1) / 2;
        for (final int tag : new int[] {5, 5, 9}) { // tag 5 twice: the n-th uses of a key meet
            final int root = (tag + salt) % p;
            final long[] in = mine.get();
            final long[] red = new long[n];
            ops.add(op(() -> w.allreduceBegin(Buf.of(in), Buf.of(red), Op.SUM, tag),
                () -> assertAll(red, sumAll, "allreduce tag " + tag)));
            final long[] r2 = new long[n];
            ops.add(op(() -> w.reduceBegin(Buf.of(mine.get()), Buf.of(r2), Op.SUM, root, tag),
                () -> assertAll(me == root ? r2 : new long[0], sumAll, "reduce")));
            final long[] b = me == root ? mine.get() : new long[n];
            ops.add(op(() -> w.bcastBegin(Buf.of(b), root, tag), () -> assertAll(b, root + salt, "bcast")));
            ops.add(op(() -> w.barrierBegin(tag), () -> { }));
            final long[] ag = new long[p * n];
            ops.add(op(() -> w.allgatherBegin(Buf.of(mine.get()), Buf.of(ag), tag), () -> {
                for (int j = 0; j < p; j++) {
                    assertEquals(j + salt, n == 0 ? j + salt : ag[j * n], "allgather");
                }
            }));
            final long[] a2a = new long[p * n];
            ops.add(op(() -> w.alltoallBegin(Buf.of(new long[p * n]), Buf.of(a2a), tag),
                () -> assertAll(a2a, 0, "alltoall")));
            final long[] g = new long[p * n];
            ops.add(op(() -> w.gatherBegin(Buf.of(mine.get()), me == root ? Buf.of(g) : null, root, tag), () -> {
                if (me == root && n > 0) {
                    assertEquals(p - 1 + salt, g[(p - 1) * n], "gather");
                }
            }));
            final long[] sc = new long[n];
            final long[] scIn = new long[p * n];
            Arrays.fill(scIn, 7);
            ops.add(op(() -> w.scatterBegin(Buf.of(scIn), Buf.of(sc), root, tag), () -> assertAll(sc, 7, "scatter")));
            final long[] scan = new long[n];
            ops.add(op(() -> w.scanBegin(Buf.of(mine.get()), Buf.of(scan), Op.SUM, tag),
                () -> assertAll(scan, (long) (me + 1) * salt + (long) me * (me + 1) / 2, "scan")));
            final long[] ex = new long[n];
            ops.add(op(() -> w.exscanBegin(Buf.of(mine.get()), Buf.of(ex), Op.SUM, tag),
                () -> assertAll(me == 0 ? new long[0] : ex, (long) me * salt + (long) me * (me - 1) / 2, "exscan")));
            final long[] rsb = new long[n];
            ops.add(op(() -> w.reduceScatterBlockBegin(Buf.of(new long[p * n]), Buf.of(rsb), Op.SUM, tag),
                () -> assertAll(rsb, 0, "reduce_scatter_block")));
            final int[] counts = new int[p];
            Arrays.fill(counts, n);
            final int[] displs = new int[p];
            Arrays.setAll(displs, i -> i * n);
            final long[] agv = new long[p * n];
            ops.add(op(() -> w.allgathervBegin(Buf.of(mine.get()), Buf.of(agv), counts, displs, tag), () -> {
                for (int j = 0; j < p && n > 0; j++) {
                    assertEquals(j + salt, agv[j * n], "allgatherv");
                }
            }));
            final long[] gv = new long[p * n];
            ops.add(op(() -> w.gathervBegin(Buf.of(mine.get()), me == root ? Buf.of(gv) : null, counts, displs, root,
                tag), () -> {
                    for (int j = 0; me == root && j < p * n; j++) {
                        assertEquals(j / n + salt, gv[j], "gatherv");
                    }
                }));
            final long[] sv = new long[n];
            ops.add(op(() -> w.scattervBegin(Buf.of(scIn), counts, displs, Buf.of(sv), root, tag),
                () -> assertAll(sv, 7, "scatterv")));
            final long[] a2av = new long[p * n];
            final long[] a2avOut = new long[p * n];
            for (int j = 0; j < p * n; j++) {
                a2avOut[j] = 1000L * me + j / n; // block j/n goes to rank j/n
            }
            ops.add(op(() -> w.alltoallvBegin(Buf.of(a2avOut), counts, displs, Buf.of(a2av), counts, displs,
                tag), () -> {
                    for (int j = 0; j < p * n; j++) {
                        assertEquals(1000L * (j / n) + me, a2av[j], "alltoallv");
                    }
                }));
            final Buf[] ws = new Buf[p];
            final Buf[] wr = new Buf[p];
            final long[][] wIn = new long[p][n];
            for (int j = 0; j < p; j++) {
                final long[] out = new long[n];
                Arrays.fill(out, 10L * me + j);
                ws[j] = Buf.of(out);
                wr[j] = Buf.of(wIn[j]);
            }
            ops.add(op(() -> w.alltoallwBegin(ws, wr, tag), () -> {
                for (int j = 0; j < p; j++) {
                    assertAll(wIn[j], 10L * j + me, "alltoallw from " + j);
                }
            }));
            final long[] rs = new long[n];
            final long[] rsIn = new long[p * n];
            Arrays.fill(rsIn, me + 1);
            ops.add(op(() -> w.reduceScatterBegin(Buf.of(rsIn), Buf.of(rs), counts, Op.SUM, tag),
                () -> assertAll(rs, (long) p * (p + 1) / 2, "reduce_scatter")));
        }
        return ops;
    }

    static Tagged op(final Supplier<CollectiveHandle> begin, final Runnable check) {
        return new Tagged() {
            @Override
            public CollectiveHandle begin() {
                return begin.get();
            }

            @Override
            public void check() {
                check.run();
            }
        };
    }

    static void assertAll(final long[] a, final long expected, final String what) {
        for (final long x : a) {
            assertEquals(expected, x, what);
        }
    }

    /** Shuffles across keys while keeping each (kind, tag) key's uses in order: ranks then agree on the n-th use. */
    static List<Integer> interleaving(final int count, final Random r) {
        final List<Integer> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            order.add(i);
        }
        Collections.shuffle(order, r);
        // everyKind lists the two uses of tag 5 as indexes i and i + perTag: swap back any pair out of order.
        final int perTag = count / 3;
        for (int i = 0; i < perTag; i++) {
            final int a = order.indexOf(i);
            final int b = order.indexOf(i + perTag);
            if (a > b) {
                Collections.swap(order, a, b);
            }
        }
        return order;
    }

    @Timeout(60)
    @Test
    void shouldMatchEveryKindBegunInRankSpecificOrders() {
        for (final int p : new int[] {1, 2, 3, 4, 5, 8}) {
            for (final int n : new int[] {0, 1, 9}) {
                Tutti.runLocal(p, OPTS, w -> runShuffled(w, n, 3, new Random(31L * w.rank() + p + n)));
            }
        }
    }

    static void runShuffled(final Communicator w, final int n, final int salt, final Random r) {
        final List<Tagged> ops = everyKind(w, n, salt);
        final List<Integer> order = interleaving(ops.size(), r);
        final CollectiveHandle[] hs = new CollectiveHandle[ops.size()];
        for (final int i : order) {
            hs[i] = ops.get(i).begin();
        }
        final List<Integer> endOrder = new ArrayList<>(order);
        Collections.shuffle(endOrder, r);
        for (final int i : endOrder) {
            hs[i].end();
            ops.get(i).check();
        }
    }

    @Property(tries = 25)
    void shouldMatchUnderRandomBeginOrders(@ForAll("sizes") final int p, @ForAll final long seed) {
        Tutti.runLocal(p, OPTS, w -> runShuffled(w, 3, 1, new Random(seed * 7 + w.rank())));
    }

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(1, 7);
    }

    @Timeout(60)
    @Test
    void shouldLetThreadsShareACommunicatorWithTaggedAndUntaggedTraffic() {
        for (int repeat = 0; repeat < 5; repeat++) {
            Tutti.runLocal(4, OPTS, w -> {
                final int threads = 4;
                final int rounds = 40;
                final CountDownLatch done = new CountDownLatch(threads + 1);
                final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
                for (int t = 0; t < threads; t++) {
                    final int tag = t;
                    Thread.ofPlatform().start(() -> {
                        try {
                            for (int i = 0; i < rounds; i++) {
                                final int[] x = {w.rank() + i + tag};
                                final int[] y = new int[1];
                                w.allreduceBegin(Buf.of(x), Buf.of(y), Op.SUM, tag).end();
                                assertEquals(6 + 4 * (i + tag), y[0]);
                            }
                        } catch (final Throwable e) {
                            errors.add(e);
                        } finally {
                            done.countDown();
                        }
                    });
                }
                // The main thread interleaves untagged collectives and point-to-point messages meanwhile.
                try {
                    for (int i = 0; i < rounds; i++) {
                        final int[] b = {w.rank() == 0 ? i : -1};
                        w.bcast(Buf.of(b), 0);
                        assertEquals(i, b[0]);
                        final int[] in = new int[1];
                        w.sendrecv(Buf.of(new int[] {w.rank()}), (w.rank() + 1) % 4, 0, Buf.of(in),
                            (w.rank() + 3) % 4, 0);
                        assertEquals((w.rank() + 3) % 4, in[0]);
                    }
                } finally {
                    done.countDown();
                }
                done.await();
                assertTrue(errors.isEmpty(), errors.toString());
            });
        }
    }

    @Timeout(30)
    @Test
    void shouldRunTheSymmetricTaggedFormsOnAnIntracommunicatorAsTheOrdinaryOnes() {
        Tutti.runLocal(3, OPTS, w -> {
            final int me = w.rank();
            final int[] got = new int[2];
            // Begun in opposite orders on different ranks: matched by (kind, tag), not by call order.
            final CollectiveHandle b;
            final CollectiveHandle r;
            final int[] sum = new int[2];
            if (0 == me % 2) {
                b = w.bcastBegin(Buf.of(new int[] {7, 8}), Buf.of(got), 1, 1, 4);
                r = w.reduceBegin(Buf.of(new int[] {me, 1}), Buf.of(sum), Op.SUM, 2, 2, 4);
            } else {
                r = w.reduceBegin(Buf.of(new int[] {me, 1}), Buf.of(sum), Op.SUM, 2, 2, 4);
                b = w.bcastBegin(Buf.of(new int[] {7, 8}), Buf.of(got), 1, 1, 4);
            }
            b.end();
            r.end();
            assertArrayEquals(new int[] {7, 8}, got, "bcast rank " + me);
            if (2 == me) {
                assertArrayEquals(new int[] {3, 3}, sum, "reduce");
            }
            final int[] block = new int[1];
            w.scatterBegin(Buf.of(new int[] {10, 11, 12}), Buf.of(block), 0, 0, 5).end();
            assertEquals(10 + me, block[0], "scatter rank " + me);
            final int[] all = new int[3];
            w.gatherBegin(Buf.of(new int[] {me * me}), Buf.of(all), 1, 1, 5).end();
            if (1 == me) {
                assertArrayEquals(new int[] {0, 1, 4}, all, "gather");
            }
            final TuttiException e = assertThrows(TuttiException.class,
                () -> w.bcastBegin(Buf.of(new int[1]), Buf.of(new int[1]), 0, 1, 6));
            assertTrue(e.getMessage().contains("root=0 but remoteRoot=1"), e.getMessage());
        });
    }

    @Test
    void shouldRefuseWildcardAndOutOfRangeTags() {
        Tutti.runLocal(2, OPTS, w -> {
            final int[] a = new int[1];
            for (final int bad : new int[] {-1, Communicator.ANY_TAG, w.collectiveTagUpperBound() + 1,
                Integer.MAX_VALUE}) {
                final TuttiException e = assertThrows(TuttiException.class,
                    () -> w.allreduceBegin(Buf.of(a), Buf.of(new int[1]), Op.SUM, bad));
                assertEquals(ErrorClass.TAG, e.errorClass());
                assertTrue(e.getMessage().contains("tag=" + bad), e.getMessage());
            }
            assertEquals(65535, w.collectiveTagUpperBound());
            w.barrierBegin(w.collectiveTagUpperBound()).end();
        });
    }

    @Timeout(30)
    @Test
    void shouldNameBothCountsOfAMismatchedKey() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS, w -> {
            final int n = 0 == w.rank() ? 4 : 8;
            w.allreduceBegin(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM, 3).end();
        }));
        assertTrue(e.getMessage().contains("expected count="), e.getMessage());
        assertEquals(ErrorClass.COUNT, e.errorClass());
    }

    @Timeout(30)
    @Test
    void shouldTimeOutABeginThatCanNeverMatch() {
        System.setProperty("tutti.coll.tagged.timeoutMs", "300");
        try {
            final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS, w -> {
                if (0 == w.rank()) {
                    w.reduceBegin(Buf.of(new int[1]), Buf.of(new int[1]), Op.SUM, 0, 7).end();
                } else {
                    w.bcastBegin(Buf.of(new int[1]), 0, 7).end();
                }
            }));
            assertEquals(ErrorClass.TIMEOUT, e.errorClass());
            assertTrue(e.getMessage().matches("(?s).*(reduce|bcast) tag=7 .*not matched within 300 ms.*rank\\(s\\) .*"),
                e.getMessage());
        } finally {
            System.clearProperty("tutti.coll.tagged.timeoutMs");
        }
    }
}
