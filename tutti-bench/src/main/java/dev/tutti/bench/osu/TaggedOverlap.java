package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Op;
import dev.tutti.Tutti;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * Benchmark of tagged two-phase collectives: k allreduces run one after another (blocking) against the same k
 * begun at once with distinct tags and then ended, on ranks as threads of this JVM. Prints, per (k, size), the
 * microseconds per batch of k and the ratio sequential / overlapped (above 1: overlapping wins).
 *
 * <pre>
 * tutti bench tagged-overlap [-n RANKS] [-i BATCHES] [--quick]
 * </pre>
 */
public final class TaggedOverlap {
    /** Its name as an operation of {@code tutti bench}. */
    public static final String NAME = "tagged-overlap";
    /** Timed batches per point unless told otherwise. */
    static final int BATCHES = 2000;

    private static final int[] KS = {1, 2, 4, 8};
    private static final int[] DOUBLES = {1, 8 * 1024, 128 * 1024};

    private TaggedOverlap() {
    }

    /**
     * Runs the benchmark standalone.
     *
     * @param args optional: ranks (default 2), timed batches per point (default {@value #BATCHES})
     */
    public static void main(final String[] args) {
        final PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        run(args.length > 0 ? Integer.parseInt(args[0]) : 2, args.length > 1 ? Integer.parseInt(args[1]) : BATCHES,
            out, Progress.none());
    }

    /**
     * Runs the benchmark and prints its table, one row as each point completes.
     *
     * @param ranks    the number of ranks
     * @param batches  timed batches per point (the work is scaled down for large messages and k)
     * @param out      where the table goes
     * @param progress the progress indicator, erased before each row
     */
    static void run(final int ranks, final int batches, final PrintWriter out, final Progress progress) {
        Tutti.runLocal(ranks, Tutti.Options.defaults().timeout(Duration.ofMinutes(10)), w -> {
            if (0 == w.rank()) {
                out.printf("# Tutti tagged overlap: k allreduces (SUM of doubles), ranks=%d, inproc%n", ranks);
                out.printf("# %-3s %10s %16s %16s %8s%n", "k", "bytes", "sequential(us)", "overlapped(us)",
                    "ratio");
                out.flush();
            }
            int point = 0;
            for (final int n : DOUBLES) {
                for (final int k : KS) {
                    if (0 == w.rank()) {
                        progress.size(NAME + " k=" + k, 8 * n, point, DOUBLES.length * KS.length);
                    }
                    point++;
                    final double[][] in = new double[k][n];
                    final double[][] result = new double[k][n];
                    final int work = Math.max(Math.min(20, batches), batches * 8 / Math.max(1, n / 1024 + k));
                    final double seq = time(w, k, in, result, work, false);
                    final double ovl = time(w, k, in, result, work, true);
                    if (0 == w.rank()) {
                        progress.clear();
                        out.printf(Locale.ROOT, "  %-3d %10d %16.2f %16.2f %8.2f%n", k, 8L * n, seq, ovl,
                            seq / ovl);
                        out.flush();
                    }
                }
            }
        });
    }

    /** Mean microseconds per batch of k allreduces (after a warm-up of as many batches), max over ranks. */
    private static double time(final dev.tutti.Communicator w, final int k, final double[][] in,
        final double[][] out, final int batches, final boolean overlapped) {
        final CollectiveHandle[] hs = new CollectiveHandle[k];
        long t0 = 0;
        for (int b = 0; b < 2 * batches; b++) {
            if (b == batches) {
                w.barrier();
                t0 = System.nanoTime();
            }
            if (overlapped) {
                for (int i = 0; i < k; i++) {
                    hs[i] = w.allreduceBegin(Buf.of(in[i]), Buf.of(out[i]), Op.SUM, i);
                }
                for (int i = 0; i < k; i++) {
                    hs[i].end();
                }
            } else {
                for (int i = 0; i < k; i++) {
                    w.allreduce(Buf.of(in[i]), Buf.of(out[i]), Op.SUM);
                }
            }
        }
        final double[] us = {(System.nanoTime() - t0) / 1e3 / batches};
        w.allreduce(Buf.IN_PLACE, Buf.of(us), Op.MAX);
        return us[0];
    }
}
