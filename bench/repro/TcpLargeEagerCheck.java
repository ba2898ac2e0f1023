import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.bench.osu.LauncherWorkerLauncher;

import java.time.Duration;
import java.util.List;

/**
 * Reproducer for data corruption of large eager messages over tcp (found by `tutti bench pingpong --transport tcp`
 * with -Dtutti.eager.limit=8388608): a ping-pong between two processes over the sizes 128 KiB .. 4 MiB, after a
 * 20000-round-trip warm-up at 128 KiB, checking every received message, and an 8-byte message from rank 1 to
 * rank 0 after each size (as the benchmark sends its per-rank mean). With an eager limit of 512 KiB or more,
 * rank 0 finds 16 bytes at [bytes - 40, bytes - 24) not written (still the poison) or zero, in 3 of 4 runs on
 * Temurin 25.0.3; never with -XX:TieredStopAtLevel=1 or -Djava.lang.foreign.native.threshold.power.copy=0, never
 * with the default eager limit (64 KiB). Cause (bench/history/RESULTS-diary.md): C2's compilation of the Java loop
 * that the five-argument MemorySegment.copy runs for copies under 64 bytes; fixed by transport.tcp.SegmentCopy, after
 * which this finds 0 bad messages.
 *
 * <pre>
 * mkdir -p /tmp/repro && javac -cp tutti-cli/target/tutti.jar -d /tmp/repro bench/repro/TcpLargeEagerCheck.java
 * java -Dtutti.transport=tcp -Dtutti.eager.limit=8388608 -cp tutti-cli/target/tutti.jar:/tmp/repro TcpLargeEagerCheck
 * </pre>
 * Prints one line per corrupted message and "rank R done, N bad messages"; exit status 0 either way.
 */
public final class TcpLargeEagerCheck {
    private static final int WARMUP_BYTES = 128 * 1024;
    private static final int MAX_BYTES = 4 << 20;
    private static final int CONTROL_TAG = 77;

    private TcpLargeEagerCheck() {
    }

    /**
     * Without a job environment, launches itself on 2 ranks; as a rank, runs the check.
     *
     * @param args none
     */
    public static void main(final String[] args) {
        if (null == System.getenv("TUTTI_RANK")) {
            System.exit(new LauncherWorkerLauncher().launch(2, TcpLargeEagerCheck.class.getName(), List.of(args),
                Duration.ofMinutes(5)));
        }
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final int me = w.rank();
            final int peer = 1 - me;
            final byte[] send = new byte[MAX_BYTES];
            final byte[] recv = new byte[MAX_BYTES];
            final double[] one = new double[1];
            fill(send, WARMUP_BYTES, me);
            w.barrier();
            for (int i = 0; i < 20_000; i++) {
                exchange(w, me, send, recv, WARMUP_BYTES);
            }
            int bad = 0;
            for (int bytes = WARMUP_BYTES; bytes <= MAX_BYTES; bytes *= 2) {
                fill(send, bytes, me);
                w.barrier();
                for (int it = 0; it < 210; it++) {
                    for (int i = 0; i < bytes; i++) {
                        recv[i] = (byte) ~at(bytes, peer, i);
                    }
                    exchange(w, me, send, recv, bytes);
                    bad += check(me, peer, recv, bytes, it);
                }
                // As the benchmark's maximum-to-rank-0: an 8-byte message right behind the last large one.
                if (1 == me) {
                    w.send(Buf.of(one), 0, CONTROL_TAG);
                } else {
                    w.recv(Buf.of(one), 1, CONTROL_TAG);
                }
            }
            System.out.printf("rank %d done, %d bad messages%n", me, bad);
        }
    }

    private static byte at(final int bytes, final int sender, final int index) {
        return (byte) (index * 31 + (index >>> 8) + bytes * 7 + sender * 13 + 1);
    }

    private static void fill(final byte[] a, final int bytes, final int sender) {
        for (int i = 0; i < bytes; i++) {
            a[i] = at(bytes, sender, i);
        }
    }

    private static void exchange(final Communicator w, final int me, final byte[] send, final byte[] recv,
        final int bytes) {
        final int peer = 1 - me;
        if (0 == me) {
            w.send(Buf.of(send, 0, bytes), peer, 1);
            w.recv(Buf.of(recv, 0, bytes), peer, 1);
        } else {
            w.recv(Buf.of(recv, 0, bytes), peer, 1);
            w.send(Buf.of(send, 0, bytes), peer, 1);
        }
    }

    private static int check(final int me, final int peer, final byte[] recv, final int bytes, final int it) {
        int first = -1;
        int last = -1;
        int wrong = 0;
        for (int i = 0; i < bytes; i++) {
            if (recv[i] != at(bytes, peer, i)) {
                if (first < 0) {
                    first = i;
                }
                last = i;
                wrong++;
            }
        }
        if (0 == wrong) {
            return 0;
        }
        System.out.printf("rank %d bytes=%d message %d: %d wrong bytes in [%d, %d] (bytes - %d), first 0x%02x, "
            + "poison 0x%02x%n", me, bytes, it, wrong, first, last, bytes - first, recv[first],
            (byte) ~at(bytes, peer, first));
        return 1;
    }
}
