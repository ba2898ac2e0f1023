package dev.tutti.coll.host;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.runtime.CpuBinding;
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
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reductions past the region's limit, through its chunk area ({@link HostChunks}): reduce and allreduce give the
 * sequential reference's bits, folded in rank order, over processes' shared memory ({@link ShmJob}) and threads,
 * at group sizes 1 to 5 (1 has no region), counts just past the limit, at chunk boundaries and one either side,
 * and of several chunks; ints, longs, doubles (whose sum depends on the order) and bytes; SUM, MAX, and a
 * non-commutative op; in place and not, at every root. Halves of a split run different large reductions at once.
 * Ranks that decline a chunk area run the same calls on the message layer. The chunks are turned on
 * ({@code tutti.coll.hostChunks}) and the limit forced to shm's default, 8192 bytes, on threads too, hence
 * {@link Isolated}.
 */
@Isolated("sets the system properties tutti.coll.hostLimit and tutti.coll.hostChunks")
@Timeout(300)
class HostChunksTest {
    /** Ints per chunk. */
    static final int E = (int) (HostLayout.CHUNK / Integer.BYTES);
    /** Counts of ints: in the cells (0, 1), just past the limit, odd, every chunk boundary ±1, several chunks. */
    static final int[] COUNTS = {0, 1, 2049, 4097, E - 1, E, E + 1, 2 * E - 1, 2 * E, 2 * E + 1, 3 * E + 777};
    /** First non-zero, {@code in op inout = in != 0 ? in : inout}: associative, not commutative. */
    static final Op FIRST_NONZERO = Op.builder("firstNonZero", false).ints((in, inout, n) -> {
        for (int i = 0; i < n; i++) {
            if (0 != in[i]) {
                inout[i] = in[i];
            }
        }
    }).build();

    /** The setting that turns the chunks on. */
    static final String CHUNKS = "tutti.coll.hostChunks";
    private static String saved;
    private static String savedChunks;

    @BeforeAll
    static void forceOn() {
        saved = HostCollectivesTest.force(HostCollectivesTest.LIMIT, "8192");
        savedChunks = HostCollectivesTest.force(CHUNKS, "on");
    }

    @AfterAll
    static void restore() {
        HostCollectivesTest.restore(HostCollectivesTest.LIMIT, saved);
        HostCollectivesTest.restore(CHUNKS, savedChunks);
    }

    static Stream<Arguments> jobs() {
        final List<Arguments> out = new ArrayList<>();
        for (final String how : new String[] {"shm", "threads"}) {
            for (int p = 1; p <= 5; p++) {
                out.add(Arguments.of(how, p));
            }
        }
        return out.stream();
    }

    /** Zero at some positions per rank, so that the first non-zero depends on the order. */
    static int sparse(final int rank, final int i) {
        return 0 == (i + rank) % 3 ? 0 : HostCollectivesTest.val(rank, i);
    }

