package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.type.LocalReduction;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * A quick JMH-free microbenchmark of the reduction kernels (a main, not a test): ns per element and bytes
 * allocated per call for 1M-element reductions over every kind of memory, in ONE JVM so that the segment kinds
 * pollute each other's type profiles as they do in the library. Compares with a naive loop of
 * {@code MemorySegment.getAtIndex/setAtIndex}, which is what the kernels avoid.
 *
 * <pre>
 * mvn -o -q -pl tutti-core -am test-compile
 * java -cp tutti-core/target/classes:tutti-core/target/test-classes dev.tutti.type.kernel.ReductionBenchmark
 * </pre>
 * Use JDK 25 ({@code /usr/lib/jvm/temurin-25-jdk-amd64/bin/java} on our machines). Numbers are indicative only
 * (no forks, no blackhole); the JMH versions belong in tutti-bench.
 */
public final class ReductionBenchmark {
    private static final int N = 1 << 20;
    private static final int ROUNDS = 5;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ReductionBenchmark() {
    }

    /**
     * Runs the benchmark and prints one line per case.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        final Arena arena = Arena.ofShared();
        final MemorySegment heapA = MemorySegment.ofArray(new double[N]);
        final MemorySegment heapB = MemorySegment.ofArray(new double[N]);
        final MemorySegment heapOffA = MemorySegment.ofArray(new double[N + 3]).asSlice(24, 8L * N);
        final MemorySegment heapOffB = MemorySegment.ofArray(new double[N + 5]).asSlice(40, 8L * N);
        final MemorySegment nativeA = arena.allocate(8L * N, 64);
        final MemorySegment nativeB = arena.allocate(8L * N, 64);
        final MemorySegment bytesA = MemorySegment.ofArray(new byte[8 * N]);
        final MemorySegment bytesB = MemorySegment.ofArray(new byte[8 * N]);
        final MemorySegment intA = MemorySegment.ofArray(new int[N]);
        final MemorySegment intB = MemorySegment.ofArray(new int[N]);
        final Op userSum = Op.user("dsum", true, (double[] in, double[] inout, int count) -> {
            for (int i = 0; i < count; i++) {
                inout[i] = in[i] + inout[i];
            }
        });
        for (int round = 1; round <= ROUNDS; round++) {
            final boolean print = ROUNDS == round;
            run(print, "SUM DOUBLE heap double[] offset 0", Op.SUM, Datatype.DOUBLE, heapA, heapB, N);
            run(print, "SUM DOUBLE heap double[] offsets 3/5", Op.SUM, Datatype.DOUBLE, heapOffA, heapOffB, N);
            run(print, "SUM DOUBLE native (staged)", Op.SUM, Datatype.DOUBLE, nativeA, nativeB, N);
            run(print, "SUM DOUBLE heap byte[] (staged)", Op.SUM, Datatype.DOUBLE, bytesA, bytesB, N);
            run(print, "SUM DOUBLE native in, double[] inout", Op.SUM, Datatype.DOUBLE, nativeA, heapB, N);
            run(print, "SUM INT heap int[]", Op.SUM, Datatype.INT, intA, intB, N);
            run(print, "MAXLOC DOUBLE_PAIR heap double[]", Op.MAXLOC, Datatype.DOUBLE_PAIR, heapA, heapB, N / 2);
            run(print, "user dsum heap double[] (zero-copy)", userSum, Datatype.DOUBLE, heapA, heapB, N);
            run(print, "user dsum native (copied)", userSum, Datatype.DOUBLE, nativeA, nativeB, N);
            run(print, "SUM DOUBLE heap double[] count=256", Op.SUM, Datatype.DOUBLE, heapA, heapB, 256);
            run(print, "SUM DOUBLE native count=256", Op.SUM, Datatype.DOUBLE, nativeA, nativeB, 256);
            run(print, "SUM INT heap int[] count=1", Op.SUM, Datatype.INT, intA, intB, 1);
            naive(print, "naive segment loop heap double[]", heapA, heapB);
            naive(print, "naive segment loop native", nativeA, nativeB);
            naive(print, "naive segment loop heap byte[]", bytesA, bytesB);
        }
        arena.close();
    }

    private static void run(final boolean print, final String what, final Op op, final Datatype type,
        final MemorySegment in, final MemorySegment inout, final int count) {
        final int reps = Math.max(50, (1 << 22) / count);
        final long allocated0 = THREADS.getCurrentThreadAllocatedBytes();
        final long t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
            LocalReduction.reduce(op, type, in, inout, count);
        }
        final long ns = System.nanoTime() - t0;
        final long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocated0;
        report(print, what, ns, (long) reps * count * valuesPerElement(type),
            (double) allocated / reps);
    }

    private static int valuesPerElement(final Datatype type) {
        return type.name().endsWith("_PAIR") ? 2 : 1;
    }

    private static void naive(final boolean print, final String what, final MemorySegment in,
        final MemorySegment inout) {
        final int reps = 10;
        final long t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
            for (long i = 0; i < N; i++) {
                inout.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i,
                    in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i)
                        + inout.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
            }
        }
        report(print, what, System.nanoTime() - t0, (long) reps * N, Double.NaN);
    }

    private static void report(final boolean print, final String what, final long ns, final long values,
        final double bytesPerCall) {
        if (print) {
            System.out.printf(Locale.ROOT, "%-40s %7.3f ns/value  %8.1f B/call%n", what, (double) ns / values,
                bytesPerCall);
        }
    }
}
