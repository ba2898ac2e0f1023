package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.CollectiveMismatchException;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.testkit.Worlds;

import dev.tutti.coll.CollHooks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The correctness checker: with it on, ranks whose collective calls do not match are told so on every
 * rank, before any data moves, by a {@link CollectiveMismatchException} naming the communicator, the call's number and
 * each rank's call with its arguments and call site; one incorrect program per rule, on 2 to 4 ranks of an embedded
 * job. A correct program gives the same results with the checker on; with it off no hook is installed. Every job has
 * a timeout.
 */
@Timeout(120)
public class CheckerTest {
    public static final Tutti.Options CHECKED = Tutti.Options.defaults().timeout(Duration.ofSeconds(30)).check(true);
    public static final String OK = "returned";
    public static final String FILE = "CheckerTest.java:";

    /** Each rank's outcome ({@link #OK} or what it threw) and the line of its call. */
    public record Outcomes(AtomicReferenceArray<Object> ranks, int[] lines) {
        CollectiveMismatchException mismatch(final int rank) {
            final Object x = ranks.get(rank);
            if (x instanceof Throwable t && !(x instanceof CollectiveMismatchException)) {
                throw new AssertionError("rank " + rank + " failed otherwise: " + t, t);
            }
            return assertInstanceOf(CollectiveMismatchException.class, x, "rank " + rank + " returned");
        }

        String site(final int rank) {
            return FILE + lines[rank];
        }
    }

    /** A rank's program; returns the line of the call under test ({@link #here()} on the same line). */
    @FunctionalInterface
    public interface Body {
        int run(Communicator w, int[] line) throws Exception;
    }

    /** @return the line of the caller */
    public static int here() {
        return StackWalker.getInstance().walk(s -> s.skip(1).findFirst().orElseThrow().getLineNumber());
    }

    /** Runs a checked job in which each rank records how its body ended, and returns normally. */
    public static Outcomes run(final int n, final Body body) {
        return run(CHECKED, n, body);
    }

    /**
     * Runs a job with these options in which each rank records how its body ended, and returns normally: the checker,
     * if on, only warns of what it reports at close (the job's failure for it is {@link CheckerLifecycleTest}'s).
     */
    public static Outcomes run(final Tutti.Options options, final int n, final Body body) {
        final AtomicReferenceArray<Object> out = new AtomicReferenceArray<>(n);
        final int[] lines = new int[n];
        Tutti.runLocal(n, options.check() ? options.warn(true) : options, world -> {
            final Communicator w = (Communicator) world;
            final int[] line = new int[1];
            try {
                body.run(w, line);
                out.set(w.rank(), OK);
            } catch (final RuntimeException | Error e) {
                out.set(w.rank(), e);
            }
            lines[w.rank()] = line[0];
        });
        return new Outcomes(out, lines);
    }

    /** Asserts that every rank threw the same mismatch, of class {@code cls}, holding every needle. */
    public static String assertEveryRank(final Outcomes o, final ErrorClass cls, final String... needles) {
        final String first = afterName(o.mismatch(0).getMessage());
        for (int r = 0; r < o.ranks().length(); r++) {
            final CollectiveMismatchException e = o.mismatch(r);
            assertEquals(cls, e.errorClass(), "rank " + r + ": " + e.getMessage());
            assertEquals(first, afterName(e.getMessage()), "every rank reports the same");
            for (final String needle : needles) {
                assertTrue(e.getMessage().contains(needle), "rank " + r + ": '" + e.getMessage() + "' should contain '"
                    + needle + "'");
            }
        }
        return first;
    }

    /** @return the message after the communicator's name (an intercommunicator's differs between its groups) */
    public static String afterName(final String m) {
        return m.substring(m.indexOf("' (") + 1);
    }

    // ------------------------------------------------------------------------------------------------ the rules

