package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * The build-once forms (persistent collectives, alltoall channels) against the per-call ones, interleaved in one job:
 * per size, per-call {@code alltoall}, {@code alltoallInit}, an alltoall channel, per-call {@code allreduce} and
 * {@code allreduceInit} take turns in blocks of OSU-style calls (each call timed on its own, an untimed barrier after
 * it), in an order shuffled for each block (the same on every rank). Whatever the machine does meanwhile (other load,
 * frequency, the scheduler) falls on every form alike, so the ratios are those of the forms, where separate jobs per
 * form (as {@code compare.sh} runs them) differ by the drift between jobs as well, which on a shared 2-core machine is
 * often larger than the differences between forms (bench/RESULTS.md, on the host).
 *
 * <pre>
 * bin/tutti bench forms -n 4 [options] [BYTES...]      ({@link FormsCommand}: checks the options, starts the ranks)
 * bin/tutti run -n 4 -cp tutti-bench/target/classes dev.tutti.bench.osu.InterleavedForms [options] BYTES...
 *   --blocks B   blocks per form and size (default 20)
 *   --calls N    timed calls per block (default 500)
 *   --warmup W   untimed calls of each form before the first block of a size (default 20000: fewer leave the JIT
 *                compiling during the first sizes, and a rank whose core a compiler thread takes waits a 4 ms tick)
 *   --warmup-ms T  and at least this long per form and size (default 500): a size that takes a new path (the
 *                shm ring above 16 KiB) runs new code, whose first few hundred calls are orders of magnitude
 *                slower than warm ones
 * </pre>
 *
 * <p>Order: in a fixed or alternating order each form keeps the same neighbours, and a form pays for what the one
 * before it left behind: at 4 MiB on 2 ranks the form run after the channel measures slower than the other,
 * whichever of per-call {@code alltoall} and {@code alltoallInit} it is. A shuffled order gives every form every
 * neighbour.
 *
 * <p>{@code BYTES} as in the OSU benchmarks: the block per pair for the alltoall forms, the vector for the reductions
 * (rounded down to whole longs, at least one). Each rank averages its timed calls per block; a block's time is the
 * largest of the ranks' averages (a collective takes as long as its slowest rank), and a form's time is the median
 * of its blocks': on a shared machine a call now and then waits a whole scheduler tick (4 ms here) for its core,
 * which moves one block's mean by microseconds and the median not at all. A form's speed-up is paired by block: the
 * per-call form's time in a block over the form's in the same block, whose median the table shows with its
 * quartiles (a shift of the whole machine between blocks falls on both sides of each pair, so where two forms take
 * the same path the quartiles straddle 1). The first size is measured once more before the table and discarded (the
 * JIT keeps compiling for seconds after the warm-up calls when 4 JVMs share 2 cores). After each size every form
 * runs once more into poisoned buffers, and what it received is checked against what the ranks sent. Data lives in
 * long arrays, each form's own (arrays shared by two forms would be warm in the caches for whichever runs second,
 * and at large sizes a cold buffer costs more than the forms differ by), the channel's blocks in its own buffers
 * (depth 1, confined to the rank's thread, as
 * {@code alltoall_channel}).
 */
public final class InterleavedForms {
    private static final String[] NAMES = {"alltoall", "alltoall_init", "alltoall_channel", "allreduce",
        "allreduce_init"};

    /**
     * Default blocks per form and size. With 10, a cluster of multi-millisecond stalls (the JVM's own threads taking
     * a rank's core) can hold half of one form's blocks at a size and move its median; 20 blocks cost little, the
     * timed part of a size being tens to hundreds of milliseconds next to its seconds of warm-up.
     */
    static final int DEFAULT_BLOCKS = 20;
    /** Default timed calls per block. */
    static final int DEFAULT_CALLS = 500;
    /** Default untimed calls of each form before a size's first block. */
    static final int DEFAULT_WARMUP = 20_000;
    /** Default least time of those per form and size, in ms. */
    static final int DEFAULT_WARMUP_MS = 500;
    /** Warm-up calls between two looks at rank 0's clock. */
    private static final int WARMUP_ROUND = 10;

    private final int blocks;
    private final int calls;
    private final int warmup;
    private final long warmupNs;

    /**
     * @param blocks   blocks per form and size, at least 1
     * @param calls    timed calls per block, at least 1
     * @param warmup   untimed calls of each form before a size's first block, at least 0
     * @param warmupMs and the least time those take per form, at least 0 (rank 0's clock decides for all)
     */
    public InterleavedForms(final int blocks, final int calls, final int warmup, final int warmupMs) {
        if (blocks < 1 || calls < 1 || warmup < 0 || warmupMs < 0) {
            throw new IllegalArgumentException("InterleavedForms: blocks=" + blocks + " calls=" + calls + " warmup="
                + warmup + " warmupMs=" + warmupMs + ", expected blocks >= 1, calls >= 1, warmup >= 0, warmupMs >= 0");
        }
        this.blocks = blocks;
        this.calls = calls;
        this.warmup = warmup;
        this.warmupNs = warmupMs * 1_000_000L;
    }

