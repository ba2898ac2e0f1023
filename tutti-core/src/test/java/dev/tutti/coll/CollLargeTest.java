package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Large messages: every algorithm of allreduce, allgather, alltoall, reduce_scatter_block, bcast and reduce with
 * vectors or blocks well above the 64 KiB eager limit (so the rendezvous path and multi-block pipelines run), at
 * p in {2, 3, 4, 5, 8}, in place and not, plus one allreduce of 16 MiB per rank (64 MiB in total) at p = 4 for
 * the bandwidth algorithms. Counts are not multiples of p, so blocks are uneven. Values are small integers held
 * in doubles, so every bracketing of the sums is exact and results compare with {@code ==}. Every buffer has
 * guard elements on both sides that must survive.
 */
@Timeout(30)
class CollLargeTest {
    /** Per-rank block of allgather, alltoall, reduce_scatter_block: 320 KiB. */
    static final int BLOCK = 40_003;
    /** Whole vector of bcast, reduce, allreduce: 800 KiB. */
    static final int VECTOR = 100_003;
    /** The allreduce of 16 MiB per rank; not a multiple of 4. */
    static final int HUGE = 2 * 1024 * 1024 + 1;
    static final int PAD = 3;
    static final double GUARD = -7.0;
    static final int[] SIZES = {2, 3, 4, 5, 8};
    static final CollKind[] KINDS = {CollKind.ALLREDUCE, CollKind.ALLGATHER, CollKind.ALLTOALL,
        CollKind.REDUCE_SCATTER_BLOCK, CollKind.BCAST, CollKind.REDUCE};

