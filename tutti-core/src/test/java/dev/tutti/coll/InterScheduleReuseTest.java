package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Comm;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;

import static dev.tutti.coll.CollIntercommTest.vals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Intercommunicator collectives called again and again on the same arrays, so that their schedules come from the
 * communicator's schedule cache (a key is cached at its second miss): the regular collectives, symmetric and
 * one-way, blocking, nonblocking and tagged in turn, with inputs that change every call. A reused schedule that
 * kept stale scratch, or that served a call with other roots, counts or memory, gives a wrong result here.
 */
@Timeout(60)
class InterScheduleReuseTest {
    private static final int ITERS = 12;
    private static final int N = 3;

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1, 2", "3, 4", "2, 2"})
    void shouldGiveTheDefinitionWhenCallsRepeatOnTheSameArrays(final int a, final int b) {
        Tutti.runLocal(a + b, CollIntercommTest.OPTS, w -> {
            final CollIntercommTest.Ctx x = new CollIntercommTest.Ctx(w, a);
            final int[] out = new int[N];
            final int[] blocks = new int[x.lb * N];
            final int[] in = new int[N];
            final int[] all = new int[x.lb * N];
            final int[] reduced = new int[N];
            final int[] block = new int[N];
            for (int it = 0; it < ITERS; it++) {
                final int salt = 10 * it;
                final int variant = it % 3;
                final String what = "iteration " + it + " g=" + x.g + " rank=" + x.me;
                final int root = it % x.la;
                final int remoteRoot = it % x.lb;
                // symmetric bcast: this group's root sends out, the remote root's data arrives in
                fill(out, vals(x.g, x.me, N, salt));
                run(variant, x.c.ibcast(Buf.of(out), Buf.of(in), root, remoteRoot),
                    () -> x.c.bcastBegin(Buf.of(out), Buf.of(in), root, remoteRoot, 1),
                    () -> x.c.bcast(Buf.of(out), Buf.of(in), root, remoteRoot));
                assertArrayEquals(vals(1 - x.g, remoteRoot, N, salt), in, "bcast " + what);
                // symmetric scatter and gather
                fill(blocks, vals(x.g, x.me, x.lb * N, salt + 1));
                run(variant, x.c.iscatter(Buf.of(blocks), Buf.of(block), root, remoteRoot),
                    () -> x.c.scatterBegin(Buf.of(blocks), Buf.of(block), root, remoteRoot, 2),
                    () -> x.c.scatter(Buf.of(blocks), Buf.of(block), root, remoteRoot));
                assertArrayEquals(Arrays.copyOfRange(vals(1 - x.g, remoteRoot, x.la * N, salt + 1), x.me * N,
                    (x.me + 1) * N), block, "scatter " + what);
                fill(out, vals(x.g, x.me, N, salt + 2));
                run(variant, x.c.igather(Buf.of(out), Buf.of(all), root, remoteRoot),
                    () -> x.c.gatherBegin(Buf.of(out), Buf.of(all), root, remoteRoot, 3),
                    () -> x.c.gather(Buf.of(out), Buf.of(all), root, remoteRoot));
                if (x.me == root) {
                    assertArrayEquals(x.remoteAll(N, salt + 2), all, "gather " + what);
                }
                // two-way collectives
                fill(out, vals(x.g, x.me, N, salt + 3));
                run(variant, x.c.iallgather(Buf.of(out), Buf.of(all)),
                    () -> x.c.allgatherBegin(Buf.of(out), Buf.of(all), 4), () -> x.c.allgather(Buf.of(out),
                    Buf.of(all)));
                assertArrayEquals(x.remoteAll(N, salt + 3), all, "allgather " + what);
                fill(out, vals(x.g, x.me, N, salt + 4));
                run(variant, x.c.iallreduce(Buf.of(out), Buf.of(reduced), Op.SUM),
                    () -> x.c.allreduceBegin(Buf.of(out), Buf.of(reduced), Op.SUM, 5),
                    () -> x.c.allreduce(Buf.of(out), Buf.of(reduced), Op.SUM));
                assertArrayEquals(x.remoteSum(N, salt + 4), reduced, "allreduce " + what);
                fill(out, vals(x.g, x.me, N, salt + 5));
                run(variant, x.c.ireduce(Buf.of(out), Buf.of(reduced), Op.SUM, root, remoteRoot),
                    () -> x.c.reduceBegin(Buf.of(out), Buf.of(reduced), Op.SUM, root, remoteRoot, 6),
                    () -> x.c.reduce(Buf.of(out), Buf.of(reduced), Op.SUM, root, remoteRoot));
                if (x.me == root) {
                    assertArrayEquals(x.remoteSum(N, salt + 5), reduced, "reduce " + what);
                }
                // one-way bcast from group A's rank 0
                final int oneWayRoot = 0 == x.g ? (0 == x.me ? Intercommunicator.ROOT : Comm.PROC_NULL) : 0;
                fill(in, 0 == x.g && 0 == x.me ? vals(0, 0, N, salt + 6) : new int[N]);
                x.c.bcast(Buf.of(in), oneWayRoot);
                if (1 == x.g) {
                    assertArrayEquals(vals(0, 0, N, salt + 6), in, "one-way bcast " + what);
                }
                x.c.barrier();
            }
        });
    }

    private static void fill(final int[] dst, final int[] src) {
        System.arraycopy(src, 0, dst, 0, src.length);
    }

    /**
     * Runs the iteration's variant of one call: the nonblocking request (already started, so every variant keeps
     * the call order), or a tagged or blocking form started after it completes.
     */
    private static void run(final int variant, final Request nonblocking, final java.util.function.Supplier<
        CollectiveHandle> tagged, final Runnable blocking) {
        nonblocking.waitFor();
        if (1 == variant) {
            tagged.get().end();
        } else if (2 == variant) {
            blocking.run();
        }
    }
}
