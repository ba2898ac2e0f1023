package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tutti.coll.host.HostCollectivesTest.FIRST;
import static dev.tutti.coll.host.HostCollectivesTest.assertRefused;
import static dev.tutti.coll.host.HostCollectivesTest.job;
import static dev.tutti.coll.host.HostCollectivesTest.outcomes;
import static dev.tutti.coll.host.HostCollectivesTest.region;
import static dev.tutti.coll.host.HostCollectivesTest.val;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The on-host layer's vector forms (blocking gatherv, allgatherv, alltoallv, scatterv), whose road the ranks agree at
 * the call from each other's offers: uneven counts with zeros, displacements with gaps, in place and not, at every
 * root, give the sequential reference's results through the cells; one rank whose bytes do not fit its cell sends
 * every rank of the call to the message layer alike, with the same results; a peer that sends another count fails the
 * call with the message layer's text. reduce_scatter, and allgatherv's nonblocking and persistent forms, whose ranks
 * all pass every rank's count, go through the cells with each rank deciding alone: reduce_scatter in every form, with
 * uneven counts, in place and with an op that does not commute; ranks that pass other counts fail them. Processes'
 * shared memory and threads of one JVM; the layer is forced on with {@code tutti.coll.hostLimit} (8192 bytes a cell),
 * hence {@link Isolated}.
 */
@Isolated("sets the system property tutti.coll.hostLimit")
@Timeout(300)
class HostVectorTest {
    /** Ints of a cell: 8192 bytes. */
    private static final int CELL_INTS = 2048;
    /** What the receive buffers hold where no block lands. */
    private static final int GAP = -7;
    private static final Pattern MESSAGES = Pattern.compile(" (\\d+) through messages");

    private static String saved;

    @BeforeAll
    static void forceOn() {
        saved = HostCollectivesTest.force(HostCollectivesTest.LIMIT, String.valueOf(4 * CELL_INTS));
    }

    @AfterAll
    static void restore() {
        HostCollectivesTest.restore(HostCollectivesTest.LIMIT, saved);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> jobs() {
        return HostCollectivesTest.jobs();
    }

    /**
     * Ints that rank {@code r} sends rank {@code j} in round {@code round}: 0-6, inline in a cell's first line or
     * not; in the last rounds up to 60 times more, in the lines after. Symmetric when {@code symmetric} (an in-place
     * alltoallv sends what it receives).
     */
    private static int count(final int r, final int j, final int round, final boolean symmetric) {
        final int a = symmetric ? Math.min(r, j) : r;
        final int b = symmetric ? Math.max(r, j) : j;
        final int base = (3 * a + 5 * b + round) % 7;
        return round >= 4 ? base * 60 : base;
    }

    /** Displacements of {@code counts}, in rank order with a gap of one int before each block. */
    private static int[] displs(final int[] counts) {
        final int[] d = new int[counts.length];
        int at = 0;
        for (int i = 0; i < counts.length; i++) {
            d[i] = at + 1;
            at = d[i] + counts[i];
        }
        return d;
    }

    private static int end(final int[] counts, final int[] displs) {
        return displs[counts.length - 1] + counts[counts.length - 1] + 1;
    }

    private static int[] gaps(final int n) {
        final int[] x = new int[n];
        Arrays.fill(x, GAP);
        return x;
    }

    /** The calls of communicator {@code w}'s region that took the message layer so far. */
    private static long messages(final Communicator w) {
        final Matcher m = MESSAGES.matcher(region(w));
        if (!m.find()) {
            throw new AssertionError("no region: " + region(w));
        }
        return Long.parseLong(m.group(1));
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMatchTheReferenceThroughTheCells(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            w.barrier(); // the region, if the communicator has none yet
            final long before = messages(w);
            for (int round = 0; round < 6; round++) {
                for (int root = 0; root < p; root++) {
                    gatherv(w, round, root);
                }
                allgatherv(w, round);
                alltoallv(w, round, false);
                alltoallv(w, round, true);
                for (int root = 0; root < p; root++) {
                    scatterv(w, round, root);
                }
            }
            assertEquals(before, messages(w), "calls that took the message layer, rank " + me + ": " + region(w));
        });
    }

