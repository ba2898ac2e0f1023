package dev.tutti.check;

import dev.tutti.Buf;
import dev.tutti.CollectiveMismatchException;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.testkit.AllocationProbe;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.Worlds;

import dev.tutti.check.Checker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's path for larger regular blocking alltoall and allreduce calls (past the 1 KiB that travels with the
 * hashes): their first messages go out with the hashes and the checker moves the data itself
 * (dev.tutti.check.LargeDataWithDigest). With the checker on the results must be those of the unchecked call, just past
 * the hashes' limit, at sizes that do not split evenly, past the path's own limits, in place, with a non-commutative
 * operation in rank order, on groups smaller and larger than the path's (2 ranks and 9 take the hash round, then the
 * schedule), over inproc and over shm; and a mismatch on this path must still be reported on every rank with the user's
 * receive memory untouched, then and while the communicator goes on.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(180)
class CheckerSpreadTest {
    /** An associative, non-commutative reduction: the left operand (the lower rank's). */
    private static final Op FIRST = Op.builder("first", false).longs((in, inout, count) -> {
        System.arraycopy(in, 0, inout, 0, count);
    }).build();
    /**
     * Element counts (longs): just past the hashes' 1 KiB, uneven, 64 KiB (at 4 ranks the largest allreduce the
     * checker moves, and its largest alltoall block), past both (the hash round, then the schedule).
     */
    private static final int[] COUNTS = {129, 1001, 8192, 32_769};

    @Test
    void shouldComputeTheUncheckedResultsOverInproc() {
        for (final int n : new int[] {2, 3, 4, 9}) {
            final CheckerTest.Outcomes o = CheckerTest.run(n, (w, line) -> {
                for (final int count : COUNTS) {
                    for (int round = 0; round < 2; round++) { // the second call reuses the exchange and its slots
                        exercise(w, count, round);
                    }
                }
                return 0;
            });
            for (int r = 0; r < n; r++) {
                assertEquals(CheckerTest.OK, o.ranks().get(r), "n=" + n + " rank " + r);
            }
        }
    }

    @Test
    void shouldComputeTheUncheckedResultsOverShm() {
        ShmJob.run(4, (world, shm) -> {
            Checker.install(Worlds.impl(world).engine(), 1000, false);
            for (final int count : COUNTS) {
                for (int round = 0; round < 3; round++) {
                    exercise(world, count, round);
                }
            }
            world.barrier();
        });
    }

    /** A repeated call on this path reuses the exchange's slots, requests and views of the user's memory. */
    @Test
    void shouldAllocateAlmostNothingPerRepeatedCall() {
        ShmJob.run(3, (world, shm) -> {
            Checker.install(Worlds.impl(world).engine(), 1000, false);
            final Buf x = Buf.of(new long[1024]);
            final Buf y = Buf.of(new long[1024]);
            final Buf sent = Buf.of(new long[3 * 1024]);
            final Buf got = Buf.of(new long[3 * 1024]);
            final Runnable[] calls = {() -> world.allreduce(x, y, Op.SUM), () -> world.alltoall(sent, got)};
            final String[] names = {"allreduce 8 KiB", "alltoall 8 KiB blocks"};
            for (int c = 0; c < calls.length; c++) {
                final double perCall = AllocationProbe.leastPerCall(calls[c], 2_000);
                // 64 leaves room for messages held beyond the transport's pools now and then; a call that allocated
                // its check made about 900 bytes, one that sliced the user's memory per peer about 120.
                assertTrue(perCall < 64, "rank " + world.rank() + ": checked " + names[c] + " allocated " + perCall
                    + " bytes per call, expected < 64");
            }
            world.barrier();
        });
    }