    /** The command line: picocli parses it, so a bad or missing value is named with the usage. */
    @Command(name = "InterleavedForms", mixinStandardHelpOptions = true,
        description = "The build-once forms against the per-call ones, interleaved in one job.")
    static final class Cli implements Callable<Integer> {
        @Option(names = "--blocks", description = "blocks per form and size (default ${DEFAULT-VALUE})")
        int blocks = DEFAULT_BLOCKS;
        @Option(names = "--calls", description = "timed calls per block (default ${DEFAULT-VALUE})")
        int calls = DEFAULT_CALLS;
        @Option(names = "--warmup", description = "untimed calls of each form before a size's first block "
            + "(default ${DEFAULT-VALUE})")
        int warmup = DEFAULT_WARMUP;
        @Option(names = "--warmup-ms", description = "and the least time they take per form and size, in ms "
            + "(default ${DEFAULT-VALUE})")
        int warmupMs = DEFAULT_WARMUP_MS;
        @Parameters(arity = "1..*", paramLabel = "BYTES", description = "sizes in bytes")
        int[] sizes;

        @Override
        public Integer call() {
            final InterleavedForms bench = new InterleavedForms(blocks, calls, warmup, warmupMs);
            try (Tutti tutti = Tutti.init()) {
                bench.run(tutti.world(), sizes, 0 == tutti.world().rank()
                    ? new PrintWriter(System.out, true, StandardCharsets.UTF_8) : null);
            }
            return 0;
        }
    }

    /**
     * Runs the benchmark.
     *
     * @param args options and sizes, see the class comment
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new Cli()).execute(args));
    }

    /**
     * Measures every size; rank 0 prints the table.
     *
     * @param world the communicator
     * @param sizes the sizes in bytes (at least one), each at least 1
     * @param out   where the table goes (rank 0), or null
     */
    public void run(final Communicator world, final int[] sizes, final PrintWriter out) {
        run(world, sizes, out, new JvmActivity()); // this rank's (one per run: a bench may serve several threads)
    }