    /**
     * A rank whose bytes do not fit its cell offers none, and then every rank takes the message layer for that call: an
     * allgatherv whose last rank contributes more than a cell, its nonblocking form (each rank decides alone from the
     * counts), and a gatherv to rank 0 (and the same in place at the root) where it does; an alltoallv whose rank 0
     * sends more than a cell in all, a scatterv (and the same in place at the root) whose root sends more. Results stay
     * the reference's, and the calls after take the cells.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldTakeMessagesOnEveryRankWhenOneOffersNoCells(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            w.barrier();
            final long before = messages(w);
            final int[] big = new int[p];
            Arrays.fill(big, 3);
            big[p - 1] = CELL_INTS + 1;
            final int[] displs = displs(big);
            final int[] got = gaps(end(big, displs));
            final int[] mine = new int[big[me]];
            Arrays.setAll(mine, i -> val(me, i));
            w.allgatherv(Buf.of(mine), Buf.of(got), big, displs);
            assertArrayEquals(expectGathered(big, displs), got, "allgatherv past the cell");
            assertEquals(before + 1, messages(w), "allgatherv took the message layer on rank " + me);
            final int[] later = gaps(end(big, displs));
            w.iallgatherv(Buf.of(mine), Buf.of(later), big, displs).waitFor();
            assertArrayEquals(expectGathered(big, displs), later, "iallgatherv past the cell");
            assertEquals(before + 2, messages(w), "iallgatherv took the message layer on rank " + me);
            gather(w, big, 0, "gatherv past the cell");
            assertEquals(before + 4, messages(w), "both gathervs took the message layer on rank " + me);

            final int[] sc = new int[p];
            final int[] rc = new int[p];
            for (int j = 0; j < p; j++) {
                sc[j] = 0 == me ? CELL_INTS / (p - 1) + 1 : 2;
                rc[j] = 0 == j ? CELL_INTS / (p - 1) + 1 : 2;
            }
            exchange(w, sc, rc, "alltoallv past the cell");
            assertEquals(before + 5, messages(w), "alltoallv took the message layer on rank " + me);

            final int[] sent = new int[p];
            Arrays.fill(sent, CELL_INTS / (p - 1) + 1);
            scatter(w, sent, 0, "scatterv past the cell");
            assertEquals(before + 7, messages(w), "both scattervs took the message layer on rank " + me);

            gatherv(w, 1, p - 1);
            allgatherv(w, 1);
            alltoallv(w, 1, false);
            scatterv(w, 1, p - 1);
            assertEquals(before + 7, messages(w), "the calls after took the cells on rank " + me);
        });
    }

    /**
     * reduce_scatter through the cells, blocking, nonblocking and persistent: uneven counts with zeros, in place and
     * not, summed, and with an op that does not commute (the result in rank order is rank 0's operand); none of these
     * calls takes the message layer.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldReduceScatterThroughTheCellsInEveryForm(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            w.barrier();
            final long before = messages(w);
            for (int round = 0; round < 6; round++) {
                final int[] counts = new int[p];
                final int r0 = round;
                Arrays.setAll(counts, r -> count(r, 0, r0, false));
                final int total = Arrays.stream(counts).sum();
                int at = 0;
                for (int r = 0; r < me; r++) {
                    at += counts[r];
                }
                final int[] operand = new int[total];
                Arrays.setAll(operand, i -> val(me, i));
                final int[] sum = new int[counts[me]];
                final int[] first = new int[counts[me]];
                for (int i = 0; i < sum.length; i++) {
                    first[i] = val(0, at + i);
                    for (int r = 0; r < p; r++) {
                        sum[i] += val(r, at + i);
                    }
                }
                final String what = "reduce_scatter round " + round;
                final int[] got = gaps(counts[me] + 1);
                w.reduceScatter(Buf.of(operand), Buf.of(got), counts, Op.SUM);
                assertArrayEquals(sum, Arrays.copyOf(got, sum.length), what);
                assertEquals(GAP, got[sum.length], what + ": past the block");
                final int[] inPlace = operand.clone();
                w.reduceScatter(Buf.IN_PLACE, Buf.of(inPlace), counts, Op.SUM);
                assertArrayEquals(sum, Arrays.copyOf(inPlace, sum.length), what + " in place");
                w.reduceScatter(Buf.of(operand), Buf.of(got), counts, FIRST);
                assertArrayEquals(first, Arrays.copyOf(got, sum.length), what + " of a non-commutative op");
                final int[] later = gaps(counts[me]);
                w.ireduceScatter(Buf.of(operand), Buf.of(later), counts, Op.SUM).waitFor();
                assertArrayEquals(sum, later, what + " nonblocking");
                final int[] kept = gaps(counts[me]);
                try (PersistentRequest req = w.reduceScatterInit(Buf.of(operand), Buf.of(kept), counts, FIRST)) {
                    for (int s = 0; s < 3; s++) {
                        Arrays.fill(kept, GAP);
                        req.start();
                        req.waitFor();
                        assertArrayEquals(first, kept, what + " persistent, start " + s);
                    }
                }
            }
            assertEquals(before, messages(w), "calls that took the message layer, rank " + me + ": " + region(w));
        });
    }

    @Test
    void shouldFailAnotherCountWithTheMessageLayersText() {
        assertRefused(outcomes(2, w -> { // rank 1 sends rank 0 two ints, rank 0 expects one
            final boolean zero = 0 == w.rank();
            w.alltoallv(Buf.of(new int[3]), zero ? new int[] {1, 1} : new int[] {2, 1}, zero ? new int[] {0, 1}
                : new int[] {0, 2}, Buf.of(new int[2]), new int[] {1, 1}, new int[] {0, 1});
        }), ErrorClass.COUNT, "alltoallv (comm=WORLD, rank=0): rank=1 sent count=2 (bytes=8) but this rank expected count=1 "
            + "(bytes=4) of type=INT: the ranks passed different counts or types");
        assertRefused(outcomes(2, w -> { // rank 1 contributes two ints, rank 0's counts say one
            final int me = w.rank();
            final int[] counts = 0 == me ? new int[] {1, 1} : new int[] {1, 2};
            w.allgatherv(Buf.of(new int[counts[me]]), Buf.of(new int[3]), counts, new int[] {0, 1});
        }), ErrorClass.COUNT, "allgatherv (comm=WORLD, rank=0): rank=1 sent count=2 (bytes=8) but this rank expected "
            + "count=1 (bytes=4)");
        assertRefused(outcomes(2, w -> { // the root sends rank 1 two ints, rank 1 expects one
            if (0 == w.rank()) {
                w.scatterv(Buf.of(new int[3]), new int[] {1, 2}, new int[] {0, 1}, Buf.of(new int[1]), 0);
            } else {
                w.scatterv(null, null, null, Buf.of(new int[1]), 0);
            }
        }), ErrorClass.COUNT, "scatterv (comm=WORLD, rank=1): rank=0 sent count=2 (bytes=8) but this rank expected count=1");
        for (final int sent : new int[] {2, CELL_INTS + 1}) { // within rank 1's cell, and past it: then it offers none
            assertRefused(outcomes(2, w -> { // rank 1 contributes more ints than the root's counts say
                final int me = w.rank();
                w.gatherv(Buf.of(new int[0 == me ? 1 : sent]), Buf.of(new int[2]), new int[] {1, 1}, new int[] {0, 1},
                    0);
            }), ErrorClass.COUNT, "gatherv (comm=WORLD, rank=0): rank=1 sent count=" + sent + " (bytes=" + 4 * sent
                + ") but this rank expected count=1 (bytes=4)");
        }
        assertRefused(outcomes(2, w -> { // the same total, split otherwise on each rank
            final int[] counts = 0 == w.rank() ? new int[] {1, 2} : new int[] {2, 1};
            w.reduceScatter(Buf.of(new int[3]), Buf.of(new int[2]), counts, Op.SUM);
        }), ErrorClass.COUNT, "reduce_scatter (comm=WORLD, rank=0): rank=1 sent recvCounts or a type of digest ",
            "but this rank passed recvCounts=[1, 2] of type=INT, digest ");
        assertRefused(outcomes(2, w -> { // the same counts, but rank 0 calls the nonblocking form
            final int[] counts = {1, 1};
            final Buf mine = Buf.of(new int[1]);
            if (0 == w.rank()) {
                w.iallgatherv(mine, Buf.of(new int[2]), counts, new int[] {0, 1}).waitFor();
            } else {
                w.allgatherv(mine, Buf.of(new int[2]), counts, new int[] {0, 1});
            }
        }), ErrorClass.ARG, "blocking and nonblocking collectives do not match");
        assertRefused(outcomes(2, w -> { // rank 1 contributes two ints, rank 0's counts say one
            final int me = w.rank();
            final int[] counts = 0 == me ? new int[] {1, 1} : new int[] {1, 2};
            w.iallgatherv(Buf.of(new int[counts[me]]), Buf.of(new int[3]), counts, new int[] {0, 1}).waitFor();
        }), ErrorClass.COUNT, "allgatherv (comm=WORLD, rank=0): rank=1 sent recvCounts or a type of digest ");
    }

    // ------------------------------------------------------------------------------------------ the calls

    private static void gatherv(final Communicator w, final int round, final int root) {
        final int p = w.size();
        final int[] counts = new int[p];
        Arrays.setAll(counts, r -> count(r, root, round, false));
        gather(w, counts, root, "gatherv round " + round + " root " + root);
    }

    /** A gatherv of {@code counts} ints to {@code root}, checked, and in place at the root. */
    private static void gather(final Communicator w, final int[] counts, final int root, final String what) {
        final int me = w.rank();
        final boolean isRoot = me == root;
        final int[] displs = displs(counts);
        final int[] expect = expectGathered(counts, displs);
        final int[] mine = new int[counts[me]];
        Arrays.setAll(mine, i -> val(me, i));
        final int[] got = gaps(expect.length);
        w.gatherv(Buf.of(mine), isRoot ? Buf.of(got) : null, isRoot ? counts : null, isRoot ? displs : null, root);
        if (isRoot) {
            assertArrayEquals(expect, got, what);
        }
        final int[] in = gaps(expect.length);
        System.arraycopy(mine, 0, in, displs[me], counts[me]);
        w.gatherv(isRoot ? Buf.IN_PLACE : Buf.of(mine), isRoot ? Buf.of(in) : null, isRoot ? counts : null,
            isRoot ? displs : null, root);
        if (isRoot) {
            assertArrayEquals(expect, in, what + " in place at the root");
        }
    }

