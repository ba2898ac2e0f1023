package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
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
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Collectives called again and again on the same few buffers, so that their schedules come from the
 * communicator's cache: every regular collective x every algorithm, alternating two buffer regions of the same
 * arrays, two counts, roots, in place or not, blocking, nonblocking and tagged; the inputs change every call. Each
 * result is checked against the sequential definition, the send memory must stay unchanged and nothing outside the
 * call's receive range may be written, so a schedule reused for other memory, counts or roots, or stale scratch,
 * fails.
 */
@Timeout(120)
class ScheduleReuseTest {
    private static final Set<CollKind> REGULAR = EnumSet.of(CollKind.BARRIER, CollKind.BCAST, CollKind.GATHER,
        CollKind.SCATTER, CollKind.ALLGATHER, CollKind.ALLTOALL, CollKind.REDUCE, CollKind.ALLREDUCE,
        CollKind.REDUCE_SCATTER_BLOCK, CollKind.SCAN, CollKind.EXSCAN);
    private static final int[] COUNTS = {2, 5};
    private static final int OFF = 3;
    private static final int POISON = -7;
    private static final int TAG = 7;
    private static final int ITERS = 48;

    static Stream<Arguments> algorithms() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : AlgorithmId.values()) {
            if (REGULAR.contains(id.kind())) {
                for (final int p : new int[] {2, 3, 5}) {
                    out.add(Arguments.of(id, p));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("algorithms")
    void shouldMatchTheDefinitionWhenCallsRepeatOnTheSameBuffers(final AlgorithmId id, final int p) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(60))
            .algorithm(id.kind().mpiName(), id.shortName());
        Tutti.runLocal(p, opts, w -> {
            final Rank r = new Rank(w, id.kind());
            for (int i = 0; i < ITERS; i++) {
                r.call(i);
            }
        });
    }

    @Test
    void shouldRunTwoOutstandingCallsWithTheSameKey() {
        // Non-root ranks of a reduce pass only their send buffer: two outstanding reduces with the same buffer have
        // the same key there, so the second must not share the first's schedule (its scratch) while it runs.
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(60))
            .algorithm("reduce", "binomial");
        Tutti.runLocal(5, opts, w -> {
            final int n = 3;
            final int[] send = new int[n];
            final int[] out1 = new int[n];
            final int[] out2 = new int[n];
            for (int i = 0; i < 20; i++) {
                for (int j = 0; j < n; j++) {
                    send[j] = value(w.rank(), i, j);
                }
                final boolean root = 0 == w.rank();
                final Request a = w.ireduce(Buf.of(send), root ? Buf.of(out1) : null, Op.SUM, 0);
                final Request b = w.ireduce(Buf.of(send), root ? Buf.of(out2) : null, Op.SUM, 0);
                b.waitFor();
                a.waitFor();
                if (root) {
                    for (int j = 0; j < n; j++) {
                        assertEquals(sum(w.size(), i, j), out1[j], "first reduce, i=" + i + " j=" + j);
                        assertEquals(sum(w.size(), i, j), out2[j], "second reduce, i=" + i + " j=" + j);
                    }
                }
            }
        });
    }

    static int value(final int rank, final int iter, final int k) {
        return (rank + 1) * 1_000_000 + iter * 1_000 + k;
    }

    static int sum(final int upTo, final int iter, final int k) {
        int s = 0;
        for (int q = 0; q < upTo; q++) {
            s += value(q, iter, k);
        }
        return s;
    }

    /** One rank's calls: two regions of one send and one receive array. */
    static final class Rank {
        final Communicator w;
        final CollKind kind;
        final int p;
        final int me;
        final int region;
        final int[] send;
        final int[] recv;

        Rank(final Communicator w, final CollKind kind) {
            this.w = w;
            this.kind = kind;
            this.p = w.size();
            this.me = w.rank();
            this.region = p * COUNTS[COUNTS.length - 1] + 4;
            this.send = new int[OFF + 2 * region];
            this.recv = new int[OFF + 2 * region];
        }

        void call(final int i) {
            final int at = OFF + (i % 2) * region;
            final int n = COUNTS[(i / 2) % 2];
            final boolean inPlace = 1 == (i / 12) % 2;
            final int root = (i / 24) % p;
            final int mode = i % 3;
            final String what = kind + " i=" + i + " at=" + at + " n=" + n + " inPlace=" + inPlace + " root="
                + root + " mode=" + mode + " rank=" + me;
            Arrays.fill(send, POISON);
            Arrays.fill(recv, POISON);
            final boolean isRoot = me == root;
            int[] expect = null; // the expected receive range [at, at + expect.length), null if none
            int touched = 0; // elements at recv[at..] that may change
            switch (kind) {
                case BARRIER -> run(mode, w::barrier, w::ibarrier, () -> w.barrierBegin(TAG));
                case BCAST -> {
                    if (isRoot) {
                        fill(recv, at, n, me, i, 0);
                    }
                    final Buf b = Buf.of(recv, at, n);
                    run(mode, () -> w.bcast(b, root), () -> w.ibcast(b, root), () -> w.bcastBegin(b, root, TAG));
                    expect = values(root, i, 0, n);
                    touched = n;
                }
                case GATHER -> {
                    final boolean ip = inPlace && isRoot;
                    if (ip) {
                        fill(recv, at + me * n, n, me, i, 0);
                    } else {
                        fill(send, at, n, me, i, 0);
                    }
                    final Buf s = ip ? Buf.IN_PLACE : Buf.of(send, at, n);
                    final Buf r = isRoot ? Buf.of(recv, at, p * n) : null;
                    run(mode, () -> w.gather(s, r, root), () -> w.igather(s, r, root),
                        () -> w.gatherBegin(s, r, root, TAG));
                    if (isRoot) {
                        expect = new int[p * n];
                        for (int q = 0; q < p; q++) {
                            System.arraycopy(values(q, i, 0, n), 0, expect, q * n, n);
                        }
                        touched = p * n;
                    }
                }
                case SCATTER -> {
                    final boolean ip = inPlace && isRoot;
                    if (isRoot) {
                        fill(send, at, p * n, me, i, 0);
                    }
                    final Buf s = isRoot ? Buf.of(send, at, p * n) : null;
                    final Buf r = ip ? Buf.IN_PLACE : Buf.of(recv, at, n);
                    run(mode, () -> w.scatter(s, r, root), () -> w.iscatter(s, r, root),
                        () -> w.scatterBegin(s, r, root, TAG));
                    if (!ip) {
                        expect = values(root, i, me * n, n);
                        touched = n;
                    }
                }
                case ALLGATHER -> {
                    if (inPlace) {
                        fill(recv, at + me * n, n, me, i, 0);
                    } else {
                        fill(send, at, n, me, i, 0);
                    }
                    final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, at, n);
                    final Buf r = Buf.of(recv, at, p * n);
                    run(mode, () -> w.allgather(s, r), () -> w.iallgather(s, r), () -> w.allgatherBegin(s, r, TAG));
                    expect = new int[p * n];
                    for (int q = 0; q < p; q++) {
                        System.arraycopy(values(q, i, 0, n), 0, expect, q * n, n);
                    }
                    touched = p * n;
                }
                case ALLTOALL -> {
                    fill(inPlace ? recv : send, at, p * n, me, i, 0);
                    final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, at, p * n);
                    final Buf r = Buf.of(recv, at, p * n);
                    run(mode, () -> w.alltoall(s, r), () -> w.ialltoall(s, r), () -> w.alltoallBegin(s, r, TAG));
                    expect = new int[p * n];
                    for (int q = 0; q < p; q++) {
                        System.arraycopy(values(q, i, me * n, n), 0, expect, q * n, n);
                    }
                    touched = p * n;
                }
                case REDUCE -> {
                    final boolean ip = inPlace && isRoot;
                    fill(ip ? recv : send, at, n, me, i, 0);
                    final Buf s = ip ? Buf.IN_PLACE : Buf.of(send, at, n);
                    final Buf r = isRoot ? Buf.of(recv, at, n) : null;
                    run(mode, () -> w.reduce(s, r, Op.SUM, root), () -> w.ireduce(s, r, Op.SUM, root),
                        () -> w.reduceBegin(s, r, Op.SUM, root, TAG));
                    if (isRoot) {
                        expect = sums(p, i, 0, n);
                        touched = n;
                    }
                }
                case ALLREDUCE -> {
                    fill(inPlace ? recv : send, at, n, me, i, 0);
                    final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, at, n);
                    final Buf r = Buf.of(recv, at, n);
                    run(mode, () -> w.allreduce(s, r, Op.SUM), () -> w.iallreduce(s, r, Op.SUM),
                        () -> w.allreduceBegin(s, r, Op.SUM, TAG));
                    expect = sums(p, i, 0, n);
                    touched = n;
                }
                case REDUCE_SCATTER_BLOCK -> {
                    fill(inPlace ? recv : send, at, p * n, me, i, 0);
                    final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, at, p * n);
                    final Buf r = Buf.of(recv, at, inPlace ? p * n : n);
                    run(mode, () -> w.reduceScatterBlock(s, r, Op.SUM), () -> w.ireduceScatterBlock(s, r, Op.SUM),
                        () -> w.reduceScatterBlockBegin(s, r, Op.SUM, TAG));
                    expect = sums(p, i, me * n, n);
                    touched = inPlace ? p * n : n;
                }
                case SCAN, EXSCAN -> {
                    fill(inPlace ? recv : send, at, n, me, i, 0);
                    final Buf s = inPlace ? Buf.IN_PLACE : Buf.of(send, at, n);
                    final Buf r = Buf.of(recv, at, n);
                    if (CollKind.SCAN == kind) {
                        run(mode, () -> w.scan(s, r, Op.SUM), () -> w.iscan(s, r, Op.SUM),
                            () -> w.scanBegin(s, r, Op.SUM, TAG));
                        expect = sums(me + 1, i, 0, n);
                    } else {
                        run(mode, () -> w.exscan(s, r, Op.SUM), () -> w.iexscan(s, r, Op.SUM),
                            () -> w.exscanBegin(s, r, Op.SUM, TAG));
                        expect = 0 == me ? null : sums(me, i, 0, n); // rank 0: undefined (MPI)
                    }
                    touched = n;
                }
                default -> throw new IllegalStateException(kind.toString());
            }
            if (null != expect) {
                assertArrayEquals(expect, Arrays.copyOfRange(recv, at, at + expect.length), what);
            }
            for (int k = 0; k < recv.length; k++) {
                if (k < at || k >= at + touched) {
                    assertEquals(POISON, recv[k], what + ": recv[" + k + "] written outside the call's range");
                }
            }
            checkSendUnchanged(i, at, n, inPlace, isRoot, what);
        }

        private void checkSendUnchanged(final int i, final int at, final int n, final boolean inPlace,
            final boolean isRoot, final String what) {
            final int[] expect = new int[send.length];
            Arrays.fill(expect, POISON);
            final int len = switch (kind) {
                case BARRIER, BCAST -> 0;
                case GATHER -> inPlace && isRoot ? 0 : n;
                case SCATTER -> isRoot ? p * n : 0;
                case ALLGATHER, REDUCE, ALLREDUCE, SCAN, EXSCAN -> inPlace && (CollKind.REDUCE != kind || isRoot)
                    ? 0 : n;
                case ALLTOALL, REDUCE_SCATTER_BLOCK -> inPlace ? 0 : p * n;
                default -> throw new IllegalStateException(kind.toString());
            };
            for (int k = 0; k < len; k++) {
                expect[at + k] = value(me, i, k);
            }
            assertArrayEquals(expect, send, what + ": send memory changed");
        }

        private static void fill(final int[] a, final int at, final int len, final int rank, final int iter,
            final int first) {
            for (int k = 0; k < len; k++) {
                a[at + k] = value(rank, iter, first + k);
            }
        }

        private static int[] values(final int rank, final int iter, final int first, final int len) {
            final int[] v = new int[len];
            for (int k = 0; k < len; k++) {
                v[k] = value(rank, iter, first + k);
            }
            return v;
        }

        private static int[] sums(final int upTo, final int iter, final int first, final int len) {
            final int[] v = new int[len];
            for (int k = 0; k < len; k++) {
                v[k] = sum(upTo, iter, first + k);
            }
            return v;
        }

        private static void run(final int mode, final Runnable blocking, final Supplier<Request> nonblocking,
            final Supplier<? extends Request> tagged) {
            switch (mode) {
                case 0 -> blocking.run();
                case 1 -> nonblocking.get().waitFor();
                default -> tagged.get().waitFor();
            }
        }
    }
}
