import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;

import java.util.Arrays;

/**
 * Per-call collectives against their build-once forms, side by side in one job: allreduce and alltoall of longs,
 * persistent requests with their messages through the message layer ({@code tutti.coll.directLimit=0}) and with the
 * default (through slots where the ranks share memory, up to the limit), and an alltoall channel (ring depth 1).
 * Every form runs in turn, a batch of calls each, many batches; the best batch of each form is printed (on
 * a shared machine the best batch is the one least disturbed by other processes). Run it as a job of processes
 * (over shared memory) or, with {@code local}, as ranks that are threads of this JVM:
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/forms bench/PersistentForms.java
 * bin/tutti run -n 2 -cp /tmp/forms PersistentForms            # processes over shm
 * java -cp /tmp/forms:tutti-cli/target/tutti.jar PersistentForms local 2
 * bin/tutti run -n 2 -cp /tmp/forms PersistentForms touch sizes=1024,65536
 * </pre>
 *
 * With {@code touch}, every call first writes its send data (the channel its send buffer), as a program that
 * computes them each time does; otherwise the data is written once, as in the OSU benchmarks, and a path in which
 * the receiver reads the sender's memory (the channel's large blocks out of the arena) finds it still in its own
 * cache from the call before.
 */
public final class PersistentForms {
    private static final int BATCH = 2000;
    private static final int BATCHES = 60;
    private static final int[] DEFAULT_SIZES = {8, 32, 64, 256, 1024};
    /** Whether every call first writes its send data, as a program that computes it each time does. */
    private static boolean touch;
    private static int[] sizes = DEFAULT_SIZES;
    private static long stamp;
    private static final String LIMIT = "tutti.coll.directLimit";
    private static final String[] NAMES = {"allreduce", "allreduce_init(layer)", "allreduce_init", "alltoall",
        "alltoall_init(layer)", "alltoall_init", "alltoall_channel"};
    /** Per form, the per-call form it is compared with (its index), or -1. */
    private static final int[] VERSUS = {-1, 0, 0, -1, 3, 3, 3};

    private PersistentForms() {
    }

    public static void main(final String[] args) throws Exception {
        for (final String a : args) {
            touch |= "touch".equals(a);
            if (a.startsWith("sizes=")) {
                sizes = Arrays.stream(a.substring(6).split(",")).mapToInt(Integer::parseInt).toArray();
            }
        }
        if (args.length > 0 && "local".equals(args[0])) {
            Tutti.runLocal(Integer.parseInt(args[1]), PersistentForms::run);
        } else {
            try (Tutti t = Tutti.init()) {
                run(t.world());
            }
        }
    }

    private static void run(final Communicator w) {
        final int n = w.size();
        for (final int bytes : sizes) {
            final long[] x = new long[bytes / 8];
            final long[] y = new long[x.length];
            final long[] s = new long[x.length * n];
            final long[] r = new long[s.length];
            // The setting is read at each ...Init and must be the same on every rank: each sets it between barriers
            // (threads of one JVM share the property and set the same value).
            final PersistentRequest[] layer = inits(w, "0", x, y, s, r);
            final PersistentRequest[] slots = inits(w, "-1", x, y, s, r);
            final AlltoallChannel channel = AlltoallChannel.create(w, "forms", Datatype.LONG, x.length, 1,
                ChannelQos.bestEffort().confined()); // used by this rank's thread alone
            final ChannelBuffer[] held = {channel.takeSend(), null};
            final Runnable[] forms = {
                () -> w.allreduce(Buf.of(written(x)), Buf.of(y), Op.SUM),
                () -> run(layer[0], x),
                () -> run(slots[0], x),
                () -> w.alltoall(Buf.of(written(s)), Buf.of(r)),
                () -> run(layer[1], s),
                () -> run(slots[1], s),
                () -> exchange(channel, held)};
            final double[] best = new double[forms.length];
            Arrays.fill(best, Double.MAX_VALUE);
            for (int b = 0; b < BATCHES; b++) {
                for (int f = 0; f < forms.length; f++) {
                    w.barrier();
                    final long t0 = System.nanoTime();
                    for (int i = 0; i < BATCH; i++) {
                        forms[f].run();
                    }
                    best[f] = Math.min(best[f], (System.nanoTime() - t0) / 1e3 / BATCH);
                }
            }
            if (0 == w.rank()) {
                final StringBuilder line = new StringBuilder(n + " ranks, " + bytes + " B, best us per call"
                    + " (per call / form):");
                for (int f = 0; f < forms.length; f++) {
                    line.append(String.format(" %s %.3f", NAMES[f], best[f]));
                    if (VERSUS[f] >= 0) {
                        line.append(String.format(" (%.2fx)", best[VERSUS[f]] / best[f]));
                    }
                }
                System.out.println(line);
                System.out.println("  " + slots[0]);
            }
            if (null != held[1]) {
                channel.release(held[1]);
            }
            channel.close();
            for (final PersistentRequest p : layer) {
                p.free();
            }
            for (final PersistentRequest p : slots) {
                p.free();
            }
        }
    }

    private static PersistentRequest[] inits(final Communicator w, final String limit, final long[] x,
        final long[] y, final long[] s, final long[] r) {
        w.barrier();
        System.setProperty(LIMIT, limit);
        w.barrier();
        final PersistentRequest[] p = {w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM), w.alltoallInit(Buf.of(s),
            Buf.of(r))};
        w.barrier();
        return p;
    }

    /** One exchange of a depth-1 channel: the previous receive buffer released, the send buffer submitted. */
    private static void exchange(final AlltoallChannel channel, final ChannelBuffer[] held) {
        if (touch) {
            held[0].buf().segment().fill((byte) ++stamp);
        }
        if (null != held[1]) {
            channel.release(held[1]);
        }
        channel.submit(held[0]);
        held[1] = channel.takeReceive();
        held[0] = channel.takeSend();
    }

    /** @return {@code a}, written first when {@code touch} is on */
    private static long[] written(final long[] a) {
        if (touch) {
            Arrays.fill(a, ++stamp);
        }
        return a;
    }

    private static void run(final PersistentRequest p, final long[] send) {
        written(send);
        p.start();
        p.waitFor();
    }
}
