package dev.tutti.bench.mpj;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.mpj.JoinedRank;
import mpi.MPI;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The overhead of the {@code tutti-mpj} layer (MPJ Express's API) over Tutti's own API, measured in one job:
 * ping-pong and allreduce, per size, each as the MPJ form ({@code MPI.COMM_WORLD.Send}/{@code Recv} of a
 * {@code byte[]} with an offset and {@code MPI.BYTE}; {@code Allreduce} of a {@code double[]} with {@code MPI.SUM})
 * and as the Tutti form ({@code Communicator.send}/{@code recv} of {@code Buf.of(byte[], ...)}; {@code allreduce} of
 * a {@code double[]} with {@code Op.SUM}), on the same arrays. Rank 0 prints one markdown table: op, bytes, Tutti µs,
 * MPJ µs and their ratio.
 *
 * <pre>
 * bin/tutti run -n 2 -cp tutti-mpj/target/classes:tutti-bench-mpj/target/classes dev.tutti.bench.mpj.MpjOverhead
 *     [--quick] [--blocks B] [--calls N] [--warmup W] [-m MIN:MAX]
 *   --blocks B  timed blocks per form, op and size (default 20)
 *   --calls N   calls per block at up to 8 KiB, fewer above in proportion to the size, at least 20 (default 5000:
 *               with fewer, the JIT is still at work in the first sizes' blocks and the ratios scatter)
 *   --warmup W  untimed calls of each form before a size's blocks, scaled as the calls (default 5000)
 *   -m MIN:MAX  sizes in bytes, the powers of two from MIN to MAX (default 8:1048576)
 *   --quick     3 blocks of 100 calls, 20 warm-up calls, and the first size not measured twice: seconds, for a
 *               smoke run (its figures still include compilation)
 * </pre>
 *
 * <p>Implementation note. What is timed: a block is {@code N} calls back to back, timed as a whole. For ping-pong a
 * call is one round trip between ranks 0 and 1 (rank 0 sends, rank 1 receives and sends the same array back), and
 * the time per call is half the round trip, as in the OSU benchmarks, from rank 0's clock; for allreduce every rank
 * times its block, and a block's time is the slowest rank's (a collective takes as long as its slowest rank). How
 * blocks interleave: per op and size the two forms take turns, block by block, in the order Tutti, MPJ, MPJ, Tutti,
 * ... (each form runs first in half of the pairs, so neither always follows the other), with an untimed barrier
 * before each block. Why: both forms then see the same machine (other load, clock frequency, the scheduler), which on
 * a shared 2-core machine drifts between separate jobs by more than a thin layer costs. A form's time is the median
 * of its blocks' (a block in which a call waits a scheduler tick for its core moves that block alone); the ratio is
 * the median of the per-block ratios MPJ over Tutti of each adjacent pair, so that a shift of the machine between
 * pairs falls on both sides of each ratio. Both forms use the same arrays, so neither finds them colder in the caches
 * than the other. Each op and size first runs both forms' warm-up calls; the first size is measured once more
 * before the table and discarded (the JIT compiles both layers' paths then). After each size, both forms run once
 * more into poisoned arrays, and what they received is checked.
 */
public final class MpjOverhead {
    /** Default blocks per form, op and size. */
    static final int DEFAULT_BLOCKS = 20;
    /** Default calls per block (up to {@value MpjPortableBench#FULL_CALLS_UP_TO} bytes). */
    static final int DEFAULT_CALLS = 5000;
    /** Default warm-up calls per form, op and size (scaled as the calls). */
    static final int DEFAULT_WARMUP = 5000;
    /** The calls per block of {@code --quick}. */
    static final int QUICK_CALLS = 100;
    /** The tag of the ping-pong messages. */
    private static final int TAG = 46;

    /** The table's header and separator lines. */
    static final String HEADER = "| op | bytes | Tutti µs | MPJ µs | MPJ/Tutti |";
    static final String SEPARATOR = "|---|---:|---:|---:|---:|";

    /**
     * @param args the command line, see the class comment
     * @return what it asks to measure, with this benchmark's defaults
     * @throws IllegalArgumentException naming a bad or unknown argument
     */
    static MpjPortableBench.Config config(final String[] args) {
        return MpjPortableBench.Config.parse(args, DEFAULT_BLOCKS, DEFAULT_CALLS, DEFAULT_WARMUP, QUICK_CALLS);
    }

    private final Communicator world;
    private final MpjPortableBench.Config config;

    /**
     * @param world  the calling rank's world, the same rank as {@code MPI.COMM_WORLD} (MPI is initialized)
     * @param config what to measure
     */
    MpjOverhead(final Communicator world, final MpjPortableBench.Config config) {
        if (world.size() < 2) {
            throw new IllegalArgumentException("MpjOverhead: " + world.size() + " rank(s), expected 2 or more");
        }
        this.world = world;
        this.config = config;
    }

    /**
     * Joins the job, initializes MPI on the same rank, and measures; rank 0 prints the table.
     *
     * @param args see the class comment
     */
    public static void main(final String[] args) {
        final MpjPortableBench.Config config;
        try {
            config = config(args);
        } catch (final IllegalArgumentException e) {
            System.err.println("MpjOverhead: " + e.getMessage()
                + "\nusage: MpjOverhead [--quick] [--blocks B] [--calls N] [--warmup W] [-m MIN:MAX]");
            System.exit(2);
            return;
        }
        try (Tutti tutti = Tutti.init()) {
            JoinedRank.use(tutti); // MPI.Init takes this rank rather than joining a second time
            MPI.Init(new String[0]);
            final Communicator world = tutti.world();
            new MpjOverhead(world, config).run(0 == world.rank()
                ? new PrintWriter(System.out, true, StandardCharsets.UTF_8) : null);
            MPI.Finalize();
        }
    }

    /**
     * Measures every op and size.
     *
     * @param out where the table goes (rank 0), or null
     */
    void run(final PrintWriter out) {
        if (null != out) {
            out.printf(Locale.ROOT, "# tutti-mpj over Tutti's API, %d ranks, one job: per op and size %d blocks per form "
                + "(Tutti, MPJ alternating), %d calls per block up to %d B, fewer above; µs per call (ping-pong: "
                + "half a round trip) is the median over blocks, MPJ/Tutti the median of the per-block ratios; "
                + "load average %s%n", world.size(), config.blocks, config.calls, MpjPortableBench.FULL_CALLS_UP_TO, load());
            out.println(HEADER);
            out.println(SEPARATOR);
        }
        if (config.discard) {
            measure(new PingPong(config.sizes[0]));
            measure(new Allreduce(config.sizes[0]));
        }
        for (final String op : new String[] {"pingpong", "allreduce"}) {
            for (final int bytes : config.sizes) {
                final Form f = "pingpong".equals(op) ? new PingPong(bytes) : new Allreduce(bytes);
                final long[][] ns = measure(f);
                f.verify();
                if (null != out) {
                    final int calls = config.callsAt(bytes);
                    final double per = f.unitsPerCall() * calls * 1e3;
                    out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f |%n", op, bytes, median(ns[0]) / per,
                        median(ns[1]) / per, medianRatio(ns[1], ns[0]));
                    out.flush(); // a row as each size completes
                }
            }
        }
        world.barrier();
    }

    /** @return this machine's load average over 1, 5 and 15 minutes, or "unknown" */
    private static String load() {
        try {
            final String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
        } catch (final IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Warms both forms up, then runs their blocks in turn.
     *
     * @return the block times in ns, [0] Tutti's and [1] MPJ's: rank 0's for ping-pong, the slowest rank's for
     *         allreduce
     */
    private long[][] measure(final Form f) {
        final int calls = config.callsAt(f.bytes());
        final int warmup = config.warmupAt(f.bytes());
        world.barrier();
        f.tutti(warmup);
        world.barrier();
        f.mpj(warmup);
        final int blocks = config.blocks;
        final long[] ns = new long[2 * blocks];
        for (int b = 0; b < blocks; b++) {
            final boolean tuttiFirst = 0 == b % 2; // T M, M T, T M, ...: each form first in half the pairs
            for (int k = 0; k < 2; k++) {
                final boolean tutti = tuttiFirst == (0 == k);
                world.barrier();
                final long t0 = System.nanoTime();
                if (tutti) {
                    f.tutti(calls);
                } else {
                    f.mpj(calls);
                }
                ns[(tutti ? 0 : blocks) + b] = System.nanoTime() - t0;
            }
        }
        final long[] t = ns.clone();
        if (f.collective()) {
            world.allreduce(Buf.of(ns), Buf.of(t), Op.MAX);
        }
        return new long[][] {Arrays.copyOfRange(t, 0, blocks), Arrays.copyOfRange(t, blocks, 2 * blocks)};
    }

    private static double median(final long[] v) {
        final long[] s = v.clone();
        Arrays.sort(s);
        return (s[(s.length - 1) / 2] + s[s.length / 2]) / 2.0;
    }

    /** @return the median of {@code a[b] / c[b]} over the blocks */
    private static double medianRatio(final long[] a, final long[] c) {
        final double[] r = new double[a.length];
        for (int b = 0; b < a.length; b++) {
            r[b] = (double) a[b] / c[b];
        }
        Arrays.sort(r);
        return (r[(r.length - 1) / 2] + r[r.length / 2]) / 2;
    }

    /** One op at one size, in both forms, on the same arrays. */
    private interface Form {
        int bytes();

        /** Runs {@code n} calls through Tutti's API. */
        void tutti(int n);

        /** Runs {@code n} calls through tutti-mpj. */
        void mpj(int n);

        /** @return whether every rank's clock counts (else rank 0's) */
        boolean collective();

        /** @return how many of the reported units one call is: 2 for a round trip reported as half of it */
        double unitsPerCall();

        /** Runs each form once more into poisoned arrays and checks what arrived. */
        void verify();
    }

    /**
     * Ping-pong between ranks 0 and 1 (the others wait at the barriers): rank 0 sends {@code out} and receives into
     * {@code in}; rank 1 receives into {@code in} and sends it back.
     */
    private final class PingPong implements Form {
        private final int bytes;
        private final int me;
        private final byte[] out;
        private final byte[] in;

        PingPong(final int bytes) {
            this.bytes = bytes;
            this.me = world.rank();
            this.out = new byte[bytes];
            this.in = new byte[bytes];
            for (int i = 0; i < bytes; i++) {
                out[i] = (byte) (i * 31 + 7);
            }
        }

        @Override
        public int bytes() {
            return bytes;
        }

        @Override
        public void tutti(final int n) {
            if (0 == me) {
                for (int i = 0; i < n; i++) {
                    world.send(Buf.of(out), 1, TAG);
                    world.recv(Buf.of(in), 1, TAG);
                }
            } else if (1 == me) {
                for (int i = 0; i < n; i++) {
                    world.recv(Buf.of(in), 0, TAG);
                    world.send(Buf.of(in), 0, TAG);
                }
            }
        }

        @Override
        public void mpj(final int n) {
            if (0 == me) {
                for (int i = 0; i < n; i++) {
                    MPI.COMM_WORLD.Send(out, 0, bytes, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.Recv(in, 0, bytes, MPI.BYTE, 1, TAG);
                }
            } else if (1 == me) {
                for (int i = 0; i < n; i++) {
                    MPI.COMM_WORLD.Recv(in, 0, bytes, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.Send(in, 0, bytes, MPI.BYTE, 0, TAG);
                }
            }
        }

        @Override
        public boolean collective() {
            return false;
        }

        @Override
        public double unitsPerCall() {
            return 2;
        }

        @Override
        public void verify() {
            for (final Runnable form : new Runnable[] {() -> tutti(1), () -> mpj(1)}) {
                world.barrier();
                Arrays.fill(in, (byte) -1);
                form.run();
                if (me <= 1 && !Arrays.equals(out, in)) {
                    throw new IllegalStateException("pingpong " + bytes + " B: rank " + me
                        + " received other bytes than rank 0 sent");
                }
            }
        }
    }

    /** Allreduce with SUM of a vector of {@code bytes / 8} doubles (at least one) over every rank. */
    private final class Allreduce implements Form {
        private final int bytes;
        private final double[] vector;
        private final double[] sum;

        Allreduce(final int bytes) {
            this.bytes = bytes;
            this.vector = new double[Math.max(1, bytes / Double.BYTES)];
            this.sum = new double[vector.length];
            Arrays.setAll(vector, i -> world.rank() + i % 1024);
        }

        @Override
        public int bytes() {
            return bytes;
        }

        @Override
        public void tutti(final int n) {
            for (int i = 0; i < n; i++) {
                world.allreduce(Buf.of(vector), Buf.of(sum), Op.SUM);
            }
        }

        @Override
        public void mpj(final int n) {
            for (int i = 0; i < n; i++) {
                MPI.COMM_WORLD.Allreduce(vector, 0, sum, 0, vector.length, MPI.DOUBLE, MPI.SUM);
            }
        }

        @Override
        public boolean collective() {
            return true;
        }

        @Override
        public double unitsPerCall() {
            return 1;
        }

        @Override
        public void verify() {
            final int p = world.size();
            for (final Runnable form : new Runnable[] {() -> tutti(1), () -> mpj(1)}) {
                Arrays.fill(sum, -1);
                form.run();
                for (int i = 0; i < sum.length; i++) {
                    if (sum[i] != (double) p * (i % 1024) + p * (p - 1) / 2) {
                        throw new IllegalStateException("allreduce " + bytes + " B: element " + i + " is " + sum[i]);
                    }
                }
            }
        }
    }
}
