import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;

/**
 * What Tutti's Flight Recorder events cost per call, on one rank (a job of one rank: no peer, no spinning thread, so
 * the figure is the call path's own and shows little of a shared machine's noise): blocking allreduces of 8 B and
 * 1 KiB, and a ping to itself (isend, recv, wait) of 8 B. Prints, per operation, the best and the median of ROUNDS
 * rounds of ITERS calls, in ns per call. Run it from the repository root, with events off (no tutti.jfr) and on:
 *
 * <pre>
 * java -cp tutti-cli/target/tutti.jar bench/TraceOverhead.java [ITERS [ROUNDS]]
 * TUTTI_JFR=/tmp/tutti-jfr java -cp tutti-cli/target/tutti.jar bench/TraceOverhead.java
 * TUTTI_JFR=/tmp/tutti-jfr TUTTI_JFR_STACKS=on java -cp tutti-cli/target/tutti.jar bench/TraceOverhead.java
 * </pre>
 *
 * (on: stacks sampled, the default of {@code tutti.jfr.stacks}; {@code on} takes every call's, {@code off} none)
 *
 * and against another build's jar for the same figure without the events at all.
 */
public final class TraceOverhead {
    private TraceOverhead() {
    }

    public static void main(final String[] args) {
        final int iters = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final Buf s8 = Buf.of(new long[1]);
            final Buf r8 = Buf.of(new long[1]);
            final Buf s1k = Buf.of(new long[128]);
            final Buf r1k = Buf.of(new long[128]);
            final String[] names = {"allreduce 8 B", "allreduce 1 KiB", "self ping 8 B"};
            final long[][] ns = new long[names.length][rounds];
            for (int round = -3; round < rounds; round++) { // three rounds of warm-up
                for (int op = 0; op < names.length; op++) {
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        switch (op) {
                            case 0 -> w.allreduce(s8, r8, Op.SUM);
                            case 1 -> w.allreduce(s1k, r1k, Op.SUM);
                            default -> {
                                final Request q = w.isend(s8, 0, 1);
                                w.recv(r8, 0, 1);
                                q.waitFor();
                            }
                        }
                    }
                    if (round >= 0) {
                        ns[op][round] = System.nanoTime() - t0;
                    }
                }
            }
            for (int op = 0; op < names.length; op++) {
                final long[] t = ns[op].clone();
                java.util.Arrays.sort(t);
                System.out.printf(java.util.Locale.ROOT, "%-16s best %8.1f ns  median %8.1f ns%n", names[op],
                    (double) t[0] / iters, (double) t[t.length / 2] / iters);
            }
        }
    }
}
