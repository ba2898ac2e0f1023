package dev.tutti.bench.mpj;

import mpi.MPI;

import java.util.Arrays;
import java.util.Locale;

/**
 * Ping-pong and allreduce per size through MPJ Express's API alone ({@code package mpi}, nothing of Tutti's), so
 * that one class file runs under MPJ Express's {@code mpjrun.sh} and under {@code tutti mpjrun} alike and the two
 * implementations can be compared on the same program. {@code bench/mpj-express.sh} compiles it against MPJ
 * Express's {@code mpj.jar} (as Java 8, the oldest JVM MPJ Express 0.44 runs on) and runs that class file on both;
 * Maven compiles it against {@code tutti-mpj}, which keeps it within the API both share. Written in Java 8's
 * language for that reason.
 *
 * <pre>
 * mpjrun.sh -np 2 -cp CLASSES dev.tutti.bench.mpj.MpjPortableBench [options]
 * bin/tutti mpjrun -np 2 -cp tutti-mpj/target/classes:CLASSES dev.tutti.bench.mpj.MpjPortableBench [options]
 *   --blocks B  timed blocks per op and size (default 7)
 *   --calls N   calls per block at up to 8 KiB, fewer above in proportion to the size, at least 20 (default 1000)
 *   --warmup W  untimed calls per op and size before its blocks, scaled as the calls (default 1000)
 *   -m MIN:MAX  sizes in bytes, the powers of two from MIN to MAX (default 8:1048576)
 *   --quick     3 blocks of 50 calls, 20 warm-up calls, the first size not measured twice: a smoke run
 * </pre>
 *
 * <p>Rank 0 prints one line per op and size, {@code mpjbench OP BYTES MICROS}, where {@code OP} is {@code pingpong}
 * or {@code allreduce} and {@code MICROS} the median over the blocks of the time per call in microseconds; lines
 * starting with {@code #} describe the run. The arguments are taken from {@code MPI.Init}'s result, as portable MPJ
 * programs do (MPJ Express's launcher puts three words of its own first).
 *
 * <p>Implementation note. Ping-pong: ranks 0 and 1 exchange a {@code byte[]} of the size with {@code Send}/{@code
 * Recv} of {@code MPI.BYTE} (rank 0 sends and receives into a second array, rank 1 receives and sends the same array
 * back); a block is {@code N} round trips timed on rank 0, and a call's time is half a round trip, as in the OSU
 * benchmarks. Allreduce: every rank reduces a {@code double[]} of the size (one element at least) with {@code
 * MPI.SUM}; a block's time is its slowest rank's (taken by an untimed {@code Allreduce} with {@code MPI.MAX}), as a
 * collective lasts as long as its slowest rank. An untimed {@code Barrier} precedes each block. Each op and size
 * first runs its warm-up calls; before the table come warm-up calls at 8 B and 64 KiB and the first size's blocks,
 * whose times are discarded (as one JVM a rank, the first size's blocks otherwise still carry the JIT's work).
 * Checks: the receiving arrays are poisoned before each size and checked after its blocks (ping-pong: the pattern
 * rank 0 sent, on both ranks; allreduce: the exact sum of the ranks' integral inputs); a mismatch throws, naming op,
 * size, index, value and what was expected. Ranks above 1 take part in the allreduce and the barriers only. The
 * median, not the mean: on a shared machine a block that waits a scheduler tick moves that block alone.
 */
public final class MpjPortableBench {
    /** Default timed blocks per op and size. */
    static final int DEFAULT_BLOCKS = 7;
    /** Default calls per block up to {@value #FULL_CALLS_UP_TO} bytes. */
    static final int DEFAULT_CALLS = 1000;
    /** Default warm-up calls per op and size (scaled as the calls). */
    static final int DEFAULT_WARMUP = 1000;
    /** Sizes up to this many bytes run the full number of calls; larger ones fewer, in proportion. */
    static final int FULL_CALLS_UP_TO = 8192;
    /** The least calls per block at any size. */
    static final int MIN_CALLS = 20;
    /** The prefix of a result line. */
    static final String PREFIX = "mpjbench";
    /** The tag of the ping-pong messages. */
    private static final int TAG = 46;

    private MpjPortableBench() {
    }

    /** What to measure: see the class comment. */
    static final class Config {
        final int blocks;
        final int calls;
        final int warmup;
        final boolean discard;
        final int[] sizes;

        Config(final int blocks, final int calls, final int warmup, final boolean discard, final int[] sizes) {
            if (blocks < 1 || calls < 1 || warmup < 0 || 0 == sizes.length) {
                throw new IllegalArgumentException("blocks=" + blocks + " calls=" + calls + " warmup=" + warmup
                    + " sizes=" + sizes.length + ", expected blocks >= 1, calls >= 1, warmup >= 0, a size or more");
            }
            this.blocks = blocks;
            this.calls = calls;
            this.warmup = warmup;
            this.discard = discard;
            this.sizes = sizes;
        }