    @Test
    public void shouldNameEveryRanksCallWhenTheRanksCallDifferentCollectives() {
        final long t0 = System.nanoTime();
        final Outcomes o = run(4, (w, line) -> {
            final int[] x = new int[4];
            if (2 == w.rank()) {
                line[0] = here(); w.reduce(Buf.of(x), Buf.of(new int[4]), Op.SUM, 0);
            } else {
                line[0] = here(); w.bcast(Buf.of(x), 0);
            }
            return 0;
        });
        final String m = assertEveryRank(o, ErrorClass.ARG, "collective mismatch on 'WORLD' (call #1): ",
            "ranks 0, 1, 3 bcast(root=0, 4 x int) at " + o.site(0),
            "; rank 2 reduce(root=0, op=SUM, 4 x int) at " + o.site(2), "the ranks called different collectives");
        // Within a second of the call on a quiet machine; 10 s bounds a loaded one (this job's whole time).
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, m);
    }

    @Test
    public void shouldRefuseDifferentRoots() {
        final Outcomes o = run(3, (w, line) -> {
            line[0] = here(); w.bcast(Buf.of(new long[2]), w.rank() < 2 ? 0 : 1);
            return 0;
        });
        assertEveryRank(o, ErrorClass.ROOT, "ranks 0, 1 bcast(root=0, 2 x long) at " + o.site(0),
            "rank 2 bcast(root=1, 2 x long) at " + o.site(2), "different roots");
    }

    @Test
    public void shouldRefuseDifferentReductionOps() {
        final Op mine = Op.builder("absMax", true).ints((in, inout, count) -> { }).build();
        final Outcomes o = run(2, (w, line) -> {
            line[0] = here(); w.allreduce(Buf.of(new int[3]), Buf.of(new int[3]), 0 == w.rank() ? Op.SUM : mine);
            return 0;
        });
        assertEveryRank(o, ErrorClass.OP, "rank 0 allreduce(op=SUM, 3 x int)", "rank 1 allreduce(op=absMax, 3 x int)",
            "different reduction operations");
    }

    @Test
    public void shouldRefuseDifferentCountsAndTypes() {
        final Outcomes counts = run(2, (w, line) -> {
            final int n = 0 == w.rank() ? 4 : 3;
            line[0] = here(); w.allreduce(Buf.of(new double[n]), Buf.of(new double[n]), Op.SUM);
            return 0;
        });
        assertEveryRank(counts, ErrorClass.COUNT, "rank 0 allreduce(op=SUM, 4 x double) at " + counts.site(0),
            "rank 1 allreduce(op=SUM, 3 x double)", "different counts");
        final Outcomes types = run(2, (w, line) -> {
            line[0] = here(); w.bcast(0 == w.rank() ? Buf.of(new int[2]) : Buf.of(new float[2]), 0);
            return 0;
        });
        assertEveryRank(types, ErrorClass.TYPE, "rank 0 bcast(root=0, 2 x int)", "rank 1 bcast(root=0, 2 x float)",
            "different element types");
    }

    @Test
    public void shouldRefuseACallThatDiffersAfterTheSameCallPassedInALoop() {
        // The first phase caches the verdict of the last hash that passed: a later call that differs still fails.
        final Outcomes o = run(2, (w, line) -> {
            final int[] x = new int[2];
            for (int i = 0; i < 5; i++) {
                w.allreduce(Buf.of(new int[2]), Buf.of(x), Op.SUM);
            }
            line[0] = here(); w.allreduce(Buf.of(new int[2]), Buf.of(x), 0 == w.rank() ? Op.SUM : Op.MAX);
            return 0;
        });
        assertEveryRank(o, ErrorClass.OP, "(call #6)", "rank 0 allreduce(op=SUM, 2 x int) at " + o.site(0),
            "rank 1 allreduce(op=MAX, 2 x int) at " + o.site(1));
    }

    @Test
    public void shouldNeverMatchABlockingCallWithANonblockingOne() {
        final Outcomes o = run(2, (w, line) -> {
            if (0 == w.rank()) {
                line[0] = here(); w.barrier();
            } else {
                line[0] = here(); w.ibarrier().waitFor();
            }
            return 0;
        });
        assertEveryRank(o, ErrorClass.ARG, "rank 0 barrier() at " + o.site(0), "rank 1 ibarrier() at " + o.site(1),
            "a blocking collective never matches a nonblocking one");
    }

    @Test
    public void shouldRefuseInPlaceAtSomeRanksOnly() {
        final Outcomes o = run(3, (w, line) -> {
            final int[] x = {w.rank()};
            line[0] = here(); w.allreduce(1 == w.rank() ? Buf.IN_PLACE : Buf.of(x), Buf.of(new int[1]), Op.SUM);
            return 0;
        });
        assertEveryRank(o, ErrorClass.BUFFER, "rank 1 allreduce(op=SUM, IN_PLACE, 1 x int)",
            "ranks 0, 2 allreduce(op=SUM, 1 x int)", "IN_PLACE was passed by some ranks only");
    }

    @Test
    public void shouldRefuseMismatchedNonblockingCallsInTheirWait() {
        final Outcomes o = run(2, (w, line) -> {
            final Request r;
            if (0 == w.rank()) {
                line[0] = here(); r = w.ibcast(Buf.of(new int[4]), 0);
            } else {
                line[0] = here(); r = w.iallreduce(Buf.of(new int[4]), Buf.of(new int[4]), Op.MAX);
            }
            r.waitFor();
            return 0;
        });
        assertEveryRank(o, ErrorClass.ARG, "rank 0 ibcast(root=0, 4 x int) at " + o.site(0),
            "rank 1 iallreduce(op=MAX, 4 x int) at " + o.site(1));
    }

    @Test
    public void shouldRefuseATaggedBeginWithAnotherOpOrCount() {
        final Outcomes o = run(2, (w, line) -> {
            final int n = 0 == w.rank() ? 2 : 5;
            line[0] = here(); w.allreduceBegin(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM, 7).end();
            return 0;
        });
        assertEveryRank(o, ErrorClass.COUNT, "(allreduceBegin tag=7 #1)", "rank 0 allreduceBegin(tag=7, op=SUM, 2 x int)",
            "rank 1 allreduceBegin(tag=7, op=SUM, 5 x int)");
    }

    @Test
    public void shouldNameThePairWhoseAlltoallvCountsDisagree() {
        final Outcomes o = run(3, (w, line) -> {
            final int[] send = {1, 1, 1};
            final int[] recv = {1, 1, 1};
            if (2 == w.rank()) {
                recv[0] = 2; // expects 2 from rank 0, which sends it 1
            }
            final int[] displs = {0, 2, 4};
            line[0] = here(); w.alltoallv(Buf.of(new int[6]), send, displs, Buf.of(new int[6]), recv, displs);
            return 0;
        });
        final String m = assertEveryRank(o, ErrorClass.COUNT, "rank 0 sends 1 x int to rank 2, which expects 2 x int "
            + "from it", "rank 0 alltoallv(sendCounts=[1, 1, 1], recvCounts=[1, 1, 1]");
        assertTrue(!m.contains("rank 1 "), "only the pair is named: " + m);
    }

    @Test
    public void shouldRefuseIntercommunicatorRootsThatDisagree() {
        final Outcomes o = run(4, (w, line) -> {
            final boolean even = 0 == w.rank() % 2;
            final Communicator half = w.split(w.rank() % 2, w.rank());
            final Intercommunicator pair = half.createIntercomm(0, w, even ? 1 : 0, 99);
            // group of the even ranks: its rank 0 is the root; the odd ranks name remote root 1 instead of 0
            final int root = even ? (0 == half.rank() ? Intercommunicator.ROOT : Comm.PROC_NULL) : 1;
            line[0] = here(); pair.bcast(Buf.of(new int[1]), root);
            return 0;
        });
        assertEveryRank(o, ErrorClass.ROOT, "group 1 names root 1 of group 0, whose root is 0");
    }

    @Test
    public void shouldReportAPeerThatLeftWithoutTheCall() {
        final Outcomes o = run(2, (w, line) -> {
            if (0 == w.rank()) {
                line[0] = here(); w.barrier();
            }
            return 0;
        });
        assertEquals(OK, o.ranks().get(1));
        final CollectiveMismatchException e = o.mismatch(0);
        assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains("collective mismatch on 'WORLD' (call #1): rank 0 barrier() at " + o.site(0)
            + "; rank 1 will never make this call"), e.getMessage());
    }

    @Test
    public void shouldReportRanksThatWaitInCollectivesOnDifferentCommunicators() {
        final long t0 = System.nanoTime();
        final Outcomes o = run(2, (w, line) -> {
            final Communicator other = w.dup();
            if (0 == w.rank()) {
                line[0] = here(); w.barrier();
            } else {
                line[0] = here(); other.barrier();
            }
            return 0;
        });
        for (int r = 0; r < 2; r++) {
            final CollectiveMismatchException e = o.mismatch(r);
            assertEquals(ErrorClass.TIMEOUT, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("rank " + r + " barrier() at " + o.site(r) + " has waited"),
                e.getMessage());
            assertTrue(e.getMessage().contains("rank " + (1 - r) + ", which has not reached this call; rank "
                + (1 - r) + " waits in call #1 barrier() at " + o.site(1 - r)), e.getMessage());
            final String[] comm = {"'WORLD'", "'WORLD/dup#1'"};
            assertTrue(e.getMessage().endsWith("; rank " + r + " and rank " + (1 - r) + " are in collectives on "
                + "different communicators: rank " + r + " on " + comm[r] + ", rank " + (1 - r) + " on "
                + comm[1 - r]), e.getMessage());
        }
        assertTrue(System.nanoTime() - t0 < 15_000_000_000L, "reported after the 1 s threshold, not the job timeout");
    }

    // --------------------------------------------------------------------------------------- correct programs

    @Test
    public void shouldGiveTheSameResultsWithTheCheckerOn() {
        for (final Tutti.Options opts : new Tutti.Options[] {CHECKED, CHECKED.check(false)}) {
            Tutti.runLocal(4, opts, world -> {
                final Communicator w = (Communicator) world;
                final int me = w.rank();
                final int[] sum = new int[2];
                w.allreduce(Buf.of(new int[] {me, 1}), Buf.of(sum), Op.SUM);
                assertArrayEquals(new int[] {6, 4}, sum);
                final int[] inPlace = {me};
                w.allreduce(Buf.IN_PLACE, Buf.of(inPlace), Op.MAX);
                assertEquals(3, inPlace[0]);
                final long[] b = {0 == me ? 42 : 0};
                w.ibcast(Buf.of(b), 0).waitFor();
                assertEquals(42, b[0]);
                final int[] all = new int[4];
                w.allgather(Buf.of(new int[] {me * 10}), Buf.of(all));
                assertArrayEquals(new int[] {0, 10, 20, 30}, all);
                final int[] g = new int[1 + 2 + 3 + 4];
                w.gatherv(Buf.of(new int[me + 1]), Buf.of(g), new int[] {1, 2, 3, 4}, new int[] {0, 1, 3, 6}, 0);
                final int[] t = new int[4];
                w.alltoall(Buf.of(new int[] {me, me, me, me}), Buf.of(t));
                assertArrayEquals(new int[] {0, 1, 2, 3}, t);
                final int[] red = new int[1];
                w.reduceBegin(Buf.of(new int[] {1}), Buf.of(red), Op.SUM, 0, 5).end();
                if (0 == me) {
                    assertEquals(4, red[0]);
                }
                // A nonblocking collective's start stays local: ranks may talk point-to-point before completing it.
                final Request bar = w.ibarrier();
                if (0 == me) {
                    w.send(Buf.of(new int[] {7}), 1, 3);
                } else if (1 == me) {
                    final int[] got = new int[1];
                    w.recv(Buf.of(got), 0, 3);
                    assertEquals(7, got[0]);
                }
                bar.waitFor();
                // Tagged begins in different orders on different ranks still match by (kind, tag).
                final int[] s1 = new int[1];
                final long[] s2 = new long[1];
                if (0 == me % 2) {
                    final CollectiveHandle h1 = w.allreduceBegin(Buf.of(new int[] {1}), Buf.of(s1), Op.SUM, 9);
                    final CollectiveHandle h2 = w.bcastBegin(Buf.of(s2), 1, 9);
                    h1.end();
                    h2.end();
                } else {
                    if (1 == me) {
                        s2[0] = 5;
                    }
                    final CollectiveHandle h2 = w.bcastBegin(Buf.of(s2), 1, 9);
                    final CollectiveHandle h1 = w.allreduceBegin(Buf.of(new int[] {1}), Buf.of(s1), Op.SUM, 9);
                    h2.end();
                    h1.end();
                }
                assertEquals(4, s1[0]);
                assertEquals(5, s2[0]);
                final Communicator half = w.split(me % 2, me);
                final int[] hs = new int[1];
                half.allreduce(Buf.of(new int[] {me}), Buf.of(hs), Op.SUM);
                assertEquals(0 == me % 2 ? 2 : 4, hs[0]);
                final Intercommunicator pair = half.createIntercomm(0, w, 0 == me % 2 ? 1 : 0, 77);
                final int[] theirs = new int[1];
                pair.allreduce(Buf.of(new int[] {me}), Buf.of(theirs), Op.SUM);
                assertEquals(0 == me % 2 ? 4 : 2, theirs[0]);
                final boolean rootSide = 0 == me % 2;
                final int[] v = {rootSide && 0 == half.rank() ? 11 : 0};
                pair.bcast(Buf.of(v), rootSide ? (0 == half.rank() ? Intercommunicator.ROOT : Comm.PROC_NULL) : 0);
                if (!rootSide) {
                    assertEquals(11, v[0]);
                }
                pair.free();
                half.free();
                w.barrier();
            });
        }
    }

    @Test
    public void shouldInstallNoHookWithTheCheckerOff() {
        Tutti.runLocal(2, CHECKED.check(false), world -> {
            assertNull(CollHooks.installed(Worlds.impl(world).engine()), "no hook with the checker off");
            world.barrier();
        });
        Tutti.runLocal(2, CHECKED, world -> {
            assertNotNull(CollHooks.installed(Worlds.impl(world).engine()));
            world.barrier();
        });
        if (null == dev.tutti.internal.Settings.CHECK.raw()) {
            assertEquals(false, Tutti.Options.defaults().check(), "off unless the setting says on");
        }
        assertEquals(Arrays.asList(false, true), Arrays.asList(Tutti.Options.defaults().check(false).check(),
            Tutti.Options.defaults().check(true).check()));
    }
}
