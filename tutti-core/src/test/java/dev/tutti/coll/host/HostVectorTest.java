package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The on-host layer's vector forms (gatherv, alltoallv, alltoallw and scatterv, blocking, nonblocking and persistent,
 * and the blocking allgatherv), whose road the ranks agree from each other's offers, at the call or when a run
 * completes: uneven counts with zeros, displacements with gaps, in place and not, at every root, an alltoallw's pairs
 * of ranks each with a type of their own, give the sequential reference's
 * results through the cells; one rank whose bytes do not fit its cell sends every rank of the call to the message
 * layer alike, with the same results, also when the others learn it while they wait in another call; calls started
 * ahead of the peers wait packed; a peer that sends another count fails the call with the message layer's text, and
 * an alltoallw's peer that sends another type fails it naming both types.
 * reduce_scatter, and allgatherv's nonblocking and persistent forms, whose ranks all pass every rank's count, go
 * through the cells with each rank deciding alone: reduce_scatter in every form, with uneven counts, in place and
 * with an op that does not commute; ranks that pass other counts fail them. Processes' shared memory and threads of
 * one JVM; the layer is forced on with {@code tutti.coll.hostLimit} (8192 bytes a cell), hence {@link Isolated}.
 */
@Isolated("sets the system property tutti.coll.hostLimit")
@Timeout(300)
class HostVectorTest {
    /** Ints of a cell: 8192 bytes. */
    private static final int CELL_INTS = 2048;
    /** What the receive buffers hold where no block lands. */
    private static final int GAP = -7;
    private static final Pattern MESSAGES = Pattern.compile(" (\\d+) through messages");
    /** An alltoallw's types, a pair of ranks' by round. */
    private static final Datatype[] TYPES = {Datatype.INT, Datatype.DOUBLE, Datatype.BYTE};

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