        /** @return the calls of a block at {@code bytes}: all up to 8 KiB, fewer in proportion above */
        int callsAt(final int bytes) {
            return scaled(calls, bytes, Math.min(calls, MIN_CALLS));
        }

        /** @return the warm-up calls at {@code bytes}, scaled as the calls */
        int warmupAt(final int bytes) {
            return scaled(warmup, bytes, Math.min(warmup, MIN_CALLS));
        }

        private static int scaled(final int n, final int bytes, final int least) {
            return bytes <= FULL_CALLS_UP_TO ? n : (int) Math.max(least, (long) n * FULL_CALLS_UP_TO / bytes);
        }

        /**
         * @param args the program's arguments, see the class comment
         * @return the configuration they ask for
         * @throws IllegalArgumentException naming a bad or unknown argument
         */
        static Config parse(final String[] args) {
            return parse(args, DEFAULT_BLOCKS, DEFAULT_CALLS, DEFAULT_WARMUP, 50);
        }

        /**
         * The options of the class comment with other defaults ({@link MpjOverhead} shares them).
         *
         * @param args          the program's arguments
         * @param defaultBlocks the blocks without {@code --blocks}
         * @param defaultCalls  the calls without {@code --calls}
         * @param defaultWarmup the warm-up calls without {@code --warmup}
         * @param quickCalls    the calls of {@code --quick}
         * @return the configuration they ask for
         * @throws IllegalArgumentException naming a bad or unknown argument
         */
        static Config parse(final String[] args, final int defaultBlocks, final int defaultCalls,
            final int defaultWarmup, final int quickCalls) {
            int blocks = defaultBlocks;
            int calls = defaultCalls;
            int warmup = defaultWarmup;
            boolean discard = true;
            int[] sizes = powersOfTwo(8, 1 << 20);
            for (int i = 0; i < args.length; i++) {
                final String a = args[i];
                if ("--quick".equals(a)) {
                    blocks = 3;
                    calls = quickCalls;
                    warmup = 20;
                    discard = false;
                } else if ("--blocks".equals(a)) {
                    blocks = number(a, value(args, ++i, a));
                } else if ("--calls".equals(a)) {
                    calls = number(a, value(args, ++i, a));
                } else if ("--warmup".equals(a)) {
                    warmup = number(a, value(args, ++i, a));
                } else if ("-m".equals(a)) {
                    final String v = value(args, ++i, a);
                    final int colon = v.indexOf(':');
                    if (colon < 0) {
                        throw new IllegalArgumentException("-m " + v + ", expected MIN:MAX in bytes");
                    }
                    sizes = powersOfTwo(number(a, v.substring(0, colon)), number(a, v.substring(colon + 1)));
                } else {
                    throw new IllegalArgumentException("unknown argument " + a
                        + ", expected --blocks B, --calls N, --warmup W, -m MIN:MAX or --quick");
                }
            }
            return new Config(blocks, calls, warmup, discard, sizes);
        }

        private static String value(final String[] args, final int i, final String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static int number(final String option, final String text) {
            try {
                return Integer.parseInt(text);
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(option + " " + text + ", expected a whole number", e);
            }
        }

        /** @return the powers of two from {@code min} to {@code max}, both rounded up to a power of two */
        static int[] powersOfTwo(final int min, final int max) {
            if (min < 1 || max < min || max > 1 << 30) {
                throw new IllegalArgumentException("-m " + min + ":" + max
                    + ", expected 1 <= MIN <= MAX <= " + (1 << 30));
            }
            int n = 0;
            for (long s = ceilPow2(min); s <= max; s <<= 1) {
                n++;
            }
            final int[] out = new int[Math.max(1, n)];
            long s = ceilPow2(min);
            for (int i = 0; i < out.length; i++, s <<= 1) {
                out[i] = (int) Math.min(s, max);
            }
            return out;
        }

        private static long ceilPow2(final int v) {
            long p = 1;
            while (p < v) {
                p <<= 1;
            }
            return p;
        }
    }

    /**
     * Runs the benchmark on {@code MPI.COMM_WORLD} (at least 2 processes).
     *
     * @param args the launcher's arguments, which {@code MPI.Init} turns into the program's
     * @throws Exception from the MPI calls, or {@link IllegalStateException} on a wrong result
     */
    public static void main(final String[] args) throws Exception {
        final String[] own = MPI.Init(args);
        final Config config = Config.parse(own);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        if (size < 2) {
            throw new IllegalArgumentException("MpjPortableBench needs 2 or more processes, got " + size);
        }
        if (0 == rank) {
            System.out.println("# MpjPortableBench: " + size + " processes, blocks " + config.blocks + ", calls "
                + config.calls + ", warmup " + config.warmup + "; " + PREFIX + " OP BYTES MEDIAN_MICROS");
        }
        for (final int bytes : new int[] {8, 65536}) {
            pingPong(rank, bytes, config.warmupAt(bytes), 0, 0);
            allreduce(rank, size, bytes, config.warmupAt(bytes), 0, 0);
        }
        if (config.discard) {
            final int first = config.sizes[0];
            pingPong(rank, first, config.warmupAt(first), config.blocks, config.callsAt(first));
            allreduce(rank, size, first, config.warmupAt(first), config.blocks, config.callsAt(first));
        }
        for (final int bytes : config.sizes) {
            final double micros = pingPong(rank, bytes, config.warmupAt(bytes), config.blocks,
                config.callsAt(bytes));
            print(rank, "pingpong", bytes, micros);
        }
        for (final int bytes : config.sizes) {
            final double micros = allreduce(rank, size, bytes, config.warmupAt(bytes), config.blocks,
                config.callsAt(bytes));
            print(rank, "allreduce", bytes, micros);
        }
        MPI.Finalize();
    }