    /** An allgatherv, blocking, nonblocking and persistent (three starts), each in place and not, checked. */
    private static void allgatherv(final Communicator w, final int round) {
        final int me = w.rank();
        final int p = w.size();
        final int[] counts = new int[p];
        Arrays.setAll(counts, r -> count(r, 0, round, false));
        final int[] displs = displs(counts);
        final int[] expect = expectGathered(counts, displs);
        final int[] mine = new int[counts[me]];
        Arrays.setAll(mine, i -> val(me, i));
        for (final String form : new String[] {"blocking", "nonblocking", "persistent"}) {
            for (final boolean inPlace : new boolean[] {false, true}) {
                final int[] got = gaps(expect.length);
                final Buf send = inPlace ? Buf.IN_PLACE : Buf.of(mine);
                final Runnable reset = () -> {
                    Arrays.fill(got, GAP);
                    if (inPlace) {
                        System.arraycopy(mine, 0, got, displs[me], counts[me]);
                    }
                };
                final String what = form + " allgatherv round " + round + (inPlace ? " in place" : "");
                reset.run();
                switch (form) {
                    case "blocking" -> w.allgatherv(send, Buf.of(got), counts, displs);
                    case "nonblocking" -> w.iallgatherv(send, Buf.of(got), counts, displs).waitFor();
                    default -> {
                        try (PersistentRequest req = w.allgathervInit(send, Buf.of(got), counts, displs)) {
                            for (int s = 0; s < 2; s++) {
                                req.start();
                                req.waitFor();
                                assertArrayEquals(expect, got, what + ", start " + s);
                                reset.run();
                            }
                            req.start();
                            req.waitFor();
                        }
                    }
                }
                assertArrayEquals(expect, got, what);
            }
        }
    }