    static double dval(final int rank, final int i) {
        return (rank + 1) * 0.1 + i * 1e-7 + 1.0 / (3 + rank);
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMatchTheReferenceInRankOrder(final String how, final int p) {
        // A group of 1 is each rank's own part of a split of 2 (a job of one shm rank is not wired as a process's).
        HostCollectivesTest.job(how, Math.max(2, p), (world, shm) -> {
            final Communicator w = 1 == p ? world.split(world.rank(), 0) : world;
            final int me = w.rank();
            for (final int n : COUNTS) {
                final int[] sums = HostCollectivesTest.sums(p, n);
                final int[] sum = new int[n];
                w.allreduce(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(sum), Op.SUM);
                assertArrayEquals(sums, sum, "allreduce SUM n=" + n);
                final int[] inPlace = HostCollectivesTest.vals(me, n);
                w.allreduce(Buf.IN_PLACE, Buf.of(inPlace), Op.SUM);
                assertArrayEquals(sums, inPlace, "allreduce in place n=" + n);

                final int[] first = new int[n];
                final int[] mine = new int[n];
                Arrays.setAll(mine, i -> sparse(me, i));
                w.allreduce(Buf.of(mine), Buf.of(first), FIRST_NONZERO);
                final int[] expect = new int[n];
                for (int i = 0; i < n; i++) {
                    for (int r = p - 1; r >= 0; r--) {
                        expect[i] = 0 != sparse(r, i) ? sparse(r, i) : expect[i];
                    }
                }
                assertArrayEquals(expect, first, "allreduce of a non-commutative op n=" + n);

                final double[] d = new double[n];
                final double[] dmine = new double[n];
                Arrays.setAll(dmine, i -> dval(me, i));
                w.allreduce(Buf.of(dmine), Buf.of(d), Op.SUM);
                final double[] dexpect = new double[n];
                for (int i = 0; i < n; i++) {
                    double acc = dval(p - 1, i);
                    for (int r = p - 2; r >= 0; r--) {
                        acc = dval(r, i) + acc;
                    }
                    dexpect[i] = acc;
                }
                assertArrayEquals(dexpect, d, "allreduce of doubles, folded in rank order, n=" + n);

                final long[] max = new long[n / 2];
                final long[] lmine = new long[n / 2];
                Arrays.setAll(lmine, i -> (long) (i * 31 + me * 17) % 101 * (1L << 40) + me);
                w.allreduce(Buf.of(lmine), Buf.of(max), Op.MAX);
                for (int i = 0; i < n / 2; i++) {
                    long m = Long.MIN_VALUE;
                    for (int r = 0; r < p; r++) {
                        m = Math.max(m, (long) (i * 31 + r * 17) % 101 * (1L << 40) + r);
                    }
                    assertTrue(m == max[i], "allreduce MAX of longs n=" + n / 2 + " at " + i);
                }

                final byte[] bsum = new byte[2 * n];
                final byte[] bmine = new byte[2 * n];
                for (int i = 0; i < bmine.length; i++) {
                    bmine[i] = (byte) (i * 7 + me);
                }
                w.allreduce(Buf.of(bmine), Buf.of(bsum), Op.SUM);
                for (int i = 0; i < bsum.length; i++) {
                    int s = 0;
                    for (int r = 0; r < p; r++) {
                        s += (byte) (i * 7 + r);
                    }
                    assertTrue((byte) s == bsum[i], "allreduce SUM of bytes n=" + bsum.length + " at " + i);
                }

                for (int root = 0; root < p; root++) {
                    final int[] got = new int[n];
                    w.reduce(Buf.of(HostCollectivesTest.vals(me, n)), me == root ? Buf.of(got) : null, Op.SUM,
                        root);
                    if (me == root) {
                        assertArrayEquals(sums, got, "reduce n=" + n + " root=" + root);
                    }
                    final int[] in = me == root ? mine.clone() : mine;
                    w.reduce(me == root ? Buf.IN_PLACE : Buf.of(in), Buf.of(in), FIRST_NONZERO, root);
                    if (me == root) {
                        assertArrayEquals(expect, in, "reduce in place of a non-commutative op n=" + n);
                    }
                }
            }
            tookChunks(w, p);
        });
    }

    /**
     * Frees a group of 1 (a split, with no region), else checks that its large calls went through the chunks and that
     * no call's bytes are still lent.
     */
    private static void tookChunks(final Communicator w, final int p) {
        final String region = HostCollectivesTest.region(w);
        if (1 == p) {
            w.free();
        } else {
            assertTrue(region.contains("HostRegion") && !region.contains(" 0 chunks") && region.contains(" chunks"),
                "the large calls did not go through chunks: " + region);
            assertTrue(region.contains(", 0 loans out"), "a loan outlived its call: " + region);
        }
    }

    /** @return counts of ints per block around the pieces of a chunk of {@code p} ranks, past the cells of 8 KiB */
    static int[] moveCounts(final int p, final boolean split) {
        final int q = split ? (int) (HostLayout.CHUNK / p / HostLayout.LINE * HostLayout.LINE / Integer.BYTES) : E;
        final int past = split ? 2048 / p + 1 : 2049;
        return new int[] {past, q - 1, q, q + 1, 2 * q + 1, 3 * q + 77};
    }

    /**
     * bcast, gather, allgather, scatter and alltoall past the cells go through the chunks and give the reference's
     * blocks, at group sizes 1 to 5, every root, in place and not, at counts around the pieces of a chunk (a whole
     * slot for the first three, a {@code 1/p} share of it for scatter and alltoall).
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldMoveBlocksAsTheReferenceDoes(final String how, final int p) {
        HostCollectivesTest.job(how, Math.max(2, p), (world, shm) -> {
            final Communicator w = 1 == p ? world.split(world.rank(), 0) : world;
            final int me = w.rank();
            for (final int n : moveCounts(p, false)) {
                final int[] concat = new int[p * n];
                for (int r = 0; r < p; r++) {
                    System.arraycopy(HostCollectivesTest.vals(r, n), 0, concat, r * n, n);
                }
                final int[] all = new int[p * n];
                w.allgather(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(all));
                assertArrayEquals(concat, all, "allgather n=" + n);
                final int[] allIn = new int[p * n];
                System.arraycopy(HostCollectivesTest.vals(me, n), 0, allIn, me * n, n);
                w.allgather(Buf.IN_PLACE, Buf.of(allIn));
                assertArrayEquals(concat, allIn, "allgather in place n=" + n);
                for (int root = 0; root < p; root++) {
                    final int[] b = me == root ? HostCollectivesTest.vals(root, n) : new int[n];
                    w.bcast(Buf.of(b), root);
                    assertArrayEquals(HostCollectivesTest.vals(root, n), b, "bcast n=" + n + " root=" + root);
                    final int[] got = me == root ? new int[p * n] : null;
                    w.gather(Buf.of(HostCollectivesTest.vals(me, n)), null == got ? null : Buf.of(got), root);
                    if (me == root) {
                        assertArrayEquals(concat, got, "gather n=" + n + " root=" + root);
                    }
                    final int[] gin = new int[p * n];
                    System.arraycopy(HostCollectivesTest.vals(me, n), 0, gin, me * n, n);
                    w.gather(me == root ? Buf.IN_PLACE : Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(gin), root);
                    if (me == root) {
                        assertArrayEquals(concat, gin, "gather in place n=" + n + " root=" + root);
                    }
                }
            }
            for (final int n : moveCounts(p, true)) {
                for (int root = 0; root < p; root++) {
                    final int[] whole = new int[p * n];
                    final int from = root;
                    Arrays.setAll(whole, i -> HostCollectivesTest.val(from, i));
                    final int[] part = new int[n];
                    w.scatter(me == root ? Buf.of(whole) : null, Buf.of(part), root);
                    assertArrayEquals(Arrays.copyOfRange(whole, me * n, me * n + n), part,
                        "scatter n=" + n + " root=" + root);
                    final int[] kept = new int[n];
                    w.scatter(me == root ? Buf.of(whole) : null, me == root ? Buf.IN_PLACE : Buf.of(kept), root);
                    if (me != root) {
                        assertArrayEquals(Arrays.copyOfRange(whole, me * n, me * n + n), kept,
                            "scatter in place at the root n=" + n + " root=" + root);
                    }
                }
                final int[] send = new int[p * n];
                Arrays.setAll(send, i -> HostCollectivesTest.val(me, i));
                final int[] expect = new int[p * n];
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < n; i++) {
                        expect[r * n + i] = HostCollectivesTest.val(r, me * n + i);
                    }
                }
                final int[] got = new int[p * n];
                w.alltoall(Buf.of(send), Buf.of(got));
                assertArrayEquals(expect, got, "alltoall n=" + n);
                w.alltoall(Buf.IN_PLACE, Buf.of(send));
                assertArrayEquals(expect, send, "alltoall in place n=" + n);
            }
            tookChunks(w, p);
        });
    }

    /** @return the chunks a region has run, from its description ("N chunks") */
    static long chunksRun(final Communicator w) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) chunks").matcher(
            HostCollectivesTest.region(w));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** @return the chunks a copy of {@code n} ints per block takes at {@code p} ranks, split or not (see piece) */
    static long moveChunks(final int p, final int n, final boolean split) {
        final long q = split ? HostLayout.CHUNK / p / HostLayout.LINE * HostLayout.LINE : HostLayout.CHUNK;
        return ((long) n * Integer.BYTES + q - 1) / q;
    }

    /**
     * Nonblocking calls past the cells, once a blocking one has agreed the chunk area, go through the chunks too:
     * every operation started at once, with a small call among them, then completed in reverse order (each wait
     * runs the calls before it, in call order), at group sizes 1 to 5 and every root; the results are the
     * reference's, and the region's chunk count grows by exactly the calls' chunks.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("jobs")
    void shouldRunNonblockingCallsThroughTheChunks(final String how, final int p) {
        HostCollectivesTest.job(how, Math.max(2, p), (world, shm) -> {
            final Communicator w = 1 == p ? world.split(world.rank(), 0) : world;
            final int me = w.rank();
            final int big = E + 1;
            w.allreduce(Buf.of(new int[big]), Buf.of(new int[big]), Op.SUM); // agrees the chunk area
            for (int root = 0; root < p; root++) {
                final long before = chunksRun(w);
                final int n = E + 13 * root + 1; // 2 chunks of a reduction or whole-slot copy
                final int s = moveCounts(p, true)[3 + root % 3]; // 2-4 pieces of a split copy
                final int[] sum = new int[n];
                final int[] red = new int[n];
                final int[] b = me == root ? HostCollectivesTest.vals(root, n) : new int[n];
                final int[] all = new int[p * n];
                final int[] gat = me == root ? new int[p * n] : null;
                final int[] whole = new int[p * s];
                final int from = root;
                Arrays.setAll(whole, i -> HostCollectivesTest.val(from, i));
                final int[] part = new int[s];
                final int[] send = new int[p * s];
                Arrays.setAll(send, i -> HostCollectivesTest.val(me, i));
                final int[] got = new int[p * s];
                final int[] small = new int[3];
                final int[] first = new int[n];
                final int[] mine = new int[n];
                Arrays.setAll(mine, i -> sparse(me, i));
                final dev.tutti.Request[] rs = {
                    w.iallreduce(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(sum), Op.SUM),
                    w.ireduce(Buf.of(HostCollectivesTest.vals(me, n)), me == root ? Buf.of(red) : null, Op.SUM,
                        root),
                    w.ibcast(Buf.of(b), root),
                    w.iallreduce(Buf.of(new int[] {me, 1, 2}), Buf.of(small), Op.SUM), // through the cells
                    w.iallgather(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(all)),
                    w.igather(Buf.of(HostCollectivesTest.vals(me, n)), null == gat ? null : Buf.of(gat), root),
                    w.iscatter(me == root ? Buf.of(whole) : null, Buf.of(part), root),
                    w.ialltoall(Buf.of(send), Buf.of(got)),
                    w.iallreduce(Buf.of(mine), Buf.of(first), FIRST_NONZERO),
                };
                for (int i = rs.length - 1; i >= 0; i--) {
                    rs[i].waitFor();
                }
                final int[] sums = HostCollectivesTest.sums(p, n);
                assertArrayEquals(sums, sum, "iallreduce n=" + n);
                if (me == root) {
                    assertArrayEquals(sums, red, "ireduce n=" + n + " root=" + root);
                }
                assertArrayEquals(HostCollectivesTest.vals(root, n), b, "ibcast n=" + n + " root=" + root);
                assertArrayEquals(new int[] {p * (p - 1) / 2, p, 2 * p}, small, "iallreduce in the cells");
                final int[] concat = new int[p * n];
                for (int r = 0; r < p; r++) {
                    System.arraycopy(HostCollectivesTest.vals(r, n), 0, concat, r * n, n);
                }
                assertArrayEquals(concat, all, "iallgather n=" + n);
                if (me == root) {
                    assertArrayEquals(concat, gat, "igather n=" + n + " root=" + root);
                }
                assertArrayEquals(Arrays.copyOfRange(whole, me * s, me * s + s), part, "iscatter n=" + s);
                final int[] expect = new int[p * s];
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < s; i++) {
                        expect[r * s + i] = HostCollectivesTest.val(r, me * s + i);
                    }
                }
                assertArrayEquals(expect, got, "ialltoall n=" + s);
                final int[] ordered = new int[n];
                for (int i = 0; i < n; i++) {
                    for (int r = p - 1; r >= 0; r--) {
                        ordered[i] = 0 != sparse(r, i) ? sparse(r, i) : ordered[i];
                    }
                }
                assertArrayEquals(ordered, first, "iallreduce of a non-commutative op n=" + n);
                if (p > 1) {
                    final long reduction = (n + E - 1) / E;
                    // the non-commutative iallreduce takes the message layer (its op is applied to whole operands)
                    final long expected = 2 * reduction + 3 * moveChunks(p, n, false) + 2 * moveChunks(p, s, true);
                    assertTrue(expected == chunksRun(w) - before, "the calls took " + (chunksRun(w) - before)
                        + " chunks, expected " + expected + ": " + HostCollectivesTest.region(w));
                }
            }
            tookChunks(w, p);
        });
    }

    /**
     * A persistent request's starts past the cells go through the chunks once a blocking call has agreed them:
     * allreduce, reduce, bcast, allgather and alltoall, each started three times with new data, at group sizes 2 to 5;
     * the results are the reference's, and the chunk count grows by exactly the starts' chunks.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("regions")
    void shouldRunPersistentStartsThroughTheChunks(final String how, final int p) {
        HostCollectivesTest.job(how, p, (w, shm) -> {
            final int me = w.rank();
            final int n = 2 * E + 5;
            final int s = moveCounts(p, true)[4];
            final int[] x = new int[n];
            final int[] sum = new int[n];
            final int[] red = new int[n];
            final int[] b = new int[n];
            final int[] all = new int[p * n];
            final int[] send = new int[p * s];
            final int[] got = new int[p * s];
            final int root = p - 1;
            try (dev.tutti.PersistentRequest allreduce = w.allreduceInit(Buf.of(x), Buf.of(sum), Op.SUM);
                dev.tutti.PersistentRequest reduce = w.reduceInit(Buf.of(x), me == root ? Buf.of(red) : null, Op.SUM,
                    root);
                dev.tutti.PersistentRequest bcast = w.bcastInit(Buf.of(b), root);
                dev.tutti.PersistentRequest allgather = w.allgatherInit(Buf.of(x), Buf.of(all));
                dev.tutti.PersistentRequest alltoall = w.alltoallInit(Buf.of(send), Buf.of(got))) {
                final dev.tutti.PersistentRequest[] rs = {allreduce, reduce, bcast, allgather, alltoall};
                w.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM); // agrees the chunk area
                for (int start = 0; start < 3; start++) {
                    final long before = chunksRun(w);
                    final int turn = start;
                    Arrays.setAll(x, i -> HostCollectivesTest.val(me, i) + turn);
                    Arrays.setAll(b, i -> me == root ? HostCollectivesTest.val(root, i) + turn : 0);
                    Arrays.setAll(send, i -> HostCollectivesTest.val(me, i) + turn);
                    for (final dev.tutti.PersistentRequest r : rs) {
                        r.start();
                    }
                    for (final dev.tutti.PersistentRequest r : rs) {
                        r.waitFor();
                    }
                    final int[] sums = HostCollectivesTest.sums(p, n);
                    for (int i = 0; i < n; i++) {
                        sums[i] += p * turn;
                        if (me == root) {
                            assertTrue(sums[i] == red[i], "reduce start " + turn + " at " + i);
                        }
                        assertTrue(HostCollectivesTest.val(root, i) + turn == b[i], "bcast start " + turn);
                        for (int r = 0; r < p; r++) {
                            assertTrue(HostCollectivesTest.val(r, i) + turn == all[r * n + i], "allgather start "
                                + turn + " block " + r + " at " + i);
                        }
                    }
                    assertArrayEquals(sums, sum, "allreduce start " + turn);
                    for (int r = 0; r < p; r++) {
                        for (int i = 0; i < s; i++) {
                            assertTrue(HostCollectivesTest.val(r, me * s + i) + turn == got[r * s + i],
                                "alltoall start " + turn + " block " + r + " at " + i);
                        }
                    }
                    final long expected = 2 * ((n + E - 1) / E) + 2 * moveChunks(p, n, false) + moveChunks(p, s, true);
                    assertTrue(expected == chunksRun(w) - before, "start " + start + " took " + (chunksRun(w) - before)
                        + " chunks, expected " + expected + ": " + HostCollectivesTest.region(w));
                }
            }
        });
    }

    /**
     * A non-commutative op past the cells is applied to whole items in rank order: its function treats 3 ints as one
     * item (an upper triangular 2x2 matrix, whose product is associative and does not commute). Without declared
     * items it takes the message layer, which applies it to whole operands, and no chunk moves; declared with
     * {@code items(3)} it takes the chunks, whose chunks and segments hold whole items (the function asserts that
     * every count it gets is a multiple of 3), at a size of two chunks, the first cut where a chunk of ints would
     * end mid-item. allreduce and reduce give the product in rank order at group sizes 2 to 5.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("regions")
    void shouldApplyANonCommutativeOpToWholeItemsPastTheCells(final String how, final int p) {
        final Op.IntFunction product = (int[] in, int[] io, int count) -> {
            assertTrue(0 == count % 3, "an item split: count " + count);
            for (int i = 0; i < count; i += 3) {
                final int a = in[i] * io[i];
                final int b = in[i] * io[i + 1] + in[i + 1] * io[i + 2];
                io[i + 2] = in[i + 2] * io[i + 2];
                io[i] = a;
                io[i + 1] = b;
            }
        };
        final Op whole = Op.user("upper triangular product", false, product);
        final Op items = Op.builder("upper triangular product", false).items(3).ints(product).build();
        HostCollectivesTest.job(how, p, (world, shm) -> {
            final Communicator w = world.dup();
            final int me = w.rank();
            for (final int n : new int[] {3 * 1501, 3 * 15001}) { // 18 KiB, and 176 KiB: two chunks of whole items
                final int[] x = new int[n];
                Arrays.setAll(x, i -> 1 + (me * 7 + i) % 5);
                final int[] want = x.clone();
                final int[] ref = new int[n]; // x0 . (x1 . (... . x(p-1))), folded from the right, whole
                Arrays.setAll(ref, i -> 1 + ((p - 1) * 7 + i) % 5);
                for (int r = p - 2; r >= 0; r--) {
                    final int[] xr = new int[n];
                    final int q = r;
                    Arrays.setAll(xr, i -> 1 + (q * 7 + i) % 5);
                    whole.reduce(Datatype.INT, MemorySegment.ofArray(xr), MemorySegment.ofArray(ref), n);
                }
                for (final Op op : new Op[] {whole, items}) {
                    final long before = chunksRun(w);
                    final int[] all = new int[n];
                    w.allreduce(Buf.of(x), Buf.of(all), op);
                    assertArrayEquals(ref, all, "allreduce " + op + " of " + n);
                    final int[] red = new int[n];
                    w.reduce(Buf.of(x), me == p - 1 ? Buf.of(red) : null, op, p - 1);
                    if (me == p - 1) {
                        assertArrayEquals(ref, red, "reduce " + op + " of " + n);
                    }
                    final boolean chunked = chunksRun(w) > before;
                    assertEquals(op == items, chunked, op + " of " + n + ": " + HostCollectivesTest.region(w));
                    assertArrayEquals(want, x, "the operand changed");
                }
            }
            w.free();
        });
    }

    /**
     * A persistent request past the cells, on a communicator with no call past them yet, takes the chunks from its
     * first start when a blocking call of every peer through the cells (a barrier) came between its init and that
     * start: the init noted that the chunks are wanted. Before the barrier there is no chunk area; every start's
     * result is the reference's and takes exactly its chunks.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("regions")
    void shouldAgreeTheChunksAtTheFirstBarrierAfterAPersistentInit(final String how, final int p) {
        HostCollectivesTest.job(how, p, (world, shm) -> {
            final Communicator w = world.dup();
            final int me = w.rank();
            final int n = 2 * E + 5;
            final int[] x = new int[n];
            final int[] sum = new int[n];
            try (dev.tutti.PersistentRequest allreduce = w.allreduceInit(Buf.of(x), Buf.of(sum), Op.SUM)) {
                assertTrue(HostCollectivesTest.region(w).contains("no chunk area"),
                    "a chunk area before any blocking call: " + HostCollectivesTest.region(w));
                w.barrier(); // agrees the chunk area the init asked for
                for (int start = 0; start < 3; start++) {
                    final long before = chunksRun(w);
                    final int turn = start;
                    Arrays.setAll(x, i -> HostCollectivesTest.val(me, i) + turn);
                    allreduce.start();
                    allreduce.waitFor();
                    final int[] sums = HostCollectivesTest.sums(p, n);
                    for (int i = 0; i < n; i++) {
                        sums[i] += p * turn;
                    }
                    assertArrayEquals(sums, sum, "allreduce start " + turn);
                    assertTrue((n + E - 1) / E == chunksRun(w) - before, "start " + start + " took "
                        + (chunksRun(w) - before) + " chunks, expected " + (n + E - 1) / E + ": "
                        + HostCollectivesTest.region(w));
                }
            }
            w.free();
        });
    }

    /**
     * A communicator whose calls past the cells are all nonblocking or persistent gets its chunk area at the first
     * blocking call through the cells that waits for every peer after one of them (a barrier, a small allgather): an
     * iallreduce and a persistent allgather's start before it take the message layer and the slots, the same calls
     * after it take the chunks; a small bcast (which waits for the root alone) agrees nothing; every result is the
     * reference's.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("regions")
    void shouldAgreeTheChunksAtACallOfEveryPeerAfterANonblockingCall(final String how, final int p) {
        HostCollectivesTest.job(how, p, (world, shm) -> {
            for (final boolean byBarrier : new boolean[] {true, false}) {
                final Communicator w = world.dup();
                final int me = w.rank();
                final int n = E + 3;
                w.barrier(); // agrees the region
                final int[] x = new int[n];
                final int[] sum = new int[n];
                final int[] all = new int[p * n];
                try (dev.tutti.PersistentRequest allgather = w.allgatherInit(Buf.of(x), Buf.of(all))) {
                    for (int round = 0; round < 3; round++) {
                        final int turn = round;
                        Arrays.setAll(x, i -> HostCollectivesTest.val(me, i) + turn);
                        final long before = chunksRun(w);
                        w.iallreduce(Buf.of(x), Buf.of(sum), Op.SUM).waitFor();
                        allgather.start();
                        allgather.waitFor();
                        final int[] sums = HostCollectivesTest.sums(p, n);
                        for (int i = 0; i < n; i++) {
                            assertTrue(sums[i] + p * turn == sum[i], "iallreduce round " + turn + " at " + i);
                            for (int r = 0; r < p; r++) {
                                assertTrue(HostCollectivesTest.val(r, i) + turn == all[r * n + i], "allgather round "
                                    + turn + " block " + r + " at " + i);
                            }
                        }
                        if (0 == round) {
                            assertTrue(HostCollectivesTest.region(w).contains("no chunk area"),
                                "no call agreed a chunk area yet: " + HostCollectivesTest.region(w));
                        } else {
                            assertTrue(2 + moveChunks(p, n, false) == chunksRun(w) - before, "round " + round
                                + " did not take the chunks: " + HostCollectivesTest.region(w));
                        }
                        final int[] one = {me};
                        w.bcast(Buf.of(one), 0); // waits for the root alone: agrees nothing
                        assertTrue(0 == one[0], "bcast");
                        if (0 == round) {
                            assertTrue(HostCollectivesTest.region(w).contains("no chunk area"),
                                "a bcast agreed a chunk area: " + HostCollectivesTest.region(w));
                        }
                        if (byBarrier) { // the first agrees the chunk area
                            w.barrier();
                        } else {
                            final int[] ranks = new int[p];
                            w.allgather(Buf.of(new int[] {me}), Buf.of(ranks));
                            for (int r = 0; r < p; r++) {
                                assertTrue(r == ranks[r], "allgather of ranks");
                            }
                        }
                    }
                }
                w.free();
            }
        });
    }

    /**
     * A copy's readers past the cells read its writer's bytes in place: buffers from the shared arena
     * ({@code allocShared}) between processes, any buffer (heap arrays here) between threads. The writer returns only
     * once they are done: it scribbles over its buffer right after each call, and every reader's result is still the
     * reference's; every loan is over once the calls are. An alltoall in place, whose receive buffer is its send,
     * goes through the slots and is right too.
     */
    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("lenders")
    void shouldReadBuffersInPlace(final String how, final int p) {
        HostCollectivesTest.job(how, p, (w, shm) -> {
            final int me = w.rank();
            final int n = 2 * E + 5;
            final long bytes = (long) p * n * Integer.BYTES;
            final MemorySegment send = null == shm ? MemorySegment.ofArray(new int[p * n]) : shm.allocShared(bytes);
            final MemorySegment recv = null == shm ? MemorySegment.ofArray(new int[p * n]) : shm.allocShared(bytes);
            for (int call = 0; call < 3; call++) {
                final int root = call % p;
                fill(send, p * n, me);
                w.allgather(Buf.of(send.asSlice(0, (long) n * Integer.BYTES), Datatype.INT), Buf.of(recv,
                    Datatype.INT));
                scribble(send);
                for (int r = 0; r < p; r++) {
                    for (final int i : new int[] {0, n / 2, n - 1}) {
                        assertTrue(value(r, i) == recv.getAtIndex(ValueLayout.JAVA_INT, (long) r * n + i),
                            "allgather block " + r + " at " + i);
                    }
                }
                fill(recv, n, me);
                w.bcast(Buf.of(recv.asSlice(0, (long) n * Integer.BYTES), Datatype.INT), root);
                if (me == root) {
                    scribble(recv);
                } else {
                    for (final int i : new int[] {0, n / 2, n - 1}) {
                        assertTrue(value(root, i) == recv.getAtIndex(ValueLayout.JAVA_INT, i), "bcast at " + i);
                    }
                }
                fill(send, p * n, me);
                w.alltoall(Buf.of(send, Datatype.INT), Buf.of(recv, Datatype.INT));
                scribble(send);
                for (int r = 0; r < p; r++) {
                    assertTrue(value(r, me * n + n - 1) == recv.getAtIndex(ValueLayout.JAVA_INT, (long) r * n + n - 1),
                        "alltoall block " + r);
                }
                fill(recv, p * n, me);
                w.alltoall(Buf.IN_PLACE, Buf.of(recv, Datatype.INT));
                for (int r = 0; r < p; r++) {
                    assertTrue(value(r, me * n + 1) == recv.getAtIndex(ValueLayout.JAVA_INT, (long) r * n + 1),
                        "alltoall in place block " + r);
                }
            }
            final String region = HostCollectivesTest.region(w);
            assertTrue(region.contains("calls read a peer in place") && !region.contains(" 0 calls read a peer"),
                "the buffers were not read in place: " + region);
            assertTrue(region.contains(", 0 loans out"), "a loan outlived its call: " + region);
            if (null != shm) {
                shm.freeShared(send);
                shm.freeShared(recv);
            }
        });
    }

    /** The jobs of 2 ranks or more: a group of 1 has no region. */
    static Stream<Arguments> regions() {
        return jobs().filter(a -> (int) a.get()[1] >= 2);
    }

    static Stream<Arguments> lenders() {
        return regions().filter(a -> (int) a.get()[1] <= 4);
    }

    private static int value(final int rank, final long i) {
        return (int) (rank * 1_000_003L + i * 7);
    }

    private static void fill(final MemorySegment s, final long ints, final int rank) {
        for (long i = 0; i < ints; i++) {
            s.setAtIndex(ValueLayout.JAVA_INT, i, value(rank, i));
        }
    }

    private static void scribble(final MemorySegment s) {
        s.fill((byte) 0x5A);
    }

    /**
     * The halves of a split run different large reductions at the same time (the even half allreduces, the odd
     * half reduces to a moving root), while a dup of the world allreduces longs from a thread of its own; every
     * result is checked.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldRunDifferentLargeReductionsOnHalvesAtOnce(final String how) {
        final int p = 5;
        HostCollectivesTest.job(how, p, (w, shm) -> {
            final int me = w.rank();
            final Communicator half = w.split(me % 2, me);
            final Communicator dup = w.dup();
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final Thread side = new Thread(() -> {
                try {
                    for (int i = 0; i < 20; i++) {
                        final int n = E / 2 + 1 + 97 * i;
                        final long[] s = new long[n];
                        final long[] x = new long[n];
                        final int call = i;
                        Arrays.setAll(x, j -> (long) me * j + call);
                        if (0 == call % 2) {
                            dup.allreduce(Buf.of(x), Buf.of(s), Op.SUM);
                        } else { // through the chunks too, once the blocking call before has agreed them
                            dup.iallreduce(Buf.of(x), Buf.of(s), Op.SUM).waitFor();
                        }
                        for (int j = 0; j < n; j++) {
                            assertTrue(s[j] == (long) (p * (p - 1) / 2) * j + (long) p * call, "dup " + call);
                        }
                    }
                } catch (final Throwable e) {
                    failed.set(e);
                }
            }, "rank" + me + "-dup");
            side.start();
            final int hp = half.size();
            half.barrier(); // agrees the region (a reduce does not)
            for (int i = 0; i < 30; i++) {
                final int n = 2 * E + 13 * i + (me % 2) * 5000;
                final int[] x = new int[n];
                final int call = i;
                Arrays.setAll(x, j -> half.rank() * 1000 + j + call);
                final int[] got = new int[n];
                if (0 == me % 2) {
                    half.allreduce(Buf.of(x), Buf.of(got), Op.SUM);
                } else {
                    half.reduce(Buf.of(x), half.rank() == i % hp ? Buf.of(got) : null, Op.SUM, i % hp);
                }
                if (0 == me % 2 || half.rank() == i % hp) {
                    for (int j = 0; j < n; j++) {
                        assertTrue(got[j] == hp * (hp - 1) / 2 * 1000 + hp * (j + i), "half " + me % 2 + " call "
                            + i + " at " + j);
                    }
                }
            }
            side.join(120_000);
            assertFalse(side.isAlive(), "the dup's thread hung");
            assertNull(failed.get(), () -> "the dup of rank " + me + " failed: " + failed.get());
            assertTrue(HostCollectivesTest.region(half).contains("chunks") && HostCollectivesTest.region(dup)
                .contains("chunks"), HostCollectivesTest.region(half) + " " + HostCollectivesTest.region(dup));
            assertFalse(HostCollectivesTest.region(half).contains(" 0 chunks"), HostCollectivesTest.region(half));
            half.free();
            dup.free();
        });
    }

    /**
     * Three dups of the world, each driven by a thread of its own on every rank, run nonblocking calls through the
     * chunks at once, three in flight at a time and completed in reverse order: a wait on one communicator runs the
     * rank's progress, which advances the other communicators' runs from that thread. Every result is checked.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldRunNonblockingChunksOfSeveralCommunicatorsFromSeveralThreads(final String how) {
        final int p = 3;
        HostCollectivesTest.job(how, p, (w, shm) -> {
            final int me = w.rank();
            final Communicator[] dups = {w.dup(), w.dup(), w.dup()};
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final Thread[] threads = new Thread[dups.length];
            for (int t = 0; t < dups.length; t++) {
                final Communicator d = dups[t];
                final int which = t;
                threads[t] = new Thread(() -> {
                    try {
                        final int n = E + 1 + 4099 * which;
                        d.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM); // agrees the chunk area
                        for (int call = 0; call < 12; call++) {
                            final int c = call;
                            final int root = call % p;
                            final int[] x = new int[n];
                            Arrays.setAll(x, i -> me * 7 + i + c);
                            final int[] sum = new int[n];
                            final int[] b = new int[n];
                            if (me == root) {
                                Arrays.setAll(b, i -> i * 3 + c);
                            }
                            final int[] send = new int[p * n];
                            Arrays.setAll(send, i -> me * 1_000_000 + i + c);
                            final int[] got = new int[p * n];
                            final dev.tutti.Request[] rs = {d.iallreduce(Buf.of(x), Buf.of(sum), Op.SUM),
                                d.ibcast(Buf.of(b), root), d.ialltoall(Buf.of(send), Buf.of(got))};
                            for (int i = rs.length - 1; i >= 0; i--) {
                                rs[i].waitFor();
                            }
                            for (int i = 0; i < n; i++) {
                                assertTrue(sum[i] == 7 * p * (p - 1) / 2 + p * (i + c), "dup " + which + " call " + c
                                    + " iallreduce at " + i);
                                assertTrue(b[i] == i * 3 + c, "dup " + which + " call " + c + " ibcast at " + i);
                                for (int r = 0; r < p; r++) {
                                    assertTrue(got[r * n + i] == r * 1_000_000 + me * n + i + c, "dup " + which
                                        + " call " + c + " ialltoall block " + r + " at " + i);
                                }
                            }
                        }
                    } catch (final Throwable e) {
                        failed.compareAndSet(null, e);
                    }
                }, "rank" + me + "-dup" + t);
                threads[t].start();
            }
            for (final Thread t : threads) {
                t.join(120_000);
                assertFalse(t.isAlive(), "a dup's thread hung: " + t.getName());
            }
            assertNull(failed.get(), () -> "rank " + me + " failed: " + failed.get());
            for (final Communicator d : dups) {
                assertTrue(chunksRun(d) > 12 * 3, "the dup's calls did not take the chunks: "
                    + HostCollectivesTest.region(d));
                d.free();
            }
        });
    }

    /**
     * Ranks whose slot share has no room for a chunk area decline it at the first large reduction, which then runs
     * on the message layer with every later one, while the region's cells go on.
     */
    @Test
    void shouldRunLargeReductionsOnMessagesWhenAChunkAreaIsDeclined() {
        // A quarter of 256 KiB for slots: the region's block fits, a chunk area does not.
        ShmJob.run(3, ShmJob.config().withArena(256L << 10), true, (w, shm) -> {
            final int me = w.rank();
            for (final int n : new int[] {E + 1, 5, 2 * E + 3}) {
                final int[] sum = new int[n];
                w.allreduce(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(sum), Op.SUM);
                assertArrayEquals(HostCollectivesTest.sums(3, n), sum, "allreduce n=" + n);
                final int[] got = new int[n];
                w.reduce(Buf.of(HostCollectivesTest.vals(me, n)), 1 == me ? Buf.of(got) : null, Op.SUM, 1);
                if (1 == me) {
                    assertArrayEquals(HostCollectivesTest.sums(3, n), got, "reduce n=" + n);
                }
            }
            final String region = HostCollectivesTest.region(w);
            assertTrue(region.contains("HostRegion") && region.contains("chunks off or declined"), region);
        });
    }

    /** The rank whose fold of a chunk fails (the {@link #FAILING} op throws on its thread). */
    private static volatile Thread victim;
    static final Op FAILING = Op.builder("failsOnOneRank", true).ints((in, inout, n) -> {
        if (Thread.currentThread() == victim) {
            throw new IllegalStateException("the fold of rank 1 fails");
        }
        for (int i = 0; i < n; i++) {
            inout[i] += in[i];
        }
    }).build();

    /**
     * A rank whose call fails in the middle of the chunks (its fold throws) leaves the job; its peer, waiting for
     * that rank's reduced segment, fails naming the call instead of waiting for ever, in a blocking call and in the
     * wait of a nonblocking one.
     */
    @ParameterizedTest(name = "nonblocking={0}")
    @ValueSource(booleans = {false, true})
    void shouldFailWhenAPeerLeavesInTheMiddleOfTheChunks(final boolean nonblocking) {
        final AssertionError job = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try {
                ShmJob.run(2, (w, shm) -> {
                    final int n = 4 * E;
                    w.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM); // agrees the chunk area
                    if (1 == w.rank()) {
                        victim = Thread.currentThread();
                    }
                    if (nonblocking) {
                        w.iallreduce(Buf.of(new int[n]), Buf.of(new int[n]), FAILING).waitFor();
                    } else {
                        w.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), FAILING);
                    }
                });
                return null;
            } catch (final AssertionError e) {
                return e;
            } finally {
                victim = null;
            }
        }, "the job hung: rank 0 waited for ever for the rank that left");
        assertNotNull(job, "every rank returned: the failing fold went unnoticed");
        // Rank 0's failure is the job's cause or one of its suppressed failures (either rank may be reported first),
        // as is or wrapped in the rank's report.
        final List<Throwable> seen = new ArrayList<>();
        seen.add(job.getCause());
        for (final Throwable t : job.getSuppressed()) {
            seen.add(t);
            seen.add(t.getCause());
        }
        assertTrue(seen.stream().anyMatch(t -> t instanceof TuttiException
            && t.getMessage().contains("allreduce (comm=WORLD, rank=0)") && t.getMessage().contains("rank 1")),
            () -> "rank 0 did not fail naming its call and the rank that left: " + job + " "
                + Arrays.toString(job.getSuppressed()));
    }

    @Test
    void shouldRefuseLargeReductionsOfAnotherCountOrOp() {
        HostCollectivesTest.assertRefused(HostCollectivesTest.outcomes(2, w -> {
            final int n = 0 == w.rank() ? E + 1 : 3 * E;
            w.allreduce(Buf.of(new int[n]), Buf.of(new int[n]), Op.SUM);
        }), ErrorClass.COUNT, "count=" + 3 * E + " of type=INT but this rank passed count=" + (E + 1));
        HostCollectivesTest.assertRefused(HostCollectivesTest.outcomes(3, w -> w.reduce(Buf.of(new int[2 * E]),
            Buf.of(new int[2 * E]), 1 == w.rank() ? Op.MAX : Op.SUM, 0)), ErrorClass.OP, "op=MAX");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "threads"})
    void shouldSendEveryLargeCallButA2RankReduceThroughTheChunksByDefault(final String how) {
        // auto: a reduce of 2 ranks past the cells keeps the message layer (its non-root's send returns at once
        // there), every other call past them takes the chunks: the chunk count grows by the chunks of those calls.
        // Threads that outnumber the cores keep the message layer past the cells.
        System.setProperty(CHUNKS, "auto");
        try {
            for (final int p : new int[] {2, 3}) {
                HostCollectivesTest.job(how, p, (world, shm) -> {
                    final Communicator w = world.dup();
                    final int me = w.rank();
                    final int n = 2 * E + 1; // 3 chunks of a reduction, a bcast or an allgather
                    for (int call = 0; call < 4; call++) {
                        final int[] sum = new int[n];
                        w.allreduce(Buf.of(HostCollectivesTest.vals(me, n)), Buf.of(sum), Op.SUM);
                        assertArrayEquals(HostCollectivesTest.sums(p, n), sum, "allreduce call " + call);
                        final int root = call % p;
                        final int[] got = new int[n];
                        w.reduce(Buf.of(HostCollectivesTest.vals(me, n)), me == root ? Buf.of(got) : null, Op.SUM,
                            root);
                        if (me == root) {
                            assertArrayEquals(HostCollectivesTest.sums(p, n), got, "reduce call " + call);
                        }
                        final int[] b = me == root ? HostCollectivesTest.vals(root, n) : new int[n];
                        w.bcast(Buf.of(b), root);
                        assertArrayEquals(HostCollectivesTest.vals(root, n), b, "bcast call " + call);
                    }
                    final String region = HostCollectivesTest.region(w);
                    if ("threads".equals(how) && p > CpuBinding.unboundCpus()) {
                        assertTrue(region.contains("chunks off"), "crowded threads, no chunks: " + region);
                    } else {
                        assertTrue(region.contains(2 == p ? " 24 chunks" : " 36 chunks"), "4 allreduces, 4 bcasts "
                            + "and, past 2 ranks, 4 reduces, of 3 chunks each: " + region);
                    }
                    w.free();
                });
            }
        } finally {
            System.setProperty(CHUNKS, "on");
        }
    }
}