    private static void print(final int rank, final String op, final int bytes, final double micros) {
        if (0 == rank) {
            System.out.println(String.format(Locale.ROOT, "%s %s %d %.3f", PREFIX, op, bytes, micros));
            System.out.flush();
        }
    }

    /**
     * @return on rank 0 the median over {@code blocks} of the time per one-way message in microseconds, else 0
     */
    static double pingPong(final int rank, final int bytes, final int warmup, final int blocks, final int calls)
        throws Exception {
        final byte[] out = new byte[bytes];
        final byte[] in = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            out[i] = pattern(bytes, i);
        }
        Arrays.fill(in, (byte) 0x5A);
        roundTrips(rank, out, in, warmup);
        final double[] times = new double[blocks];
        for (int b = 0; b < blocks; b++) {
            MPI.COMM_WORLD.Barrier();
            final long t0 = System.nanoTime();
            roundTrips(rank, out, in, calls);
            times[b] = (System.nanoTime() - t0) / 1e3 / (2.0 * calls);
        }
        if (rank <= 1 && (warmup > 0 || blocks > 0)) {
            for (int i = 0; i < bytes; i++) {
                if (in[i] != pattern(bytes, i)) {
                    throw new IllegalStateException("pingpong of " + bytes + " bytes: rank " + rank
                        + " received byte " + in[i] + " at index " + i + ", expected " + pattern(bytes, i));
                }
            }
        }
        MPI.COMM_WORLD.Barrier();
        return 0 == rank && blocks > 0 ? median(times) : 0;
    }

    private static void roundTrips(final int rank, final byte[] out, final byte[] in, final int calls)
        throws Exception {
        final int n = out.length;
        if (0 == rank) {
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.Send(out, 0, n, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, 1, TAG);
            }
        } else if (1 == rank) {
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.Recv(in, 0, n, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.Send(in, 0, n, MPI.BYTE, 0, TAG);
            }
        }
    }

    private static byte pattern(final int bytes, final int i) {
        return (byte) (i * 31 + bytes);
    }

    /**
     * @return the median over {@code blocks} of the slowest rank's time per allreduce in microseconds (every rank)
     */
    static double allreduce(final int rank, final int size, final int bytes, final int warmup, final int blocks,
        final int calls) throws Exception {
        final int n = Math.max(1, bytes / 8);
        final double[] in = new double[n];
        final double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            in[i] = rank + 1 + i % 7;
        }
        Arrays.fill(out, Double.NaN);
        for (int i = 0; i < warmup; i++) {
            MPI.COMM_WORLD.Allreduce(in, 0, out, 0, n, MPI.DOUBLE, MPI.SUM);
        }
        final double[] times = new double[blocks];
        final double[] mine = new double[1];
        final double[] slowest = new double[1];
        for (int b = 0; b < blocks; b++) {
            MPI.COMM_WORLD.Barrier();
            final long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                MPI.COMM_WORLD.Allreduce(in, 0, out, 0, n, MPI.DOUBLE, MPI.SUM);
            }
            mine[0] = (System.nanoTime() - t0) / 1e3 / calls;
            MPI.COMM_WORLD.Allreduce(mine, 0, slowest, 0, 1, MPI.DOUBLE, MPI.MAX);
            times[b] = slowest[0];
        }
        if (warmup > 0 || blocks > 0) {
            for (int i = 0; i < n; i++) {
                final double expected = size * (size + 1) / 2.0 + size * (i % 7);
                if (out[i] != expected) {
                    throw new IllegalStateException("allreduce of " + bytes + " bytes: rank " + rank + " got "
                        + out[i] + " at index " + i + ", expected " + expected);
                }
            }
        }
        return blocks > 0 ? median(times) : 0;
    }

    /** @return the median of {@code values} (the mean of the middle two for an even count); sorts a copy */
    static double median(final double[] values) {
        final double[] v = values.clone();
        Arrays.sort(v);
        final int m = v.length / 2;
        return 0 == v.length % 2 ? (v[m - 1] + v[m]) / 2 : v[m];
    }
}