    private static int[] expectGathered(final int[] counts, final int[] displs) {
        final int[] expect = gaps(end(counts, displs));
        for (int r = 0; r < counts.length; r++) {
            for (int i = 0; i < counts[r]; i++) {
                expect[displs[r] + i] = val(r, i);
            }
        }
        return expect;
    }

    private static void alltoallv(final Communicator w, final int round, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final int[] sc = new int[p];
        final int[] rc = new int[p];
        Arrays.setAll(sc, j -> count(me, j, round, inPlace));
        Arrays.setAll(rc, r -> count(r, me, round, inPlace));
        if (inPlace) {
            final int[] rd = displs(rc);
            final int[] buf = outgoing(me, rc, rd);
            w.alltoallv(Buf.IN_PLACE, null, null, Buf.of(buf), rc, rd);
            assertArrayEquals(expectExchanged(me, rc, rd), buf, "alltoallv in place round " + round);
        } else {
            exchange(w, sc, rc, "alltoallv round " + round);
        }
    }

    /** An alltoallv of {@code sc} ints to each peer and {@code rc} from each, checked. */
    private static void exchange(final Communicator w, final int[] sc, final int[] rc, final String what) {
        final int me = w.rank();
        final int[] sd = displs(sc);
        final int[] send = outgoing(me, sc, sd);
        final int[] rd = displs(rc);
        final int[] got = gaps(end(rc, rd));
        w.alltoallv(Buf.of(send), sc, sd, Buf.of(got), rc, rd);
        assertArrayEquals(expectExchanged(me, rc, rd), got, what);
    }

