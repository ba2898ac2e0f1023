package dev.tutti.coll.trees;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.algo.Binomial;
import dev.tutti.coll.algo.Dissemination;
import dev.tutti.coll.algo.RecursiveDoubling;
import dev.tutti.coll.algo.ScatterAllgather;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BinaryOperator;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tree and recursive-doubling schedules of every rank run together by {@link ScheduleSimulator}, with no
 * threads: group sizes 1-33 and 64 (far more than the threaded matrix affords), every root (some for p > 9),
 * counts around p, in place and not, buffered and synchronous sends; results checked against sequential
 * computations, with padding around every buffer and the send buffers checked unmodified. Reductions use a
 * non-commutative 2x2 matrix product, so any operand reordering shows.
 */
@Timeout(60)
class TreeAlgorithmsTest {
    static final int OFF = 2;
    static final int TAIL = 3;
    static final long PAD = 0x7E7E_7E7E_7E7E_7E7EL;
    static final boolean[] MODES = {false, true};
    static final boolean[] IN_PLACE = {false, true};

    /** inout = in x inout per 2x2 matrix (four longs). */
    static final Op MATMUL = Op.user("matmul2x2", false, (long[] in, long[] inout, int count) -> {
        for (int g = 0; g < count; g += 4) {
            final long[] r = mul(in, g, inout, g);
            System.arraycopy(r, 0, inout, g, 4);
        }
    });

    static final BinaryOperator<long[]> MATMUL_SEQ = (l, r) -> {
        final long[] out = new long[l.length];
        for (int g = 0; g < l.length; g += 4) {
            System.arraycopy(mul(l, g, r, g), 0, out, g, 4);
        }
        return out;
    };

    static final BinaryOperator<long[]> SUM_SEQ = (l, r) -> {
        final long[] out = new long[l.length];
        Arrays.setAll(out, i -> l[i] + r[i]);
        return out;
    };

    /** A family method, e.g. {@code Binomial::bcast}. */
    interface Algorithm {
        Schedule build(CollComm c, CollArgs a);
    }

    static long[] mul(final long[] x, final int i, final long[] y, final int j) {
        return new long[] {
            x[i] * y[j] + x[i + 1] * y[j + 2], x[i] * y[j + 1] + x[i + 1] * y[j + 3],
            x[i + 2] * y[j] + x[i + 3] * y[j + 2], x[i + 2] * y[j + 1] + x[i + 3] * y[j + 3]};
    }

    static IntStream sizes() {
        return IntStream.concat(IntStream.rangeClosed(1, 33), IntStream.of(64));
    }

    static int[] roots(final int p) {
        return p <= 9 ? IntStream.range(0, p).toArray() : IntStream.of(0, 1, p / 2, p - 1).distinct().toArray();
    }

    static int[] counts(final int p) {
        return IntStream.of(0, 1, 3, p - 1, p, p + 1, 2 * p + 3).filter(n -> n >= 0).distinct().toArray();
    }

    /** Matrix counts (in longs) for the reductions. */
    static int[] vectors() {
        return new int[] {0, 4, 8, 20};
    }

    static long[] input(final int rank, final int len, final int salt) {
        final SplittableRandom r = new SplittableRandom(rank * 1_000_003L + salt * 7_919L + len);
        final long[] x = new long[len];
        Arrays.setAll(x, i -> r.nextInt(-3, 4));
        return x;
    }

    static long[] identity(final int len, final BinaryOperator<long[]> seq) {
        final long[] id = new long[len];
        if (seq == MATMUL_SEQ) {
            for (int g = 0; g < len; g += 4) {
                id[g] = 1;
                id[g + 3] = 1;
            }
        }
        return id;
    }

    static long[] prefix(final int to, final int len, final int salt, final BinaryOperator<long[]> seq) {
        long[] acc = identity(len, seq);
        for (int r = 0; r < to; r++) {
            acc = seq.apply(acc, input(r, len, salt));
        }
        return acc;
    }

    static long[] concat(final int p, final int count, final int salt) {
        final long[] all = new long[p * count];
        for (int r = 0; r < p; r++) {
            System.arraycopy(input(r, count, salt), 0, all, r * count, count);
        }
        return all;
    }

    static CollComm comm(final int rank, final int p) {
        return new CollComm(null, 0, rank, IntStream.range(0, p).toArray(), null, null);
    }

    /** A padded long array and its body segment. */
    static final class Mem {
        final long[] a;
        final int len;

        Mem(final long[] data, final int len) {
            this.a = new long[OFF + len + TAIL];
            this.len = len;
            Arrays.fill(a, PAD);
            System.arraycopy(data, 0, a, OFF, Math.min(data.length, len));
        }