    /** Runs each spread collective once and asserts its result. */
    private static void exercise(final Communicator w, final int count, final int round) {
        final int n = w.size();
        final int me = w.rank();
        final long[] x = new long[count];
        for (int i = 0; i < count; i++) {
            x[i] = (1 + me + round) * (long) (i + 1);
        }
        final long[] sum = new long[count];
        w.allreduce(Buf.of(x), Buf.of(sum), Op.SUM);
        final long ranks = (long) n * (n + 1) / 2 + (long) n * round;
        for (int i = 0; i < count; i++) {
            if (ranks * (i + 1) != sum[i]) {
                assertEquals(ranks * (i + 1), sum[i], "allreduce element " + i + " of " + count);
            }
        }
        final long[] first = new long[count];
        w.allreduce(Buf.of(x), Buf.of(first), FIRST);
        assertEquals((1 + round) * (long) count, first[count - 1], "allreduce in rank order, last element");
        assertEquals(1 + round, first[0], "allreduce in rank order, first element");
        final long[] inPlace = x.clone();
        w.allreduce(Buf.IN_PLACE, Buf.of(inPlace), Op.MAX);
        for (int i = 0; i < count; i += Math.max(1, count / 7)) {
            assertEquals((n + round) * (long) (i + 1), inPlace[i], "allreduce in place, element " + i);
        }
        assertEquals((n + round) * (long) count, inPlace[count - 1], "allreduce in place, last element");
        final long[] sent = new long[count * n];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = 1_000_000L * me + 1000L * (i / count) + i % count + round;
        }
        final long[] got = new long[count * n];
        w.alltoall(Buf.of(sent), Buf.of(got));
        for (int r = 0; r < n; r++) {
            for (final int i : new int[] {0, count / 2, count - 1}) {
                assertEquals(1_000_000L * r + 1000L * me + i + round, got[r * count + i], "alltoall block " + r
                    + " element " + i);
            }
        }
    }

    @Test
    void shouldReportAnAllreduceMismatchWithoutTouchingTheReceiveMemory() {
        final long[][] results = new long[3][];
        final CheckerTest.Outcomes o = CheckerTest.run(3, (w, line) -> {
            final int count = 1 == w.rank() ? 1025 : 1024;
            final long[] out = new long[count];
            Arrays.fill(out, -1);
            results[w.rank()] = out;
            final long[] x = new long[count];
            Arrays.fill(x, 5);
            line[0] = CheckerTest.here(); w.allreduce(Buf.of(x), Buf.of(out), Op.SUM);
            return 0;
        });
        CheckerTest.assertEveryRank(o, ErrorClass.COUNT, "ranks 0, 2 allreduce(op=SUM, 1024 x long) at " + site(o, 0),
            "rank 1 allreduce(op=SUM, 1025 x long) at " + site(o, 1), "the ranks passed different counts");
        for (int r = 0; r < 3; r++) {
            final int rank = r;
            assertTrue(Arrays.stream(results[r]).allMatch(v -> -1 == v),
                () -> "rank " + rank + "'s buffer was written");
        }
    }

    @Test
    void shouldLeaveTheFailedCallsMemoryAloneWhileTheCommunicatorGoesOn() {
        final long[][] results = new long[3][];
        final CheckerTest.Outcomes o = CheckerTest.run(3, (w, line) -> {
            final int count = 2 == w.rank() ? 4097 : 4096;
            final long[] out = new long[count];
            Arrays.fill(out, -1);
            results[w.rank()] = out;
            final long[] x = new long[count];
            Arrays.fill(x, 3);
            try {
                w.allreduce(Buf.of(x), Buf.of(out), Op.SUM);
                throw new AssertionError("rank " + w.rank() + ": the mismatched allreduce returned");
            } catch (final CollectiveMismatchException expected) {
                // every rank is told; the program goes on with calls that match
            }
            for (int round = 0; round < 3; round++) {
                exercise(w, 4096, round);
            }
            return 0;
        });
        for (int r = 0; r < 3; r++) {
            assertEquals(CheckerTest.OK, o.ranks().get(r), "rank " + r);
            final int rank = r;
            assertTrue(Arrays.stream(results[r]).allMatch(v -> -1 == v),
                () -> "rank " + rank + "'s buffer of the failed call was written");
        }
    }

    @Test
    void shouldReportAnAlltoallMismatchWithoutTouchingTheReceiveMemory() {
        final long[][] results = new long[4][];
        final CheckerTest.Outcomes o = CheckerTest.run(4, (w, line) -> {
            final int count = 3 == w.rank() ? 2048 : 1024;
            final long[] out = new long[count * 4];
            Arrays.fill(out, -1);
            results[w.rank()] = out;
            final long[] x = new long[count * 4];
            Arrays.fill(x, 7);
            line[0] = CheckerTest.here(); w.alltoall(Buf.of(x), Buf.of(out));
            return 0;
        });
        CheckerTest.assertEveryRank(o, ErrorClass.COUNT, "ranks 0, 1, 2 alltoall(1024 x long) at " + site(o, 0),
            "rank 3 alltoall(2048 x long) at " + site(o, 3));
        for (int r = 0; r < 4; r++) {
            final int rank = r;
            assertTrue(Arrays.stream(results[r]).allMatch(v -> -1 == v),
                () -> "rank " + rank + "'s buffer was written");
        }
    }

    private static String site(final CheckerTest.Outcomes o, final int rank) {
        return "CheckerSpreadTest.java:" + o.lines()[rank];
    }
}