    /** {@link #run(Communicator, int[], PrintWriter)} with this rank's view of its JVM's compilers given (tests). */
    void run(final Communicator world, final int[] sizes, final PrintWriter out, final JvmActivity jvm) {
        if (0 == sizes.length) {
            throw new IllegalArgumentException("InterleavedForms: no sizes, expected at least one");
        }
        if (null != out) {
            out.printf("# interleaved forms, %d ranks, %d blocks x %d calls per form and size in shuffled order, "
                + "%d warm-up calls and at least %d ms; us per call: median over blocks of the slowest rank's mean; "
                + "speed-up: median and quartiles of the per-block ratios%n",
                world.size(), blocks, calls, warmup, warmupNs / 1_000_000);
            out.println("| bytes | " + String.join(" | ", NAMES) + " |");
            out.println("|---:|---:|---:|---:|---:|---:|");
        }
        for (final int bytes : sizes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("InterleavedForms: bytes=" + bytes + ", expected >= 1");
            }
        }
        size(world, sizes[0], jvm); // discarded: the JIT still compiles for seconds after the first size's warm-up
        for (final int bytes : sizes) {
            final Measured m = size(world, bytes, jvm);
            final long[][] ns = m.ns();
            if (null != out) {
                if (!m.note().isEmpty()) {
                    out.printf("# %d B: %s%n", bytes, m.note());
                }
                out.printf("| %d | %.3f | %.3f %s | %.3f %s | %.3f | %.3f %s |%n", bytes, us(ns[0]), us(ns[1]),
                    speedup(ns[0], ns[1]), us(ns[2]), speedup(ns[0], ns[2]), us(ns[3]), us(ns[4]),
                    speedup(ns[3], ns[4]));
                out.flush(); // a row as each size completes
            }
        }
    }

    /** @return a form's µs per call: the median of its blocks' times */
    private double us(final long[] blockNs) {
        final long[] sorted = blockNs.clone();
        Arrays.sort(sorted);
        return (sorted[(blocks - 1) / 2] + sorted[blocks / 2]) / 2.0 / 1e3 / calls;
    }

    /** @return "(median x, first-third quartile)" of the per-block ratios: per-call form's time over the form's */
    private String speedup(final long[] perCall, final long[] form) {
        final double[] r = new double[blocks];
        for (int b = 0; b < blocks; b++) {
            r[b] = (double) perCall[b] / form[b];
        }
        Arrays.sort(r);
        return String.format("(%.2fx, %.2f-%.2f)", (r[(blocks - 1) / 2] + r[blocks / 2]) / 2, r[(blocks - 1) / 4],
            r[(3 * (blocks - 1) + 3) / 4]);
    }

    /**
     * A size's result.
     *
     * @param ns   each form's block times in ns (the slowest rank's sum per block), in {@link #NAMES} order
     * @param note what the JIT compilers did during the timed blocks (rank 0), empty if nothing worth a line
     */
    private record Measured(long[][] ns, String note) {
    }

    /**
     * Measures one size: the forms' warm-ups, then their blocks, which run again (at most
     * {@value BenchRunner#MAX_RERUNS} times) while some rank's JIT compiler threads were busy during them, as
     * {@link BenchRunner}'s timed loops do: at 64 B, the first size whose channel takes a new path (the window), the
     * compilers run during the blocks of every run on 2 and 4 ranks, and a compilation in the timed part is warm-up,
     * not the steady state the table reports. Without a timed warm-up ({@code warmupMs} 0)
     * the blocks run once and nobody looks at the compilers, as {@code tutti bench --jit-warmup 0} does.
     */
    private Measured size(final Communicator world, final int bytes, final JvmActivity jvm) {
        try (Forms f = new Forms(world, bytes)) {
            final Runnable[] forms = {f::alltoall, f::alltoallInit, f::channel, f::allreduce, f::allreduceInit};
            for (final Runnable form : forms) {
                warmUp(world, form);
            }
            final SplittableRandom shuffle = new SplittableRandom(bytes); // the same order on every rank
            final List<Double> discarded = new ArrayList<>();
            final int reruns = warmupNs > 0 ? BenchRunner.MAX_RERUNS : 0;
            while (true) {
                if (reruns > 0) {
                    jvm.markCompilers();
                }
                final long start = System.nanoTime();
                final long[][] ns = blocks(world, forms, shuffle);
                world.barrier();
                String note = "";
                if (reruns > 0) {
                    final long compilerNs = jvm.compilerNsSinceMark();
                    final boolean busy = Control.maxToRoot(world,
                        BenchRunner.busy(compilerNs, System.nanoTime() - start) ? 1 : 0) > 0;
                    final double compilerUs = Control.maxToRoot(world, compilerNs / 1e3); // busy, compilerUs: rank 0
                    if (Control.fromRoot(world, busy && discarded.size() < reruns)) {
                        discarded.add(compilerUs);
                        jvm.awaitQuiet(BenchRunner.QUIET_MS, Pacing.STANDARD.quietMaxMs()); // the compilations end first
                        world.barrier();
                        continue;
                    }
                    note = BenchRunner.compilerNote(discarded, busy ? compilerUs : 0);
                }
                f.verify();
                return new Measured(slowest(world, ns), note);
            }
        }
    }

    /** @return this rank's block times in ns per form: every form's blocks, in an order shuffled per block */
    private long[][] blocks(final Communicator world, final Runnable[] forms, final SplittableRandom shuffle) {
        final long[][] ns = new long[forms.length][blocks];
        final int[] order = new int[forms.length];
        Arrays.setAll(order, k -> k);
        for (int b = 0; b < blocks; b++) {
            for (int k = order.length - 1; k > 0; k--) {
                final int j = shuffle.nextInt(k + 1);
                final int o = order[k];
                order[k] = order[j];
                order[j] = o;
            }
            for (int k = 0; k < forms.length; k++) {
                final int form = order[k];
                world.barrier();
                for (int i = 0; i < calls; i++) {
                    final long t0 = System.nanoTime();
                    forms[form].run();
                    ns[form][b] += System.nanoTime() - t0;
                    world.barrier();
                }
            }
        }
        return ns;
    }

    /** @return the slowest rank's block times, in place of this rank's */
    private long[][] slowest(final Communicator world, final long[][] ns) {
        final long[] mine = new long[ns.length * blocks];
        for (int k = 0; k < ns.length; k++) {
            System.arraycopy(ns[k], 0, mine, k * blocks, blocks);
        }
        final long[] slowest = new long[mine.length];
        world.allreduce(Buf.of(mine), Buf.of(slowest), Op.MAX);
        for (int k = 0; k < ns.length; k++) {
            System.arraycopy(slowest, k * blocks, ns[k], 0, blocks);
        }
        return ns;
    }

    /**
     * Runs a form's warm-up calls: {@code warmup} of them, and more in rounds of {@value #WARMUP_ROUND} until rank 0
     * has spent {@code warmupNs} on them (every rank runs as many: rank 0's clock decides, by a bcast per round).
     */
    private void warmUp(final Communicator world, final Runnable form) {
        final long t0 = System.nanoTime();
        for (int i = 0; i < warmup; i++) {
            form.run();
        }
        final int[] more = {1};
        while (true) {
            more[0] = System.nanoTime() - t0 < warmupNs ? 1 : 0;
            world.bcast(Buf.of(more), 0);
            if (0 == more[0]) {
                return;
            }
            for (int i = 0; i < WARMUP_ROUND; i++) {
                form.run();
            }
        }
    }

    /** One size's buffers, requests and channel; the data written once, checked after the last call. */
    private static final class Forms implements AutoCloseable {
        private final Communicator world;
        private final int block;
        private final long[] send;
        private final long[] recv;
        private final long[] vector;
        private final long[] sum;
        /** The persistent forms' own buffers: shared with the per-call ones, they were warm when those ran last. */
        private final long[] initSend;
        private final long[] initRecv;
        private final long[] initVector;
        private final long[] initSum;
        private final PersistentRequest alltoall;
        private final PersistentRequest allreduce;
        private final AlltoallChannel channel;
        private ChannelBuffer out;
        private ChannelBuffer in;

        Forms(final Communicator world, final int bytes) {
            this.world = world;
            final int p = world.size();
            final int me = world.rank();
            block = Math.max(1, bytes / Long.BYTES);
            send = new long[p * block];
            recv = new long[p * block];
            vector = new long[block];
            sum = new long[block];
            for (int d = 0; d < p; d++) {
                for (int e = 0; e < block; e++) {
                    send[d * block + e] = value(me, d, e);
                }
            }
            for (int e = 0; e < block; e++) {
                vector[e] = value(me, 0, e);
            }
            initSend = send.clone();
            initRecv = new long[recv.length];
            initVector = vector.clone();
            initSum = new long[sum.length];
            alltoall = world.alltoallInit(Buf.of(initSend), Buf.of(initRecv));
            allreduce = world.allreduceInit(Buf.of(initVector), Buf.of(initSum), Op.SUM);
            channel = AlltoallChannel.create(world, "forms" + bytes, Datatype.LONG, block, 1,
                ChannelQos.bestEffort().confined());
            out = channel.takeSend();
            System.arraycopy(send, 0, out.longs(), 0, send.length);
        }

        static long value(final int from, final int to, final int e) {
            return from * 1_000_003L + to * 1_009L + e;
        }

        void alltoall() {
            world.alltoall(Buf.of(send), Buf.of(recv));
        }

        void alltoallInit() {
            alltoall.start();
            alltoall.waitFor();
        }

        void channel() {
            if (null != in) {
                channel.release(in);
            }
            channel.submit(out);
            in = channel.takeReceive();
            out = channel.takeSend();
        }

        void allreduce() {
            world.allreduce(Buf.of(vector), Buf.of(sum), Op.SUM);
        }

        void allreduceInit() {
            allreduce.start();
            allreduce.waitFor();
        }

        /** Runs each form once more into poisoned buffers and checks what it received. */
        void verify() {
            final int p = world.size();
            final int me = world.rank();
            check("alltoall", poisonedRun(recv, this::alltoall), p, me);
            check("alltoall_init", poisonedRun(initRecv, this::alltoallInit), p, me);
            channel();
            check("alltoall_channel", in.longs(), p, me);
            checkSum("allreduce", poisonedRun(sum, this::allreduce), p, me);
            checkSum("allreduce_init", poisonedRun(initSum, this::allreduceInit), p, me);
        }

        /** @return {@code into}, filled with -1 and then run into by {@code form} */
        private static long[] poisonedRun(final long[] into, final Runnable form) {
            Arrays.fill(into, -1);
            form.run();
            return into;
        }

        private void checkSum(final String form, final long[] sum, final int p, final int me) {
            for (int e = 0; e < block; e++) {
                long want = 0;
                for (int s = 0; s < p; s++) {
                    want += value(s, 0, e);
                }
                if (sum[e] != want) {
                    throw new IllegalStateException("InterleavedForms: " + form + " of " + block + " longs on rank "
                        + me + ": element " + e + " is " + sum[e] + ", expected " + want);
                }
            }
        }

        private void check(final String form, final long[] got, final int p, final int me) {
            for (int s = 0; s < p; s++) {
                for (int e = 0; e < block; e++) {
                    if (got[s * block + e] != value(s, me, e)) {
                        throw new IllegalStateException("InterleavedForms: " + form + " of " + block + " longs on rank "
                            + me + ": element " + e + " from rank " + s + " is " + got[s * block + e] + ", expected "
                            + value(s, me, e));
                    }
                }
            }
        }

        @Override
        public void close() {
            alltoall.close();
            allreduce.close();
            channel.close();
        }
    }
}
