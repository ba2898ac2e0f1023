package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.RankBody;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.comm.IntercommTest;
import dev.tutti.testkit.RefusedCall;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Ranks that call different collectives, or name different roots, are told so at the receipt of a message of the
 * other call (every collective message carries its call's kind and roots), with both calls named, instead of
 * returning data that was sent and never received (or reduced with the wrong operands). The rank that receives such
 * a message fails; a rank that only sent may return; the others are aborted with the job (runLocal's rule) rather
 * than hang. Every job here has a timeout: a hang fails the test.
 */
@Timeout(300)
class CollMismatchTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(20));
    static final String BOTH = "the ranks called different collectives or roots";
    static final String OK = "returned";

    /** Each rank's outcome: {@link #OK}, or what it threw. */
    record Outcomes(AtomicReferenceArray<Object> ranks, TuttiException job) {
        Object of(final int rank) {
            return ranks.get(rank);
        }
    }

    /**
     * Runs a job in which each rank records how its body ended (and rethrows, so that the job is aborted). A rank
     * whose body returned stays in the job until every body has ended (at most 10 s): a rank that returns leaves the
     * job, and its peers' waits for it would then fail with that (a true diagnosis, but not the one under test)
     * before the mismatched message reaches them.
     */
    static Outcomes run(final int n, final Tutti.Options opts, final RankBody body) {
        final AtomicReferenceArray<Object> out = new AtomicReferenceArray<>(n);
        final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(n);
        TuttiException job = null;
        try {
            Tutti.runLocal(n, opts, w -> {
                try {
                    body.run(w);
                    out.set(w.rank(), OK);
                } catch (final RuntimeException | Error e) {
                    out.set(w.rank(), e);
                    ended.countDown();
                    throw e; // aborts the job: the others' waits end at once
                }
                ended.countDown();
                ended.await(10, java.util.concurrent.TimeUnit.SECONDS);
            });
        } catch (final TuttiException e) {
            job = e;
        }
        return new Outcomes(out, job);
    }

    /**
     * Asserts that at least one rank failed with {@code cls} naming both calls (every needle), and that every other
     * rank returned, failed the same way, or was aborted with the job; no hang, no failed assertion.
     */
    static void assertRefused(final Outcomes o, final ErrorClass cls, final String... needles) {
        assertRefused(o, cls, m -> Arrays.stream(needles).allMatch(m::contains), "contain " + Arrays.toString(needles));
    }

    static void assertRefused(final Outcomes o, final ErrorClass cls, final java.util.function.Predicate<String> ok,
        final String what) {
        assertTrue(null != o.job(), "every rank returned: the mismatch went unnoticed " + o.ranks());
        assertNotEquals(ErrorClass.TIMEOUT, o.job().errorClass(), () -> "the job hung: " + o.job().getMessage());
        int refused = 0;
        for (int r = 0; r < o.ranks().length(); r++) {
            final Object x = o.of(r);
            if (OK == x) {
                continue;
            }
            if (!(x instanceof TuttiException e)) {
                throw new AssertionError("rank " + r + " failed otherwise: " + x, (Throwable) x);
            }
            if (ErrorClass.PROC_FAILED == e.errorClass() && e.getMessage().contains("job aborted")) {
                continue;
            }
            assertEquals(cls, e.errorClass(), "rank " + r + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(BOTH), "rank " + r + ": " + e.getMessage());
            assertTrue(ok.test(e.getMessage()), "rank " + r + ": '" + e.getMessage() + "' should " + what);
            refused++;
        }
        assertTrue(refused > 0, "no rank named the mismatch: " + o.ranks() + ", job: " + o.job().getMessage());
    }

    static int[] vals(final int root, final int n) {
        final int[] x = new int[n];
        Arrays.setAll(x, i -> 1000 * (root + 1) + i);
        return x;
    }

    /** Root of a fan-out mismatch on 4 ranks: ranks 0 and 1 name root 0, ranks 2 and 3 root 1. */
    static int split(final Communicator w) {
        return w.rank() < 2 ? 0 : 1;
    }

    // ------------------------------------------------------------------------------------------ intracommunicator

    static Stream<Arguments> bcastCases() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String algo : new String[] {"linear", "binomial", "scatter_allgather"}) {
            for (final boolean nb : new boolean[] {false, true}) {
                for (final int n : new int[] {0, 5, 64}) {
                    cases.add(Arguments.of(algo, nb, n));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} nonblocking={1} count={2}")
    @MethodSource("bcastCases")
    void shouldRefuseABcastFromAnotherRoot(final String algo, final boolean nb, final int n) {
        final Outcomes o = run(4, OPTS.algorithm("bcast", algo), w -> {
            final int root = split(w);
            final int[] b = w.rank() == root ? vals(root, n) : new int[n];
            if (nb) {
                w.ibcast(Buf.of(b), root).waitFor();
            } else {
                w.bcast(Buf.of(b), root);
            }
            assertArrayEquals(vals(root, n), b, "rank " + w.rank() + " returned data that is not root " + root
                + "'s");
        });
        assertRefused(o, ErrorClass.ROOT, "as part of bcast root=0", "called bcast root=1");
    }

    /**
     * The refusing message comes from another source than the receive waits for (rank 2, naming root 1, waits for
     * rank 1; rank 0, the root the others name, sends to it): it is refused whether it is already queued when the
     * receive is posted, or arrives while the receive waits. Point-to-point messages order the two cases.
     */
    @ParameterizedTest(name = "queued first={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void shouldRefuseAMessageOfTheSameCallFromAnotherSource(final boolean queuedFirst) {
        final Outcomes o = run(3, OPTS.algorithm("bcast", "linear"), w -> {
            final int[] b = new int[2];
            final int[] token = new int[1];
            if (0 == w.rank()) {
                if (!queuedFirst) {
                    w.recv(Buf.of(token), 2, 1); // rank 2's receive is posted
                }
                w.bcast(Buf.of(new int[] {4, 2}), 0);
                if (queuedFirst) {
                    w.send(Buf.of(token), 2, 1); // after the bcast message, on the same ordered path
                }
            } else if (1 == w.rank()) {
                w.bcast(Buf.of(b), 0);
                assertArrayEquals(new int[] {4, 2}, b);
            } else if (queuedFirst) {
                w.recv(Buf.of(token), 0, 1);
                w.bcast(Buf.of(b), 1);
            } else {
                final Request r = w.ibcast(Buf.of(b), 1);
                w.send(Buf.of(token), 0, 1);
                r.waitFor();
            }
        });
        assertRefused(o, ErrorClass.ROOT, "bcast (comm=WORLD, rank=2): rank=0 sent as part of bcast root=0 but this "
            + "rank called bcast root=1: " + BOTH);
        assertEquals(OK, o.of(0));
        assertEquals(OK, o.of(1));
    }

    /** The rooted collectives whose messages fan out from the root, and those that fan in along a tree. */
    enum Rooted { SCATTER_LINEAR, SCATTER_BINOMIAL, SCATTERV, GATHER_BINOMIAL, REDUCE_BINOMIAL }

    @ParameterizedTest
    @EnumSource(Rooted.class)
    void shouldRefuseEveryRootedCollectiveFromAnotherRoot(final Rooted c) {
        final String[] opAlgo = c.name().toLowerCase(java.util.Locale.ROOT).split("_");
        final String op = opAlgo[0];
        final Tutti.Options opts = opAlgo.length > 1 ? OPTS.algorithm(op, opAlgo[1]) : OPTS;
        final Outcomes o = run(4, opts, w -> {
            final int me = w.rank();
            final int p = w.size();
            final int n = 3;
            switch (c) {
                case SCATTER_LINEAR, SCATTER_BINOMIAL, SCATTERV -> {
                    final int root = split(w);
                    final int[] all = me == root ? vals(root, p * n) : null;
                    final int[] mine = new int[n];
                    if (Rooted.SCATTERV == c) {
                        final int[] counts = {n, n, n, n};
                        w.scatterv(null == all ? null : Buf.of(all), counts, new int[] {0, n, 2 * n, 3 * n},
                            Buf.of(mine), root);
                    } else {
                        w.scatter(null == all ? null : Buf.of(all), Buf.of(mine), root);
                    }
                    assertArrayEquals(Arrays.copyOfRange(vals(root, p * n), me * n, me * n + n), mine);
                }
                case GATHER_BINOMIAL -> {
                    // Rank 1 names root 2: in that tree it sends to rank 0, which (naming root 0) receives from 1.
                    final int root = 1 == me ? 2 : 0;
                    final int[] all = me == root ? new int[p * n] : null;
                    w.gather(Buf.of(vals(me, n)), null == all ? null : Buf.of(all), root);
                }
                case REDUCE_BINOMIAL -> {
                    final int root = 1 == me ? 2 : 0;
                    final int[] sum = new int[n];
                    w.reduce(Buf.of(vals(me, n)), Buf.of(sum), Op.SUM, root);
                }
                default -> fail(c.name());
            }
        });
        assertRefused(o, ErrorClass.ROOT, "as part of " + op + " root=", "but this rank called " + op + " root=");
    }

    static Stream<Arguments> kindCases() {
        return Arrays.stream(Kind.values()).filter(k -> Kind.ALLREDUCE != k)
            .flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    /** Every collective on rank 1 against an allreduce (which sends and receives at once) on rank 0. */
    @ParameterizedTest(name = "{0} nonblocking={1}")
    @MethodSource("kindCases")
    void shouldRefuseEveryOtherCollectiveAgainstAnAllreduce(final Kind k, final boolean nb) {
        final Tutti.Options opts = OPTS.algorithm("allreduce", "recursive_doubling");
        final Outcomes o = run(2, opts, w -> {
            if (0 == w.rank()) {
                Kind.ALLREDUCE.call(w, nb);
            } else {
                k.call(w, nb);
            }
        });
        final String theirs = k.mpiName + (k.rooted() ? " root=0" : "");
        assertRefused(o, ErrorClass.ARG, m -> m.contains("sent as part of allreduce but this rank called " + theirs
            + ":") || m.contains("sent as part of " + theirs + " but this rank called allreduce:"),
            "name allreduce and " + theirs);
    }

    @ParameterizedTest(name = "nonblocking={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldRefuseABcastAgainstAReduceInsteadOfReducingIt(final boolean nb) {
        // Before headers, rank 1 took rank 0's broadcast for its reduce operand and returned 1000 + 1001.
        final Outcomes o = run(2, OPTS, w -> {
            final int[] x = {1000 + w.rank()};
            if (0 == w.rank()) {
                Kind.BCAST.call(w, nb, x);
            } else {
                final int[] sum = new int[1];
                if (nb) {
                    w.ireduce(Buf.of(x), Buf.of(sum), Op.SUM, 1).waitFor();
                } else {
                    w.reduce(Buf.of(x), Buf.of(sum), Op.SUM, 1);
                }
                fail("reduce returned " + sum[0] + " from a broadcast");
            }
        });
        assertRefused(o, ErrorClass.ARG, "rank=0 sent as part of bcast root=0 but this rank called reduce root=1");
    }

    @Test
    void shouldRefuseATaggedBcastFromAnotherRoot() {
        final Outcomes o = run(4, OPTS, w -> {
            final int root = split(w);
            final int[] b = w.rank() == root ? vals(root, 4) : new int[4];
            final CollectiveHandle h = w.bcastBegin(Buf.of(b), root, 11);
            h.end();
            assertArrayEquals(vals(root, 4), b);
        });
        assertRefused(o, ErrorClass.ROOT, "as part of bcast root=0", "called bcast root=1");
    }

    /** The collectives with buffers for two ranks, each called with root 0. */
    enum Kind {
        BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW,
        REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN;

        final String mpiName = name().toLowerCase(java.util.Locale.ROOT);

        boolean rooted() {
            return switch (this) {
                case BCAST, GATHER, GATHERV, SCATTER, SCATTERV, REDUCE -> true;
                default -> false;
            };
        }

        void call(final Communicator w, final boolean nb) {
            call(w, nb, new int[] {1 + w.rank()});
        }

        void call(final Communicator w, final boolean nb, final int[] x) {
            if (nb) {
                start(w, x).waitFor();
            } else {
                run(w, x);
            }
        }

        /** The blocking form (a cached schedule's run reuses its requests: another path than the nonblocking). */
        void run(final Communicator w, final int[] x) {
            final Buf one = Buf.of(x);
            final int[] two = new int[2];
            final int[] c = {1, 1};
            final int[] d = {0, 1};
            final int[] r1 = new int[1];
            switch (this) {
                case BARRIER -> w.barrier();
                case BCAST -> w.bcast(one, 0);
                case GATHER -> w.gather(one, Buf.of(two), 0);
                case GATHERV -> w.gatherv(one, Buf.of(two), c, d, 0);
                case SCATTER -> w.scatter(Buf.of(two), Buf.of(r1), 0);
                case SCATTERV -> w.scatterv(Buf.of(two), c, d, Buf.of(r1), 0);
                case ALLGATHER -> w.allgather(one, Buf.of(two));
                case ALLGATHERV -> w.allgatherv(one, Buf.of(two), c, d);
                case ALLTOALL -> w.alltoall(Buf.of(new int[2]), Buf.of(two));
                case ALLTOALLV -> w.alltoallv(Buf.of(new int[2]), c, d, Buf.of(two), c, d);
                case ALLTOALLW -> w.alltoallw(new Buf[] {Buf.of(new int[1]), Buf.of(new int[1])},
                    new Buf[] {Buf.of(new int[1]), Buf.of(new int[1])});
                case REDUCE -> w.reduce(one, Buf.of(r1), Op.SUM, 0);
                case ALLREDUCE -> w.allreduce(one, Buf.of(r1), Op.SUM);
                case REDUCE_SCATTER -> w.reduceScatter(Buf.of(new int[2]), Buf.of(r1), c, Op.SUM);
                case REDUCE_SCATTER_BLOCK -> w.reduceScatterBlock(Buf.of(new int[2]), Buf.of(r1), Op.SUM);
                case SCAN -> w.scan(one, Buf.of(r1), Op.SUM);
                case EXSCAN -> w.exscan(one, Buf.of(r1), Op.SUM);
                default -> fail(name());
            }
        }

        /** The nonblocking form. */
        Request start(final Communicator w, final int[] x) {
            final Buf one = Buf.of(x);
            final int[] two = new int[2];
            final int[] c = {1, 1};
            final int[] d = {0, 1};
            final int[] r1 = new int[1];
            return switch (this) {
                case BARRIER -> w.ibarrier();
                case BCAST -> w.ibcast(one, 0);
                case GATHER -> w.igather(one, Buf.of(two), 0);
                case GATHERV -> w.igatherv(one, Buf.of(two), c, d, 0);
                case SCATTER -> w.iscatter(Buf.of(two), Buf.of(r1), 0);
                case SCATTERV -> w.iscatterv(Buf.of(two), c, d, Buf.of(r1), 0);
                case ALLGATHER -> w.iallgather(one, Buf.of(two));
                case ALLGATHERV -> w.iallgatherv(one, Buf.of(two), c, d);
                case ALLTOALL -> w.ialltoall(Buf.of(new int[2]), Buf.of(two));
                case ALLTOALLV -> w.ialltoallv(Buf.of(new int[2]), c, d, Buf.of(two), c, d);
                case ALLTOALLW -> w.ialltoallw(new Buf[] {Buf.of(new int[1]), Buf.of(new int[1])},
                    new Buf[] {Buf.of(new int[1]), Buf.of(new int[1])});
                case REDUCE -> w.ireduce(one, Buf.of(r1), Op.SUM, 0);
                case ALLREDUCE -> w.iallreduce(one, Buf.of(r1), Op.SUM);
                case REDUCE_SCATTER -> w.ireduceScatter(Buf.of(new int[2]), Buf.of(r1), c, Op.SUM);
                case REDUCE_SCATTER_BLOCK -> w.ireduceScatterBlock(Buf.of(new int[2]), Buf.of(r1), Op.SUM);
                case SCAN -> w.iscan(one, Buf.of(r1), Op.SUM);
                case EXSCAN -> w.iexscan(one, Buf.of(r1), Op.SUM);
            };
        }
    }

    // ------------------------------------------------------------------------------------------ intercommunicator

    @ParameterizedTest(name = "nonblocking={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldRefuseASymmetricBcastWithAnotherRemoteRoot(final boolean nb) {
        // A = {0, 1}, B = {2, 3}; B names A's root 1 where A's root is 0.
        final Outcomes o = run(4, OPTS, w -> {
            final Intercommunicator x = IntercommTest.make(w, 2);
            final boolean inA = w.rank() < 2;
            final int remoteRoot = inA ? 0 : 1;
            final int[] out = vals(w.rank(), 3);
            final int[] in = new int[3];
            final Buf send = 0 == x.rank() ? Buf.of(out) : null;
            if (nb) {
                x.ibcast(send, Buf.of(in), 0, remoteRoot).waitFor();
            } else {
                x.bcast(send, Buf.of(in), 0, remoteRoot);
            }
            assertArrayEquals(vals(inA ? 2 + remoteRoot : remoteRoot, 3), in, "rank " + w.rank());
        });
        assertRefused(o, ErrorClass.ROOT, "as part of bcast root=", "but this rank called bcast root=0 remoteRoot=");
    }

    @Test
    void shouldRefuseAOneWayBcastWithAnotherRoot() {
        // A's rank 0 is the root; B names A's rank 1.
        final Outcomes o = run(4, OPTS, w -> {
            final Intercommunicator x = IntercommTest.make(w, 2);
            final boolean inA = w.rank() < 2;
            final int[] b = inA && 0 == x.rank() ? vals(0, 3) : new int[3];
            x.bcast(Buf.of(b), inA ? (0 == x.rank() ? Intercommunicator.ROOT : Comm.PROC_NULL) : 1);
            if (!inA) {
                assertArrayEquals(vals(0, 3), b, "rank " + w.rank());
            }
        });
        assertRefused(o, ErrorClass.ROOT, "as part of bcast root=", "but this rank called bcast root=");
    }

    @ParameterizedTest(name = "nonblocking={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldRefuseAnIntercommAllreduceAgainstABcast(final boolean nb) {
        final Outcomes o = run(5, OPTS, w -> {
            final Intercommunicator x = IntercommTest.make(w, 2);
            final int[] in = new int[1];
            if (w.rank() < 2 && nb) {
                x.iallreduce(Buf.of(new int[] {1}), Buf.of(in), Op.SUM).waitFor();
            } else if (w.rank() < 2) {
                x.allreduce(Buf.of(new int[] {1}), Buf.of(in), Op.SUM);
            } else if (nb) {
                x.ibcast(Buf.of(new int[] {1}), Buf.of(in), 0, 0).waitFor();
            } else {
                x.bcast(Buf.of(new int[] {1}), Buf.of(in), 0, 0);
            }
        });
        assertRefused(o, ErrorClass.ARG, "allreduce", "bcast", "but this rank called");
    }

    @Test
    void shouldRefuseATaggedIntercommBcastWithAnotherRemoteRoot() {
        final Outcomes o = run(4, OPTS, w -> {
            final Intercommunicator x = IntercommTest.make(w, 2);
            final boolean inA = w.rank() < 2;
            final int[] in = new int[2];
            x.bcastBegin(0 == x.rank() ? Buf.of(vals(w.rank(), 2)) : null, Buf.of(in), 0, inA ? 0 : 1, 3).end();
        });
        assertRefused(o, ErrorClass.ROOT, "as part of bcast root=", "but this rank called bcast root=0 remoteRoot=");
    }

    // ------------------------------------------------------------------------------------------ transports

    /** The header travels in shm's and tcp's frames, eager and rendezvous; a refused rendezvous is released. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"shm", "tcp"})
    void shouldRefuseOverShmAndTcp(final String transport) throws Exception {
        final boolean shm = "shm".equals(transport);
        final ShmJob.Body body = (w, ignored) -> {
            for (final int n : new int[] {3, 100_000}) { // 400 KB: above the eager limit
                final int[] x = vals(w.rank(), n);
                if (0 == w.rank()) {
                    if (shm && n > 2048) {
                        // Past the cells both calls take the region's chunks, which check every peer's call first.
                        final TuttiException e = org.junit.jupiter.api.Assertions.assertThrows(TuttiException.class,
                            () -> w.bcast(Buf.of(x), 0));
                        assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
                        assertTrue(e.getMessage().contains("rank=1 sent as part of gather root=1 but this rank "
                            + "called bcast root=0: " + BOTH), e.getMessage());
                    } else {
                        w.bcast(Buf.of(x), 0); // the root sends and returns
                    }
                } else {
                    // A gather: over tcp through the message layer, over shm through the region's cells or chunks.
                    final TuttiException e = org.junit.jupiter.api.Assertions.assertThrows(TuttiException.class,
                        () -> w.gather(Buf.of(x), Buf.of(new int[2 * n]), 1));
                    assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
                    assertTrue(e.getMessage().contains("rank=0 sent as part of bcast root=0 but this rank called "
                        + "gather root=1: " + BOTH), e.getMessage());
                }
                final int[] s = new int[1];
                w.allreduce(Buf.of(new int[] {1}), Buf.of(s), Op.SUM);
                assertEquals(2, s[0]);
            }
            // Nonblocking calls past the cells take the message layer over shm too: a rendezvous, refused.
            final int n = 100_000;
            final int[] x = vals(w.rank(), n);
            if (0 == w.rank()) {
                w.ibcast(Buf.of(x), 0).waitFor();
            } else {
                final TuttiException e = org.junit.jupiter.api.Assertions.assertThrows(TuttiException.class,
                    () -> w.igather(Buf.of(x), Buf.of(new int[2 * n]), 1).waitFor());
                assertTrue(e.getMessage().contains("rank=0 sent as part of bcast root=0 but this rank called "
                    + "gather root=1: " + BOTH), e.getMessage());
            }
            final int[] s = new int[1];
            w.allreduce(Buf.of(new int[] {1}), Buf.of(s), Op.SUM);
            assertEquals(2, s[0]);
        };
        if ("shm".equals(transport)) {
            ShmJob.run(2, body);
        } else {
            TcpJob.run(2, 64 * 1024, (w, tcp) -> body.run(w, null));
        }
    }

    // ------------------------------------------------------------------------------------------ still correct

    @Test
    void shouldStillRunMatchingCallsAfterARefusedOne() {
        // A refused receive fails its call only: the next calls, matched on every rank, run normally.
        Tutti.runLocal(3, OPTS, w -> RefusedCall.thenMatchingCalls(w, 1));
    }
}
