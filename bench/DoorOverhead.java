import dev.tutti.Buf;
import dev.tutti.Op;
import dev.tutti.Tutti;

/**
 * The cost of a collective call's path through the API and the engine's door, without messages: one rank, the
 * best of 7 passes of N calls. Compare builds by running it against each one's jar, alternating:
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/door bench/DoorOverhead.java
 * java -cp /tmp/door:tutti-cli/target/tutti.jar DoorOverhead 500000 barrier   # or bcast, allreduce
 * </pre>
 */
public final class DoorOverhead {
    private DoorOverhead() {
    }

    public static void main(final String[] args) {
        final int n = Integer.parseInt(args[0]);
        final String op = args[1];
        Tutti.runLocal(1, w -> {
            final int[] x = new int[2];
            final int[] y = new int[2];
            final Buf bx = Buf.of(x);
            final Buf by = Buf.of(y);
            long best = Long.MAX_VALUE;
            for (int pass = 0; pass < 7; pass++) {
                final long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    switch (op) {
                        case "bcast" -> w.bcast(bx, 0);
                        case "allreduce" -> w.allreduce(bx, by, Op.SUM);
                        default -> w.barrier();
                    }
                }
                best = Math.min(best, System.nanoTime() - t0);
            }
            System.out.printf("%s %.1f ns/call%n", op, (double) best / n);
        });
    }
}
