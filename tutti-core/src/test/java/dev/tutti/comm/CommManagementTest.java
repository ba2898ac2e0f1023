package dev.tutti.comm;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Group;
import dev.tutti.internal.GroupAccess;
import dev.tutti.ObjectRequest;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import dev.tutti.comm.ContextIdAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Communicator management: dup, idup, split, splitType, create, createGroup, free, compare and names; context ids
 * agreed without collision or leak (the allocator's state measured before and after thousands of creations);
 * traffic isolation between a communicator and its duplicates.
 */
@Timeout(60)
class CommManagementTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    /** Checks that a communicator works: an allreduce of world ranks and a ring exchange. */
    static void exercise(final Communicator c, final int[] expectedWorldRanks) {
        assertEquals(expectedWorldRanks.length, c.size());
        assertEquals(c.group().rank(), c.rank());
        assertArrayEquals(expectedWorldRanks, c.group().worldRanks());
        final long[] sum = new long[1];
        c.allreduce(Buf.of(new long[] {c.group().worldRank(c.rank())}), Buf.of(sum), Op.SUM);
        assertEquals(Arrays.stream(expectedWorldRanks).asLongStream().sum(), sum[0], c.name());
        final int next = (c.rank() + 1) % c.size();
        final int prev = (c.rank() + c.size() - 1) % c.size();
        final int[] got = new int[1];
        c.sendrecv(Buf.of(new int[] {c.rank()}), next, 9, Buf.of(got), prev, 9);
        assertEquals(prev, got[0]);
    }

    @Test
    void shouldDupAndFreeTenThousandTimesWithoutLeak() {
        Tutti.runLocal(2, OPTS, w -> {
            final ContextIdAllocator ids = Worlds.impl(w).contexts();
            final int before = ids.inUse();
            final long[] start = ids.snapshot();
            for (int i = 0; i < 10_000; i++) {
                final Communicator d = w.dup();
                assertNotEquals(0, Worlds.impl(d).contextBase());
                d.free();
            }
            assertEquals(before, ids.inUse(), "blocks in use after the loop");
            assertArrayEquals(start, ids.snapshot(), "the mask is back to its start");
            assertTrue(!ids.busy());
        });
    }

    @Test
    void shouldKeepThousandsAliveWithDistinctContextsThenFreeThemAll() {
        Tutti.runLocal(3, OPTS, w -> {
            final ContextIdAllocator ids = Worlds.impl(w).contexts();
            final long[] start = ids.snapshot();
            final List<Communicator> live = new ArrayList<>();
            final Set<Integer> bases = new HashSet<>();
            bases.add(Worlds.impl(w).contextBase());
            Communicator parent = w;
            for (int i = 0; i < 2_000; i++) {
                // Alternate parents and kinds so the masks of the ranks drift apart, then agree again.
                final Communicator c = 0 == i % 3 ? parent.dup() : 1 == i % 3 ? w.split(0, -w.rank())
                    : w.create(w.group());
                assertTrue(bases.add(Worlds.impl(c).contextBase()), "context block reused while alive: " + c.name());
                live.add(c);
                parent = c;
            }
            assertEquals(2_001, ids.inUse());
            exercise(live.get(1997), new int[] {0, 1, 2});
            exercise(live.get(1998), new int[] {0, 1, 2});
            exercise(live.get(1999), new int[] {2, 1, 0});
            // Free in a rank-dependent order: the ids return whatever the order.
            final Random rnd = new Random(w.rank());
            while (!live.isEmpty()) {
                live.remove(rnd.nextInt(live.size())).free();
            }
            assertArrayEquals(start, ids.snapshot());
        });
    }

    @Test
    void shouldReportExhaustionClearly() {
        Tutti.runLocal(2, OPTS, w -> {
            final List<Communicator> live = new ArrayList<>();
            final TuttiException e = assertThrows(TuttiException.class, () -> {
                while (true) {
                    live.add(w.dup());
                }
            });
            assertEquals(ErrorClass.COMM, e.errorClass());
            assertTrue(e.getMessage().contains("dup (comm=WORLD, rank=" + w.rank() + "): no context id block is "
                + "free at every member"), e.getMessage());
            assertEquals(ContextIdAllocator.BLOCKS - 1, live.size());
            live.forEach(Comm::free);
            exercise(w.dup(), new int[] {0, 1});
        });
    }

    @Test
    void shouldSplitEveryGroupSizeWithRandomColorsAndKeys() {
        for (int p = 1; p <= 9; p++) {
            final int size = p;
            Tutti.runLocal(p, OPTS, w -> {
                final Random shared = new Random(1000 + size);
                for (int round = 0; round < 6; round++) {
                    final int[] colors = new int[size];
                    final int[] keys = new int[size];
                    for (int r = 0; r < size; r++) {
                        final int c = shared.nextInt(4);
                        colors[r] = 3 == c ? Comm.UNDEFINED : c;
                        keys[r] = shared.nextInt(3) - 1;
                    }
                    final Communicator s = w.split(colors[w.rank()], keys[w.rank()]);
                    if (Comm.UNDEFINED == colors[w.rank()]) {
                        assertNull(s);
                        continue;
                    }
                    final List<Integer> same = new ArrayList<>();
                    for (int r = 0; r < size; r++) {
                        if (colors[r] == colors[w.rank()]) {
                            same.add(r);
                        }
                    }
                    same.sort(Comparator.<Integer>comparingInt(r -> keys[r]).thenComparingInt(r -> r));
                    exercise(s, same.stream().mapToInt(Integer::intValue).toArray());
                    // A split of the split, and a dup of it, work too.
                    final Communicator half = s.split(s.rank() % 2, 0);
                    final Communicator d = half.dup();
                    assertEquals(Group.Comparison.CONGRUENT, d.compare(half));
                    exercise(d, half.group().worldRanks());
                    d.free();
                    half.free();
                    s.free();
                }
                assertEquals(1, Worlds.impl(w).contexts().inUse(), "only the world's block is left");
            });
        }
    }

    @Test
    void shouldCreateFromGroupsCollectivelyAndOverTheGroupOnly() {
        Tutti.runLocal(7, OPTS, w -> {
            final Group all = w.group();
            final Group odds = all.rangeIncl(new int[][] {{1, 6, 2}});
            final Group reversed = all.incl(6, 5, 4, 3, 2, 1, 0);
            final Communicator c = w.create(odds);
            if (1 == w.rank() % 2) {
                exercise(c, new int[] {1, 3, 5});
            } else {
                assertNull(c);
            }
            final Communicator r = w.create(reversed);
            exercise(r, new int[] {6, 5, 4, 3, 2, 1, 0});
            assertEquals(Group.Comparison.SIMILAR, r.compare(w));
            // Group-collective: only members call; the others do something else meanwhile.
            if (w.rank() < 3) {
                final Communicator g = w.createGroup(all.incl(2, 0, 1), 77);
                exercise(g, new int[] {2, 0, 1});
                g.free();
            } else {
                final Communicator g = w.createGroup(all.rangeIncl(new int[][] {{3, 6, 1}}), 78);
                exercise(g, new int[] {3, 4, 5, 6});
                g.free();
            }
            w.barrier();
            r.free();
            if (null != c) {
                c.free();
            }
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }

    @Test
    void shouldOverlapSeveralIdupsWithOtherCollectives() {
        Tutti.runLocal(4, OPTS, w -> {
            final List<ObjectRequest<Communicator>> pending = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                pending.add(w.idup());
                final int[] s = new int[1];
                w.allreduce(Buf.of(new int[] {i}), Buf.of(s), Op.SUM);
                assertEquals(4 * i, s[0]);
            }
            final Set<Integer> bases = new HashSet<>();
            // Complete them in a rank-dependent order.
            for (int i = 0; i < 8; i++) {
                final Communicator d = pending.get((i + w.rank()) % 8).get();
                assertTrue(bases.add(Worlds.impl(d).contextBase()));
            }
            for (final ObjectRequest<Communicator> r : pending) {
                exercise(r.get(), new int[] {0, 1, 2, 3});
                r.get().free();
            }
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }

    @Test
    void shouldAgreeWhenThreadsOfARankCreateConcurrently() {
        Tutti.runLocal(3, OPTS, w -> {
            final Communicator a = w.dup();
            final Communicator b = w.dup();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Set<Integer>> seen = List.of(new HashSet<>(), new HashSet<>());
            final Thread[] threads = new Thread[2];
            for (int t = 0; t < 2; t++) {
                final Communicator parent = 0 == t ? a : b;
                final Set<Integer> mine = seen.get(t);
                threads[t] = new Thread(() -> {
                    try {
                        final List<Communicator> live = new ArrayList<>();
                        for (int i = 0; i < 150; i++) {
                            final Communicator c = parent.dup();
                            mine.add(Worlds.impl(c).contextBase());
                            live.add(c);
                            if (live.size() > 5) {
                                live.remove(0).free();
                            }
                        }
                        exercise(live.get(0), new int[] {0, 1, 2});
                        live.forEach(Comm::free);
                    } catch (final Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads[t].start();
            }
            for (final Thread t : threads) {
                t.join();
            }
            if (null != failure.get()) {
                throw new AssertionError("a creating thread failed", failure.get());
            }
            a.free();
            b.free();
            assertEquals(1, Worlds.impl(w).contexts().inUse());
            assertTrue(!Worlds.impl(w).contexts().busy());
        });
    }

    @Test
    void shouldIsolateTrafficAndNameCommunicatorsInErrors() {
        Tutti.runLocal(2, OPTS, w -> {
            final Communicator d = w.dup();
            assertEquals(Group.Comparison.IDENT, d.compare(d));
            assertEquals(Group.Comparison.CONGRUENT, d.compare(w));
            assertTrue(d.name().startsWith("WORLD/dup#"), d.name());
            // Same peer, same tag, on both communicators: each receive gets its own communicator's message.
            if (0 == w.rank()) {
                w.send(Buf.of(new int[] {1}), 1, 5);
                d.send(Buf.of(new int[] {2}), 1, 5);
            } else {
                final int[] x = new int[1];
                d.recv(Buf.of(x), Comm.ANY_SOURCE, Comm.ANY_TAG);
                assertEquals(2, x[0]);
                w.recv(Buf.of(x), 0, 5);
                assertEquals(1, x[0]);
            }
            // Collectives on the parent and the dup interleave without mixing.
            final int[] a = new int[1];
            final int[] b = new int[1];
            final Request ra = w.iallreduce(Buf.of(new int[] {10}), Buf.of(a), Op.SUM);
            final Request rb = d.iallreduce(Buf.of(new int[] {1}), Buf.of(b), Op.SUM);
            Request.waitAll(rb, ra);
            assertEquals(20, a[0]);
            assertEquals(2, b[0]);

            d.setName("solver");
            TuttiException e = assertThrows(TuttiException.class, () -> d.send(Buf.of(a), 9, 0));
            assertTrue(e.getMessage().contains("comm=solver, rank=" + w.rank()), e.getMessage());
            e = assertThrows(TuttiException.class, () -> d.bcast(Buf.of(a), 5));
            assertTrue(e.getMessage().contains("bcast (comm=solver"), e.getMessage());
            e = assertThrows(TuttiException.class, () -> d.split(-4, 0));
            assertEquals(ErrorClass.ARG, e.errorClass());
            assertTrue(e.getMessage().contains("split (comm=solver"), e.getMessage());
            d.free();
            e = assertThrows(TuttiException.class, () -> d.allreduce(Buf.of(a), Buf.of(b), Op.SUM));
            assertEquals(ErrorClass.COMM, e.errorClass());
            assertTrue(e.getMessage().contains("comm=solver") && e.getMessage().contains("freed"), e.getMessage());
            e = assertThrows(TuttiException.class, () -> d.send(Buf.of(a), 0, 0));
            assertEquals(ErrorClass.COMM, e.errorClass());
            e = assertThrows(TuttiException.class, d::free);
            assertEquals(ErrorClass.COMM, e.errorClass());
            e = assertThrows(TuttiException.class, w::free);
            assertTrue(e.getMessage().contains("world communicator cannot be freed"), e.getMessage());
            e = assertThrows(TuttiException.class, () -> w.create(GroupAccess.get().of(w.rank(), 0, 1, 7)));
            assertEquals(ErrorClass.RANK, e.errorClass());
            assertTrue(e.getMessage().contains("world rank=7"), e.getMessage());
            e = assertThrows(TuttiException.class, () -> w.createGroup(w.group().incl(1 - w.rank()), 3));
            assertTrue(e.getMessage().contains("this rank is not in group"), e.getMessage());
            // Still usable after every refusal.
            exercise(w, new int[] {0, 1});
        });
    }

    @Test
    void shouldSplitBySharedHost() {
        Tutti.runLocal(5, OPTS, w -> {
            final Communicator node = w.splitType(Communicator.SplitType.SHARED, -w.rank());
            assertNotNull(node);
            exercise(node, new int[] {4, 3, 2, 1, 0});
            node.free();
        });
    }

    /** The hosts of splitType are the job's hosts, the ones the node-aware collectives use: with fake hosts (the
     *  test's stand-in for ranks on machines that share a host name), one communicator per fake host. */
    @Test
    void shouldSplitByTheJobsHostsNotTheHostName() {
        final int[][] byHost = {{0, 2, 5}, {1, 3}, {4}};
        Tutti.runLocal(6, OPTS.hosts("a,b,a,b,c,a"), w -> {
            final Communicator node = w.splitType(Communicator.SplitType.SHARED, 0);
            final int host = w.rank() == 4 ? 2 : w.rank() % 2 == 0 || w.rank() == 5 ? 0 : 1;
            exercise(node, byHost[host]);
            final Communicator reversed = w.splitType(Communicator.SplitType.SHARED, -w.rank());
            final int[] expected = byHost[host].clone();
            for (int i = 0; i < expected.length; i++) {
                expected[i] = byHost[host][expected.length - 1 - i];
            }
            exercise(reversed, expected);
            // A subcommunicator's ranks keep the hosts of their world ranks.
            final Communicator odd = w.split(w.rank() % 2, w.rank());
            final Communicator oddNode = odd.splitType(Communicator.SplitType.SHARED, 0);
            if (1 == w.rank() % 2) {
                exercise(oddNode, w.rank() == 5 ? new int[] {5} : new int[] {1, 3});
            }
            reversed.free();
            oddNode.free();
            odd.free();
            node.free();
        });
        Tutti.runLocal(4, OPTS.hosts("cyclic:2"), w -> {
            final Communicator node = w.splitType(Communicator.SplitType.SHARED, 0);
            exercise(node, 0 == w.rank() % 2 ? new int[] {0, 2} : new int[] {1, 3});
            node.free();
        });
    }
}
