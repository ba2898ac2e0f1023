package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ReferenceCollectives;
import dev.tutti.testkit.TypedData;

import dev.tutti.testkit.TypedData.Values;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import dev.tutti.type.LocalReduction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static dev.tutti.testkit.TypedData.canonical;
import static dev.tutti.testkit.TypedData.filled;
import static dev.tutti.testkit.TypedData.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collective matrix: every collective x every algorithm x group sizes 1-9, 16, 17 x counts {0, 1, odd,
 * larger} x roots x every primitive type, in place and not, with non-zero offsets on every buffer and buffers of
 * exactly the minimum size on non-root ranks, checked against {@link ReferenceCollectives}.
 */
@Timeout(120)
class CollBufferTest {
    static final int OFF = 3;
    static final int[] COUNTS = {0, 1, 7, 1031};
    static final int[] SIZES = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17};

    static Stream<Arguments> matrix() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : AlgorithmId.values()) {
            for (final int p : SIZES) {
                out.add(Arguments.of(id, p));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("matrix")
    void shouldMatchReference(final AlgorithmId id, final int p) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(100))
            .algorithm(id.kind().mpiName(), id.shortName());
        final AtomicInteger entered = new AtomicInteger();
        Tutti.runLocal(p, opts, world -> new Case(world, id.kind(), entered).runAll());
    }

    static long seed(final int rank, final int salt) {
        return rank * 1_000_003L + salt;
    }

    static Op opFor(final Datatype t) {
        return Datatype.BOOLEAN == t ? Op.LOR : Op.SUM;
    }

    static boolean reducible(final Datatype t) {
        try {
            LocalReduction.check("test", opFor(t), t);
            return true;
        } catch (final TuttiException e) {
            return false;
        }
    }

    /** Per-peer count of the irregular collectives: varies with both ranks, 0 when n is 0. */
    static int cnt(final int n, final int a, final int b) {
        return 0 == n ? 0 : (n + a + 2 * b) % (n + 3);
    }

    /** One rank's view of the matrix for one collective. */
    static final class Case {
        final Communicator w;
        final CollKind kind;
        final int p;
        final int me;
        final AtomicInteger entered;

        Case(final Communicator w, final CollKind kind, final AtomicInteger entered) {
            this.w = w;
            this.kind = kind;
            this.p = w.size();
            this.me = w.rank();
            this.entered = entered;
        }

        void runAll() {
            int salt = 0;
            for (final int n : COUNTS) {
                for (final Datatype t : TypedData.PRIMITIVES) {
                    for (final boolean inPlace : new boolean[] {false, true}) {
                        for (final int root : roots()) {
                            run(t, n, root, inPlace, ++salt);
                        }
                    }
                }
            }
        }

        int[] roots() {
            if (p <= 9) {
                final int[] r = new int[p];
                Arrays.setAll(r, i -> i);
                return r;
            }
            return new int[] {0, p / 2, p - 1};
        }

        byte[] in(final int rank, final Datatype t, final int n, final int salt) {
            return canonical(t, n, seed(rank, salt), Values.SMALL);
        }

        byte[][] all(final Datatype t, final int n, final int salt) {
            final byte[][] x = new byte[p][];
            for (int i = 0; i < p; i++) {
                x[i] = in(i, t, n, salt);
            }
            return x;
        }

        Object mine(final Datatype t, final int n, final int salt) {
            return filled(t, OFF, n, 0, seed(me, salt), Values.SMALL);
        }

        void run(final Datatype t, final int n, final int root, final boolean inPlace, final int salt) {
            final String what = kind.mpiName() + " type=" + t + " n=" + n + " root=" + root + " inPlace=" + inPlace
                + " rank=" + me;
            switch (kind) {
                case BARRIER -> {
                    if (root == 0 && !inPlace && t == Datatype.BYTE) {
                        // Every rank bumps the counter once per barrier: after barrier k it is >= p * (k + 1).
                        final int k = (entered.incrementAndGet() - 1) / p;
                        w.barrier();
                        assertTrue(entered.get() >= p * (k + 1), what + " left before every rank entered");
                        w.barrier();
                    }
                }
                case BCAST -> {
                    if (inPlace) {
                        return;
                    }
                    final Object a = me == root ? mine(t, n, salt) : TypedData.array(t, OFF + n);
                    w.bcast(TypedData.buf(a, OFF, n), root);
                    assertArrayEquals(in(root, t, n, salt), read(a, t, OFF, n), what);
                }
                case GATHER -> gather(t, n, root, inPlace, salt, what);
                case GATHERV -> gatherv(t, n, root, inPlace, salt, what);
                case SCATTER -> scatter(t, n, root, inPlace, salt, what);
                case SCATTERV -> scatterv(t, n, root, inPlace, salt, what);
                case ALLGATHER -> allgather(t, n, root, inPlace, salt, what);
                case ALLGATHERV -> allgatherv(t, n, root, inPlace, salt, what);
                case ALLTOALL -> alltoall(t, n, root, inPlace, salt, what);
                case ALLTOALLV -> alltoallv(t, n, root, inPlace, salt, what);
                case ALLTOALLW -> alltoallw(t, n, root, inPlace, salt, what);
                case REDUCE, ALLREDUCE, SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER -> {
                    if (reducible(t)) {
                        reduction(t, n, root, inPlace, salt, what);
                    }
                }
            }
        }

        void gather(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            final Object recv = me == root ? TypedData.array(t, OFF + p * n + 2) : null;
            final boolean ip = inPlace && me == root;
            if (ip) {
                TypedData.write(recv, t, OFF + me * n, in(me, t, n, salt));
            }
            w.gather(ip ? Buf.IN_PLACE : TypedData.buf(mine(t, n, salt), OFF, n),
                me == root ? TypedData.buf(recv, OFF, p * n + (ip ? 0 : 2)) : null, root);
            if (me == root) {
                assertArrayEquals(ReferenceCollectives.concat(all(t, n, salt)), read(recv, t, OFF, p * n), what);
                assertArrayEquals(new byte[2 * t.sizeBytes()], read(recv, t, OFF + p * n, 2), what + " tail");
            }
        }

        int[] counts(final int n) {
            final int[] c = new int[p];
            Arrays.setAll(c, i -> cnt(n, i, 0));
            return c;
        }

        static int[] displs(final int[] counts, final int gap) {
            final int[] d = new int[counts.length];
            int at = 0;
            for (int i = 0; i < counts.length; i++) {
                d[i] = at;
                at += counts[i] + gap;
            }
            return d;
        }

        static int end(final int[] counts, final int[] displs) {
            int e = 0;
            for (int i = 0; i < counts.length; i++) {
                e = Math.max(e, displs[i] + counts[i]);
            }
            return e;
        }

        void gatherv(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            final int[] c = counts(n);
            final int[] d = displs(c, 1);
            final int total = end(c, d);
            final Object recv = me == root ? TypedData.array(t, OFF + total) : null;
            final boolean ip = inPlace && me == root;
            if (ip) {
                TypedData.write(recv, t, OFF + d[me], in(me, t, c[me], salt));
            }
            w.gatherv(ip ? Buf.IN_PLACE : TypedData.buf(mine(t, c[me], salt), OFF, c[me]),
                me == root ? TypedData.buf(recv, OFF, total) : null, c, d, root);
            if (me == root) {
                for (int i = 0; i < p; i++) {
                    assertArrayEquals(in(i, t, c[i], salt), read(recv, t, OFF + d[i], c[i]), what + " from " + i);
                }
            }
        }

        void scatter(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            final boolean ip = inPlace && me == root;
            final Object send = me == root ? filled(t, OFF, p * n, 0, seed(root, salt), Values.SMALL) : null;
            final Object recv = TypedData.array(t, OFF + n);
            w.scatter(me == root ? TypedData.buf(send, OFF, p * n) : null,
                ip ? Buf.IN_PLACE : TypedData.buf(recv, OFF, n), root);
            if (!ip) {
                final byte[] whole = canonical(t, p * n, seed(root, salt), Values.SMALL);
                assertArrayEquals(ReferenceCollectives.slice(whole, me * n, n, t), read(recv, t, OFF, n), what);
            }
        }

        void scatterv(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            final int[] c = counts(n);
            final int[] d = displs(c, 2);
            final int total = end(c, d);
            final boolean ip = inPlace && me == root;
            final Object send = me == root ? filled(t, OFF, total, 0, seed(root, salt), Values.SMALL) : null;
            final Object recv = TypedData.array(t, OFF + c[me]);
            w.scatterv(me == root ? TypedData.buf(send, OFF, total) : null, c, d,
                ip ? Buf.IN_PLACE : TypedData.buf(recv, OFF, c[me]), root);
            if (!ip) {
                final byte[] whole = canonical(t, total, seed(root, salt), Values.SMALL);
                assertArrayEquals(ReferenceCollectives.slice(whole, d[me], c[me], t), read(recv, t, OFF, c[me]),
                    what);
            }
        }

        void allgather(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            if (root != 0) {
                return;
            }
            final Object recv = TypedData.array(t, OFF + p * n);
            if (inPlace) {
                TypedData.write(recv, t, OFF + me * n, in(me, t, n, salt));
            }
            w.allgather(inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, n, salt), OFF, n),
                TypedData.buf(recv, OFF, p * n));
            assertArrayEquals(ReferenceCollectives.concat(all(t, n, salt)), read(recv, t, OFF, p * n), what);
        }

        void allgatherv(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            if (root != 0) {
                return;
            }
            final int[] c = counts(n);
            final int[] d = displs(c, 1);
            final int total = end(c, d);
            final Object recv = TypedData.array(t, OFF + total);
            if (inPlace) {
                TypedData.write(recv, t, OFF + d[me], in(me, t, c[me], salt));
            }
            w.allgatherv(inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, c[me], salt), OFF, c[me]),
                TypedData.buf(recv, OFF, total), c, d);
            for (int i = 0; i < p; i++) {
                assertArrayEquals(in(i, t, c[i], salt), read(recv, t, OFF + d[i], c[i]), what + " from " + i);
            }
        }

        void alltoall(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            if (root != 0) {
                return;
            }
            final Object recv = TypedData.array(t, OFF + p * n);
            if (inPlace) {
                TypedData.write(recv, t, OFF, in(me, t, p * n, salt));
            }
            w.alltoall(inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, p * n, salt), OFF, p * n),
                TypedData.buf(recv, OFF, p * n));
            for (int j = 0; j < p; j++) {
                assertArrayEquals(ReferenceCollectives.slice(in(j, t, p * n, salt), me * n, n, t),
                    read(recv, t, OFF + j * n, n), what + " from " + j);
            }
        }

        void alltoallv(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            if (root != 0) {
                return;
            }
            final int[] rc = new int[p];
            Arrays.setAll(rc, j -> inPlace ? cnt(n, me + j, 0) : cnt(n, j, me));
            final int[] rd = displs(rc, 1);
            final Object recv = TypedData.array(t, OFF + end(rc, rd));
            if (inPlace) {
                // In place, the send layout is the receive layout: counts must be symmetric (cnt(me + j)).
                TypedData.write(recv, t, OFF, in(me, t, end(rc, rd), salt));
                w.alltoallv(Buf.IN_PLACE, null, null, TypedData.buf(recv, OFF, end(rc, rd)), rc, rd);
                for (int j = 0; j < p; j++) {
                    final int[] jc = new int[p];
                    final int jj = j;
                    Arrays.setAll(jc, k -> cnt(n, jj + k, 0));
                    final int[] jd = displs(jc, 1);
                    assertArrayEquals(ReferenceCollectives.slice(in(j, t, end(jc, jd), salt), jd[me], jc[me], t),
                        read(recv, t, OFF + rd[j], rc[j]), what + " from " + j);
                }
                return;
            }
            final int[] sc = new int[p];
            Arrays.setAll(sc, j -> cnt(n, me, j));
            final int[] sd = displs(sc, 2);
            final int sendTotal = end(sc, sd);
            w.alltoallv(TypedData.buf(mine(t, sendTotal, salt), OFF, sendTotal), sc, sd,
                TypedData.buf(recv, OFF, end(rc, rd)), rc, rd);
            for (int j = 0; j < p; j++) {
                final int[] jc = new int[p];
                final int jj = j;
                Arrays.setAll(jc, k -> cnt(n, jj, k));
                final int[] jd = displs(jc, 2);
                assertArrayEquals(ReferenceCollectives.slice(in(j, t, end(jc, jd), salt), jd[me], jc[me], t),
                    read(recv, t, OFF + rd[j], rc[j]), what + " from " + j);
            }
        }

        void alltoallw(final Datatype base, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            if (root != 0 || inPlace) {
                return;
            }
            final Buf[] send = new Buf[p];
            final Buf[] recv = new Buf[p];
            final Object[] recvArrays = new Object[p];
            for (int j = 0; j < p; j++) {
                final Datatype st = typeOf(base, me, j);
                send[j] = TypedData.buf(filled(st, OFF, cnt(n, me, j), 0, seed(me, salt + j), Values.SMALL), OFF,
                    cnt(n, me, j));
                final Datatype rt = typeOf(base, j, me);
                recvArrays[j] = TypedData.array(rt, OFF + cnt(n, j, me));
                recv[j] = TypedData.buf(recvArrays[j], OFF, cnt(n, j, me));
            }
            w.alltoallw(send, recv);
            for (int j = 0; j < p; j++) {
                final Datatype rt = typeOf(base, j, me);
                assertArrayEquals(canonical(rt, cnt(n, j, me), seed(j, salt + me), Values.SMALL),
                    read(recvArrays[j], rt, OFF, cnt(n, j, me)), what + " from " + j);
            }
        }

        static Datatype typeOf(final Datatype base, final int from, final int to) {
            return TypedData.PRIMITIVES[(base.ordinal() + from + 2 * to) % TypedData.PRIMITIVES.length];
        }

        void reduction(final Datatype t, final int n, final int root, final boolean inPlace, final int salt,
            final String what) {
            final Op op = opFor(t);
            final boolean rooted = CollKind.REDUCE == kind;
            if (!rooted && root != 0) {
                return;
            }
            switch (kind) {
                case REDUCE -> {
                    final boolean ip = inPlace && me == root;
                    final Object recv = me == root ? TypedData.array(t, OFF + n) : null;
                    if (ip) {
                        TypedData.write(recv, t, OFF, in(me, t, n, salt));
                    }
                    w.reduce(ip ? Buf.IN_PLACE : TypedData.buf(mine(t, n, salt), OFF, n),
                        me == root ? TypedData.buf(recv, OFF, n) : null, op, root);
                    if (me == root) {
                        assertArrayEquals(ReferenceCollectives.reduce(all(t, n, salt), op, t, n),
                            read(recv, t, OFF, n), what);
                    }
                }
                case ALLREDUCE, SCAN, EXSCAN -> {
                    final Object recv = TypedData.array(t, OFF + n);
                    if (inPlace) {
                        TypedData.write(recv, t, OFF, in(me, t, n, salt));
                    }
                    final Buf s = inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, n, salt), OFF, n);
                    final Buf r = TypedData.buf(recv, OFF, n);
                    final byte[] expected;
                    if (CollKind.ALLREDUCE == kind) {
                        w.allreduce(s, r, op);
                        expected = ReferenceCollectives.reduce(all(t, n, salt), op, t, n);
                    } else if (CollKind.SCAN == kind) {
                        w.scan(s, r, op);
                        expected = ReferenceCollectives.prefix(all(t, n, salt), op, t, n, me + 1);
                    } else {
                        w.exscan(s, r, op);
                        expected = 0 == me ? (inPlace ? in(me, t, n, salt) : new byte[n * t.sizeBytes()])
                            : ReferenceCollectives.prefix(all(t, n, salt), op, t, n, me);
                    }
                    assertArrayEquals(expected, read(recv, t, OFF, n), what);
                }
                case REDUCE_SCATTER_BLOCK -> {
                    final Object recv = TypedData.array(t, OFF + (inPlace ? p * n : n));
                    if (inPlace) {
                        TypedData.write(recv, t, OFF, in(me, t, p * n, salt));
                    }
                    w.reduceScatterBlock(inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, p * n, salt), OFF, p * n),
                        TypedData.buf(recv, OFF, inPlace ? p * n : n), op);
                    final byte[] full = ReferenceCollectives.reduce(all(t, p * n, salt), op, t, p * n);
                    assertArrayEquals(ReferenceCollectives.slice(full, me * n, n, t), read(recv, t, OFF, n), what);
                }
                case REDUCE_SCATTER -> {
                    final int[] c = counts(n);
                    final int total = Arrays.stream(c).sum();
                    final int[] d = displs(c, 0);
                    final Object recv = TypedData.array(t, OFF + (inPlace ? total : c[me]));
                    if (inPlace) {
                        TypedData.write(recv, t, OFF, in(me, t, total, salt));
                    }
                    w.reduceScatter(inPlace ? Buf.IN_PLACE : TypedData.buf(mine(t, total, salt), OFF, total),
                        TypedData.buf(recv, OFF, inPlace ? total : c[me]), c, op);
                    final byte[] full = ReferenceCollectives.reduce(all(t, total, salt), op, t, total);
                    assertArrayEquals(ReferenceCollectives.slice(full, d[me], c[me], t), read(recv, t, OFF, c[me]),
                        what);
                }
                default -> throw new IllegalStateException(kind.name());
            }
        }
    }
}