    /** What rank {@code r} sends: {@code counts[j]} ints for rank {@code j} at {@code displs[j]}, gaps between. */
    private static int[] outgoing(final int r, final int[] counts, final int[] displs) {
        final int[] send = gaps(end(counts, displs));
        for (int j = 0; j < counts.length; j++) {
            for (int i = 0; i < counts[j]; i++) {
                send[displs[j] + i] = sent(r, j, i);
            }
        }
        return send;
    }

    /** Int {@code i} of what rank {@code r} sends rank {@code j}. */
    private static int sent(final int r, final int j, final int i) {
        return val(r, 1000 * j + i);
    }

    private static int[] expectExchanged(final int me, final int[] rc, final int[] rd) {
        final int[] expect = gaps(end(rc, rd));
        for (int r = 0; r < rc.length; r++) {
            for (int i = 0; i < rc[r]; i++) {
                expect[rd[r] + i] = sent(r, me, i);
            }
        }
        return expect;
    }

    private static void scatterv(final Communicator w, final int round, final int root) {
        final int p = w.size();
        final int[] counts = new int[p];
        Arrays.setAll(counts, j -> count(root, j, round, false));
        scatter(w, counts, root, "scatterv round " + round + " root " + root);
    }

    /** A scatterv of {@code counts} ints from {@code root}, checked, and in place at the root. */
    private static void scatter(final Communicator w, final int[] counts, final int root, final String what) {
        final int me = w.rank();
        final int[] displs = displs(counts);
        final int[] send = outgoing(root, counts, displs);
        final int[] got = new int[counts[me]];
        final boolean isRoot = me == root;
        w.scatterv(isRoot ? Buf.of(send) : null, counts, displs, Buf.of(got), root);
        final int[] expect = new int[counts[me]];
        Arrays.setAll(expect, i -> sent(root, me, i));
        assertArrayEquals(expect, got, what);
        w.scatterv(isRoot ? Buf.of(send) : null, counts, displs, isRoot ? Buf.IN_PLACE : Buf.of(got), root);
        assertArrayEquals(expect, got, what + " in place at the root");
    }
}