    /**
     * An alltoallv's counts in which rank 0 sends more than a cell in all and the others 2 ints a peer: this rank's
     * send counts, or its receive counts.
     */
    private static int[] pastRankZerosCell(final int me, final int p, final boolean send) {
        final int[] counts = new int[p];
        for (int j = 0; j < p; j++) {
            counts[j] = 0 == (send ? me : j) ? CELL_INTS / (p - 1) + 1 : 2;
        }
        return counts;
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
                allgatherv(w, round);
                for (final Form form : Form.values()) {
                    for (int root = 0; root < p; root++) {
                        gatherv(w, round, root, form);
                    }
                    alltoallv(w, round, false, form);
                    alltoallv(w, round, true, form);
                    for (int root = 0; root < p; root++) {
                        scatterv(w, round, root, form);
                    }
                    alltoallw(w, round, form);
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
            long taken = before + 2;
            final int[] sc = pastRankZerosCell(me, p, true);
            final int[] rc = pastRankZerosCell(me, p, false);
            final int[] sent = new int[p];
            Arrays.fill(sent, CELL_INTS / (p - 1) + 1);
            for (final Form form : Form.values()) {
                gather(w, big, 0, form + " gatherv past the cell", form);
                taken += 2 * form.calls();
                assertEquals(taken, messages(w), form + " gathervs took the message layer on rank " + me);
                exchange(w, sc, rc, form + " alltoallv past the cell", form);
                taken += form.calls();
                assertEquals(taken, messages(w), form + " alltoallv took the message layer on rank " + me);
                scatter(w, sent, 0, form + " scatterv past the cell", form);
                taken += 2 * form.calls();
                assertEquals(taken, messages(w), form + " scattervs took the message layer on rank " + me);
                exchangeTyped(w, sc, rc, (r, j) -> Datatype.INT, form + " alltoallw past the cell", form);
                taken += form.calls();
                assertEquals(taken, messages(w), form + " alltoallw took the message layer on rank " + me);
            }

            allgatherv(w, 1);
            for (final Form form : Form.values()) {
                gatherv(w, 1, p - 1, form);
                alltoallv(w, 1, false, form);
                scatterv(w, 1, p - 1, form);
                alltoallw(w, 1, form);
            }
            assertEquals(taken, messages(w), "the calls after took the cells on rank " + me);
        });
    }

    /**
     * A nonblocking alltoallv whose rank 0 offers no cells: rank 1, which offered, learns it while it waits in a
     * receive that rank 0 sends only once its alltoallv is done, which needs rank 1's messages. So the pass of rank
     * 1's progress that reads rank 0's offer starts its messages; the results are the reference's. The same with a
     * persistent alltoallv, and with an igatherv to rank 0 whose last rank's block is past its cell (the root offers
     * none; from 3 ranks on, rank 1 offers and learns it in its receive).
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldStartTheMessagesOfACallAgreedLaterFromAnotherWait(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            w.barrier();
            final long before = messages(w);
            final int[] sc = pastRankZerosCell(me, p, true);
            final int[] rc = pastRankZerosCell(me, p, false);
            final int[] sd = displs(sc);
            final int[] rd = displs(rc);
            final Buf send = Buf.of(outgoing(me, sc, sd));
            final int[] got = gaps(end(rc, rd));
            final int[] token = new int[1];
            for (int s = 0; s < 2; s++) {
                Arrays.fill(got, GAP);
                final Request r = 0 == s ? w.ialltoallv(send, sc, sd, Buf.of(got), rc, rd)
                    : w.alltoallvInit(send, sc, sd, Buf.of(got), rc, rd);
                if (1 == s) {
                    ((PersistentRequest) r).start();
                }
                meet(w, r, token);
                assertArrayEquals(expectExchanged(me, rc, rd), got, (0 == s ? "ialltoallv" : "alltoallv_init"));
                if (r instanceof PersistentRequest q) {
                    q.free();
                }
            }
            final int[] counts = new int[p];
            Arrays.fill(counts, 3);
            counts[p - 1] = CELL_INTS + 1; // the root offers none, and at 3 ranks or more rank 1 falls back
            final int[] displs = displs(counts);
            final int[] mine = new int[counts[me]];
            Arrays.setAll(mine, i -> val(me, i));
            final int[] gathered = gaps(end(counts, displs));
            meet(w, w.igatherv(Buf.of(mine), 0 == me ? Buf.of(gathered) : null, counts, displs, 0), token);
            if (0 == me) {
                assertArrayEquals(expectGathered(counts, displs), gathered, "igatherv");
            }
            assertEquals(before + 3, messages(w), "the calls took the message layer on rank " + me);
        });
    }

    /**
     * Rank 0 starts twelve nonblocking alltoallvs and gathervs before its peers start any (they wait for its message):
     * past the region's four cells its calls wait packed in its memory, and are published as the peers free the
     * cells; every result is the reference's, through the cells.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldQueueCallsAgreedLaterThatRunAheadOfAPeer(final String how, final int p) {
        job(how, p, (w, shm) -> {
            final int me = w.rank();
            w.barrier();
            final long before = messages(w);
            final int calls = 12;
            final Request[] started = new Request[calls];
            final int[][] got = new int[calls][];
            final int[][][] expect = new int[calls][][];
            final int[] token = new int[1];
            if (0 != me) {
                w.recv(Buf.of(token), 0, 6);
            }
            for (int i = 0; i < calls; i++) {
                final int round = i % 4;
                if (0 == i % 2) {
                    final int[] sc = new int[p];
                    final int[] rc = new int[p];
                    Arrays.setAll(sc, j -> count(me, j, round, false));
                    Arrays.setAll(rc, r -> count(r, me, round, false));
                    final int[] sd = displs(sc);
                    final int[] rd = displs(rc);
                    got[i] = gaps(end(rc, rd));
                    expect[i] = new int[][] {expectExchanged(me, rc, rd)};
                    started[i] = w.ialltoallv(Buf.of(outgoing(me, sc, sd)), sc, sd, Buf.of(got[i]), rc, rd);
                } else {
                    final int root = i % p;
                    final int[] counts = new int[p];
                    Arrays.setAll(counts, r -> count(r, root, round, false));
                    final int[] displs = displs(counts);
                    final int[] mine = new int[counts[me]];
                    Arrays.setAll(mine, x -> val(me, x));
                    got[i] = gaps(end(counts, displs));
                    expect[i] = new int[][] {me == root ? expectGathered(counts, displs) : gaps(got[i].length)};
                    started[i] = w.igatherv(Buf.of(mine), me == root ? Buf.of(got[i]) : null, counts, displs, root);
                }
            }
            if (0 == me) {
                for (int r = 1; r < p; r++) {
                    w.send(Buf.of(token), r, 6);
                }
            }
            for (int i = 0; i < calls; i++) {
                started[i].waitFor();
                assertArrayEquals(expect[i][0], got[i], "call " + i + " on rank " + me);
            }
            assertEquals(before, messages(w), "calls that took the message layer, rank " + me + ": " + region(w));
        });
    }

    /**
     * Rank 1 waits for {@code r} only after a receive from rank 0, which rank 0 sends once its {@code r} is done; the
     * other ranks wait for it at once.
     */
    private static void meet(final Communicator w, final Request r, final int[] token) {
        if (1 == w.rank()) {
            w.recv(Buf.of(token), 0, 5);
            r.waitFor();
        } else {
            r.waitFor();
            if (0 == w.rank()) {
                w.send(Buf.of(token), 1, 5);
            }
        }
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
        for (final Form form : new Form[] {Form.BLOCKING, Form.NONBLOCKING}) {
            assertRefused(outcomes(2, w -> { // rank 1 sends rank 0 two ints, rank 0 expects one
                final boolean zero = 0 == w.rank();
                final int[] sc = zero ? new int[] {1, 1} : new int[] {2, 1};
                final int[] sd = zero ? new int[] {0, 1} : new int[] {0, 2};
                final Buf send = Buf.of(new int[3]);
                final Buf recv = Buf.of(new int[2]);
                final int[] rc = {1, 1};
                final int[] rd = {0, 1};
                form.make(() -> w.alltoallv(send, sc, sd, recv, rc, rd), () -> w.ialltoallv(send, sc, sd, recv, rc, rd),
                    null, () -> { }, () -> { });
            }), ErrorClass.COUNT, "alltoallv (comm=WORLD, rank=0): rank=1 sent count=2 (bytes=8) but this rank "
                + "expected count=1 (bytes=4) of type=INT: the ranks passed different counts or types");
            assertRefused(outcomes(2, w -> { // rank 1 sends rank 0 two ints, rank 0 expects one
                final boolean zero = 0 == w.rank();
                final Buf[] send = {Buf.of(new int[zero ? 1 : 2]), Buf.of(new int[1])};
                final Buf[] recv = {Buf.of(new int[1]), Buf.of(new int[1])};
                form.make(() -> w.alltoallw(send, recv), () -> w.ialltoallw(send, recv), null, () -> { }, () -> { });
            }), ErrorClass.COUNT, "alltoallw (comm=WORLD, rank=0): rank=1 sent count=2 (bytes=8) but this rank "
                + "expected count=1 (bytes=4) of type=INT: the ranks passed different counts or types");
            assertRefused(outcomes(2, w -> { // rank 0 sends rank 1 an int, rank 1 receives it as a float
                final boolean zero = 0 == w.rank();
                final Buf[] send = {Buf.of(new int[1]), Buf.of(new int[1])};
                final Buf[] recv = {zero ? Buf.of(new int[1]) : Buf.of(new float[1]), Buf.of(new int[1])};
                form.make(() -> w.alltoallw(send, recv), () -> w.ialltoallw(send, recv), null, () -> { }, () -> { });
            }), ErrorClass.TYPE, "alltoallw (comm=WORLD, rank=1): rank=0 sent type=INT but this rank expected "
                + "type=FLOAT: the ranks passed different types");
            assertRefused(outcomes(2, w -> { // the root sends rank 1 two ints, rank 1 expects one
                final boolean root = 0 == w.rank();
                final Buf send = root ? Buf.of(new int[3]) : null;
                final int[] sc = root ? new int[] {1, 2} : null;
                final int[] sd = root ? new int[] {0, 1} : null;
                final Buf recv = Buf.of(new int[1]);
                form.make(() -> w.scatterv(send, sc, sd, recv, 0), () -> w.iscatterv(send, sc, sd, recv, 0), null,
                    () -> { }, () -> { });
            }), ErrorClass.COUNT, "scatterv (comm=WORLD, rank=1): rank=0 sent count=2 (bytes=8) but this rank "
                + "expected count=1");
            for (final int sent : new int[] {2, CELL_INTS + 1}) { // within rank 1's cell, and past it: no offer then
                assertRefused(outcomes(2, w -> { // rank 1 contributes more ints than the root's counts say
                    final Buf send = Buf.of(new int[0 == w.rank() ? 1 : sent]);
                    final Buf recv = Buf.of(new int[2]);
                    final int[] rc = {1, 1};
                    final int[] rd = {0, 1};
                    form.make(() -> w.gatherv(send, recv, rc, rd, 0), () -> w.igatherv(send, recv, rc, rd, 0), null,
                        () -> { }, () -> { });
                }), ErrorClass.COUNT, "gatherv (comm=WORLD, rank=0): rank=1 sent count=" + sent + " (bytes="
                    + 4 * sent + ") but this rank expected count=1 (bytes=4)");
            }
        }
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

    private static void gatherv(final Communicator w, final int round, final int root, final Form form) {
        final int p = w.size();
        final int[] counts = new int[p];
        Arrays.setAll(counts, r -> count(r, root, round, false));
        gather(w, counts, root, form + " gatherv round " + round + " root " + root, form);
    }

    /** A gatherv of {@code counts} ints to {@code root} in {@code form}, checked, and in place at the root. */
    private static void gather(final Communicator w, final int[] counts, final int root, final String what,
        final Form form) {
        final int me = w.rank();
        final boolean isRoot = me == root;
        final int[] displs = displs(counts);
        final int[] expect = expectGathered(counts, displs);
        final int[] mine = new int[counts[me]];
        Arrays.setAll(mine, i -> val(me, i));
        final int[] got = gaps(expect.length);
        final Buf send = Buf.of(mine);
        final Buf recv = isRoot ? Buf.of(got) : null;
        final int[] rc = isRoot ? counts : null;
        final int[] rd = isRoot ? displs : null;
        form.make(() -> w.gatherv(send, recv, rc, rd, root), () -> w.igatherv(send, recv, rc, rd, root),
            () -> w.gathervInit(send, recv, rc, rd, root), () -> Arrays.fill(got, GAP),
            () -> assertArrayEquals(isRoot ? expect : gaps(expect.length), got, what));
        final int[] in = gaps(expect.length);
        final Runnable reset = () -> {
            Arrays.fill(in, GAP);
            System.arraycopy(mine, 0, in, displs[me], counts[me]);
        };
        final Buf own = isRoot ? Buf.IN_PLACE : send;
        final Buf into = isRoot ? Buf.of(in) : null;
        form.make(() -> w.gatherv(own, into, rc, rd, root), () -> w.igatherv(own, into, rc, rd, root),
            () -> w.gathervInit(own, into, rc, rd, root), reset, () -> {
                if (isRoot) {
                    assertArrayEquals(expect, in, what + " in place at the root");
                }
            });
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

    private static void alltoallv(final Communicator w, final int round, final boolean inPlace, final Form form) {
        final int me = w.rank();
        final int p = w.size();
        final int[] sc = new int[p];
        final int[] rc = new int[p];
        Arrays.setAll(sc, j -> count(me, j, round, inPlace));
        Arrays.setAll(rc, r -> count(r, me, round, inPlace));
        if (inPlace) {
            final int[] rd = displs(rc);
            final int[] buf = outgoing(me, rc, rd);
            final Buf b = Buf.of(buf);
            form.make(() -> w.alltoallv(Buf.IN_PLACE, null, null, b, rc, rd),
                () -> w.ialltoallv(Buf.IN_PLACE, null, null, b, rc, rd),
                () -> w.alltoallvInit(Buf.IN_PLACE, null, null, b, rc, rd),
                () -> System.arraycopy(outgoing(me, rc, rd), 0, buf, 0, buf.length),
                () -> assertArrayEquals(expectExchanged(me, rc, rd), buf, form + " alltoallv in place round " + round));
        } else {
            exchange(w, sc, rc, form + " alltoallv round " + round, form);
        }
    }

    /** An alltoallv of {@code sc} ints to each peer and {@code rc} from each in {@code form}, checked. */
    private static void exchange(final Communicator w, final int[] sc, final int[] rc, final String what,
        final Form form) {
        final int me = w.rank();
        final int[] sd = displs(sc);
        final Buf send = Buf.of(outgoing(me, sc, sd));
        final int[] rd = displs(rc);
        final int[] got = gaps(end(rc, rd));
        final Buf recv = Buf.of(got);
        form.make(() -> w.alltoallv(send, sc, sd, recv, rc, rd), () -> w.ialltoallv(send, sc, sd, recv, rc, rd),
            () -> w.alltoallvInit(send, sc, sd, recv, rc, rd), () -> Arrays.fill(got, GAP),
            () -> assertArrayEquals(expectExchanged(me, rc, rd), got, what));
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

    /**
     * An alltoallw of {@link #count} elements from each rank to each, every pair of ranks with a type of its own
     * (int, double or byte, by round), checked.
     */
    private static void alltoallw(final Communicator w, final int round, final Form form) {
        final int me = w.rank();
        final int p = w.size();
        final int[] sc = new int[p];
        final int[] rc = new int[p];
        Arrays.setAll(sc, j -> count(me, j, round, false));
        Arrays.setAll(rc, r -> count(r, me, round, false));
        exchangeTyped(w, sc, rc, (r, j) -> TYPES[(r + 2 * j + round) % TYPES.length],
            form + " alltoallw round " + round, form);
    }

    /**
     * An alltoallw of {@code sc[j]} elements to each peer {@code j} and {@code rc[r]} from each peer {@code r}, the
     * block from {@code r} to {@code j} of type {@code type(r, j)}, in {@code form}, checked.
     */
    private static void exchangeTyped(final Communicator w, final int[] sc, final int[] rc,
        final java.util.function.BiFunction<Integer, Integer, Datatype> type, final String what, final Form form) {
        final int me = w.rank();
        final int p = w.size();
        final Buf[] send = new Buf[p];
        final Buf[] recv = new Buf[p];
        final Object[] got = new Object[p];
        for (int j = 0; j < p; j++) {
            send[j] = buf(block(type.apply(me, j), me, j, sc[j]));
            got[j] = block(type.apply(j, me), -1, me, rc[j]);
            recv[j] = buf(got[j]);
        }
        form.make(() -> w.alltoallw(send, recv), () -> w.ialltoallw(send, recv), () -> w.alltoallwInit(send, recv),
            () -> {
                for (int r = 0; r < p; r++) {
                    final Object gap = block(type.apply(r, me), -1, me, rc[r]);
                    System.arraycopy(gap, 0, got[r], 0, rc[r]);
                }
            },
            () -> {
                for (int r = 0; r < p; r++) {
                    final Object expect = block(type.apply(r, me), r, me, rc[r]);
                    assertTrue(java.util.Objects.deepEquals(expect, got[r]), what + ": block from rank " + r);
                }
            });
    }

    /** {@code n} elements of {@code type} that rank {@code r} sends rank {@code j} ({@link #sent}); gaps if r < 0. */
    private static Object block(final Datatype type, final int r, final int j, final int n) {
        final int[] v = new int[n];
        Arrays.setAll(v, i -> r < 0 ? GAP : sent(r, j, i));
        return switch (type) {
            case INT -> v;
            case DOUBLE -> Arrays.stream(v).asDoubleStream().toArray();
            case BYTE -> {
                final byte[] b = new byte[n];
                for (int i = 0; i < n; i++) {
                    b[i] = (byte) v[i];
                }
                yield b;
            }
            default -> throw new IllegalArgumentException(String.valueOf(type));
        };
    }

    private static Buf buf(final Object a) {
        return switch (a) {
            case int[] v -> Buf.of(v);
            case double[] v -> Buf.of(v);
            case byte[] v -> Buf.of(v);
            default -> throw new IllegalArgumentException(String.valueOf(a));
        };
    }

    private static void scatterv(final Communicator w, final int round, final int root, final Form form) {
        final int p = w.size();
        final int[] counts = new int[p];
        Arrays.setAll(counts, j -> count(root, j, round, false));
        scatter(w, counts, root, form + " scatterv round " + round + " root " + root, form);
    }

    /** A scatterv of {@code counts} ints from {@code root} in {@code form}, checked, and in place at the root. */
    private static void scatter(final Communicator w, final int[] counts, final int root, final String what,
        final Form form) {
        final int me = w.rank();
        final int[] displs = displs(counts);
        final boolean isRoot = me == root;
        final Buf send = isRoot ? Buf.of(outgoing(root, counts, displs)) : null;
        final int[] got = new int[counts[me]];
        final int[] expect = new int[counts[me]];
        Arrays.setAll(expect, i -> sent(root, me, i));
        final Runnable reset = () -> Arrays.fill(got, GAP);
        for (final Buf recv : new Buf[] {Buf.of(got), isRoot ? Buf.IN_PLACE : Buf.of(got)}) {
            final String how = Buf.IN_PLACE == recv ? what + " in place at the root" : what;
            form.make(() -> w.scatterv(send, counts, displs, recv, root),
                () -> w.iscatterv(send, counts, displs, recv, root),
                () -> w.scattervInit(send, counts, displs, recv, root), reset,
                () -> assertArrayEquals(Buf.IN_PLACE == recv ? gaps(expect.length) : expect, got, how));
        }
    }

    /**
     * How a test makes a vector call: blocking, nonblocking (one call, waited for), or persistent (one request
     * started three times, its receive buffer reset before each start).
     */
    enum Form {
        BLOCKING, NONBLOCKING, PERSISTENT;

        /** The calls of each form that one {@link #make} makes. */
        int calls() {
            return PERSISTENT == this ? 3 : 1;
        }

        /** Resets the receive buffer, makes the call in this form and checks its result after each start. */
        void make(final Runnable blocking, final java.util.function.Supplier<Request> nonblocking,
            final java.util.function.Supplier<PersistentRequest> init, final Runnable reset, final Runnable check) {
            switch (this) {
                case BLOCKING -> {
                    reset.run();
                    blocking.run();
                    check.run();
                }
                case NONBLOCKING -> {
                    reset.run();
                    nonblocking.get().waitFor();
                    check.run();
                }
                default -> {
                    try (PersistentRequest req = init.get()) {
                        for (int s = 0; s < calls(); s++) {
                            reset.run();
                            req.start();
                            req.waitFor();
                            check.run();
                        }
                    }
                }
            }
        }
    }
}
