import java.util.Arrays;
import java.util.Locale;

import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;

/**
 * What one Flight Recorder event costs the thread that commits it, apart from Tutti: an event with the fields of
 * Tutti's collective event (four strings, seven numbers) with and without the thread's stack, one with two numbers,
 * and a clock read for the loop's own cost, each committed from a given number of frames below {@code main} (the
 * JVM's stack walk has a fixed part and a part per frame). Prints the best and the median of 11 rounds of ITERS
 * events, in ns per event. Compile it first: run from source, the launcher's own frames lie under {@code main} and
 * every stack is longer by them.
 *
 * <pre>
 * javac -d /tmp/jfr-event-cost bench/JfrEventCost.java
 * java -cp /tmp/jfr-event-cost JfrEventCost [ITERS [DEPTH...]]     # default: 100000 events, depths 0 10 30
 * </pre>
 */
public final class JfrEventCost {
    private static final int ROUNDS = 11;
    private static final String[] KINDS = {"11 fields, stack", "11 fields", "2 fields", "clock read only"};

    /** The fields of Tutti's collective event. */
    abstract static class Collective extends Event {
        String op;
        String variant;
        String comm;
        String algorithm;
        int rank;
        int context;
        int size;
        int root;
        long bytes;
        int request;
        String road;

        /** Times an empty span and commits it with a 1 KiB allreduce's fields, if the recording takes it. */
        final void record() {
            begin();
            end();
            if (shouldCommit()) {
                op = "allreduce";
                variant = "blocking";
                comm = "WORLD";
                algorithm = "allgather_reduce";
                rank = 1;
                size = 4;
                root = -1;
                bytes = 1024;
                road = "messages";
                commit();
            }
        }
    }

    @Name("bench.Stacked")
    @StackTrace(true)
    static final class Stacked extends Collective {
    }

    @Name("bench.Plain")
    @StackTrace(false)
    static final class Plain extends Collective {
    }

    @Name("bench.Small")
    @StackTrace(false)
    static final class Small extends Event {
        int rank;
        long bytes;
    }

    private static int kind;
    private static long sink;

    private JfrEventCost() {
    }

    public static void main(final String[] args) {
        final int iters = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        final int[] depths = args.length > 1
            ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray() : new int[] {0, 10, 30};
        try (Recording r = new Recording()) {
            r.enable("bench.Stacked");
            r.enable("bench.Plain");
            r.enable("bench.Small");
            r.start();
            for (final int depth : depths) {
                for (kind = 0; kind < KINDS.length; kind++) {
                    final long[] ns = new long[ROUNDS];
                    for (int round = -3; round < ROUNDS; round++) { // three rounds of warm-up
                        final long t0 = System.nanoTime();
                        for (int i = 0; i < iters; i++) {
                            below(depth);
                        }
                        if (round >= 0) {
                            ns[round] = System.nanoTime() - t0;
                        }
                    }
                    Arrays.sort(ns);
                    System.out.printf(Locale.ROOT, "depth %3d  %-17s best %7.1f ns  median %7.1f ns%n", depth,
                        KINDS[kind], (double) ns[0] / iters, (double) ns[ROUNDS / 2] / iters);
                }
            }
        }
        if (42 == sink) {
            System.out.println();
        }
    }

    /** Commits one event {@code depth} frames further down. */
    private static void below(final int depth) {
        if (depth > 0) {
            below(depth - 1);
            return;
        }
        switch (kind) {
            case 0 -> new Stacked().record();
            case 1 -> new Plain().record();
            case 2 -> {
                final Small e = new Small();
                e.begin();
                e.end();
                if (e.shouldCommit()) {
                    e.rank = 1;
                    e.bytes = 1024;
                    e.commit();
                }
            }
            default -> sink += System.nanoTime();
        }
    }
}
