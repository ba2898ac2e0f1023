import dev.tutti.Buf;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.Configuration;
import dev.tutti.transport.Transport;
import dev.tutti.transport.shm.ShmConfig;
import dev.tutti.transport.shm.ShmTransport;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

/**
 * The processor's share of a small message over shared memory, without the line transfers between cores: one thread
 * drives the engines and shm transports of two ranks mapping one job file, and times in thread CPU time (which a
 * loaded machine's other processes do not inflate) the engine's blocking send and receive, a message each way per
 * round trip, and an empty poll; the best of 7 passes. What it reports is the work on a ping-pong's path that the
 * machine's coherence traffic comes on top of; compare builds by running it against each one's jar, alternating:
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/hot bench/ShmHotPath.java
 * java --enable-native-access=ALL-UNNAMED -cp /tmp/hot:tutti-cli/target/tutti.jar ShmHotPath 8 2000000
 * </pre>
 */
public final class ShmHotPath {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private ShmHotPath() {
    }

    public static void main(final String[] args) throws Exception {
        final int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        final int n = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        final String jobId = "hotpath-" + ProcessHandle.current().pid();
        final Path file = Configuration.shmFile(jobId, "00112233445566778899aabbccddeeff");
        final ShmConfig config = ShmConfig.fromConfiguration();
        final P2pEngine[] engine = new P2pEngine[2];
        final ShmTransport[] shm = new ShmTransport[2];
        for (int r = 0; r < 2; r++) {
            engine[r] = new P2pEngine(r, 2, Configuration.idleStrategy());
            shm[r] = ShmTransport.join(file, jobId, r, 2, engine[r], config);
        }
        for (int r = 0; r < 2; r++) {
            final boolean[] peers = {r != 0, r != 1};
            shm[r].start(peers);
            engine[r].connect(new Transport[] {shm[r], shm[r]});
        }
        final CommView view = CommView.ofWorldRanks("hotpath");
        final Buf out = Buf.of(new byte[size]);
        final Buf in = Buf.of(new byte[size]);
        final int context = 5;
        final int tag = 3;
        double bestMessage = Double.MAX_VALUE;
        double bestPoll = Double.MAX_VALUE;
        for (int pass = 0; pass < 7; pass++) {
            final long t0 = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                engine[0].send(context, 1, tag, out);
                engine[1].recv(context, 0, tag, in, view);
                engine[1].send(context, 0, tag, out);
                engine[0].recv(context, 1, tag, in, view);
            }
            final long t1 = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                engine[0].progress();
            }
            final long t2 = CPU.getCurrentThreadCpuTime();
            bestMessage = Math.min(bestMessage, (t1 - t0) / (2.0 * n));
            bestPoll = Math.min(bestPoll, (t2 - t1) / (double) n);
        }
        System.out.printf("%d B: send + receive %.1f ns per message, empty poll %.1f ns (thread CPU time, best of 7)%n",
            size, bestMessage, bestPoll);
        shm[0].close();
        shm[1].close();
    }
}
