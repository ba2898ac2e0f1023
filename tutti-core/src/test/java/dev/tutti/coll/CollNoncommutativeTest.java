package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BinaryOperator;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reductions with a non-commutative operation: every order-preserving algorithm of every reducing collective
 * must give the rank-order result x0 op x1 op ... op x(p-1), and forcing an algorithm that reorders operands
 * must be refused before anything is sent. The operation is the 2x2 integer matrix product, each matrix four
 * consecutive longs {@code [a b; c d]}, with wrap-around arithmetic (still associative, almost never
 * commutative on the random inputs used).
 */
@Timeout(120)
class CollNoncommutativeTest {
    static final int[] SIZES = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17};
    static final int[] MATRICES = {0, 1, 5};
    static final int OFF = 3;
    static final int TAIL = 5;
    static final long PAD = 0x5A5A_5A5A_5A5A_5A5AL;
    static final Set<CollKind> REDUCING = EnumSet.of(CollKind.REDUCE, CollKind.ALLREDUCE, CollKind.SCAN,
        CollKind.EXSCAN, CollKind.REDUCE_SCATTER_BLOCK, CollKind.REDUCE_SCATTER);

    /** inout = in x inout per 2x2 matrix; in is the left operand. */
    static final Op MATMUL = Op.user("matmul2x2", false, (long[] in, long[] inout, int count) -> {
        if (0 != count % 4) {
            throw new IllegalStateException("matmul2x2: count=" + count + ", expected whole 2x2 matrices");
        }
        for (int g = 0; g < count; g += 4) {
            final long[] r = mul(in, g, inout, g);
            System.arraycopy(r, 0, inout, g, 4);
        }
    });

    /**
     * The sequential counterpart of an {@link Op}.
     *
     * @param apply    returns left op right, element group by element group
     * @param identity the neutral vector of a length
     */
    record Combiner(BinaryOperator<long[]> apply, IntFunction<long[]> identity) {
    }

    static final Combiner MATMUL_SEQ = new Combiner((l, r) -> {
        final long[] out = new long[l.length];
        for (int g = 0; g < l.length; g += 4) {
            System.arraycopy(mul(l, g, r, g), 0, out, g, 4);
        }
        return out;
    }, CollNoncommutativeTest::identity);

    static final Combiner SUM_SEQ = new Combiner((l, r) -> {
        final long[] out = new long[l.length];
        Arrays.setAll(out, i -> l[i] + r[i]);
        return out;
    }, long[]::new);

    static long[] mul(final long[] x, final int i, final long[] y, final int j) {
        return new long[] {
            x[i] * y[j] + x[i + 1] * y[j + 2], x[i] * y[j + 1] + x[i + 1] * y[j + 3],
            x[i + 2] * y[j] + x[i + 3] * y[j + 2], x[i + 2] * y[j + 1] + x[i + 3] * y[j + 3]};
    }

    static Tutti.Options options(final AlgorithmId id) {
        return Tutti.Options.defaults().timeout(Duration.ofSeconds(100)).algorithm(id.kind().mpiName(),
            id.shortName());
    }

    static Stream<Arguments> orderPreserving() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : AlgorithmId.values()) {
            if (REDUCING.contains(id.kind()) && !id.commutativeOnly()) {
                for (final int p : SIZES) {
                    out.add(Arguments.of(id, p));
                }
            }
        }
        return out.stream();
    }

    static Stream<Arguments> reordering() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : AlgorithmId.values()) {
            if (id.commutativeOnly()) {
                for (final int p : new int[] {1, 2, 3, 4, 5}) {
                    out.add(Arguments.of(id, p));
                }
            }
        }
        return out.stream();
    }

    @Test
    void shouldUseOperandsThatDoNotCommute() {
        for (final int p : SIZES) {
            if (p > 1) {
                final long[] forward = new Fixture(p, 5, 42, MATMUL_SEQ).prefix(0, p, 20);
                long[] backward = identity(20);
                for (int r = 0; r < p; r++) {
                    backward = MATMUL_SEQ.apply().apply(Fixture.input(r, 20, 42), backward);
                }
                assertFalse(Arrays.equals(forward, backward), "p=" + p + ": the test data commute");
            }
        }
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("orderPreserving")
    void shouldReduceInRankOrder(final AlgorithmId id, final int p) {
        assertFalse(MATMUL.isCommutative());
        Tutti.runLocal(p, options(id), world -> {
            int salt = 0;
            for (final int k : MATRICES) {
                for (final boolean inPlace : new boolean[] {false, true}) {
                    for (final int root : roots(p, id.kind())) {
                        new Fixture(p, k, ++salt, MATMUL_SEQ).run(id.kind(), world, MATMUL, root, inPlace);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("reordering")
    void shouldRefuseReorderingAlgorithmBeforeSending(final AlgorithmId id, final int p) {
        Tutti.runLocal(p, options(id), world -> {
            final Fixture f = new Fixture(p, 1, 7, MATMUL_SEQ);
            final TuttiException e = assertThrows(TuttiException.class,
                () -> f.run(id.kind(), world, MATMUL, 0, false));
            assertEquals(ErrorClass.OP, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains(id.shortName()) && e.getMessage().contains(MATMUL.name()),
                e.getMessage());
            // A commutative op whose item is several elements may be reordered but not cut anywhere: refused too.
            final Op grouped = Op.builder("sum of 4", true).items(4).longs((in, io, n) -> {
                for (int i = 0; i < n; i++) {
                    io[i] += in[i];
                }
            }).build();
            final TuttiException g = assertThrows(TuttiException.class,
                () -> new Fixture(p, 1, 7, SUM_SEQ).run(id.kind(), world, grouped, 0, false));
            assertEquals(ErrorClass.OP, g.errorClass(), g.getMessage());
            assertTrue(g.getMessage().contains("op=sum of 4 combines items of 4 elements"), g.getMessage());
            // Refused by a local check: if it had sent a message or used up a call number on some ranks only,
            // the collectives below would mismatch.
            if (0 == world.rank() % 2) {
                assertThrows(TuttiException.class, () -> f.run(id.kind(), world, MATMUL, p - 1, true));
            }
            new Fixture(p, 3, 8, SUM_SEQ).run(id.kind(), world, Op.SUM, p - 1, false);
            final long[] data = new long[] {world.rank() == p / 2 ? 99 : -1};
            world.bcast(Buf.of(data), p / 2);
            assertEquals(99, data[0]);
            new Fixture(p, 2, 9, SUM_SEQ).run(id.kind(), world, Op.SUM, 0, true);
        });
    }

    static int[] roots(final int p, final CollKind kind) {
        if (CollKind.REDUCE != kind) {
            return new int[] {0};
        }
        if (p <= 9) {
            final int[] r = new int[p];
            Arrays.setAll(r, i -> i);
            return r;
        }
        return new int[] {0, p / 2, p - 1};
    }

    static long[] identity(final int longs) {
        final long[] id = new long[longs];
        for (int g = 0; g < longs; g += 4) {
            id[g] = 1;
            id[g + 3] = 1;
        }
        return id;
    }

    /** One call's inputs and expected results; every rank builds the same one. */
    static final class Fixture {
        final int p;
        final int n;
        final int salt;
        final Combiner seq;

        Fixture(final int p, final int matrices, final int salt, final Combiner seq) {
            this.p = p;
            this.n = 4 * matrices;
            this.salt = salt;
            this.seq = seq;
        }

        static long[] input(final int rank, final int longs, final int salt) {
            final SplittableRandom r = new SplittableRandom(rank * 1_000_003L + salt * 7_919L + longs);
            final long[] x = new long[longs];
            Arrays.setAll(x, i -> r.nextInt(-3, 4));
            return x;
        }

        /** @return x(from) op ... op x(to - 1) over vectors of {@code longs}; the identity if empty */
        long[] prefix(final int from, final int to, final int longs) {
            long[] acc = seq.identity().apply(longs);
            for (int r = from; r < to; r++) {
                acc = seq.apply().apply(acc, input(r, longs, salt));
            }
            return acc;
        }

        static long[] padded(final long[] data, final int len) {
            final long[] a = new long[OFF + len + TAIL];
            Arrays.fill(a, PAD);
            System.arraycopy(data, 0, a, OFF, data.length);
            return a;
        }

        static long[] body(final long[] a, final int from, final int len) {
            return Arrays.copyOfRange(a, OFF + from, OFF + from + len);
        }

        static void padding(final long[] a, final int len, final String what) {
            for (int i = 0; i < a.length; i++) {
                if (i < OFF || i >= OFF + len) {
                    assertEquals(PAD, a[i], what + ": wrote outside the buffer at index " + (i - OFF));
                }
            }
        }

        void run(final CollKind kind, final Communicator w, final Op op, final int root, final boolean inPlace) {
            final int me = w.rank();
            final String what = kind.mpiName() + " p=" + p + " longs=" + n + " root=" + root + " inPlace="
                + inPlace + " rank=" + me;
            switch (kind) {
                case REDUCE, ALLREDUCE, SCAN, EXSCAN -> vector(kind, w, op, root, inPlace, what);
                case REDUCE_SCATTER_BLOCK, REDUCE_SCATTER -> scatter(kind, w, op, inPlace, what);
                default -> throw new IllegalArgumentException(kind.name());
            }
        }

        private void vector(final CollKind kind, final Communicator w, final Op op, final int root,
            final boolean inPlace, final String what) {
            final int me = w.rank();
            final boolean hasRecv = CollKind.REDUCE != kind || me == root;
            final boolean ip = inPlace && hasRecv;
            final long[] mine = input(me, n, salt);
            final long[] send = padded(mine, n);
            final long[] recv = hasRecv ? padded(ip ? mine : new long[0], n) : null;
            final Buf s = ip ? Buf.IN_PLACE : Buf.of(send, OFF, n);
            final Buf r = hasRecv ? Buf.of(recv, OFF, n) : null;
            final long[] expected;
            switch (kind) {
                case REDUCE -> {
                    w.reduce(s, r, op, root);
                    expected = prefix(0, p, n);
                }
                case ALLREDUCE -> {
                    w.allreduce(s, r, op);
                    expected = prefix(0, p, n);
                }
                case SCAN -> {
                    w.scan(s, r, op);
                    expected = prefix(0, me + 1, n);
                }
                default -> {
                    w.exscan(s, r, op);
                    // MPI leaves rank 0's result undefined; Tutti leaves its buffer untouched.
                    expected = 0 == me ? body(padded(ip ? mine : new long[0], n), 0, n) : prefix(0, me, n);
                }
            }
            if (!ip) {
                assertArrayEquals(mine, body(send, 0, n), what + ": send buffer modified");
                padding(send, n, what + " send");
            }
            if (hasRecv) {
                assertArrayEquals(expected, body(recv, 0, n), what);
                padding(recv, n, what + " recv");
            }
        }

        private void scatter(final CollKind kind, final Communicator w, final Op op, final boolean inPlace,
            final String what) {
            final int me = w.rank();
            final int[] counts = new int[p];
            if (CollKind.REDUCE_SCATTER_BLOCK == kind) {
                Arrays.fill(counts, n);
            } else {
                // Whole matrices per rank, uneven, some ranks none.
                Arrays.setAll(counts, i -> 0 == n ? 0 : 4 * ((n / 4 + i) % (n / 4 + 2)));
            }
            final int total = Arrays.stream(counts).sum();
            int displ = 0;
            for (int i = 0; i < me; i++) {
                displ += counts[i];
            }
            final long[] mine = input(me, total, salt);
            final long[] send = padded(mine, total);
            final int recvLen = inPlace ? total : counts[me];
            final long[] recv = padded(inPlace ? mine : new long[0], recvLen);
            final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, OFF, total);
            if (CollKind.REDUCE_SCATTER_BLOCK == kind) {
                w.reduceScatterBlock(s, Buf.of(recv, OFF, recvLen), op);
            } else {
                w.reduceScatter(s, Buf.of(recv, OFF, recvLen), counts, op);
            }
            final long[] full = prefix(0, p, total);
            assertArrayEquals(Arrays.copyOfRange(full, displ, displ + counts[me]), body(recv, 0, counts[me]),
                what);
            padding(recv, recvLen, what + " recv");
            if (!inPlace) {
                assertArrayEquals(mine, body(send, 0, total), what + ": send buffer modified");
            }
        }
    }
}