    static Stream<Arguments> matrix() {
        final List<Arguments> out = new ArrayList<>();
        for (final CollKind k : KINDS) {
            for (final AlgorithmId id : AlgorithmId.of(k)) {
                for (final int p : SIZES) {
                    out.add(Arguments.of(id, p));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("matrix")
    void shouldMatchReferenceAboveEagerLimit(final AlgorithmId id, final int p) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(25))
            .algorithm(id.kind().mpiName(), id.shortName());
        Tutti.runLocal(p, opts, w -> {
            for (final boolean inPlace : new boolean[] {false, true}) {
                switch (id.kind()) {
                    case ALLREDUCE -> allreduce(w, VECTOR, inPlace);
                    case ALLGATHER -> allgather(w, inPlace);
                    case ALLTOALL -> alltoall(w, inPlace);
                    case REDUCE_SCATTER_BLOCK -> reduceScatterBlock(w, inPlace);
                    case BCAST -> {
                        if (!inPlace) {
                            bcast(w, 0);
                            bcast(w, p - 1);
                        }
                    }
                    case REDUCE -> {
                        reduce(w, 0, inPlace);
                        reduce(w, p - 1, inPlace);
                    }
                    default -> throw new IllegalStateException(id.name());
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ring", "rabenseifner"})
    void shouldAllreduceSixteenMiBPerRankAtFourRanks(final String algorithm) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(25))
            .algorithm("allreduce", algorithm);
        Tutti.runLocal(4, opts, w -> allreduce(w, HUGE, false));
    }

    /** Rank {@code r}'s element {@code i}: a small integer, so sums of up to 8 are exact in any order. */
    static double value(final int rank, final long i) {
        return (double) ((rank * 37L + i * 11L) % 1021L);
    }

    static double sum(final int p, final long i) {
        double s = 0;
        for (int r = 0; r < p; r++) {
            s += value(r, i);
        }
        return s;
    }

    /** An array of {@code PAD + n + PAD} guards with {@code n} elements from {@code f} at {@code PAD}. */
    static double[] padded(final int n, final LongToDoubleFunction f) {
        final double[] a = new double[PAD + n + PAD];
        Arrays.fill(a, GUARD);
        if (null != f) {
            for (int i = 0; i < n; i++) {
                a[PAD + i] = f.applyAsDouble(i);
            }
        }
        return a;
    }

    /** Checks {@code n} elements at {@code PAD} against {@code f} and that the guards around all of it hold. */
    static void check(final String what, final double[] a, final int n, final LongToDoubleFunction f) {
        for (int i = 0; i < n; i++) {
            final double e = f.applyAsDouble(i);
            if (a[PAD + i] != e) {
                fail(what + ": element " + i + " is " + a[PAD + i] + ", expected " + e);
            }
        }
        for (int i = 0; i < PAD; i++) {
            if (GUARD != a[i] || GUARD != a[a.length - 1 - i]) {
                fail(what + ": guard overwritten");
            }
        }
    }

    static void allreduce(final Communicator w, final int n, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final String what = "allreduce n=" + n + " inPlace=" + inPlace + " rank=" + me;
        final double[] send = padded(n, i -> value(me, i));
        final double[] recv = inPlace ? send : padded(n, null);
        w.allreduce(inPlace ? Buf.IN_PLACE : Buf.of(send, PAD, n), Buf.of(recv, PAD, n), Op.SUM);
        check(what, recv, n, i -> sum(p, i));
        if (!inPlace) {
            check(what + " (send buffer)", send, n, i -> value(me, i));
        }
    }

    static void allgather(final Communicator w, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final String what = "allgather block=" + BLOCK + " inPlace=" + inPlace + " rank=" + me;
        final double[] send = padded(BLOCK, i -> value(me, i));
        final double[] recv = padded(p * BLOCK, inPlace ? i -> i / BLOCK == me ? value(me, i % BLOCK) : GUARD : null);
        w.allgather(inPlace ? Buf.IN_PLACE : Buf.of(send, PAD, BLOCK), Buf.of(recv, PAD, p * BLOCK));
        check(what, recv, p * BLOCK, i -> value((int) (i / BLOCK), i % BLOCK));
    }

    static void alltoall(final Communicator w, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final String what = "alltoall block=" + BLOCK + " inPlace=" + inPlace + " rank=" + me;
        final double[] send = padded(p * BLOCK, i -> value(me, i));
        final double[] recv = inPlace ? send : padded(p * BLOCK, null);
        w.alltoall(inPlace ? Buf.IN_PLACE : Buf.of(send, PAD, p * BLOCK), Buf.of(recv, PAD, p * BLOCK));
        // Block j comes from rank j, which sent its block number me.
        check(what, recv, p * BLOCK, i -> value((int) (i / BLOCK), (long) me * BLOCK + i % BLOCK));
    }

    static void reduceScatterBlock(final Communicator w, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final String what = "reduce_scatter_block block=" + BLOCK + " inPlace=" + inPlace + " rank=" + me;
        final double[] send = padded(p * BLOCK, i -> value(me, i));
        final double[] recv = inPlace ? send : padded(BLOCK, null);
        w.reduceScatterBlock(inPlace ? Buf.IN_PLACE : Buf.of(send, PAD, p * BLOCK),
            Buf.of(recv, PAD, inPlace ? p * BLOCK : BLOCK), Op.SUM);
        // In place only the first block is defined; the guards after the whole input must still hold.
        final int checked = inPlace ? p * BLOCK : BLOCK;
        check(what, recv, checked, i -> i < BLOCK ? sum(p, (long) me * BLOCK + i) : recv[PAD + (int) i]);
    }

    static void bcast(final Communicator w, final int root) {
        final int me = w.rank();
        final String what = "bcast n=" + VECTOR + " root=" + root + " rank=" + me;
        final double[] buf = padded(VECTOR, me == root ? i -> value(root, i) : null);
        w.bcast(Buf.of(buf, PAD, VECTOR), root);
        check(what, buf, VECTOR, i -> value(root, i));
    }

    static void reduce(final Communicator w, final int root, final boolean inPlace) {
        final int me = w.rank();
        final int p = w.size();
        final String what = "reduce n=" + VECTOR + " root=" + root + " inPlace=" + inPlace + " rank=" + me;
        final boolean ip = inPlace && me == root;
        final double[] send = padded(VECTOR, i -> value(me, i));
        final double[] recv = me == root ? (ip ? send : padded(VECTOR, null)) : null;
        w.reduce(ip ? Buf.IN_PLACE : Buf.of(send, PAD, VECTOR), null == recv ? null : Buf.of(recv, PAD, VECTOR),
            Op.SUM, root);
        if (me == root) {
            check(what, recv, VECTOR, i -> sum(p, i));
        }
        if (!ip) {
            check(what + " (send buffer)", send, VECTOR, i -> value(me, i));
        }
    }
}
