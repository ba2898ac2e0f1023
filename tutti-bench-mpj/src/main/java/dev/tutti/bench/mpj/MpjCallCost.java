package dev.tutti.bench.mpj;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.mpj.JoinedRank;
import mpi.MPI;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The CPU time tutti-mpj adds to a call, on one rank where no message moves: an {@code Allreduce} of one
 * {@code double} and a {@code Send} and {@code Recv} of 8 bytes to itself, each through {@code MPI.COMM_WORLD} and
 * through Tutti's API (which builds its {@code Buf}s per call, as a program does), in rounds that alternate the
 * forms. Prints the median over the rounds of each form's thread CPU time per call, which the load of a shared
 * machine moves far less than the wall time of a job of several ranks ({@link MpjOverhead}).
 *
 * <pre>
 * bin/tutti run -n 1 -cp tutti-mpj/target/classes:tutti-bench-mpj/target/classes \
 *     dev.tutti.bench.mpj.MpjCallCost [ROUNDS]
 * </pre>
 *
 * <p>Implementation note: a round is {@value #CALLS} calls of one form back to back, timed by the thread's CPU clock
 * (time the thread waits for a core does not count); the first {@value #WARMUP_ROUNDS} rounds of each form warm the
 * JIT and are not reported.
 */
public final class MpjCallCost {
    private static final int CALLS = 200_000;
    private static final int WARMUP_ROUNDS = 4;
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private MpjCallCost() {
    }

    /**
     * Measures and prints one line per call.
     *
     * @param args the number of reported rounds (default 10)
     */
    public static void main(final String[] args) {
        final int rounds = 0 == args.length ? 10 : Integer.parseInt(args[0]);
        try (Tutti tutti = Tutti.init()) {
            JoinedRank.use(tutti);
            MPI.Init(new String[0]);
            final Communicator w = tutti.world();
            final double[] x = new double[1];
            final double[] y = new double[1];
            final byte[] out = new byte[8];
            final byte[] in = new byte[8];
            final double[][] ns = new double[4][rounds];
            for (int r = 0; r < WARMUP_ROUNDS + rounds; r++) {
                for (int f = 0; f < 4; f++) {
                    final long t0 = MX.getCurrentThreadCpuTime();
                    round(f, w, x, y, out, in);
                    if (r >= WARMUP_ROUNDS) {
                        ns[f][r - WARMUP_ROUNDS] = (MX.getCurrentThreadCpuTime() - t0) / (double) CALLS;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "Allreduce of 8 B: Tutti %.1f ns, MPJ %.1f ns per call%n", median(ns[0]),
                median(ns[1]));
            System.out.printf(Locale.ROOT, "Send and Recv of 8 B to self: Tutti %.1f ns, MPJ %.1f ns per pair%n",
                median(ns[2]), median(ns[3]));
            MPI.Finalize();
        }
    }

    /** One round of form {@code f}: a loop of its own per form, so that the JIT compiles each call site alone. */
    private static void round(final int f, final Communicator w, final double[] x, final double[] y,
        final byte[] out, final byte[] in) {
        switch (f) {
            case 0 -> {
                for (int i = 0; i < CALLS; i++) {
                    w.allreduce(Buf.of(x), Buf.of(y), Op.SUM);
                }
            }
            case 1 -> {
                for (int i = 0; i < CALLS; i++) {
                    MPI.COMM_WORLD.Allreduce(x, 0, y, 0, 1, MPI.DOUBLE, MPI.SUM);
                }
            }
            case 2 -> {
                for (int i = 0; i < CALLS; i++) {
                    w.send(Buf.of(out), 0, 5);
                    w.recv(Buf.of(in), 0, 5);
                }
            }
            default -> {
                for (int i = 0; i < CALLS; i++) {
                    MPI.COMM_WORLD.Send(out, 0, out.length, MPI.BYTE, 0, 5);
                    MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.BYTE, 0, 5);
                }
            }
        }
    }

    private static double median(final double[] v) {
        final double[] s = v.clone();
        Arrays.sort(s);
        return (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
    }
}