        MemorySegment seg() {
            return MemorySegment.ofArray(a).asSlice(OFF * 8L, len * 8L);
        }

        long[] body() {
            return Arrays.copyOfRange(a, OFF, OFF + len);
        }

        void check(final long[] expected, final String what) {
            assertArrayEquals(expected, body(), what);
            for (int i = 0; i < a.length; i++) {
                if (i < OFF || i >= OFF + len) {
                    assertEquals(PAD, a[i], what + ": wrote outside the buffer at " + (i - OFF));
                }
            }
        }
    }

    static ScheduleSimulator.Result simulate(final int p, final boolean sync, final Algorithm algo,
        final java.util.function.IntFunction<CollArgs> args) {
        final Schedule[] s = new Schedule[p];
        for (int r = 0; r < p; r++) {
            s[r] = algo.build(comm(r, p), args.apply(r));
        }
        return ScheduleSimulator.run(s, sync);
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldSynchroniseEveryRankInCeilLgPRounds(final int p) {
        for (final boolean sync : MODES) {
            final ScheduleSimulator.Result res = simulate(p, sync, Dissemination::barrier,
                r -> CollArgs.of("barrier", null, null, Datatype.BYTE, 0, -1, null));
            final int lg = 32 - Integer.numberOfLeadingZeros(p - 1);
            for (int r = 0; r < p; r++) {
                assertEquals(lg, res.rounds()[r], "rounds of rank " + r);
                assertEquals(p, res.knows()[r].cardinality(), "rank " + r + " left before every rank entered");
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldBroadcast(final int p) {
        int salt = 0;
        for (final Algorithm algo : new Algorithm[] {Binomial::bcast, ScatterAllgather::bcast}) {
            for (final boolean sync : MODES) {
                for (final int n : counts(p)) {
                    for (final int root : roots(p)) {
                        final int s = ++salt;
                        final Mem[] buf = new Mem[p];
                        for (int r = 0; r < p; r++) {
                            buf[r] = new Mem(r == root ? input(root, n, s) : new long[0], n);
                        }
                        simulate(p, sync, algo, r -> CollArgs.of("bcast", null, buf[r].seg(), Datatype.LONG, n,
                            root, null));
                        for (int r = 0; r < p; r++) {
                            buf[r].check(input(root, n, s), "bcast n=" + n + " root=" + root + " rank=" + r);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldGather(final int p) {
        int salt = 0;
        for (final boolean sync : MODES) {
            for (final int n : counts(p)) {
                for (final int root : roots(p)) {
                    for (final boolean inPlace : IN_PLACE) {
                        final int s = ++salt;
                        final Mem[] send = new Mem[p];
                        for (int r = 0; r < p; r++) {
                            send[r] = new Mem(input(r, n, s), n);
                        }
                        final long[] init = new long[p * n];
                        if (inPlace) {
                            System.arraycopy(input(root, n, s), 0, init, root * n, n);
                        }
                        final Mem recv = new Mem(init, p * n);
                        simulate(p, sync, Binomial::gather, r -> CollArgs.of("gather",
                            r == root && inPlace ? null : send[r].seg(), r == root ? recv.seg() : null,
                            Datatype.LONG, n, root, null));
                        final String what = "gather n=" + n + " root=" + root + " inPlace=" + inPlace;
                        recv.check(concat(p, n, s), what);
                        for (int r = 0; r < p; r++) {
                            send[r].check(input(r, n, s), what + " send of rank " + r);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldScatter(final int p) {
        int salt = 0;
        for (final boolean sync : MODES) {
            for (final int n : counts(p)) {
                for (final int root : roots(p)) {
                    for (final boolean inPlace : IN_PLACE) {
                        final int s = ++salt;
                        final Mem send = new Mem(input(root, p * n, s), p * n);
                        final Mem[] recv = new Mem[p];
                        for (int r = 0; r < p; r++) {
                            recv[r] = new Mem(new long[0], n);
                        }
                        simulate(p, sync, Binomial::scatter, r -> CollArgs.of("scatter",
                            r == root ? send.seg() : null, r == root && inPlace ? null : recv[r].seg(),
                            Datatype.LONG, n, root, null));
                        final String what = "scatter n=" + n + " root=" + root + " inPlace=" + inPlace;
                        send.check(input(root, p * n, s), what + " send");
                        for (int r = 0; r < p; r++) {
                            final long[] want = r == root && inPlace ? Arrays.copyOf(new Mem(new long[0], n).body(), n)
                                : Arrays.copyOfRange(input(root, p * n, s), r * n, (r + 1) * n);
                            recv[r].check(want, what + " rank " + r);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldReduceInRankOrder(final int p) {
        int salt = 0;
        for (final boolean sync : MODES) {
            for (final int n : vectors()) {
                for (final int root : roots(p)) {
                    for (final boolean inPlace : IN_PLACE) {
                        for (final Op op : new Op[] {MATMUL, Op.SUM}) {
                            final BinaryOperator<long[]> seq = op == MATMUL ? MATMUL_SEQ : SUM_SEQ;
                            final int s = ++salt;
                            final Mem[] send = new Mem[p];
                            for (int r = 0; r < p; r++) {
                                send[r] = new Mem(input(r, n, s), n);
                            }
                            final Mem recv = new Mem(inPlace ? input(root, n, s) : new long[0], n);
                            simulate(p, sync, Binomial::reduce, r -> CollArgs.of("reduce",
                                r == root && inPlace ? null : send[r].seg(), r == root ? recv.seg() : null,
                                Datatype.LONG, n, root, op));
                            final String what = "reduce op=" + op.name() + " n=" + n + " root=" + root
                                + " inPlace=" + inPlace;
                            recv.check(prefix(p, n, s, seq), what);
                            for (int r = 0; r < p; r++) {
                                send[r].check(input(r, n, s), what + " send of rank " + r);
                            }
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldAllreduceInRankOrder(final int p) {
        reduceAll(p, "allreduce", RecursiveDoubling::allreduce);
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldScanInRankOrder(final int p) {
        reduceAll(p, "scan", RecursiveDoubling::scan);
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldExscanInRankOrder(final int p) {
        reduceAll(p, "exscan", RecursiveDoubling::exscan);
    }

    private static void reduceAll(final int p, final String kind, final Algorithm algo) {
        int salt = 0;
        for (final boolean sync : MODES) {
            for (final int n : vectors()) {
                for (final boolean inPlace : IN_PLACE) {
                    final int s = ++salt;
                    final Mem[] send = new Mem[p];
                    final Mem[] recv = new Mem[p];
                    for (int r = 0; r < p; r++) {
                        send[r] = new Mem(input(r, n, s), n);
                        recv[r] = new Mem(inPlace ? input(r, n, s) : new long[0], n);
                    }
                    simulate(p, sync, algo, r -> CollArgs.of(kind, inPlace ? null : send[r].seg(), recv[r].seg(),
                        Datatype.LONG, n, -1, MATMUL));
                    for (int r = 0; r < p; r++) {
                        final String what = kind + " n=" + n + " inPlace=" + inPlace + " rank=" + r;
                        final long[] want = switch (kind) {
                            case "allreduce" -> prefix(p, n, s, MATMUL_SEQ);
                            case "scan" -> prefix(r + 1, n, s, MATMUL_SEQ);
                            default -> 0 == r ? (inPlace ? input(r, n, s) : new long[n]) : prefix(r, n, s,
                                MATMUL_SEQ);
                        };
                        if (0 == r && "exscan".equals(kind) && !inPlace) {
                            assertTrue(Arrays.stream(recv[r].body()).allMatch(v -> v == PAD), what + " touched");
                            continue;
                        }
                        recv[r].check(want, what);
                        send[r].check(input(r, n, s), what + " send");
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "p={0}")
    @MethodSource("sizes")
    void shouldAllgather(final int p) {
        int salt = 0;
        for (final boolean sync : MODES) {
            for (final int n : counts(p)) {
                for (final boolean inPlace : IN_PLACE) {
                    final int s = ++salt;
                    final Mem[] send = new Mem[p];
                    final Mem[] recv = new Mem[p];
                    for (int r = 0; r < p; r++) {
                        send[r] = new Mem(input(r, n, s), n);
                        final long[] init = new long[p * n];
                        if (inPlace) {
                            System.arraycopy(input(r, n, s), 0, init, r * n, n);
                        }
                        recv[r] = new Mem(init, p * n);
                    }
                    simulate(p, sync, RecursiveDoubling::allgather, r -> CollArgs.of("allgather",
                        inPlace ? null : send[r].seg(), recv[r].seg(), Datatype.LONG, n, -1, null));
                    for (int r = 0; r < p; r++) {
                        final String what = "allgather n=" + n + " inPlace=" + inPlace + " rank=" + r;
                        recv[r].check(concat(p, n, s), what);
                        send[r].check(input(r, n, s), what + " send");
                    }
                }
            }
        }
    }
}
