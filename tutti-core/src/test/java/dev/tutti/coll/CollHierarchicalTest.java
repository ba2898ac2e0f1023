package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node-aware (hierarchical) collectives over fake hosts ({@link Tutti.Options#hosts}): the collective matrix of
 * {@link CollBufferTest} (counts 0, 1, odd, large; every type; every root, so roots that are not their host's
 * leader; in place and not) for group sizes 1-9 under host layouts in blocks, uneven (hosts of 1, 2 and 3 ranks)
 * and interleaved (round-robin, and uneven hosts scattered over the ranks); a non-commutative op keeps MPI's rank
 * order, by the hierarchy with consecutive ranks per host and by the flat fallback otherwise; and the nonblocking,
 * tagged and persistent variants, which run the same schedules.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(300)
class CollHierarchicalTest {
    static final List<AlgorithmId> HIERARCHICAL = Arrays.stream(AlgorithmId.values())
        .filter(AlgorithmId::hierarchical).toList();
    static final Duration JOB = Duration.ofSeconds(100);

    /** @return the layouts tried at group size p: each a host label per rank */
    static List<String> layouts(final int p) {
        final List<String> out = new ArrayList<>(List.of("blocks:2", "cyclic:2", "blocks:3"));
        final List<String> uneven = new ArrayList<>();
        for (int h = 0; uneven.size() < p; h++) {
            for (int i = 0; i < 1 + h % 3 && uneven.size() < p; i++) {
                uneven.add("h" + h);
            }
        }
        out.add(String.join(",", uneven));
        final List<String> scattered = new ArrayList<>(uneven);
        Collections.shuffle(scattered, new Random(p));
        out.add(String.join(",", scattered));
        return out;
    }

    static Stream<Arguments> matrix() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : HIERARCHICAL) {
            for (int p = 1; p <= 9; p++) {
                for (final String layout : layouts(p)) {
                    out.add(Arguments.of(id, p, layout));
                }
            }
        }
        return out.stream();
    }

    static Tutti.Options forced(final AlgorithmId id, final String layout) {
        return Tutti.Options.defaults().timeout(JOB).hosts(layout).algorithm(id.kind().mpiName(), id.shortName());
    }

    @ParameterizedTest(name = "{0} p={1} hosts={2}")
    @MethodSource("matrix")
    void shouldMatchReference(final AlgorithmId id, final int p, final String layout) {
        final AtomicInteger entered = new AtomicInteger();
        Tutti.runLocal(p, forced(id, layout), w -> new CollBufferTest.Case(w, id.kind(), entered).runAll());
    }

    static Stream<Arguments> reductions() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : List.of(AlgorithmId.REDUCE_HIERARCHICAL, AlgorithmId.ALLREDUCE_HIERARCHICAL)) {
            for (int p = 1; p <= 9; p++) {
                for (final String layout : layouts(p)) {
                    out.add(Arguments.of(id, p, layout));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1} hosts={2}")
    @MethodSource("reductions")
    void shouldKeepRankOrderForNonCommutativeOps(final AlgorithmId id, final int p, final String layout) {
        Tutti.runLocal(p, forced(id, layout), world -> {
            int salt = 0;
            for (final int k : CollNoncommutativeTest.MATRICES) {
                for (final boolean inPlace : new boolean[] {false, true}) {
                    for (final int root : CollNoncommutativeTest.roots(p, id.kind())) {
                        new CollNoncommutativeTest.Fixture(p, k, ++salt, CollNoncommutativeTest.MATMUL_SEQ)
                            .run(id.kind(), world, CollNoncommutativeTest.MATMUL, root, inPlace);
                    }
                }
            }
        });
    }

    @Test
    void shouldSelectHierarchicalOnlyWhenTheGroupSpansHostsWithSeveralRanksOnOne() {
        Tutti.runLocal(6, Tutti.Options.defaults().timeout(JOB).hosts("blocks:2"), w -> {
            final HostMap m = Worlds.impl(w).collComm().hosts();
            assertNotNull(m, "6 ranks on 2 hosts");
            assertEquals(2, m.hosts());
            assertArrayEquals(new int[] {0, 1, 2}, m.members(0));
            assertTrue(m.contiguous());
            assertEquals(AlgorithmId.ALLREDUCE_HIERARCHICAL, Worlds.impl(w).selection().select(CollKind.ALLREDUCE, 6, 8, 1,
                true, m, false));
            assertEquals(AlgorithmId.GATHER_BINOMIAL, Worlds.impl(w).selection().select(CollKind.GATHER, 6, 8, 1, true,
                m, false), "gather has no hierarchical algorithm");
            // One host's ranks: flat.
            final Communicator half = w.split(w.rank() / 3, 0);
            assertNull(Worlds.impl(half).collComm().hosts(), "a communicator within one host");
            // One rank per host: flat.
            final Communicator leaders = w.split(0 == w.rank() % 3 ? 0 : Communicator.UNDEFINED, 0);
            if (null != leaders) {
                assertNull(Worlds.impl(leaders).collComm().hosts(), "one rank per host");
            }
            // Every other rank: ranks 0, 2 on host 0 and 4 on host 1, renumbered in the child.
            final Communicator evens = w.split(w.rank() % 2, 0);
            final HostMap e = Worlds.impl(evens).collComm().hosts();
            assertNotNull(e, "3 ranks of which 2 share a host");
            assertEquals(0 == w.rank() % 2 ? "[0, 1] [2]" : "[0] [1, 2]", e.toString());
        });
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(JOB), w -> assertNull(Worlds.impl(w).collComm().hosts(),
            "an embedded job is on one host"));
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(JOB).hosts("cyclic:2").algorithm("allreduce", "ring"),
            w -> assertEquals(AlgorithmId.ALLREDUCE_RING, Worlds.impl(w).selection().select(CollKind.ALLREDUCE, 4, 8, 1, true,
                Worlds.impl(w).collComm().hosts(), false), "a forced flat algorithm wins"));
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(JOB).hosts("cyclic:2").algorithm("allreduce", "flat")
            .algorithm("bcast", "hierarchical"), w -> {
                final HostMap m = Worlds.impl(w).collComm().hosts();
                assertEquals(AlgorithmId.ALLREDUCE_ALLGATHER_REDUCE, Worlds.impl(w).selection().select(CollKind.ALLREDUCE, 4,
                    8, 1, true, m, false), "flat: the default choice without the hierarchy");
                assertEquals(AlgorithmId.ALLREDUCE_RABENSEIFNER, Worlds.impl(w).selection().select(CollKind.ALLREDUCE, 4,
                    1 << 20, 1 << 17, true, m, false), "flat: the default choice without the hierarchy");
                assertEquals(AlgorithmId.BCAST_HIERARCHICAL, Worlds.impl(w).selection().select(CollKind.BCAST, 4, 8, 1,
                    true, m, false));
                final long[] x = {w.rank()};
                w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                assertEquals(6, x[0]);
            });
    }

    @Test
    void shouldRunManyOutstandingNonblockingCollectives() {
        for (final String layout : List.of("blocks:2", "cyclic:3", "a,b,b,c,c,c,a")) {
            final int p = layout.startsWith("a,") ? 7 : 6;
            Tutti.runLocal(p, Tutti.Options.defaults().timeout(JOB).hosts(layout), w -> {
                final int me = w.rank();
                final long sum = (long) p * (p - 1) / 2;
                for (final int n : new int[] {0, 3, 20_000}) {
                    final List<Request> reqs = new ArrayList<>();
                    final long[] ar = new long[n];
                    final long[] arIn = new long[n];
                    Arrays.fill(arIn, me);
                    reqs.add(w.iallreduce(Buf.of(arIn), Buf.of(ar), Op.SUM));
                    final int root = p - 1 - n % p;
                    final long[] b = new long[n];
                    if (me == root) {
                        Arrays.fill(b, 42);
                    }
                    reqs.add(w.ibcast(Buf.of(b), root));
                    reqs.add(w.ibarrier());
                    final long[] red = new long[n];
                    reqs.add(w.ireduce(Buf.of(arIn), Buf.of(red), Op.SUM, 1 % p));
                    final long[] ag = new long[p * n];
                    reqs.add(w.iallgather(Buf.of(arIn), Buf.of(ag)));
                    final long[] ip = new long[n];
                    Arrays.fill(ip, me + 1);
                    reqs.add(w.iallreduce(Buf.IN_PLACE, Buf.of(ip), Op.MAX));
                    Collections.reverse(reqs);
                    Request.waitAll(reqs.toArray(new Request[0]));
                    for (int i = 0; i < n; i++) {
                        assertEquals(sum, ar[i], "iallreduce");
                        assertEquals(42, b[i], "ibcast");
                        assertEquals(p, ip[i], "iallreduce in place");
                        if (me == 1 % p) {
                            assertEquals(sum, red[i], "ireduce");
                        }
                        for (int j = 0; j < p; j++) {
                            assertEquals(j, ag[j * n + i], "iallgather");
                        }
                    }
                }
            });
        }
    }

    /** Large allreduces on hosts of equal size go by blocks (reduce-scatter within, allreduce of block i among the
     *  ranks i, allgatherv within); vectors not divisible by the ranks per host, in place and not, at and just
     *  above the threshold, and uneven hosts (the leaders' scheme) beside them. */
    @Test
    void shouldAllreduceLargeVectorsByBlocks() {
        for (final String layout : List.of("blocks:2", "cyclic:2", "blocks:3", "a,a,b,b,c,c", "a,a,a,b,b,c")) {
            final int p = 6;
            Tutti.runLocal(p, Tutti.Options.defaults().timeout(JOB).hosts(layout), w -> {
                final int me = w.rank();
                for (final int n : new int[] {1024, 1025, 5003, 70_001}) {
                    final long[] in = new long[n];
                    for (int i = 0; i < n; i++) {
                        in[i] = (long) i * (me + 1) + me;
                    }
                    final long[] sum = new long[n];
                    w.allreduce(Buf.of(in), Buf.of(sum), Op.SUM);
                    final long[] max = in.clone();
                    w.allreduce(Buf.IN_PLACE, Buf.of(max), Op.MAX);
                    for (int i = 0; i < n; i++) {
                        final long expected = (long) i * p * (p + 1) / 2 + (long) p * (p - 1) / 2;
                        if (expected != sum[i] || (long) i * p + p - 1 != max[i]) {
                            throw new AssertionError(layout + " n=" + n + " element " + i + " at rank " + me
                                + ": sum " + sum[i] + " (expected " + expected + "), max " + max[i]);
                        }
                    }
                }
            });
        }
    }

    @Test
    void shouldMatchTaggedCollectivesBegunInAnyOrder() {
        for (final String layout : List.of("blocks:2", "cyclic:2", "a,a,b,c,c")) {
            for (final int p : layout.startsWith("a,") ? new int[] {5} : new int[] {4, 5, 8}) {
                for (final int n : new int[] {0, 1, 9}) {
                    Tutti.runLocal(p, Tutti.Options.defaults().timeout(JOB).hosts(layout),
                        w -> CollTaggedTest.runShuffled(w, n, 3, new Random(31L * w.rank() + p + n)));
                }
            }
        }
    }

    @Test
    void shouldGivePersistentStartsWhatTheBlockingFormGives() {
        for (final String layout : List.of("blocks:2", "cyclic:2", "a,b,b,c,c,c")) {
            Tutti.runLocal(6, Tutti.Options.defaults().timeout(JOB).hosts(layout),
                w -> CollPersistentTest.check(w, CollPersistentTest.intraCases(w)));
        }
    }

    @Test
    void shouldAllocateAlmostNothingPerRepeatedHierarchicalCall() {
        final com.sun.management.ThreadMXBean mx =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        final int calls = 5_000;
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(JOB).hosts("blocks:2"), w -> {
            final float[] x = {1 + w.rank(), 2};
            final float[] y = new float[2];
            final Buf bx = Buf.of(x);
            final Buf by = Buf.of(y);
            final Runnable[] ops = {w::barrier, () -> w.allreduce(bx, by, Op.SUM), () -> w.bcast(by, 3)};
            for (final Runnable op : ops) {
                for (int i = 0; i < calls; i++) { // warm-up: cache admission, JIT
                    op.run();
                }
                final long before = mx.getThreadAllocatedBytes(Thread.currentThread().threadId());
                for (int i = 0; i < calls; i++) {
                    op.run();
                }
                final double perCall = (double) (mx.getThreadAllocatedBytes(Thread.currentThread().threadId())
                    - before) / calls;
                // In-process ranks: each message is an object of its own (over shm, CollAllocationTest finds nothing
                // per call); what this bounds is the hierarchy's own per-call cost, which reuses its runs. A rank
                // sends at most two messages a call here (the bcast's root, rank 3, to rank 0 and to rank 2).
                assertTrue(perCall < 450, "rank " + w.rank() + ", operation " + Arrays.asList(ops).indexOf(op) + ": "
                    + perCall + " bytes per call");
            }
        });
    }

    @Test
    void shouldRefuseMalformedLayouts() {
        final TuttiException a = assertThrows(TuttiException.class, () -> Tutti.Options.defaults().hosts("blocks:0"));
        assertEquals(ErrorClass.ARG, a.errorClass());
        assertTrue(a.getMessage().contains("blocks:0"), a.getMessage());
        final TuttiException b = assertThrows(TuttiException.class, () -> Tutti.runLocal(3,
            Tutti.Options.defaults().timeout(JOB).hosts("a,b"), w -> { }));
        assertTrue(b.getMessage().contains("'a,b' has 2 labels, expected one per rank (3)"), b.getMessage());
    }
}
