package dev.tutti.testkit;

import dev.tutti.Communicator;

import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.IdleStrategy;
import dev.tutti.transport.shm.ShmConfig;
import dev.tutti.transport.shm.ShmTransport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Runs the ranks of a multi-process job as threads of this JVM ({@link RankThreads}), each wired like a separate
 * process over shm: its own engine and its own {@link ShmTransport} mapping the same job file in /dev/shm. A barrier
 * stands in for the rendezvous fence. The job file must be gone afterwards.
 */
public final class ShmJob {
    /** A rank's body, given the world communicator and the rank's shm transport. */
    @FunctionalInterface
    public interface Body {
        void run(Communicator world, ShmTransport shm) throws Exception;
    }

    private ShmJob() {
    }

    public static ShmConfig config() {
        return ShmConfig.fromConfiguration().withArena(16L << 20);
    }

    public static void run(final int n, final Body body) {
        run(n, config(), true, body);
    }

    public static void run(final int n, final ShmConfig config, final boolean finalizeAtEnd, final Body body) {
        run(n, config, finalizeAtEnd, Configuration.idleStrategy(), body);
    }

    public static void run(final int n, final ShmConfig config, final boolean finalizeAtEnd, final IdleStrategy idle,
        final Body body) {
        final String secret = HexFormat.of().formatHex(TcpJob.randomBytes(16));
        final String jobId = "test-" + ProcessHandle.current().pid();
        final Path file = Configuration.shmFile(jobId, secret);
        final CyclicBarrier fence = new CyclicBarrier(n);
        RankThreads.run("shm", n, idle, 64 * 1024, finalizeAtEnd, (rank, engine) -> {
            final ShmTransport shm = ShmTransport.join(file, jobId, rank, n, engine, config);
            fence.await(30, TimeUnit.SECONDS);
            final boolean[] local = shm.ranksOnHost();
            local[rank] = false;
            shm.start(local);
            return shm;
        }, body::run);
        if (Files.exists(file)) {
            throw new AssertionError("the job file " + file + " is still there after every rank closed");
        }
    }
}
